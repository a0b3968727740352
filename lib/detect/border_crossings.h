/* An outline fitted again on its border's mid-level crossings (man page,
 * tl_crossings), shared by omp/detect/tl.c and cuda/detect/tl_choose.cu
 * (PT_HD, header-only).
 *
 * tl's outline comes from the border pixels of one threshold's blob. A
 * threshold above the middle of the border's rise puts them outside the
 * border, one below it inside; and where a lid hides part of the pupil,
 * that radius error moves the centre too, since the fit keeps to the
 * visible arc. Here the outline is fitted again where its border is:
 *
 *   1. PT_CROSS_RAYS rays from the outline's centre through its points at
 *      equal parametric angles; on each, the smoothed frame's level at half
 *      the outline's distance (inner) and PT_CROSS_OUTER reaches beyond the
 *      outline (outer: clear of a blurred border), the reach being
 *      PT_CROSS_REACH of the mean radius (at least PT_CROSS_REACH_MIN px);
 *   2. the pupil's level: the median inner level; the rise: the median of
 *      outer - pupil over the rays where it is positive;
 *   3. on each ray whose outer level lies at least PT_CROSS_MIN_RISE x the
 *      rise above the pupil's, the point where the profile (bilinear samples
 *      every PT_CROSS_STEP px within the reach on either side of the outline)
 *      rises through the middle of the two levels, the crossing nearest the
 *      outline, interpolated between its two samples; kept where the
 *      border's normal there (central differences PT_CROSS_GRADIENT_GAP px
 *      apart) lies within 30 degrees of the ray (PT_CROSS_NORMAL), as on a
 *      pupil's outline seen from near its centre and not on a lid's chord
 *      met at a slant;
 *   4. fit.h's direct ellipse fit to the crossings, in PT_CROSS_ROUNDS
 *      rounds of leaving out those farther from it than PT_CROSS_TRIM
 *      robust deviations (1.4826 x the median distance, at least
 *      PT_CROSS_TRIM_MIN px): crossings on a lid's chord or a reflection's
 *      rim;
 *   5. the new outline stands where at least a third of the rays keep a
 *      crossing, its centre and mean radius lie within PT_CROSS_SHIFT of
 *      the mean radius of the old ones and its axes within a ratio of
 *      PT_CROSS_ELONGATION.
 *
 * Medians are order statistics (the value of rank n / 2), which any order
 * of the values gives alike; the samples and the fit use IEEE-exact
 * operations only (+ - * / sqrt, lib/detect/starburst_ray.h's cos/sin), so
 * both back ends find the same crossings and fits bit for bit. The serial
 * steps below are the CPU's; cuda/detect/border_crossings.cuh takes the
 * same steps over a warp. */
#ifndef PT_BORDER_CROSSINGS_H
#define PT_BORDER_CROSSINGS_H

#include <math.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/confidence.h"
#include "lib/detect/fit.h"
#include "lib/detect/starburst_ray.h"
#include "lib/io/pt_image.h"

#define PT_CROSS_RAYS 128
#define PT_CROSS_REACH 0.1      /* of the mean radius, each side of the outline */
#define PT_CROSS_REACH_MIN 3.0  /* px */
#define PT_CROSS_STEP 0.5       /* px between a ray's samples */
#define PT_CROSS_OUTER 2.0      /* the outer level: this x the reach beyond the outline */
#define PT_CROSS_MIN_RISE 0.3   /* a ray's rise: at least this x the median rise */
#define PT_CROSS_NORMAL 0.866   /* cos 30 degrees: the border's normal along the ray */
#define PT_CROSS_GRADIENT_GAP 1.5 /* px: central differences for the normal */
#define PT_CROSS_ROUNDS 3
#define PT_CROSS_TRIM 2.5
#define PT_CROSS_TRIM_MIN 1.0   /* px */
#define PT_CROSS_SHIFT 0.25
#define PT_CROSS_ELONGATION 1.5

/* One ray: from (ox, oy) along the unit (dx, dy); the outline lies rho away. */
typedef struct {
    double ox, oy, dx, dy, rho;
} pt_cross_ray;

/* The search's settings for outline e: its axes' cos/sin and the reach. */
typedef struct {
    pt_ellipse e;
    double ct, st, reach;
} pt_cross_frame;

/* 0 when e's axes are not positive. */
static inline PT_HD int pt_cross_frame_init(const pt_ellipse *e, pt_cross_frame *f)
{
    f->e = *e;
    if (!pt_confidence_axes(e, &f->ct, &f->st))
        return 0;
    f->reach = PT_CROSS_REACH * 0.5 * (e->a + e->b);
    if (f->reach < PT_CROSS_REACH_MIN)
        f->reach = PT_CROSS_REACH_MIN;
    return 1;
}

