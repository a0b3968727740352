/* Starburst's second look with reflections refilled around the pupil
 * (pupiltrack(1), PARAMETERS: glint_retry).
 *
 * Glints on or just inside the pupil's border are masked and refilled
 * before the rays run; the refill of such a glint takes pupil from one side
 * and iris from the other, and the rays stop at the grey patch it leaves,
 * inside the border: the fit shrinks and moves away from the glints. An
 * eye that Starburst reports with a confidence below glint_retry, whose
 * reflection mask reaches into the ring from half to one and a half times
 * its radius, is detected again by the same back end (without its other
 * looks) where those reflections are refilled along circles around the
 * first pupil's centre (lib/detect/arc_fill.h); the second pupil replaces
 * the first when it is more confident by more than glint_retry_margin.
 *
 * The second look sees a square cut of the eye region centred on the first
 * pupil (the smallest of a few fixed sides that holds the refilled box and
 * the room its mask needs; the whole frame where none fits), with the
 * region's own sizes (radius range, reflection kernel and dilation, ray
 * length, edge gap) given explicitly and its rays starting from the cut's
 * centre, so an eye costs a detection of the cut rather than of the frame.
 *
 * The look is a layer over any back end, as the other second looks are
 * (lib/detect/half_retry.h, lib/detect/tl_retry.h): the registry's "omp" and
 * "cuda" rows are the tables below, each over that back end with its other
 * looks, so both take the same decisions on the same answers. */
#ifndef PT_GLINT_RETRY_H
#define PT_GLINT_RETRY_H

#include "lib/core/pt_geom.h"
#include "lib/detect/arc_fill.h"
#include "lib/detect/pt_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pt_backend pt_backend_omp_glint_retry;
extern const pt_backend pt_backend_cuda_glint_retry;

/* Whether an eye's first answer is a candidate for the look: a pupil found
 * with a confidence below below (> 0). */
int pt_glint_retry_wanted(const pt_result *first, double below);

/* Whether the second answer replaces the first: a pupil found, more
 * confident than the first by more than margin. */
int pt_glint_retry_keeps(const pt_result *first, const pt_result *second, double margin);

/* An eye region's reflection mask as the preprocessing takes it: top-hat
 * kernel, threshold and dilation. */
typedef struct {
    int kernel, threshold, dilate;
} pt_glint_mask_params;

/* The window around circle c within eye region [ex0, ex0 + ew) x [0,
 * frame height) whose mask pt_glint_refill takes: the refilled box of 1.5
 * radii around c, with room for the opening and the dilation beside it, so
 * that the mask there is the whole frame's. */
void pt_glint_window(const pt_image *frame, int ex0, int ew, const pt_circle *c,
                     const pt_glint_mask_params *mp, int *x0, int *y0, int *width, int *height);

/* The reflections near circle c of frame, refilled as arc_fill.h does into
 * dst, which holds frame's pixels from (dx0, dy0) on (a copy of the frame
 * or of a part of it); the mask is taken in pt_glint_window. mask (the
 * window's bytes, rounded up to 64) and scratch after it hold
 * pt_glint_retry_scratch_bytes(window). Returns the masked
 * pixels in the ring from 0.5 to 1.5 radii around c (0: nothing written). */
long pt_glint_refill(const pt_image *frame, int ex0, int ew, const pt_circle *c,
                     const pt_glint_mask_params *mp, pt_image *dst, int dx0, int dy0,
                     uint8_t *mask, void *scratch);
size_t pt_glint_retry_scratch_bytes(int width, int height, const pt_glint_mask_params *mp);

#ifdef __cplusplus
}
#endif

#endif
