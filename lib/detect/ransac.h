/* RANSAC circle and ellipse fits over a precomputed table of random samples,
 * shared by the CPU and CUDA back ends.
 *
 * The table holds `samples` rows of `sample_size` uniform 32-bit values, made
 * once from a fixed seed (xoshiro256** seeded by splitmix64: identical on
 * every platform). Row s picks the point indices
 *     idx[k] = pt_ransac_pick(values[s * sample_size + k], npoints),
 * so the CPU and the GPU draw exactly the same samples.
 *
 * Semantics of pt_ransac_circle / pt_ransac_ellipse (the CUDA back end
 * reproduces them exactly):
 *   1. For s = 0 .. samples_used-1 (clamped to t->samples):
 *      a. pick all sample_size indices of row s (pt_ransac_sample_indices);
 *         a row whose indices repeat is skipped;
 *      b. fit (pt_fit_circle / pt_fit_ellipse on those points); a failed fit
 *         is skipped, and so is a model whose radius is outside [min_r, max_r]
 *         (circle: r; ellipse: both a and b);
 *      c. votes = number of the n points with distance <= inlier_px
 *         (pt_circle_distance / pt_ellipse_distance);
 *      d. the row with most votes is kept; ties go to the lowest s.
 *   2. The best row's model is refitted once on all its inliers (same fit
 *      function, points in increasing index order). If the refit fails or
 *      leaves the radius range, the row's own model is kept.
 *   3. Votes are recounted for the final model.
 * out->found = 1 when some row gave a model (then votes, sample = the best
 * row, circle and ellipse are set; an ellipse result's circle has the same
 * centre and r = (a+b)/2, a circle result's ellipse has a = b = r, theta 0).
 * The ellipse needs sample_size >= 5 (otherwise nothing is found).
 * No allocation: scratch_idx holds n ints (the inlier list of step 2). */
#ifndef PT_RANSAC_H
#define PT_RANSAC_H

#include <stdint.h>

#include "lib/detect/fit.h"
#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"

/* "pupi" in ASCII: the one seed every back end uses. */
#define PT_RANSAC_SEED 0x70757069ULL

#define PT_RANSAC_MAX_SAMPLES (1 << 20)
#define PT_RANSAC_MIN_SAMPLE_SIZE 3
#define PT_RANSAC_MAX_SAMPLE_SIZE 16

typedef struct {
    int samples, sample_size;
    uint32_t *values; /* values[s * sample_size + k], uniform 32-bit randoms */
} pt_ransac_table;

#ifdef __cplusplus
extern "C" { /* ransac.c is C; the CUDA back end includes this from C++ */
#endif

/* Fill t deterministically from seed. samples 1..PT_RANSAC_MAX_SAMPLES,
 * sample_size 3..16; PT_ERR_PARAM / PT_ERR_NOMEM otherwise. */
pt_status pt_ransac_table_create(pt_ransac_table *t, int samples, int sample_size,
                                 uint64_t seed, pt_error *err);
void pt_ransac_table_free(pt_ransac_table *t);

#ifdef __cplusplus
}
#endif

/* Index in [0, npoints) from a uniform 32-bit value: the high part of the
 * 64-bit product, integer-only so CPU and GPU agree. npoints >= 1. */
static inline PT_HD int pt_ransac_pick(uint32_t value, int npoints)
{
    return (int)(((uint64_t)value * (uint64_t)(uint32_t)npoints) >> 32);
}

/* Indices of row s of a table (values, sample_size) for npoints points into
 * idx[0..sample_size). Returns 0 if two of them are equal (the row is skipped),
 * 1 otherwise. values may be host or device memory. */
static inline PT_HD int pt_ransac_sample_indices(const uint32_t *values, int sample_size,
                                                 int s, int npoints, int *idx)
{
    const uint32_t *row = values + (int64_t)s * sample_size;
    int distinct = 1;
    for (int k = 0; k < sample_size; k++) {
        idx[k] = pt_ransac_pick(row[k], npoints);
        for (int j = 0; j < k; j++)
            distinct &= idx[j] != idx[k];
    }
    return distinct;
}

/* Step 1b's radius check, shared so both back ends accept the same models. */
static inline PT_HD int pt_ransac_circle_in_range(const pt_circle *c, double min_r,
                                                  double max_r)
{
    return c->r >= min_r && c->r <= max_r;
}

