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

/* pt_contours_find_tiled that also fills *times when it succeeds (NULL: not
 * timed): phases preprocess (padded 0/1 image, work buffers), trace (pieces
 * per rectangle, in parallel), connect (pieces joined across rectangle
 * sides, the cycles that are borders kept) and assemble (start points,
 * OpenCV's order, the points and, for CCOMP/TREE, the hierarchy), and the
 * total. */
pt_status pt_contours_find_tiled_timed(const pt_image *img, int threshold, int mode, int approx,
                                       int threads, int tile, pt_contours *out,
                                       pt_contours_times *times, pt_error *err);

#endif
