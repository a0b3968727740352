/* The CUDA contours pipeline run on the CPU (tests), and the tile side the
 * CUDA back end picks. Tracing: lib/contours/contours_tile.h; border
 * assembly: lib/contours/contours_borders.h; the host's part:
 * lib/contours/contours_chains.h. */
#ifndef PT_CONTOURS_PIECES_H
#define PT_CONTOURS_PIECES_H

#include "lib/contours/contours.h"
#include "lib/contours/contours_tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The whole CUDA pipeline run on the CPU with the kernels' own functions
 * (binarize, count pass, prefix sums, write pass, join, pointer jumping,
 * compaction, border assembly, chains to contours), one tile, piece or
 * border after another. Checks the GPU
 * algorithm where no GPU is present. */
pt_status pt_contours_find_emulated(const pt_image *img, int threshold, int mode, int approx,
                                    int tile, pt_contours *out, pt_error *err);

/* Tile side the CUDA back end uses for an image (a power of two, 8..64). */
int pt_contours_gpu_tile(int width, int height);

#ifdef __cplusplus
}
#endif

#endif
