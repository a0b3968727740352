/* CUDA border tracking (cuda/contours/contours.cu; cuda/contours/none_contours.c without CUDA):
 * the same borders, points, order and hierarchy as pt_contours_find_seq.
 * Tiles are traced on the GPU, one thread each (count pass, then write pass
 * into compact pieces: a header and one byte per state), pieces are joined
 * across tile sides, the pieces of borders (cycles that examine a zero, found
 * by pointer jumping) compacted and assembled into chain codes in OpenCV's
 * order on the GPU (lib/contours/contours_borders.h); the host writes the
 * points and, for CCOMP/TREE, the hierarchy (lib/contours/contours_chains.c). */
#ifndef PT_CUDA_CONTOURS_H
#define PT_CUDA_CONTOURS_H

#include "lib/contours/contours.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device buffers and pinned staging kept between calls (grown as needed). */
typedef struct pt_cuda_contours pt_cuda_contours;

/* Milliseconds of the last pt_cuda_contours_find, by phase. */
typedef pt_contours_times pt_cuda_contours_times;

/* PT_ERR_UNAVAILABLE when built without CUDA or no GPU is usable. */
pt_status pt_cuda_contours_create(pt_cuda_contours **ctx, pt_error *err);
void pt_cuda_contours_destroy(pt_cuda_contours *ctx);

/* tile: power-of-two tile side, <= 0 picks one (pt_contours_gpu_tile);
 * threads: OpenMP threads of the host's part, <= 0 all. */
pt_status pt_cuda_contours_find(pt_cuda_contours *ctx, const pt_image *img, int threshold,
                                int mode, int approx, int tile, int threads,
                                pt_contours *out, pt_error *err);
void pt_cuda_contours_last_times(const pt_cuda_contours *ctx, pt_cuda_contours_times *t);

#ifdef __cplusplus
}
#endif

#endif
