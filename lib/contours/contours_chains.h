/* Borders as chain codes (Freeman 1961) to OpenCV's contours: the output of
 * the CUDA back end's assembly (lib/contours/contours_borders.h) and of its
 * CPU emulation. Each border, in OpenCV's discovery order, is its start
 * pixel, its flags and the direction of each state from its start state;
 * points are written in parallel, one border after another per thread, and
 * the hierarchy of CCOMP/TREE replays OpenCV's scan with the borders' labels. */
#ifndef PT_CONTOURS_CHAINS_H
#define PT_CONTOURS_CHAINS_H

#include <stdint.h>

#include "lib/contours/contours.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int count;              /* borders, in discovery order */
    const int64_t *start;   /* padded start pixel (y * (width + 2) + x) */
    const uint8_t *flags;   /* PT_CCHAIN_* of contours_borders.h, start direction */
    const int64_t *dfirst;  /* count + 1 offsets into dirs */
    const int64_t *pfirst;  /* count + 1 offsets of the points */
    const uint8_t *dirs;    /* the chains, one direction byte per state */
    int width, height;      /* image size */
} pt_contour_chains;

/* out from the chains. lab is the padded 0/1 image (pt_contours_binarize),
 * needed by CCOMP and TREE (labels are written into it), else may be NULL.
 * threads <= 0: OpenMP's default. */
pt_status pt_contours_from_chains(const pt_contour_chains *ch, int8_t *lab, int mode,
                                  int approx, int threads, pt_contours *out, pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
