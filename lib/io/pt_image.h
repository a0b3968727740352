/* Grey 8-bit images and the loaders/writers for PNG, TIFF and PGM. */
#ifndef PT_IMAGE_H
#define PT_IMAGE_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

#include "lib/core/pt_error.h"

/* Row-major 8-bit grey image; row y starts at buf + y*stride. */
typedef struct {
    int width, height, stride;
    uint8_t *buf;
} pt_image;

/* Largest accepted side and pixel count (bad-input guard). */
#define PT_IMAGE_MAX_SIDE 65536
#define PT_IMAGE_MAX_PIXELS (512LL * 1024 * 1024)

/* Zero-filled image, stride = width rounded up to 64 bytes; NULL on failure. */
pt_image *pt_image_create(int width, int height);
pt_image *pt_image_copy(const pt_image *src);
/* 1 when a and b have the same size and the same grey levels, else 0. */
int pt_image_same_pixels(const pt_image *a, const pt_image *b);
void pt_image_destroy(pt_image *img);

/* A file may hold several frames (multi-page TIFF). With
 * pt_load_options.page_errors a page that cannot be decoded leaves
 * frames[i] NULL and its reason in page_errors[i]; page_errors is NULL
 * while every page decoded. */
typedef struct {
    int count;
    pt_image **frames;
    pt_error *page_errors;
} pt_frames;

typedef struct {
    /* 16-bit samples are reduced to 8 bits as v >> (significant_bits - 8),
     * clamped to 255; 16 (the default) keeps the top byte. Range 8..16. */
    int significant_bits;
    /* 1 (the default): while significant_bits is 16, a 16-bit file that
     * declares fewer significant bits uses its own count instead: PNG sBIT
     * (when every sample fits in that many bits; larger samples are scaled
     * to 16 bits as the PNG standard asks, and keep the top byte), TIFF
     * MaxSampleValue, PGM maxval. 0: significant_bits alone decides (an
     * explicit --bits). */
    int bits_from_file;
    /* -1: all pages; otherwise only this page (0-based) of a multi-page file. */
    int page;
    /* Headerless .raw stacks (pt_stack.h): frame size and bits a sample
     * (8 or 16, little-endian); 0 = not given. */
    int raw_width, raw_height, raw_depth;
    /* 1: a bad page of a multi-page file is recorded in pt_frames.page_errors
     * and the other pages still load; 0 (the default): the file fails. A file
     * whose only page is bad fails either way. */
    int page_errors;
    /* >= 1: every grey level times this, at most 255 (1, the default: as
     * read); 0: a dark file's grey levels are stretched, the gain set by its
     * first frame (lib/io/frame_gain.h; the command line's default). */
    double gain;
} pt_load_options;

void pt_load_options_default(pt_load_options *opt);

/* Load PNG, TIFF, PGM (P5) or NumPy .npy, detected by content (magic bytes),
 * not by name; a name ending in .npy or .raw is read as a stack (pt_stack.h).
 * On failure returns non-zero, fills err (file = path), and out stays empty. */
pt_status pt_image_load(const char *path, const pt_load_options *opt,
                        pt_frames *out, pt_error *err);
/* Same, from a memory buffer (used by fuzzers); name is used in messages. */
pt_status pt_image_load_memory(const uint8_t *data, size_t size, const char *name,
                               const pt_load_options *opt, pt_frames *out,
                               pt_error *err);
void pt_frames_free(pt_frames *frames);

/* Writers: 8-bit grey PNG, 8-bit RGB PNG (rgb holds width*height*3 bytes). */
pt_status pt_png_write_grey(const char *path, const pt_image *img, pt_error *err);
pt_status pt_png_write_rgb(const char *path, int width, int height,
                           const uint8_t *rgb, pt_error *err);
/* 8-bit grey PGM (P5) writer. */
pt_status pt_pgm_write(const char *path, const pt_image *img, pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
