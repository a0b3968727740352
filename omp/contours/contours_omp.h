/* Border tracking on OpenMP threads: rectangles traced in parallel, pieces
 * joined across sides; the result equals pt_contours_find_seq. */
#ifndef PT_OMP_CONTOURS_H
#define PT_OMP_CONTOURS_H

#include "lib/contours/contours.h"

/* threads <= 0: OpenMP's default. */
pt_status pt_contours_find_omp(const pt_image *img, int threshold, int mode, int approx,
                               int threads, pt_contours *out, pt_error *err);

/* pt_contours_find_omp with an explicit tile side (a power of two >= 1);
 * tile <= 0 picks one from the image size. For tests and benchmarks. */
pt_status pt_contours_find_tiled(const pt_image *img, int threshold, int mode, int approx,
                                 int threads, int tile, pt_contours *out, pt_error *err);

#endif
