#include "lib/core/pt_arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pt_arena_block {
    pt_arena_block *next;
    size_t size, used;
    unsigned char *data;
};

#define ARENA_ALIGN 64
#define ARENA_MIN_BLOCK ((size_t)1 << 20)

void pt_arena_init(pt_arena *arena)
{
    arena->blocks = NULL;
    arena->total = 0;
}

static pt_arena_block *block_new(size_t size)
{
    pt_arena_block *b = malloc(sizeof *b);
    if (!b)
        return NULL;
    b->data = aligned_alloc(ARENA_ALIGN, size);
    if (!b->data) {
        free(b);
        return NULL;
    }
    b->size = size;
    b->used = 0;
    b->next = NULL;
    return b;
}

void *pt_arena_alloc(pt_arena *arena, size_t bytes)
{
    size_t need = (bytes + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (need == 0)
        need = ARENA_ALIGN;
    pt_arena_block *b = arena->blocks;
    if (!b || b->size - b->used < need) {
        size_t size = need > ARENA_MIN_BLOCK ? need : ARENA_MIN_BLOCK;
        if (b && size < b->size * 2)
            size = b->size * 2;
        size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
        pt_arena_block *nb = block_new(size);
        if (!nb)
            return NULL;
        nb->next = b;
        arena->blocks = nb;
        arena->total += size;
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    return p;
}

void *pt_arena_calloc(pt_arena *arena, size_t bytes)
{
    void *p = pt_arena_alloc(arena, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

void pt_arena_reset(pt_arena *arena)
{
    pt_arena_block *b = arena->blocks;
    if (!b)
        return;
    if (!b->next) {
        b->used = 0;
        return;
    }
    /* Several blocks: replace them by one that holds them all. */
    size_t total = arena->total;
    pt_arena_free(arena);
    pt_arena_block *nb = block_new(total);
    if (nb) {
        arena->blocks = nb;
        arena->total = total;
    }
}

void pt_arena_free(pt_arena *arena)
{
    pt_arena_block *b = arena->blocks;
    while (b) {
        pt_arena_block *next = b->next;
        free(b->data);
        free(b);
        b = next;
    }
    arena->blocks = NULL;
    arena->total = 0;
}
