/* Grey levels of one eye region from a coarse grid of samples, shared by the
 * detectors of both back ends (PT_HD, header-only, integer arithmetic only:
 * host and device read the same pixels and agree exactly).
 *
 * The share of an eye region covered by the pupil, the iris, the lids and
 * the skin changes little from frame to frame, so low ranks of a fixed grid
 * of samples tell how bright the dark surround of the pupil (the iris, lid
 * shadows, lashes) is, whatever the exposure: on infrared eyes the 10th
 * percentile lies near the iris's grey level. */
#ifndef PT_EYE_LEVELS_H
#define PT_EYE_LEVELS_H

#include <stdint.h>

#include "lib/core/pt_hd.h"

#define PT_EYE_GRID 32 /* samples per row and per column of the region */
#define PT_EYE_SAMPLES (PT_EYE_GRID * PT_EYE_GRID)
/* rank of the surround level among the samples: the 10th percentile */
#define PT_EYE_SURROUND_RANK (PT_EYE_SAMPLES / 10)
/* rank of the dark level (the pupil's, where it covers more than 1 % of
 * the region; a lash or a thin shadow covers less): the 11th least sample */
#define PT_EYE_DARK_RANK 10

/* Sample s (0 .. PT_EYE_SAMPLES - 1, row after row of the grid) of
 * pt_eye_grid_level (below), for callers that take the samples in parallel (a CUDA
 * block into a shared histogram). */
static inline PT_HD int pt_eye_grid_sample(const uint8_t *buf, int stride, int x0, int y0, int w,
                                           int h, int s)
{
    int j = s / PT_EYE_GRID, i = s % PT_EYE_GRID;
    const uint8_t *row =
        buf + (long)(y0 + (int)(((long)(2 * j + 1) * h) / (2 * PT_EYE_GRID))) * stride + x0;
    return row[(int)(((long)(2 * i + 1) * w) / (2 * PT_EYE_GRID))];
}

/* The level at rank `rank` of a 256-bin histogram of the samples, as
 * pt_eye_grid_level (rank clamped to the samples). */
static inline PT_HD int pt_eye_level_of_histogram(const unsigned *hist, int rank)
{
    if (rank < 0)
        rank = 0;
    if (rank >= PT_EYE_SAMPLES)
        rank = PT_EYE_SAMPLES - 1;
    int seen = 0;
    for (int v = 0; v < 256; v++) {
        seen += (int)hist[v];
        if (seen > rank)
            return v;
    }
    return 255;
}

/* The 256-bin histogram of the samples of pt_eye_grid_level, for callers
 * that read several ranks of one region. */
static inline PT_HD void pt_eye_grid_histogram(const uint8_t *buf, int stride, int x0, int y0,
                                               int w, int h, unsigned *hist)
{
    for (int v = 0; v < 256; v++)
        hist[v] = 0;
    for (int s = 0; s < PT_EYE_SAMPLES; s++)
        hist[pt_eye_grid_sample(buf, stride, x0, y0, w, h, s)]++;
}

/* The grey level at rank `rank` (0 = the least) of the PT_EYE_GRID x
 * PT_EYE_GRID samples of the region (x0, y0, w, h) of an 8-bit plane
 * (stride bytes per row); sample (i, j) is the pixel at
 * (x0 + (2i + 1) w / (2 PT_EYE_GRID), y0 + (2j + 1) h / (2 PT_EYE_GRID)),
 * the centre of its grid cell. w, h >= 1; rank is clamped to the samples. */
static inline PT_HD int pt_eye_grid_level(const uint8_t *buf, int stride, int x0, int y0, int w,
                                          int h, int rank)
{
    unsigned hist[256];
    pt_eye_grid_histogram(buf, stride, x0, y0, w, h, hist);
    return pt_eye_level_of_histogram(hist, rank);
}

/* An eye whose dark level is at least this share below its surround level
 * shows a pupil to adapt to (the InP and MEYE pupils lie 35 % or more
 * below their iris); otherwise (a blank or washed-out frame, noise only)
 * the detectors keep their fixed settings, which noise does not pass. */
#define PT_EYE_DARK_SHARE 0.2

static inline PT_HD int pt_eye_clearly_dark(int dark, int surround)
{
    return surround - dark >= PT_EYE_DARK_SHARE * surround;
}

/* tl_range=eye's dark level where the pupil covers too little of the
 * region (a small pupil in a wide view) for the 32x32 grid's dark level
 * (PT_EYE_DARK_RANK, 1 % of the samples) to reach it: a finer grid of
 * PT_EYE_FINE_GRID x PT_EYE_FINE_GRID samples laid out as
 * pt_eye_grid_sample's, and its darkest patch (the least mean of 3 x 3
 * neighbouring samples, about 2 % of the region's side across: a pupil of
 * min_radius holds it, a lash or a thin shadow does not, and the mean does
 * not follow single noisy samples). Where the patch lies PT_EYE_FINE_GAP
 * grey levels or more below the coarse dark level and fewer than a share
 * of the fine samples are at most half-way from the patch's level up to
 * the coarse one, the patch is a small dark region the
 * coarse grid missed: the dark level becomes that half-way level, so the
 * thresholds start above the small pupil's core (which blur keeps darker
 * than its border) and below the iris. Otherwise (the pupil covers more,
 * or the patch is the darker core of a pupil the coarse grid found) the
 * coarse dark level stays. The share is tl_small_share (pupiltrack(1),
 * 0.5 % by default; the coarse dark rank's share, 11 of its 1,024 samples,
 * is 1.07 %). */
