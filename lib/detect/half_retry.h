/* A second look at half resolution (pupiltrack(1), PARAMETERS: half_retry).
 *
 * An eye that a back end reports with a confidence below half_retry, or
 * without a pupil, is detected again by the same back end in the frame
 * reduced to half its size (each pixel the rounded mean of a 2x2 block);
 * the second pupil, scaled back to the frame, replaces the first when its
 * confidence is higher by more than half_retry_margin and its radius there
 * is at least PT_HALF_MIN_RADIUS (below). Reduced frames hold
 * half the pixel noise and steeper borders, so a dim or noisy pupil that
 * the full-size edges miss is often found there, while an eye found
 * confidently keeps its full-size result and costs nothing more.
 *
 * The look is a layer over any back end: the registry's "omp" and "cuda"
 * rows are the tables below, each wrapping the back end of its name, so
 * both back ends take the same decisions on the same confidences. A back
 * end that holds the frames elsewhere reduces them there and may start the
 * looks while the rest of a call runs (pt_backend: keep_halves,
 * track_halves, look_ahead); the CUDA back end does, so the look costs it
 * no copy and little time. */
#ifndef PT_HALF_RETRY_H
#define PT_HALF_RETRY_H

#include "lib/detect/pt_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const pt_backend pt_backend_omp_half_retry;
extern const pt_backend pt_backend_cuda_half_retry;

/* dst (at least src's size halved, rounded down) = src reduced to half:
 * each pixel the mean of a 2x2 block, rounded half up; a last odd row or
 * column is left out. */
void pt_image_halve(const pt_image *src, pt_image *dst);

/* A result found in the half-size frame, in the full frame's coordinates:
 * a half-size pixel (x, y) covers full pixels 2x..2x+1, so its centre lies
 * at 2x + 0.5; lengths double. */
void pt_result_from_half(pt_result *r);

/* The smallest radius of a second look's pupil in the reduced frame:
 * from there up the confidence's samples lie at the same share of the
 * radius in both looks (lib/detect/pupil_score.h: a tenth of the radius,
 * at least PT_CONFIDENCE_OFFSET = 2 px), so the two confidences compare. */
#define PT_HALF_MIN_RADIUS 20.0

/* Whether the second look (in the frame's coordinates) replaces the first:
 * it found a pupil of at least PT_HALF_MIN_RADIUS in the reduced frame and
 * is more confident by more than margin, or the first found none. */
int pt_half_retry_keeps(const pt_result *first, const pt_result *second, double margin);

/* Whether an eye is looked at again under threshold below. */
int pt_half_retry_wanted(const pt_result *first, double below);

/* Smallest side of an eye's reduced region: the auto parameters are made
 * for eye regions from 128x128 crops up (pupiltrack(1), PARAMETERS). */
#define PT_HALF_MIN_SIDE 128

/* Whether a frame of width x height with these first results (eyes of
 * them) is looked at again: its eye regions are at least PT_HALF_MIN_SIDE
 * when halved and one of its eyes is wanted. */
int pt_half_retry_frame_wanted(int width, int height, int eyes, const pt_result *first,
                               double below);

#ifdef __cplusplus
}
#endif

#endif
