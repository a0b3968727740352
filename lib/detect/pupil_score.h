/* The reported confidence (pupiltrack(1), METRICS: confidence): how much a
 * found outline looks like a pupil, from the smoothed image and the outline
 * alone, so that every detector and both back ends report one measure and
 * give the same value for the same outline.
 *
 * Levels are sampled at PT_PUPIL_ANGLES angles around the outline (the
 * exact-operation cos/sin of lib/detect/confidence.h), at:
 *   core   0.25 of the axes and inner 0.55 of them: the pupil's inside;
 *   border d px inside and outside the outline, d = a tenth of the mean
 *          radius, at least PT_CONFIDENCE_OFFSET (a blurred border is wider
 *          in a larger image);
 *   ring   g px outside it and far 2g px outside it, g = a third of the mean
 *          radius, at least 3 px: the iris around a pupil.
 * The score is the product of four shares in [0,1]:
 *   edge   angles whose border step (outside - inside) holds at least 0.4 of
 *          the rise from the inner median to that angle's ring or far level
 *          (and at least PT_CONFIDENCE_MARGIN): the outline is where the
 *          dark inside ends, all the way round;
 *   closed 1 - the share of angles whose ring lies less than half as far
 *          above the inner median as the median ring does: no side where the
 *          dark goes on beyond the outline (an outline inside the pupil);
 *   even   1 - 2 (inner - core) / (ring - core) medians: an outline around
 *          the iris holds a darker pupil in its middle;
 *   whole  (ring - inner) / (far - inner) medians: the step lies at the
 *          outline, not further out (an outline inside the pupil).
 * 0 when fewer than a quarter of the angles have all their samples inside
 * the image, or when the axes are not positive. */
#ifndef PT_PUPIL_SCORE_H
#define PT_PUPIL_SCORE_H

#include "lib/detect/confidence.h"

#define PT_PUPIL_ANGLES 64

/* The medians and counts the score is made of (exposed for tests). */
typedef struct {
    int valid;                   /* angles with all their samples inside the image */
    int core, inner, ring, far;  /* median levels */
    int edge;                    /* angles with a step of >= 0.4 of their rise */
    int open;                    /* angles whose ring is less than half as high */
} pt_pupil_features;

/* The pieces below are for callers that take the angles in parallel (a
 * block of PT_PUPIL_ANGLES threads): the outline's sampling geometry, one
 * angle's samples, and the per-angle tests against the medians. Medians
 * and counts do not depend on the order the angles were taken in. */
typedef struct {
    double ct, st;  /* the outline's axes' cos/sin */
    double d, g;    /* border offset and ring gap, px */
    double ai, bi;  /* the axes d px inside */
} pt_pupil_geometry;

/* 0 when the axes are not positive (score 0). */
static inline PT_HD int pt_pupil_geometry_of(const pt_ellipse *e, pt_pupil_geometry *geo)
{
    if (!pt_confidence_axes(e, &geo->ct, &geo->st))
        return 0;
    double mean_r = 0.5 * (e->a + e->b);
    double d = 0.1 * mean_r, g = mean_r / 3.0;
    geo->d = d < PT_CONFIDENCE_OFFSET ? PT_CONFIDENCE_OFFSET : d;
    geo->g = g < 3.0 ? 3.0 : g;
    double ai = e->a - geo->d, bi = e->b - geo->d;
    geo->ai = ai < 0.5 ? 0.5 : ai;
    geo->bi = bi < 0.5 ? 0.5 : bi;
    return 1;
}

/* One angle's levels. */
typedef struct {
    int core, inner, ring, far;
    int step; /* outside - inside the border */
    int top;  /* the larger of ring and far */
} pt_pupil_angle;

/* The level at semi-axes (ua, ub) of outline e at angle (cp, sp); 0 when
 * outside the image. */
static inline PT_HD int pt_pupil_level(const pt_image *img, const pt_ellipse *e,
                                       const pt_pupil_geometry *geo, double cp, double sp,
                                       double ua, double ub, int *value)
{
    double u = ua * cp, v = ub * sp;
    return pt_confidence_sample_at(img, e->cx + u * geo->ct - v * geo->st,
                                   e->cy + u * geo->st + v * geo->ct, value);
}

