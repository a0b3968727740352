/* The OpenMP back end's preprocessing (pupiltrack(1), PARAMETERS): corneal-reflection
 * mask and removal (Aydi et al.: top-hat, threshold, dilate, inverse-distance
 * fill), then Gaussian or median smoothing. All images are 8-bit grey with
 * their own stride; outputs go into caller-provided buffers; scratch comes
 * from an arena so steady-state frames never call malloc. */
#ifndef PT_OMP_PREPROCESS_H
#define PT_OMP_PREPROCESS_H

#include <stdint.h>

#include "lib/core/pt_arena.h"
#include "lib/core/pt_clones.h"
#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"

/* morphology.c: grey erosion (min) / dilation (max) over a k x k square, k
 * odd >= 1, pixels outside the image ignored. Rows by doubling (log2 k + 1
 * vectorised passes), columns by van Herk/Gil-Werman (O(1) per pixel). src
 * and dst may be the same buffer. scratch: at least pt_morph_scratch_bytes(w, h, k) bytes. */
size_t pt_morph_scratch_bytes(int width, int height, int k);
void pt_erode(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width,
              int height, int k, void *scratch);
void pt_dilate(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride,
               int width, int height, int k, void *scratch);

/* reflection.c: mask[y*stride+x] = 1 where (image - opening_k) > threshold,
 * then dilated by a dilate x dilate square (dilate <= 1: none). Returns the
 * number of masked pixels. scratch: pt_reflection_scratch_bytes(...). */
size_t pt_reflection_scratch_bytes(int width, int height, int kernel, int dilate);
long pt_reflection_mask(const pt_image *img, int kernel, int threshold, int dilate,
                        uint8_t *mask, int mask_stride, void *scratch);
/* Replace masked pixels of img (in place) by the inverse-distance-weighted
 * mean of the nearest unmasked pixel left, right, above and below (searched
 * up to max_search px), so no edge is left inside the pupil. Pixels with no
 * unmasked neighbour within reach keep their value. O(1) per pixel;
 * scratch: pt_reflection_fill_scratch_bytes(width, height) bytes. */
size_t pt_reflection_fill_scratch_bytes(int width, int height);
void pt_reflection_fill(pt_image *img, const uint8_t *mask, int mask_stride,
                        int max_search, void *scratch);
/* The same fill without touching src: each row with a masked pixel is
 * written, filled, to out (row y at out + y*out_stride) and rows[y] points
 * at it; every other rows[y] points at src's row. */
void pt_reflection_fill_rows(const pt_image *src, const uint8_t *mask, int mask_stride,
                             int max_search, uint8_t *out, int out_stride, const uint8_t **rows,
                             void *scratch);

/* smooth.c: separable Gaussian (size odd, sigma > 0) and median (Huang sliding
 * histogram), borders replicated. src and dst must not overlap. */
size_t pt_gaussian_scratch_bytes(int width, int height, int size);
void pt_gaussian(const pt_image *src, pt_image *dst, int size, double sigma,
                 void *scratch);
/* The same Gaussian of the image whose row y is rows[y] (width x height). */
void pt_gaussian_rows(const uint8_t *const *rows, int width, int height, pt_image *dst,
                      int size, double sigma, void *scratch);
void pt_median(const pt_image *src, pt_image *dst, int size);
void pt_median_rows(const uint8_t *const *rows, int width, int height, pt_image *dst, int size);

/* preprocess.c: the whole pipeline per the params. smoothed must be
 * src-sized; mask (stride smoothed->stride) receives the reflection mask
 * unless reflection is off (then it is left untouched and *mask_valid = 0). */
pt_status pt_preprocess(const pt_image *src, const pt_preprocess_params *pre,
                        int reflection_kernel, int reflection_dilate, pt_image *smoothed,
                        uint8_t *mask, int *mask_valid, pt_arena *arena, pt_error *err);

/* Centre of the darkest (block x block)-ish window of img inside the region
 * (x0,y0,w,h): a start point for Starburst that lies inside the pupil. */
pt_point pt_darkest_point(const pt_image *img, int x0, int y0, int w, int h, int block,
                          pt_arena *arena);

#endif