#define PT_EYE_FINE_GRID 128
/* grey levels (5 % of the scale) the patch lies at least below the coarse
 * dark level: a region standing clearly apart, not noise within a pupil */
#define PT_EYE_FINE_GAP 12

/* Sample (i, j) of the fine grid. */
static inline PT_HD int pt_eye_fine_sample(const uint8_t *buf, int stride, int x0, int y0, int w,
                                           int h, int i, int j)
{
    const uint8_t *row =
        buf + (long)(y0 + (int)(((long)(2 * j + 1) * h) / (2 * PT_EYE_FINE_GRID))) * stride + x0;
    return row[(int)(((long)(2 * i + 1) * w) / (2 * PT_EYE_FINE_GRID))];
}

/* The half-way level between the fine grid's darkest patch (best9: the
 * least sum of 3 x 3 neighbouring samples) and the coarse dark level, or
 * -1 where the patch is not PT_EYE_FINE_GAP or more below it. */
static inline PT_HD int pt_eye_fine_mid(int coarse_dark, int best9)
{
    int patch = best9 / 9;
    return coarse_dark - patch < PT_EYE_FINE_GAP ? -1 : (patch + coarse_dark) / 2;
}

/* Whether `below` fine samples at most half-way are few enough for the
 * patch to be a small dark region: fewer than share_pct % of the samples
 * (exact: both products are exact in double for these ranges). */
static inline PT_HD int pt_eye_fine_small(int below, double share_pct)
{
    return (double)below * 100.0 < share_pct * (double)(PT_EYE_FINE_GRID * PT_EYE_FINE_GRID);
}

/* The fine grid's work, shared out as samples first, first + step, ...
 * (one thread: 0, 1; a CUDA block: threadIdx.x, blockDim.x). */

/* Gathers the region's fine samples, row by row, into fine
 * (PT_EYE_FINE_GRID squared bytes). */
static inline PT_HD void pt_eye_fine_gather(const uint8_t *buf, int stride, int x0, int y0, int w,
                                            int h, uint8_t *fine, int first, int step)
{
    for (int s = first; s < PT_EYE_FINE_GRID * PT_EYE_FINE_GRID; s += step)
        fine[s] = (uint8_t)pt_eye_fine_sample(buf, stride, x0, y0, w, h, s % PT_EYE_FINE_GRID,
                                              s / PT_EYE_FINE_GRID);
}

/* The least sum of 3 x 3 neighbouring gathered samples (the darkest patch
 * times 9) among this share of the inner samples. */
static inline PT_HD int pt_eye_fine_least9(const uint8_t *fine, int first, int step)
{
    const int inner = PT_EYE_FINE_GRID - 2;
    int least = 9 * 255;
    for (int s = first; s < inner * inner; s += step) {
        int x = 1 + s % inner, y = 1 + s / inner, sum = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                sum += fine[(y + dy) * PT_EYE_FINE_GRID + x + dx];
        least = sum < least ? sum : least;
    }
    return least;
}

/* How many of this share of the gathered samples are at most level. */
static inline PT_HD int pt_eye_fine_below(const uint8_t *fine, int level, int first, int step)
{
    int n = 0;
    for (int s = first; s < PT_EYE_FINE_GRID * PT_EYE_FINE_GRID; s += step)
        n += fine[s] <= level;
    return n;
}

/* The fine grid's half-way level below the coarse grid's dark level (see
 * above; -1: no patch stands apart) and, in *below, how many fine samples
 * lie at or under it, in one thread (the CUDA back end shares the same
 * steps out over a block: cuda/detect/tl_choose.cu). */
static inline int pt_eye_fine_patch(const uint8_t *buf, int stride, int x0, int y0, int w, int h,
                                    int coarse_dark, int *below)
{
    uint8_t fine[PT_EYE_FINE_GRID * PT_EYE_FINE_GRID];
    pt_eye_fine_gather(buf, stride, x0, y0, w, h, fine, 0, 1);
    int mid = pt_eye_fine_mid(coarse_dark, pt_eye_fine_least9(fine, 0, 1));
    *below = mid >= 0 ? pt_eye_fine_below(fine, mid, 0, 1) : 0;
    return mid;
}

/* Threshold i (0-based) of n for tl_range=eye: between the eye's dark and
 * surround levels, dark + (surround - dark) ((i + 1) / (n + 1))^power.
 * power 1 (tl_spacing=linear) spaces them evenly; power 2 (tl_spacing=square)
 * puts them denser near the dark level, so that a pupil only a few grey
 * levels darker than its iris (low contrast) still gets a threshold between
 * the two, while the upper ones still reach the iris's level on
 * well-contrasted eyes. Where the eye is not clearly dark
 * (pt_eye_clearly_dark, judged on the coarse grid's dark level), the fixed
 * tmin + i tstep (at most 255). Integer arithmetic: both back ends agree. */
static inline PT_HD int pt_eye_threshold(int coarse_dark, int dark, int surround, int i, int n,
                                         int tmin, int tstep, int power)
{
    if (!pt_eye_clearly_dark(coarse_dark, surround)) {
        long t = tmin + (long)i * tstep;
        return t < 255 ? (int)t : 255;
    }
    long k = i + 1, m = n + 1;
    if (power == 2) {
        k *= k;
        m *= m;
    }
    return dark + (int)(((long)(surround - dark) * k) / m);
}

#endif
