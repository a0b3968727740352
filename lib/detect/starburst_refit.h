/* Starburst circle mode's final estimate on elliptical pupils, shared by
 * omp/detect/starburst.c and cuda/detect/starburst.cu (PT_HD, header-only).
 *
 * A RANSAC circle with the band max(ransac_inlier, circle_tolerance x r) on
 * an ellipse of axis ratio up to 1.25, often cut by an eyelid, settles on
 * the arcs of one side: its centre lies off the pupil's by up to (a - b) / 2.
 * The refinement takes the points near that circle (the candidates), runs a
 * short RANSAC ellipse over them with the shared sample table, refits the
 * best on its inliers, and reports the centre and mean radius (a + b) / 2 of
 * that ellipse when it is credible; otherwise the circle stays.
 *
 * The steps are separate functions so the CUDA back end can spread the rows
 * over a warp and still compute exactly what the serial pt_sb_circle_ellipse
 * computes. */
#ifndef PT_STARBURST_REFIT_H
#define PT_STARBURST_REFIT_H

#include <stdint.h>

#include "lib/detect/fit.h"
#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/ransac.h"
#include "lib/detect/starburst_ray.h"

/* Settings, chosen by measurement on synth (seeds 11, 12 and 21, 22) and
 * meye-dev: wider candidate bands, more rows or a looser shift changed the
 * rates by a frame or two either way; fewer rows lost 1-2 points. */
#define PT_SB_REFIT_SELECT 2.0  /* candidates: within this x the circle band of the circle */
#define PT_SB_REFIT_ROWS 256    /* RANSAC rows of 5 points over the candidates */
#define PT_SB_REFIT_RATIO 1.5   /* a / b above this is not taken for a pupil */
#define PT_SB_REFIT_SHIFT 0.35  /* the ellipse centre stays within this x r of the circle's */
#define PT_SB_REFIT_SAMPLE 5    /* points per ellipse sample */

/* An ellipse frame whose rotation uses pt_sb_cos_sin (exact operations, so
 * host and device select the same points), not the platform's cos/sin. */
static inline PT_HD void pt_sb_ellipse_frame(const pt_ellipse *e, pt_ellipse_frame *f)
{
    pt_sb_cos_sin(e->theta * (3.14159265358979323846 / 180.0), &f->cos_t, &f->sin_t);
    f->cx = e->cx;
    f->cy = e->cy;
    f->a = e->a;
    f->b = e->b;
}

/* Rows of 5 values the sample table (values, samples x sample_size, read as
 * one flat run) offers the refinement: at most PT_SB_REFIT_ROWS. */
static inline PT_HD int pt_sb_refit_rows(int samples, int sample_size)
{
    int64_t flat = (int64_t)samples * sample_size / PT_SB_REFIT_SAMPLE;
    return flat < PT_SB_REFIT_ROWS ? (int)flat : PT_SB_REFIT_ROWS;
}

/* Whether point (x, y) is a candidate of circle c. */
static inline PT_HD int pt_sb_refit_candidate(const pt_sb_config *k, const pt_circle *c, double x,
                                              double y)
{
    return pt_circle_distance(c, x, y) <= PT_SB_REFIT_SELECT * pt_sb_circle_band(k, c->r);
}

/* The candidates of circle c among pts[0..n), in point order, into cand;
 * returns their count. */
static inline PT_HD int pt_sb_refit_candidates(const pt_sb_config *k, const pt_circle *c,
                                               const pt_point *pts, int n, int *cand)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (pt_sb_refit_candidate(k, c, pts[i].x, pts[i].y))
            cand[m++] = i;
    return m;
}

/* Row s's ellipse through 5 candidates (cand[0..m) index pts): 0 when its
 * indices repeat, the fit fails or an axis leaves [min_r, max_r]. */
static inline PT_HD int pt_sb_refit_row_fit(const uint32_t *values, int s, const pt_point *pts,
                                            const int *cand, int m, double min_r, double max_r,
                                            pt_ellipse *e)
{
    int idx[PT_SB_REFIT_SAMPLE];
    if (!pt_ransac_sample_indices(values, PT_SB_REFIT_SAMPLE, s, m, idx))
        return 0;
    for (int q = 0; q < PT_SB_REFIT_SAMPLE; q++)
        idx[q] = cand[idx[q]];
    return pt_fit_ellipse(pts, idx, PT_SB_REFIT_SAMPLE, e) &&
           pt_ransac_ellipse_in_range(e, min_r, max_r);
}

/* Candidates within band px of ellipse e, by the first-order (Sampson)
 * distance |f| / |grad f| of f = (u/a)^2 + (v/b)^2 - 1 in the ellipse's
 * frame: close to the geometric distance within a few px of the outline,
 * with neither square root nor division per point (the rows' hot loop). */
static inline PT_HD int pt_sb_refit_votes(const pt_ellipse *e, double band, const pt_point *pts,
                                          const int *cand, int m)
{
    double cos_t, sin_t;
    pt_sb_cos_sin(e->theta * (3.14159265358979323846 / 180.0), &cos_t, &sin_t);
    double ia = 1.0 / (e->a * e->a), ib = 1.0 / (e->b * e->b), band2 = band * band;
    int votes = 0;
    for (int j = 0; j < m; j++) {
        double dx = pts[cand[j]].x - e->cx, dy = pts[cand[j]].y - e->cy;
        double u = dx * cos_t + dy * sin_t, v = dy * cos_t - dx * sin_t;
        double f = u * u * ia + v * v * ib - 1.0;
        double gu = 2.0 * u * ia, gv = 2.0 * v * ib;
        votes += f * f <= band2 * (gu * gu + gv * gv);
    }
    return votes;
}

