/* Raw frame stacks: NumPy .npy files (uint8 or uint16, 2-D one frame or 3-D
 * frames x height x width, C order) and headerless .raw files (frames of
 * WxH samples, 8-bit or 16-bit little-endian, one after the other). Files
 * are memory-mapped; a frame is read where it lies. Frame i of FILE is named
 * FILE#i (pupiltrack(1), INPUTS). */
#ifndef PT_STACK_H
#define PT_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/io/pt_image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int width, height;
    long count;           /* frames */
    int depth;            /* 8 or 16 bits a sample */
    int big_endian;       /* 16-bit samples stored big-endian */
    const uint8_t *data;  /* the first frame; frames follow without gaps */
    size_t frame_bytes;   /* width * height * depth / 8 */
    void *map;            /* the mapping, or NULL (a memory buffer) */
    size_t map_size;
} pt_stack;

/* .npy or .raw by the name's extension (any case); 0 otherwise. */
int pt_stack_path_kind(const char *path); /* 0, 'n' (.npy) or 'r' (.raw) */
/* The file is a NumPy array (by content). */
int pt_stack_is_npy(const uint8_t *data, size_t size);

/* Map FILE.npy. err->file = path. */
pt_status pt_stack_open_npy(const char *path, pt_stack *s, pt_error *err);
/* Map FILE.raw of frames width x height at depth 8 or 16 (little-endian);
 * its size must be a whole number of frames. */
pt_status pt_stack_open_raw(const char *path, int width, int height, int depth, pt_stack *s,
                            pt_error *err);
/* The same from memory (data stays the caller's; used by the fuzzers). */
pt_status pt_stack_parse_npy(const uint8_t *data, size_t size, const char *name, pt_stack *s,
                             pt_error *err);
pt_status pt_stack_parse_raw(const uint8_t *data, size_t size, const char *name, int width,
                             int height, int depth, pt_stack *s, pt_error *err);
/* FILE.raw with opt's raw_width, raw_height and raw_depth (default 8),
 * else FILE as .npy. */
pt_status pt_stack_open(const char *path, const pt_load_options *opt, pt_stack *s,
                        pt_error *err);
void pt_stack_close(pt_stack *s);

/* Frame index as an 8-bit image of its own: 16-bit samples v become
 * min(255, v >> (significant_bits - 8)). NULL when out of memory. */
pt_image *pt_stack_frame(const pt_stack *s, long index, int significant_bits);

/* A stack's frames as pt_image_load gives them: all, or only opt->page. */
pt_status pt_stack_frames(const pt_stack *s, const pt_load_options *opt, const char *name,
                          pt_frames *out, pt_error *err);
/* The frames of FILE (.npy, or .raw with opt's raw_width, raw_height and
 * raw_depth), mapped and read as pt_stack_frames does. */
pt_status pt_stack_load(const char *path, const pt_load_options *opt, pt_frames *out,
                        pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
