/* tl's refit grey level (pupiltrack(1), tl_refine, tl_level_share,
 * tl_level_gap), shared by omp/detect/tl.c and cuda/detect/tl_choose.cu
 * (PT_HD, header-only).
 *
 * The winner's threshold lies anywhere between the pupil's grey level and
 * its surround's; the refit threshold lies tl_level_share of the way from
 * the pupil's level (the median on a ring at half the fitted radius) to the
 * surround's (the median on a ring outside the fit). The outside ring lies
 * a quarter of the radius beyond the fit, and at least tl_level_gap px: a
 * blurred border is a few px wide whatever the pupil's size, and a ring
 * still on it (a small pupil) reads a level too dark, which puts the refit
 * threshold near the pupil's core and shrinks the fit. */
#ifndef PT_TL_LEVEL_H
#define PT_TL_LEVEL_H

#include "lib/core/pt_hd.h"

#define PT_TL_LEVEL_SAMPLES 64 /* points per ring */

/* The outside ring's radius for a fit of radius r, at least gap px out. */
static inline PT_HD double pt_tl_level_outside(double r, double gap)
{
    double q = 0.25 * r;
    return r + (q > gap ? q : gap);
}

#endif