/* Angle k of PT_PUPIL_ANGLES: 1 when all its samples fall inside the image. */
static inline PT_HD int pt_pupil_angle_at(const pt_image *img, const pt_ellipse *e,
                                          const pt_pupil_geometry *geo, int k, pt_pupil_angle *s)
{
    double cp, sp;
    pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_PUPIL_ANGLES, &cp, &sp);
    int in, out;
    double g = geo->g;
    if (!pt_pupil_level(img, e, geo, cp, sp, 0.25 * e->a, 0.25 * e->b, &s->core) ||
        !pt_pupil_level(img, e, geo, cp, sp, 0.55 * e->a, 0.55 * e->b, &s->inner) ||
        !pt_pupil_level(img, e, geo, cp, sp, geo->ai, geo->bi, &in) ||
        !pt_pupil_level(img, e, geo, cp, sp, e->a + geo->d, e->b + geo->d, &out) ||
        !pt_pupil_level(img, e, geo, cp, sp, e->a + g, e->b + g, &s->ring) ||
        !pt_pupil_level(img, e, geo, cp, sp, e->a + 2.0 * g, e->b + 2.0 * g, &s->far))
        return 0;
    s->step = out - in;
    s->top = s->far > s->ring ? s->far : s->ring;
    return 1;
}

/* Whether angle s's step holds >= 0.4 of its rise from the inner median. */
static inline PT_HD int pt_pupil_angle_edge(const pt_pupil_angle *s, int inner)
{
    int need = 2 * (s->top - inner) / 5;
    return s->step >= (need > PT_CONFIDENCE_MARGIN ? need : PT_CONFIDENCE_MARGIN);
}

/* Whether angle s's ring lies less than half as far above the inner median
 * as the median ring. */
static inline PT_HD int pt_pupil_angle_open(const pt_pupil_angle *s, int inner, int ring)
{
    return 2 * (s->ring - inner) < ring - inner;
}

/* Insertion sort of n levels in place; the median: the ((n-1)/2)-th
 * smallest (0-based). */
static inline PT_HD int pt_pupil_median(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    return n > 0 ? v[(n - 1) / 2] : 0;
}

static inline PT_HD void pt_pupil_features_of(const pt_image *img, const pt_ellipse *e,
                                              pt_pupil_features *f)
{
    pt_pupil_angle at[PT_PUPIL_ANGLES];
    int core[PT_PUPIL_ANGLES], inner[PT_PUPIL_ANGLES], ring[PT_PUPIL_ANGLES], far[PT_PUPIL_ANGLES];
    f->valid = f->core = f->inner = f->ring = f->far = f->edge = f->open = 0;
    pt_pupil_geometry geo;
    if (!pt_pupil_geometry_of(e, &geo))
        return;
    int n = 0;
    for (int k = 0; k < PT_PUPIL_ANGLES; k++) {
        if (!pt_pupil_angle_at(img, e, &geo, k, &at[n]))
            continue;
        core[n] = at[n].core;
        inner[n] = at[n].inner;
        ring[n] = at[n].ring;
        far[n] = at[n].far;
        n++;
    }
    f->valid = n;
    if (n == 0)
        return;
    f->core = pt_pupil_median(core, n);
    f->inner = pt_pupil_median(inner, n);
    f->ring = pt_pupil_median(ring, n);
    f->far = pt_pupil_median(far, n);
    for (int k = 0; k < n; k++) {
        f->edge += pt_pupil_angle_edge(&at[k], f->inner);
        f->open += pt_pupil_angle_open(&at[k], f->inner, f->ring);
    }
}

static inline PT_HD double pt_pupil_clip(double x) { return x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x; }

/* The score of features f, in [0,1]. */
static inline PT_HD double pt_pupil_score_of(const pt_pupil_features *f)
{
    if (f->valid * 4 < PT_PUPIL_ANGLES)
        return 0.0;
    double n = f->valid;
    double edge = f->edge / n, closed = 1.0 - f->open / n;
    int core_span = f->ring - f->core, inner_span = f->far - f->inner;
    double even = 1.0 - pt_pupil_clip(2.0 * (f->inner - f->core) /
                                      (core_span > 1 ? core_span : 1));
    double whole = pt_pupil_clip((double)(f->ring - f->inner) / (inner_span > 1 ? inner_span : 1));
    return edge * closed * even * whole;
}

static inline PT_HD double pt_pupil_score(const pt_image *img, const pt_ellipse *e)
{
    pt_pupil_features f;
    pt_pupil_features_of(img, e, &f);
    return pt_pupil_score_of(&f);
}

/* The confidence a detector reports for its result: the score of the
 * ellipse when it has one, else of the circle; 0 without a pupil found. */
static inline PT_HD double pt_pupil_confidence(const pt_image *img, int found, int has_circle,
                                               int has_ellipse, const pt_circle *c,
                                               const pt_ellipse *e)
{
    if (!found || !(has_circle || has_ellipse))
        return 0.0;
    if (has_ellipse)
        return pt_pupil_score(img, e);
    pt_ellipse round = {c->cx, c->cy, c->r, c->r, 0.0};
    return pt_pupil_score(img, &round);
}

#endif
