/* Internal to the image loaders: the per-format decoders and the helpers they
 * share. Not part of the public API (see pt_image.h). */
#ifndef PT_IMAGE_DECODE_H
#define PT_IMAGE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/io/pt_image.h"

/* Each decoder reads data[0..size), appends frames to out (empty on entry) and
 * on failure fills err with file = name; the caller frees out on failure. */
pt_status pt_png_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err);
pt_status pt_tiff_decode(const uint8_t *data, size_t size, const char *name,
                         const pt_load_options *opt, pt_frames *out, pt_error *err);
pt_status pt_pgm_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err);
/* One page of a TIFF, the one whose directory is at byte ifd (page: its
 * number, for messages), as pt_tiff_decode decodes it. */
pt_status pt_tiff_decode_page(const uint8_t *data, size_t size, const char *name, uint64_t ifd,
                              int page, const pt_load_options *opt, pt_image **out,
                              pt_error *err);
/* A NumPy .npy stack in memory (stack_npy.c). */
pt_status pt_npy_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err);

/* Rejects zero, negative or oversized dimensions before anything is allocated. */
pt_status pt_image_check_size(long long width, long long height, const char *name,
                              pt_error *err);

/* Takes ownership of img (destroyed on failure). */
pt_status pt_frames_append(pt_frames *frames, pt_image *img, const char *name,
                           pt_error *err);

/* Appends a page that could not be decoded: frame NULL, its error kept in
 * frames->page_errors (pt_load_options.page_errors). */
pt_status pt_frames_append_error(pt_frames *frames, const pt_error *page_error,
                                 const char *name, pt_error *err);

/* Significant bits of samples whose largest value is max_value (8..16):
 * 4095 -> 12. */
int pt_bits_of_max(unsigned long max_value);

/* How one decoded row is laid out, for pt_row_to_grey. */
typedef struct {
    int samples;    /* samples per pixel in the source row (1..4) */
    int bits;       /* 8 or 16 */
    int colour;     /* the first three samples are R, G, B */
    int big_endian; /* 16-bit samples are big-endian bytes (else host order) */
    int invert;     /* min-is-white: 0 is white */
    int shift;      /* 16-bit reduction: v >> shift, clamped to 255 */
} pt_row_format;

/* Grey value of each pixel: the first sample, or Rec.601 luma
 * (0.299 R + 0.587 G + 0.114 B, rounded) for colour; extra samples (alpha)
 * are ignored. */
void pt_row_to_grey(const uint8_t *src, const pt_row_format *fmt, int width,
                    uint8_t *dst);

#endif