/* The last step's pieces, each a function so the CUDA back end can spread
 * the per-point ones over threads and still compute what
 * pt_sb_refit_finish computes. */

/* Whether point (x, y) is an inlier of the best row's ellipse (frame f):
 * the candidates kept for the refit. */
static inline PT_HD int pt_sb_refit_keep(const pt_sb_config *k, const pt_ellipse_frame *f,
                                         double x, double y)
{
    return pt_ellipse_frame_distance(f, x, y) <= k->inlier;
}

/* The refit ellipse's credibility against circle c, votes aside: a - b >
 * ransac_inlier (a rounder ellipse is a circle within the noise: small
 * pupils keep their circle), a / b <= PT_SB_REFIT_RATIO, the centre within
 * PT_SB_REFIT_SHIFT x r of the circle's. */
static inline PT_HD int pt_sb_refit_credible(const pt_sb_config *k, const pt_circle *c,
                                             const pt_ellipse *e)
{
    return !(e->a - e->b <= k->inlier || e->a > PT_SB_REFIT_RATIO * e->b ||
             pt_sb_dist(e->cx, e->cy, c->cx, c->cy) > PT_SB_REFIT_SHIFT * c->r);
}

/* Point (x, y)'s votes: within ransac_inlier of circle c (*circle_vote) and
 * of the ellipse (frame f, *ellipse_vote). */
static inline PT_HD void pt_sb_refit_point_votes(const pt_sb_config *k, const pt_circle *c,
                                                 const pt_ellipse_frame *f, double x, double y,
                                                 int *circle_vote, int *ellipse_vote)
{
    *circle_vote = pt_circle_distance(c, x, y) <= k->inlier;
    *ellipse_vote = pt_ellipse_frame_distance(f, x, y) <= k->inlier;
}

/* The last step, given the best row's ellipse e: refit on its inliers among
 * the candidates (cand is overwritten: the inliers are a subsequence, written
 * in place), then the credibility checks: both axes in [min_r, max_r],
 * pt_sb_refit_credible, and at least as many of the n points within
 * ransac_inlier of the ellipse as of the circle. Returns 1 and the ellipse
 * when credible. */
static inline PT_HD int pt_sb_refit_finish(const pt_sb_config *k, const pt_circle *c,
                                           const pt_point *pts, int n, int *cand, int m,
                                           double min_r, double max_r, pt_ellipse e,
                                           pt_ellipse *out)
{
    pt_ellipse_frame f;
    pt_sb_ellipse_frame(&e, &f);
    int count = 0;
    for (int j = 0; j < m; j++) {
        int i = cand[j];
        if (pt_sb_refit_keep(k, &f, pts[i].x, pts[i].y))
            cand[count++] = i;
    }
    pt_ellipse refit;
    if (pt_fit_ellipse(pts, cand, count, &refit) &&
        pt_ransac_ellipse_in_range(&refit, min_r, max_r))
        e = refit;
    if (!pt_sb_refit_credible(k, c, &e))
        return 0;
    /* the ellipse must hold at least as many points as the circle within ransac_inlier */
    pt_sb_ellipse_frame(&e, &f);
    int circle_votes = 0, ellipse_votes = 0;
    for (int i = 0; i < n; i++) {
        int cv, ev;
        pt_sb_refit_point_votes(k, c, &f, pts[i].x, pts[i].y, &cv, &ev);
        circle_votes += cv;
        ellipse_votes += ev;
    }
    if (ellipse_votes < circle_votes)
        return 0;
    *out = e;
    return 1;
}

/* Circle mode's refinement of circle c (the refitted RANSAC circle) over
 * pts[0..n), serially: returns 1 and the ellipse when credible, 0 to keep the
 * circle. values/samples/sample_size: the RANSAC sample table; cand is
 * scratch for n indices. */
static inline PT_HD int pt_sb_circle_ellipse(const pt_sb_config *k, const pt_point *pts, int n,
                                             const pt_circle *c, const uint32_t *values,
                                             int samples, int sample_size, double min_r,
                                             double max_r, int *cand, pt_ellipse *out)
{
    int m = pt_sb_refit_candidates(k, c, pts, n, cand);
    if (m < PT_SB_REFIT_SAMPLE)
        return 0;
    int rows = pt_sb_refit_rows(samples, sample_size);
    int best_votes = -1;
    pt_ellipse best = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int s = 0; s < rows; s++) {
        pt_ellipse e;
        if (!pt_sb_refit_row_fit(values, s, pts, cand, m, min_r, max_r, &e))
            continue;
        int votes = pt_sb_refit_votes(&e, k->inlier, pts, cand, m);
        if (votes > best_votes) {
            best_votes = votes;
            best = e;
        }
    }
    if (best_votes < 0)
        return 0;
    return pt_sb_refit_finish(k, c, pts, n, cand, m, min_r, max_r, best, out);
}

#endif
