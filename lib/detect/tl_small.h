/* tl_range=eye's thresholds where the eye's darkest region may be a small
 * pupil or the darker core of a larger one (pupiltrack(1), tl_small_share,
 * tl_small_also), shared by omp/detect/tl.c and cuda/detect/tl_choose.cu
 * (PT_HD, header-only, integer arithmetic and exact comparisons only).
 *
 * The 128x128 grid's darkest patch (lib/detect/eye_levels.h) is a small
 * pupil that the 32x32 grid missed where fewer than tl_small_share % of the
 * fine samples lie half-way down to it or darker; where that share reaches
 * the 32x32 grid's dark rank (11 of 1,024 samples, 1.07 %), the coarse grid
 * holds the region as well. In between, the patch is either a pupil
 * covering 0.5-1.07 % of the eye (thresholds from the half-way level find
 * it; from the coarse dark level they lie between the iris and the
 * surround and fit the iris around it) or the blurred darker core of a
 * pupil the coarse grid found (thresholds from the half-way level start
 * low and fit part of it). The grey levels cannot tell the two apart; the
 * fits can. Where fewer than tl_small_also % lie half-way down, the
 * tl_count thresholds from the other dark level are tried as well, after
 * the first tl_count. The winner is chosen among the first tl_count
 * (tl_score); the fits of the second ones compete with the others as the
 * pupil inside it (tl_pupil_prior, lib/detect/tl_nest.h): a small pupil
 * the first thresholds missed lies inside the iris they fit, while a fit
 * of the core of a pupil they found does not replace it. */
#ifndef PT_TL_SMALL_H
#define PT_TL_SMALL_H

#include <stdint.h>

#include "lib/core/pt_hd.h"
#include "lib/detect/eye_levels.h"

/* Threshold slots per eye: tl_count, twice as many where tl_small_also
 * above tl_small_share opens the band where both dark levels are tried. */
static inline PT_HD int pt_tl_small_slots(int count, double small_share, double small_also)
{
    return small_also > small_share ? 2 * count : count;
}

/* The dark level the first tl_count thresholds start from (from
 * pt_eye_fine_patch) and, in *other, the one the second tl_count start from
 * (-1: none), given the coarse dark level, the fine grid's half-way level
 * mid (-1: no patch stands apart, pt_eye_fine_mid) and the number `below`
 * of fine samples at most mid. */
static inline PT_HD int pt_tl_small_darks(int coarse_dark, int mid, int below,
                                          double small_share, double small_also, int *other)
{
    *other = -1;
    if (mid < 0)
        return coarse_dark;
    if (pt_eye_fine_small(below, small_share))
        return mid;
    if (pt_eye_fine_small(below, small_also))
        *other = mid;
    return coarse_dark;
}

/* Threshold slot i (0-based) of slots per eye: the first n = tl_count from
 * dark (pt_eye_threshold), the next n from other; -1 (nothing to try)
 * where other is -1, or where the eye is not clearly dark (the fixed
 * thresholds, the same for both levels, are tried once). */
static inline PT_HD int pt_tl_small_threshold(int coarse_dark, int dark, int other,
                                              int surround, int i, int n, int tmin, int tstep,
                                              int power)
{
    if (i < n)
        return pt_eye_threshold(coarse_dark, dark, surround, i, n, tmin, tstep, power);
    if (other < 0 || !pt_eye_clearly_dark(coarse_dark, surround))
        return -1;
    return pt_eye_threshold(coarse_dark, other, surround, i - n, n, tmin, tstep, power);
}

#endif