static inline PT_HD pt_cross_ray pt_cross_ray_at(const pt_cross_frame *f, int k)
{
    double cp, sp;
    pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_CROSS_RAYS, &cp, &sp);
    double u = f->e.a * cp, v = f->e.b * sp;
    double x = u * f->ct - v * f->st, y = u * f->st + v * f->ct;
    pt_cross_ray r;
    r.ox = f->e.cx;
    r.oy = f->e.cy;
    r.rho = sqrt(x * x + y * y);
    r.dx = x / r.rho;
    r.dy = y / r.rho;
    return r;
}

/* The smoothed frame at (x, y), bilinear, (x, y) known to lie in the frame. */
static inline PT_HD double pt_cross_sample_in(const pt_image *img, double x, double y)
{
    pt_sb_view view;
    view.buf = img->buf;
    view.width = img->width;
    view.height = img->height;
    view.stride = img->stride;
    return pt_sb_sample(&view, x, y);
}

/* The smoothed frame at (x, y), bilinear; 0 when it lies outside the frame. */
static inline PT_HD int pt_cross_sample(const pt_image *img, double x, double y, double *v)
{
    if (!(x >= 0.0 && y >= 0.0 && x <= img->width - 1 && y <= img->height - 1))
        return 0;
    *v = pt_cross_sample_in(img, x, y);
    return 1;
}

/* Step 1 for ray k: *inner and *outer (-1 where outside the frame). */
static inline PT_HD void pt_cross_levels(const pt_image *img, const pt_cross_frame *f, int k,
                                         double *inner, double *outer)
{
    pt_cross_ray r = pt_cross_ray_at(f, k);
    double t = 0.5 * r.rho;
    if (!pt_cross_sample(img, r.ox + t * r.dx, r.oy + t * r.dy, inner))
        *inner = -1.0;
    t = r.rho + PT_CROSS_OUTER * f->reach;
    if (!pt_cross_sample(img, r.ox + t * r.dx, r.oy + t * r.dy, outer))
        *outer = -1.0;
}

/* The value of rank `rank` (0: the least; equal values ranked by index)
 * among the values v[0..count) whose keep[k] is set (all when keep is
 * NULL); 0 when no value has that rank. */
static inline PT_HD double pt_cross_rank_value(const double *v, const int *keep, int count,
                                               int rank)
{
    for (int k = 0; k < count; k++) {
        if (keep && !keep[k])
            continue;
        int below = 0;
        for (int u = 0; u < count; u++)
            if ((!keep || keep[u]) && (v[u] < v[k] || (v[u] == v[k] && u < k)))
                below++;
        if (below == rank)
            return v[k];
    }
    return 0.0;
}

/* Step 3 for ray k: its crossing into *p; 0 when the ray has none. The
 * samples are read PT_CROSS_BATCH at a time before they are compared, so
 * their reads overlap. */
#define PT_CROSS_BATCH 8
static inline PT_HD int pt_cross_point(const pt_image *img, const pt_cross_frame *f, int k,
                                       double pupil, double outer, double rise, pt_point *p)
{
    if (outer < 0.0 || outer - pupil < PT_CROSS_MIN_RISE * rise)
        return 0;
    pt_cross_ray r = pt_cross_ray_at(f, k);
    double mid = 0.5 * (pupil + outer), best = 0.0, prev = 0.0;
    int found = 0, steps = (int)(2.0 * f->reach / PT_CROSS_STEP);
    /* A ray leaving the frame has no crossing. Each coordinate of the
     * samples moves monotonically along the ray (every operation rounds
     * monotonically), so all lie in the frame when the first and the last
     * do. */
    for (int i = 0; i <= steps; i += steps > 0 ? steps : 1) {
        double s = -f->reach + i * PT_CROSS_STEP, t = r.rho + s, v;
        if (!pt_cross_sample(img, r.ox + t * r.dx, r.oy + t * r.dy, &v))
            return 0;
    }
    for (int i0 = 0; i0 <= steps; i0 += PT_CROSS_BATCH) {
        double batch[PT_CROSS_BATCH];
        for (int j = 0; j < PT_CROSS_BATCH; j++) {
            int i = i0 + j <= steps ? i0 + j : steps;
            double s = -f->reach + i * PT_CROSS_STEP, t = r.rho + s;
            batch[j] = pt_cross_sample_in(img, r.ox + t * r.dx, r.oy + t * r.dy);
        }
        for (int j = 0; j < PT_CROSS_BATCH && i0 + j <= steps; j++) {
            int i = i0 + j;
            double s = -f->reach + i * PT_CROSS_STEP, v = batch[j];
            if (i > 0 && prev < mid && v >= mid) {
                double at = s - PT_CROSS_STEP + PT_CROSS_STEP * (mid - prev) / (v - prev);
                if (!found || fabs(at) < fabs(best))
                    best = at;
                found = 1;
            }
            prev = v;
        }
    }
    if (!found)
        return 0;
    double x = r.ox + (r.rho + best) * r.dx, y = r.oy + (r.rho + best) * r.dy;
    /* the border's normal there within PT_CROSS_NORMAL of the ray */
    double l, rt, u, d, g = PT_CROSS_GRADIENT_GAP;
    if (!pt_cross_sample(img, x - g, y, &l) || !pt_cross_sample(img, x + g, y, &rt) ||
        !pt_cross_sample(img, x, y - g, &u) || !pt_cross_sample(img, x, y + g, &d))
        return 0;
    double gx = rt - l, gy = d - u, along = gx * r.dx + gy * r.dy;
    if (!(along > 0.0) || along * along < PT_CROSS_NORMAL * PT_CROSS_NORMAL * (gx * gx + gy * gy))
        return 0;
    p->x = (float)x;
    p->y = (float)y;
    return 1;
}

