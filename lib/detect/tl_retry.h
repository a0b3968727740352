/* tl's second look with thresholds near the dark level (pupiltrack(1),
 * PARAMETERS: tl_dark_retry).
 *
 * Where the pupil is only a few grey levels darker than the iris, tl's
 * thresholds, evenly spaced between the eye's dark and surround levels,
 * can all lie above the iris: every blob is pupil and iris together, and
 * the fit that wins is the iris. Such a fit holds a darker disc inside
 * (its core 6 or more grey levels below its inner ring, the test of
 * Starburst's inner pass, lib/detect/starburst_inner.h), which a pupil's
 * own fit does not. An eye whose tl answer does is detected again by the
 * same back end with tl_spacing=square (its thresholds denser near the dark
 * level: one of them falls between pupil and iris), and that answer
 * replaces the first when it finds a pupil. Eyes whose answer has no darker
 * disc (nearly all, where pupil and iris differ clearly) keep it and cost
 * nothing more; square spacing for every eye instead picks darker spots
 * inside well-contrasted pupils (ACCURACY.md).
 *
 * The look is a layer over any back end, as the second look at half
 * resolution is (lib/detect/half_retry.h): the registry's "omp" and "cuda"
 * rows are the tables below, each over that back end with its half-size
 * look, so both take the same decisions on the same answers. */
#ifndef PT_TL_RETRY_H
#define PT_TL_RETRY_H

#include "lib/core/pt_hd.h"
#include "lib/detect/fit.h"
#include "lib/detect/pt_backend.h"
#include "lib/detect/starburst_inner.h"

/* Whether the fit (ellipse e, or circle c where e is NULL) holds a darker
 * disc inside in img (the smoothed frame): pt_sb_dark_core of its levels.
 * Shared by both back ends' tl (PT_HD). */
static inline PT_HD int pt_tl_darker_core(const pt_image *img, const pt_circle *c,
                                          const pt_ellipse *e)
{
    pt_ellipse fit;
    if (e)
        fit = *e;
    else
        pt_ellipse_from_circle(c, &fit);
    pt_sb_levels levels = {0, 0, 0};
    pt_sb_levels_of(img, &fit, &levels);
    return pt_sb_dark_core(&levels);
}

#ifdef __cplusplus
extern "C" {
#endif

extern const pt_backend pt_backend_omp_tl_retry;
extern const pt_backend pt_backend_cuda_tl_retry;

/* Whether an eye's first answer is looked at again: a pupil found whose
 * fit holds a darker disc. */
int pt_tl_retry_wanted(const pt_result *first);

/* Whether the second answer replaces the first: it found a pupil. */
int pt_tl_retry_keeps(const pt_result *second);

/* Whether the look applies to this configuration: tl, tl_dark_retry on,
 * thresholds from each eye's levels (tl_range=eye), spaced evenly (with
 * tl_spacing=square the first look was the second's), and not --sequence. */
int pt_tl_retry_on(const pt_config *cfg, const pt_track_options *opt);

#ifdef __cplusplus
}
#endif

#endif