static inline PT_HD int pt_ransac_ellipse_in_range(const pt_ellipse *e, double min_r,
                                                   double max_r)
{
    return e->a >= min_r && e->a <= max_r && e->b >= min_r && e->b <= max_r;
}

/* The refit's outcome: the refitted model (*refit_e with ellipse, else
 * *refit_c) replaces *e / *c when the fit succeeded (fitted) within
 * [min_r, max_r]; then the other shape is derived from it as
 * pt_ransac_circle / _ellipse report it. Shared with fits done elsewhere
 * (the CUDA select step fits over a block). */
static inline PT_HD void pt_ransac_refit_keep(int ellipse, int fitted, const pt_circle *refit_c,
                                              const pt_ellipse *refit_e, double min_r,
                                              double max_r, pt_circle *c, pt_ellipse *e)
{
    if (ellipse) {
        if (fitted && pt_ransac_ellipse_in_range(refit_e, min_r, max_r))
            *e = *refit_e;
        c->cx = e->cx;
        c->cy = e->cy;
        c->r = 0.5 * (e->a + e->b);
    } else {
        if (fitted && pt_ransac_circle_in_range(refit_c, min_r, max_r))
            *c = *refit_c;
        pt_ellipse_from_circle(c, e);
    }
}

/* Step 2 on its own, for both back ends: the model (circle *c or, with
 * ellipse, *e) refitted on its inliers pts[idx[0..count)] (pts[0..count)
 * when idx is NULL), kept as pt_ransac_refit_keep says. */
static inline PT_HD void pt_ransac_refit_inliers(int ellipse, const pt_point *pts, const int *idx,
                                                 int count, double min_r, double max_r,
                                                 pt_circle *c, pt_ellipse *e)
{
    pt_circle refit_c;
    pt_ellipse refit_e;
    int fitted = ellipse ? pt_fit_ellipse(pts, idx, count, &refit_e)
                         : pt_fit_circle(pts, idx, count, &refit_c);
    pt_ransac_refit_keep(ellipse, fitted, &refit_c, &refit_e, min_r, max_r, c, e);
}

typedef struct {
    int found;
    int votes;  /* inliers of the final model */
    int sample; /* table row of the best sample, -1 if none */
    pt_circle circle;
    pt_ellipse ellipse;
} pt_ransac_fit;

#ifdef __cplusplus
extern "C" {
#endif

/* See the semantics above. Returns out->found. */
int pt_ransac_circle(const pt_point *pts, int n, const pt_ransac_table *t, int samples_used,
                     double inlier_px, double min_r, double max_r, int *scratch_idx,
                     pt_ransac_fit *out);
int pt_ransac_ellipse(const pt_point *pts, int n, const pt_ransac_table *t,
                      int samples_used, double inlier_px, double min_r, double max_r,
                      int *scratch_idx, pt_ransac_fit *out);
/* Step 1c for a circle: the number of pts within inlier_px of c
 * (pt_circle_distance(c, x, y) <= inlier_px, the same decision point by
 * point). With beat >= 0 the count may stop early once it cannot exceed
 * beat, returning some value <= beat; beat < 0: the exact count. */
int pt_ransac_circle_votes(const pt_point *pts, int n, const pt_circle *c, double inlier_px,
                           int beat);
/* The same count with edge directions (Starburst's vote_angle, man page):
 * a point votes when it is within inlier_px of c and its unit direction
 * dirs[j] lies within the angle of cosine min_cos of c's radius through
 * it (dx dirs.x + dy dirs.y >= min_cos x distance from the centre), or
 * dirs[j] is (0, 0): no direction to test. The same decision point by
 * point as pt_sb_circle_vote && pt_sb_radial_vote
 * (lib/detect/starburst_radial.h); beat as above. */
int pt_ransac_circle_radial_votes(const pt_point *pts, const pt_point *dirs, int n,
                                  const pt_circle *c, double inlier_px, double min_cos, int beat);
/* The same for an ellipse: pt_ellipse_frame_within(frame of e, x, y,
 * inlier_px) point by point (lib/detect/fit.h). */
int pt_ransac_ellipse_votes(const pt_point *pts, int n, const pt_ellipse *e, double inlier_px,
                            int beat);

#ifdef __cplusplus
}
#endif

#endif