/* Step 4's limit from the median distance. */
static inline PT_HD double pt_cross_trim_limit(double median)
{
    double lim = PT_CROSS_TRIM * 1.4826 * median;
    return lim < PT_CROSS_TRIM_MIN ? PT_CROSS_TRIM_MIN : lim;
}

/* Step 5: whether fit may replace old. */
static inline PT_HD int pt_cross_accept(const pt_ellipse *old, const pt_ellipse *fit)
{
    double r = 0.5 * (old->a + old->b), fr = 0.5 * (fit->a + fit->b);
    double dx = fit->cx - old->cx, dy = fit->cy - old->cy;
    double shift = PT_CROSS_SHIFT * r;
    return dx * dx + dy * dy <= shift * shift && fabs(fr - r) <= shift &&
           fit->a <= PT_CROSS_ELONGATION * fit->b && fit->b <= PT_CROSS_ELONGATION * fit->a;
}

/* The least number of crossings kept. */
#define PT_CROSS_MIN_POINTS (PT_CROSS_RAYS / 3)

/* After a round of step 4 kept `kept` of its m points: 1 to fit again,
 * 0 when none left (the round's fit stands), -1 when too few are kept. */
static inline PT_HD int pt_cross_round_next(int kept, int m)
{
    return kept == m ? 0 : kept < PT_CROSS_MIN_POINTS ? -1 : 1;
}

/* The whole search, serially: 1 and *out when the new outline stands. */
static inline PT_HD int pt_border_crossings(const pt_image *img, const pt_ellipse *e,
                                            pt_ellipse *out)
{
    pt_cross_frame f;
    if (!pt_cross_frame_init(e, &f))
        return 0;
    double inner[PT_CROSS_RAYS], outer[PT_CROSS_RAYS], val[PT_CROSS_RAYS];
    int keep[PT_CROSS_RAYS], n_in = 0, n_rise = 0;
    for (int k = 0; k < PT_CROSS_RAYS; k++)
        pt_cross_levels(img, &f, k, &inner[k], &outer[k]);
    for (int k = 0; k < PT_CROSS_RAYS; k++) {
        keep[k] = inner[k] >= 0.0;
        n_in += keep[k];
    }
    if (n_in < PT_CROSS_RAYS / 2)
        return 0;
    double pupil = pt_cross_rank_value(inner, keep, PT_CROSS_RAYS, n_in / 2);
    for (int k = 0; k < PT_CROSS_RAYS; k++) {
        keep[k] = outer[k] > pupil;
        val[k] = outer[k] - pupil;
        n_rise += keep[k];
    }
    if (n_rise < PT_CROSS_RAYS / 2)
        return 0;
    double rise = pt_cross_rank_value(val, keep, PT_CROSS_RAYS, n_rise / 2);
    pt_point pts[PT_CROSS_RAYS];
    int idx[PT_CROSS_RAYS], n = 0;
    for (int k = 0; k < PT_CROSS_RAYS; k++)
        if (pt_cross_point(img, &f, k, pupil, outer[k], rise, &pts[n]))
            n++;
    if (n < PT_CROSS_MIN_POINTS)
        return 0;
    for (int i = 0; i < n; i++)
        idx[i] = i;
    pt_ellipse fit;
    int m = n, refit = 1; /* refit: the last round left points out (its fit is stale) */
    for (int round = 0; round < PT_CROSS_ROUNDS; round++) {
        if (!pt_fit_ellipse(pts, idx, m, &fit))
            return 0;
        for (int i = 0; i < m; i++)
            val[i] = pt_ellipse_distance(&fit, pts[idx[i]].x, pts[idx[i]].y);
        double lim = pt_cross_trim_limit(pt_cross_rank_value(val, NULL, m, m / 2));
        int kept = 0;
        for (int i = 0; i < m; i++)
            if (val[i] <= lim)
                idx[kept++] = idx[i];
        int next = pt_cross_round_next(kept, m);
        if (next < 0)
            return 0;
        refit = next;
        if (!next)
            break;
        m = kept;
    }
    if ((refit && !pt_fit_ellipse(pts, idx, m, &fit)) || !pt_cross_accept(e, &fit))
        return 0;
    *out = fit;
    return 1;
}

#endif
