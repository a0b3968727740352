/* From joined border pieces (lib/contours/contours_tile.h, traced on the GPU or by the
 * CPU emulation of its kernels) to OpenCV's contours: closed cycles that
 * examine a zero become borders, each rotated to OpenCV's start state,
 * numbered in OpenCV's discovery order, written out, and given OpenCV's
 * hierarchy (CCOMP/TREE replay OpenCV's scan with the borders' labels). */
#ifndef PT_CONTOURS_PIECES_H
#define PT_CONTOURS_PIECES_H

#include "lib/contours/contours.h"
#include "lib/contours/contours_tile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const pt_cpiece *pieces; /* next set by the join; tiles' pieces in tile order */
    int64_t count;
    const uint8_t *dirs;     /* one direction byte per state */
    int width, height;       /* image size (padded step = width + 2) */
} pt_contour_pieces;

/* img and threshold decide the foreground (start directions); lab is the
 * padded binarized image (pt_contours_binarize) for CCOMP/TREE, else may be
 * NULL. lab is modified (labels). threads <= 0: OpenMP's default. */
pt_status pt_contours_assemble(const pt_contour_pieces *pc, const pt_image *img,
                               int threshold, int8_t *lab, int mode, int approx, int threads,
                               pt_contours *out, pt_error *err);

/* The whole CUDA pipeline run on the CPU with the kernels' own functions
 * (binarize, count pass, prefix sums, write pass, join, pointer jumping,
 * compaction, assemble), one tile or piece after another. Checks the GPU
 * algorithm where no GPU is present. */
pt_status pt_contours_find_emulated(const pt_image *img, int threshold, int mode, int approx,
                                    int tile, pt_contours *out, pt_error *err);

/* Tile side the CUDA back end uses for an image (a power of two, 8..64). */
int pt_contours_gpu_tile(int width, int height);

#ifdef __cplusplus
}
#endif

#endif
