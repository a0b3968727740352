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

/* How a TIFF page is read (stack_tiff.c). */
typedef enum {
    PT_PAGE_IN_PLACE = 1, /* 8-bit grey, uncompressed, one run: handed on where it lies */
    PT_PAGE_CONVERT,      /* uncompressed in one run, 16-bit or colour: converted from there */
    PT_PAGE_LIBTIFF,      /* compressed, tiled, strips apart, ...: decoded by libtiff */
    PT_PAGE_BAD,          /* uncompressed, but its pixels do not fit in the file or strips */
    PT_PAGE_NO_DIRECTORY, /* the page's directory lies outside the file (a cut file) */
    PT_PAGE_LOOP          /* the directory is an earlier page's: the chain loops */
} pt_page_read;

typedef struct {
    uint64_t ifd;           /* the page's directory */
    uint64_t offset;        /* its first pixel byte (IN_PLACE, CONVERT, BAD) */
    uint64_t need, held;    /* bytes its pixels take; bytes its strips hold */
    int width, height;      /* 0 when the page has none that can be read here */
    int samples, bits;      /* per pixel; 8 or 16 bits a sample */
    int colour, invert, big_endian;
    int has_max_sample;     /* MaxSampleValue given: max_sample */
    unsigned max_sample;
    pt_page_read read;
} pt_tiff_page;

typedef struct {
    int width, height;    /* the first frame's (a TIFF's pages may differ) */
    long count;           /* frames */
    int depth;            /* 8 or 16 bits a sample */
    int big_endian;       /* 16-bit samples stored big-endian */
    const uint8_t *data;  /* the first frame; frames follow without gaps */
    size_t frame_bytes;   /* width * height * depth / 8 */
    void *map;            /* the mapping, or NULL (a memory buffer) */
    size_t map_size;
    pt_tiff_page *pages;  /* TIFF: one entry a page (count); NULL for .npy/.raw */
    size_t data_size;     /* TIFF: bytes of the whole file at data */
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

/* The page table of a TIFF file in memory (data stays the caller's). Fails
 * only when the header or the first directory cannot be read; a later page
 * that cannot be read is kept as a page whose read says why. */
pt_status pt_stack_parse_tiff(const uint8_t *data, size_t size, const char *name, pt_stack *s,
                              pt_error *err);
/* FILE mapped: a TIFF (by content) as pt_stack_parse_tiff, a .raw (by name)
 * with opt's raw_width, raw_height and raw_depth, else a .npy. For a TIFF,
 * *tiff is set; a file named .tif that is not one, or whose first directory
 * cannot be read, fails with PT_ERR_FORMAT and is left to pt_image_load. */
pt_status pt_stack_open_file(const char *path, const pt_load_options *opt, pt_stack *s,
                             int *tiff, pt_error *err);

/* Frame index where it lies, without a copy, when it is 8-bit grey as
 * stored: fills *view (stride = width, buf inside the stack's data; never
 * to be freed or written) and returns 1; 0 otherwise. */
int pt_stack_frame_in_place(const pt_stack *s, long index, pt_image *view);
/* Frame index as an image of its own, as pt_image_load gives it (16-bit
 * samples reduced with opt's significant_bits and bits_from_file, colour to
 * grey, pages libtiff must decode decoded by it); a page that cannot be read
 * fails with its reason. err->file = name. */
pt_status pt_stack_read_frame(const pt_stack *s, long index, const pt_load_options *opt,
                              const char *name, pt_image **out, pt_error *err);
/* The reason TIFF page index (read PT_PAGE_BAD, _NO_DIRECTORY or _LOOP)
 * cannot be read. */
pt_status pt_stack_tiff_page_error(const pt_stack *s, long index, const char *name,
                                   pt_error *err);

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
