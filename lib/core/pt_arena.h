/* Scratch memory for one worker: a bump allocator that is reset per frame,
 * so hot loops never call malloc once the arena has grown to its working size. */
#ifndef PT_ARENA_H
#define PT_ARENA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_arena_block pt_arena_block;

typedef struct {
    pt_arena_block *blocks; /* newest first */
    size_t total;           /* bytes reserved in all blocks */
} pt_arena;

void pt_arena_init(pt_arena *arena);
/* 64-byte aligned, uninitialised; NULL only when the system is out of memory. */
void *pt_arena_alloc(pt_arena *arena, size_t bytes);
/* Same, zero-filled. */
void *pt_arena_calloc(pt_arena *arena, size_t bytes);
/* Forget all allocations; after a reset the arena is one block big enough for
 * everything allocated before it, so steady-state frames do not allocate. */
void pt_arena_reset(pt_arena *arena);
void pt_arena_free(pt_arena *arena);

#ifdef __cplusplus
}
#endif

#endif
