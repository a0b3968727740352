/* Starburst's per-ray and per-point logic, written once for the OpenMP back
 * end (omp/detect/starburst.c) and the CUDA back end (cuda/detect/starburst.cu), so both
 * cast the same rays and find the same edge points bit for bit.
 *
 * Only IEEE-exact operations (+ - * / sqrt, conversions, floor) are used:
 * ray directions come from pt_sb_cos_sin (a fixed polynomial, not the
 * platform's sin/cos, which differ in the last bits between the C library
 * and CUDA), stage-2 directions from the normalised vector back to the start
 * rotated by a fixed offset (no atan2). The CUDA build uses --fmad=false and
 * the host build does not contract to FMA (x86-64 baseline), so products and
 * sums round identically. */
#ifndef PT_STARBURST_RAY_H
#define PT_STARBURST_RAY_H

#include <stdint.h>

#include "lib/detect/eye_levels.h"
#include "lib/detect/fit.h"
#include "lib/params/params_starburst.h"
#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"

/* Where on the rising step along a ray the edge point is placed. */
enum { PT_SB_EDGE_LEVEL = 0 };

/* Everything the device needs beyond the foundation's pt_cuda_params:
 * resolved on the host by pt_sb_config_resolve (lib/detect/starburst_config.c). */
typedef struct {
    double threshold;   /* grey-level rise I(t+g) - I(t-g) that starts an edge */
    int gap;            /* g in px; 0 = auto: pt_auto_edge_gap per eye region, at least gap_min */
    int gap_min;        /* auto g never below the smoothing's reach (ceil(1.5 sigma)) */
    double edge_level;  /* edge at the first point where the rise reaches this share
                           of the step's steepest rise (1 = the steepest point) */
    double circle_tol;  /* circle votes: inlier band max(inlier, circle_tol * r) */
    double inlier;      /* ransac_inlier, px */
    double max_step;    /* reject a step whose bright side exceeds the dark side
                           by more than this (a corneal reflection), grey levels */
    double edge_offset; /* edge points moved this many px back towards the dark side */
    double edge_fraction; /* > 0: edge where the grey level crosses this share of the
                             step from its dark to its bright side (0: off) */
    double size_fraction; /* > 0: the reported size moved there (lib/detect/starburst_size.h) */
    double contrast;    /* > 0: threshold lowered to this share of the eye's contrast */
    int circle_refit;   /* PT_SB_REFIT_*: circle mode's final estimate */
    int circle_votes;   /* PT_SB_VOTES_*: RANSAC score of a sample's circle */
    int ellipse_fit;    /* PT_SB_ELLIPSE_*: how --ellipse fits */
    int flat_edges;     /* PT_SB_FLAT_*: points on flat edges (lib/detect/starburst_flat.h) */
    double flat_band;   /* px off a point's tangent its flat partners lie within */
    double vote_cos;    /* cos vote_angle: circle votes need the edge direction this close
                           to the radius (lib/detect/starburst_radial.h); -2 = off */
    int inner_pass;     /* PT_SB_INNER_*: lib/detect/starburst_inner.h */
    int edge_peak;      /* PT_SB_PEAK_*: pt_sb_step_peak */
    int fit_choice;     /* PT_SB_CHOICE_*: lib/detect/starburst_choice.h */
    int stall;          /* converge_stall: iterations in a row without a better fit
                           that end the search; 0 = off (lib/detect/starburst_choice.h) */
} pt_sb_config;

/* Whether RANSAC fits ellipses to the points: --ellipse (ellipse != 0) with
 * ellipse_fit=direct. Otherwise it fits circles, and --ellipse reports the
 * ellipse refined from the circle's points (pt_sb_config_mode). */
static inline PT_HD int pt_sb_fits_ellipse(const pt_sb_config *k, int ellipse)
{
    return ellipse && k->ellipse_fit == PT_SB_ELLIPSE_DIRECT;
}

/* The gap used for an eye region whose size-based auto gap is auto_gap. */
static inline PT_HD int pt_sb_gap(const pt_sb_config *k, int auto_gap)
{
    if (k->gap > 0)
        return k->gap;
    return auto_gap > k->gap_min ? auto_gap : k->gap_min;
}

/* A view of one smoothed frame for walking rays. */
typedef struct {
    const uint8_t *buf;  /* smoothed plane */
    const uint8_t *mask; /* reflections to skip, or NULL */
    int width, height, stride;
    double xmin, ymin, xmax, ymax; /* roi, pixel centres, inclusive */
    double threshold;
    int gap;
    double edge_level, max_step;
    double edge_offset; /* px moved back along the ray (towards the dark side) */
    double edge_fraction; /* pt_sb_config's: > 0 places the edge on a grey level */
    int edge_peak;        /* pt_sb_config's: PT_SB_PEAK_* */
} pt_sb_view;

#define PT_SB_RAY_MAX 4095 /* longest ray walked, px */

/* The roi of a view: pixel centres x0 .. x0 + w - 1 and y0 .. y0 + h - 1. */
static inline PT_HD void pt_sb_view_roi(pt_sb_view *c, int x0, int y0, int w, int h)
{
    c->xmin = x0;
    c->ymin = y0;
    c->xmax = x0 + w - 1;
    c->ymax = y0 + h - 1;
}

/* A view of the smoothed plane buf (width x height, stride bytes per row;
 * mask: the reflections to skip, or NULL) over the roi (x0, y0, w, h), with
 * k's ray settings; auto_gap: pt_auto_edge_gap of the roi. Both back ends
 * build their views with it. */
static inline PT_HD void pt_sb_view_init(pt_sb_view *c, const pt_sb_config *k, const uint8_t *buf,
                                         const uint8_t *mask, int width, int height, int stride,
                                         int x0, int y0, int w, int h, int auto_gap)
{
    c->buf = buf;
    c->mask = mask;
    c->width = width;
    c->height = height;
    c->stride = stride;
    pt_sb_view_roi(c, x0, y0, w, h);
    c->threshold = k->threshold;
    c->gap = pt_sb_gap(k, auto_gap);
    c->edge_level = k->edge_level;
    c->max_step = k->max_step;
    c->edge_offset = k->edge_offset;
    c->edge_fraction = k->edge_fraction;
    c->edge_peak = k->edge_peak;
}

/* Least threshold pt_sb_eye_threshold gives, grey levels: below it the
 * noise left on a smoothed frame rises like an edge. */
#define PT_SB_THRESHOLD_FLOOR 3.0

/* The edge threshold of one eye (man page, edge_contrast): k's threshold,
 * lowered on a low-contrast eye to k->contrast times the eye's contrast,
 * but not below PT_SB_THRESHOLD_FLOOR. The contrast is the surround level
 * (pt_eye_grid_level at PT_EYE_SURROUND_RANK of the eye region: near the
 * iris's grey level) minus the smoothed grey level at the first start point
 * (inside the pupil when it is the darkest window), so a pupil whose border
 * rises by a few grey levels (an under-exposed eye, an iris nearly as dark
 * as the pupil) keeps its edge while a well-exposed eye keeps the fixed
 * threshold; where the start is not clearly darker than the surround
 * (pt_eye_clearly_dark), the fixed threshold stays. buf: the smoothed plane (stride
 * bytes per row); start must lie in the region. pt_sb_eye_threshold_at takes
 * the surround level already read (a CUDA block reads it in parallel). */
static inline PT_HD double pt_sb_eye_threshold_at(const pt_sb_config *k, const uint8_t *buf,
                                                  int stride, pt_point start, int surround)
{
    if (!(k->contrast > 0))
        return k->threshold;
    int xi = (int)floor(start.x + 0.5), yi = (int)floor(start.y + 0.5);
    int dark = buf[(long)yi * stride + xi];
    /* no region clearly darker than its surround (a blank or washed-out
     * frame): nothing to adapt to, noise would pass a lowered threshold */
    if (!pt_eye_clearly_dark(dark, surround))
        return k->threshold;
    double t = k->contrast * (surround - dark);
    if (t < PT_SB_THRESHOLD_FLOOR)
        t = PT_SB_THRESHOLD_FLOOR;
    return t < k->threshold ? t : k->threshold;
}

/* The same with the surround level read here (pt_eye_grid_level). */
static inline PT_HD double pt_sb_eye_threshold(const pt_sb_config *k, const uint8_t *buf,
                                               int stride, int x0, int y0, int w, int h,
                                               pt_point start)
{
    if (!(k->contrast > 0))
        return k->threshold;
    return pt_sb_eye_threshold_at(
        k, buf, stride, start, pt_eye_grid_level(buf, stride, x0, y0, w, h, PT_EYE_SURROUND_RANK));
}

/* ---- directions ------------------------------------------------------------ */

/* cos and sin of a (radians, |a| < 1e6) with 1e-15 accuracy from Taylor
 * polynomials after reduction to [-pi/4, pi/4]; identical on host and device. */
static inline PT_HD void pt_sb_cos_sin(double a, double *c, double *s)
{
    const double two_over_pi = 0.63661977236758134308;
    const double pio2_hi = 1.57079632673412561417; /* 33 bits: q * hi is exact */
    const double pio2_lo = 6.07710050650619224932e-11;
    double q = floor(a * two_over_pi + 0.5);
    double r = (a - q * pio2_hi) - q * pio2_lo;
    double r2 = r * r;
    double sp = 1.0 / 6402373705728000.0; /* 1/18! ... Horner from the top */
    double sn = r2 * (-1.0 / 121645100408832000.0) + 1.0 / 355687428096000.0;
    sn = sn * r2 - 1.0 / 1307674368000.0;
    sn = sn * r2 + 1.0 / 6227020800.0;
    sn = sn * r2 - 1.0 / 39916800.0;
    sn = sn * r2 + 1.0 / 362880.0;
    sn = sn * r2 - 1.0 / 5040.0;
    sn = sn * r2 + 1.0 / 120.0;
    sn = sn * r2 - 1.0 / 6.0;
    sn = r + r * r2 * sn;
    double cs = r2 * sp - 1.0 / 20922789888000.0;
    cs = cs * r2 + 1.0 / 87178291200.0;
    cs = cs * r2 - 1.0 / 479001600.0;
    cs = cs * r2 + 1.0 / 3628800.0;
    cs = cs * r2 - 1.0 / 40320.0;
    cs = cs * r2 + 1.0 / 720.0;
    cs = cs * r2 - 1.0 / 24.0;
    cs = cs * r2 + 0.5;
    cs = 1.0 - r2 * cs;
    long long quadrant = (long long)q & 3;
    if (q < 0)
        quadrant = (4 - ((-(long long)q) & 3)) & 3;
    switch (quadrant) {
    case 0: *c = cs; *s = sn; break;
    case 1: *c = -sn; *s = cs; break;
    case 2: *c = -cs; *s = -sn; break;
    default: *c = sn; *s = -cs; break;
    }
}

/* Unit direction of first-stage ray i of n (angle 2 pi i / n from +x). */
static inline PT_HD void pt_sb_stage1_dir(int i, int n, double *dx, double *dy)
{
    pt_sb_cos_sin(2.0 * 3.14159265358979323846 * i / n, dx, dy);
}

/* Unit direction of second-stage ray k of m cast from `from` back towards
 * `start`, rotated by spread * (2k/(m-1) - 1) radians. Returns 0 when the two
 * points coincide (no direction back). */
static inline PT_HD int pt_sb_stage2_dir(pt_point start, pt_point from, int k, int m,
                                         double spread, double *dx, double *dy)
{
    double bx = (double)start.x - from.x, by = (double)start.y - from.y;
    double len = sqrt(bx * bx + by * by);
    if (!(len > 0.0))
        return 0;
    bx /= len;
    by /= len;
    double off = m > 1 ? spread * (2.0 * k / (m - 1) - 1.0) : 0.0;
    double c, s;
    pt_sb_cos_sin(off, &c, &s);
    *dx = bx * c - by * s;
    *dy = bx * s + by * c;
    return 1;
}

/* Length of a second-stage ray from `from`: a start inside the pupil sees the
 * far border at most about twice as far as the near one, so the ray ends at
 * 2.5 x the distance back to the start (plus the edge's reach) rather than
 * walking on into the iris; never longer than len2. */
static inline PT_HD int pt_sb_stage2_len(pt_point start, pt_point from, int len2, int gap)
{
    double bx = (double)start.x - from.x, by = (double)start.y - from.y;
    double reach = 2.5 * sqrt(bx * bx + by * by) + 2 * gap + 2;
    return reach < len2 ? (int)reach : len2;
}

/* ---- sampling ---------------------------------------------------------------- */

/* Bilinear sample at (x,y) inside the roi (hence inside the image). */
static inline PT_HD double pt_sb_sample(const pt_sb_view *c, double x, double y)
{
    int xi = (int)x, yi = (int)y;
    double fx = x - xi, fy = y - yi;
    int x1 = xi + 1 < c->width ? xi + 1 : xi, y1 = yi + 1 < c->height ? yi + 1 : yi;
    const uint8_t *r0 = c->buf + (long)yi * c->stride;
    const uint8_t *r1 = c->buf + (long)y1 * c->stride;
    double top = r0[xi] + fx * (r0[x1] - r0[xi]);
    double bottom = r1[xi] + fx * (r1[x1] - r1[xi]);
    return top + fy * (bottom - top);
}

/* The profile value and reflection flag at step t of the ray (sx,sy)+t(dx,dy);
 * 0 when t < 0, t > len or the point leaves the roi. The ray starts inside the
 * convex roi, so "inside" is monotone in t. */
static inline PT_HD int pt_sb_at(const pt_sb_view *c, double sx, double sy, double dx,
                                 double dy, int len, int t, float *v, int *skip)
{
    if (t < 0 || t > len)
        return 0;
    double x = sx + t * dx, y = sy + t * dy;
    if (!(x >= c->xmin && x <= c->xmax && y >= c->ymin && y <= c->ymax))
        return 0;
    *v = (float)pt_sb_sample(c, x, y);
    *skip = 0;
    if (c->mask) {
        int xi = (int)(x + 0.5), yi = (int)(y + 0.5);
        *skip = c->mask[(long)yi * c->stride + xi] != 0;
    }
    return 1;
}

/* The rise d(t) = I(t+g) - I(t-g); 0 when a sample is missing or a reflection. */
static inline PT_HD int pt_sb_rise(const pt_sb_view *c, double sx, double sy, double dx,
                                   double dy, int len, int t, float *d)
{
    float va, vb;
    int sa, sb;
    if (!pt_sb_at(c, sx, sy, dx, dy, len, t + c->gap, &va, &sa) ||
        !pt_sb_at(c, sx, sy, dx, dy, len, t - c->gap, &vb, &sb) || (sa | sb))
        return 0;
    *d = va - vb;
    return 1;
}

/* The first edge along a ray. A step starts at the first t where
 * d(t) = I(t+g) - I(t-g) > threshold (the paper's criterion); it is followed
 * uphill to its steepest point tb. A step whose bright side rises more than
 * max_step above its dark side is a corneal reflection, not the pupil border:
 * when the profile falls back to the dark level behind it (a reflection
 * inside the pupil) the walk goes on; otherwise the ray gives no point. The
 * edge point is where d first reaches edge_level * d(tb), linearly
 * interpolated (edge_level 1: the steepest point, refined by a parabola), so
 * the edge can be placed on the dark side of a blurred border. Returns 1 and
 * the point, or 0 when the ray leaves the roi (or reaches len) first. */
/* Whether a step starts at t (the serial walk's test, also run by a warp on
 * 32 consecutive t at once in cuda/): -1 the ray ends here (no edge), 0 no,
 * 1 yes with its rise in *d. */
static inline PT_HD int pt_sb_step_at(const pt_sb_view *c, double sx, double sy, double dx,
                                      double dy, int len, int t, float *d)
{
    const int g = c->gap;
    float va = 0, vb = 0, vt = 0;
    int sa = 0, sb = 0, st = 0;
    if (t + g > len || !pt_sb_at(c, sx, sy, dx, dy, len, t + g, &va, &sa))
        return -1;
    pt_sb_at(c, sx, sy, dx, dy, len, t - g, &vb, &sb);
    pt_sb_at(c, sx, sy, dx, dy, len, t, &vt, &st);
    if (sa | sb | st)
        return 0;
    *d = va - vb;
    return *d > c->threshold;
}

/* Where the grey level along the ray crosses the share edge_fraction of the
 * step from its dark to its bright side. The step found at t with its
 * steepest rise at tb spans [t - g, 2 tb - t + g] (symmetric about tb); its
 * dark and bright levels are the profile at those two ends. From tb, back
 * to the first u with I(u) <= level (or, when I(tb) <= level, forward to the
 * last such u before the level is passed), interpolated linearly towards
 * u + 1. Returns 1 and the position, or 0 (*pos untouched) when a sample is
 * missing or the step does not rise across its span. For a blurred step the
 * crossing lies a fixed number of blur widths from the midpoint (0.5),
 * whatever the detection gap: 0.25 is 0.67 sigma towards the dark side for a
 * Gaussian blur of sigma px. */
static inline PT_HD int pt_sb_level_crossing(const pt_sb_view *c, double sx, double sy, double dx,
                                             double dy, int len, int t, int g, int tb,
                                             double *pos)
{
    float dark, bright, vu, vn;
    int sk;
    int lo = t - g, hi = 2 * tb - t + g;
    if (!pt_sb_at(c, sx, sy, dx, dy, len, lo, &dark, &sk) ||
        !pt_sb_at(c, sx, sy, dx, dy, len, hi, &bright, &sk) || !(bright > dark))
        return 0;
    double level = dark + c->edge_fraction * ((double)bright - dark);
    int u = tb;
    if (!pt_sb_at(c, sx, sy, dx, dy, len, u, &vu, &sk))
        return 0;
    if (vu <= level) {
        for (;;) { /* forward: vu = I(u) <= level, find I(u + 1) > level */
            if (u + 1 > hi || !pt_sb_at(c, sx, sy, dx, dy, len, u + 1, &vn, &sk))
                return 0;
            if (vn > level)
                break;
            vu = vn;
            u++;
        }
    } else {
        for (;;) { /* back: vn = I(u) > level, find I(u - 1) <= level */
            vn = vu;
            if (u - 1 < lo || !pt_sb_at(c, sx, sy, dx, dy, len, u - 1, &vu, &sk))
                return 0;
            u--;
            if (vu <= level)
                break;
        }
    }
    *pos = u + (level - vu) / ((double)vn - vu);
    return 1;
}

/* The edge point of a step whose steepest rise best lies at tb (the step
 * was found at t, rise half-width g): where the grey level crosses
 * edge_fraction of the step (pt_sb_level_crossing, when edge_fraction > 0
 * and the crossing is found), else sub-pixel by a parabola through the
 * rises at tb - 1, tb, tb + 1 (edge_level 1), or where the rise first
 * reaches edge_level x best going back from tb; then edge_offset towards the
 * dark side. Shared by pt_sb_follow and the CUDA warp walk. */
static inline PT_HD void pt_sb_place_edge(const pt_sb_view *c, double sx, double sy, double dx,
                                          double dy, int len, int t, int g, int tb, float best,
                                          pt_point *edge)
{
    double pos = tb;
    if (c->edge_fraction > 0.0 &&
        pt_sb_level_crossing(c, sx, sy, dx, dy, len, t, g, tb, &pos)) {
        /* placed on the grey level */
    } else if (c->edge_level >= 1.0) {
        float prev, next;
        if (pt_sb_rise(c, sx, sy, dx, dy, len, tb - 1, &prev) &&
            pt_sb_rise(c, sx, sy, dx, dy, len, tb + 1, &next)) {
            double denom = (double)prev - 2.0 * best + next, offset = 0.0;
            if (denom < 0)
                offset = 0.5 * ((double)prev - next) / denom;
            if (offset > 0.5)
                offset = 0.5;
            if (offset < -0.5)
                offset = -0.5;
            pos = tb + offset;
        }
    } else {
        /* first u <= tb with d(u) >= level * best, interpolated from u - 1 */
        double want = c->edge_level * best;
        int u = tb;
        float du = best, dp;
        while (u > t - g && pt_sb_rise(c, sx, sy, dx, dy, len, u - 1, &dp) && dp >= want) {
            du = dp;
            u--;
        }
        pos = u;
        if (pt_sb_rise(c, sx, sy, dx, dy, len, u - 1, &dp) && dp < want && du > dp)
            pos = u - 1 + (want - dp) / ((double)du - dp);
    }
    pos -= c->edge_offset;
    if (pos < 0)
        pos = 0;
    edge->x = (float)(sx + pos * dx);
    edge->y = (float)(sy + pos * dy);
}

/* A rise at or above this share of a step's first peak belongs to the step
 * (pt_sb_step_peak). */
#define PT_SB_PEAK_HOLD 0.5f

/* The last position pt_sb_step_peak reads past a first peak at tb: as far
 * as the reflection check reads (pt_sb_follow). */
static inline PT_HD int pt_sb_peak_end(int tb, int gap)
{
    return tb + 12 * gap + 8;
}

/* The steepest point of the step whose first peak (the end of the uphill
 * walk from where the step starts) lies at *tb with rise *best (man page,
 * edge_peak). A border blurred over more than the rise's 2 gap px (defocus,
 * motion) gives a wide ramp whose rise is not one smooth hill: pixel noise
 * and the iris's texture make the walk stop at a small peak on the ramp's
 * dark foot, and the fit comes out small. With PT_SB_PEAK_STEP the step
 * goes on while the rise stays at or above PT_SB_PEAK_HOLD x the first
 * peak's (up to pt_sb_peak_end), and its greatest rise (the first of
 * equals) is the steepest point; a sharp border's rise falls below half
 * within its 2 gap px and keeps its peak. */
static inline PT_HD void pt_sb_step_peak(const pt_sb_view *c, double sx, double sy, double dx,
                                         double dy, int len, int *tb, float *best)
{
    if (c->edge_peak != PT_SB_PEAK_STEP)
        return;
    float hold = PT_SB_PEAK_HOLD * *best;
    int end = pt_sb_peak_end(*tb, c->gap);
    for (int u = *tb + 1; u <= end; u++) {
        float d;
        if (!pt_sb_rise(c, sx, sy, dx, dy, len, u, &d) || d < hold)
            break;
        if (d > *best) {
            *best = d;
            *tb = u;
        }
    }
}

/* A step starts at t with rise d: it is followed uphill to its steepest point
 * tb. A step whose bright side rises more than max_step above its dark side
 * is a corneal reflection, not the pupil border: when the profile falls back
 * to the dark level behind it (a reflection inside the pupil) the walk goes on
 * (returns 2, resume the search at *resume); otherwise the ray gives no point
 * (0). The edge point (returns 1) is where d first reaches edge_level * d(tb),
 * linearly interpolated (edge_level 1: the steepest point, refined by a
 * parabola), so the edge can be placed on the dark side of a blurred border. */
static inline PT_HD int pt_sb_follow(const pt_sb_view *c, double sx, double sy, double dx,
                                     double dy, int len, int t, float d, pt_point *edge,
                                     int *resume)
{
    const int g = c->gap;
    /* uphill to the steepest point of this step */
    int tb = t;
    float best = d;
    for (;;) {
        float next;
        if (!pt_sb_rise(c, sx, sy, dx, dy, len, tb + 1, &next) || !(next > best))
            break;
        best = next;
        tb++;
    }
    pt_sb_step_peak(c, sx, sy, dx, dy, len, &tb, &best);
    /* A corneal reflection is a narrow bright spot: when the profile falls
     * back to the dark level within reach, the spot lies inside the pupil and
     * the walk goes on behind it. A step that stays up but rises more than
     * max_step is a reflection on the border, which hides the edge: the ray
     * gives no point rather than a wrong one. */
    if (c->max_step > 0) {
        float base = 0, vu = 0;
        int s0, su;
        pt_sb_at(c, sx, sy, dx, dy, len, t - g, &base, &s0); /* t >= g: inside */
        float top = base;
        int reach = tb + 12 * g + 8, u = tb + 1, back = 0;
        for (; u <= reach && pt_sb_at(c, sx, sy, dx, dy, len, u, &vu, &su); u++) {
            if (vu > top)
                top = vu;
            if (top - base > 2 * c->threshold && vu < base + c->threshold) {
                back = 1;
                break;
            }
        }
        if (back) {
            *resume = u + g;
            return 2;
        }
        if (top - base > c->max_step)
            return 0;
    }
    pt_sb_place_edge(c, sx, sy, dx, dy, len, t, g, tb, best, edge);
    return 1;
}

/* The first edge along a ray (the paper's criterion: the first t where
 * d(t) = I(t+g) - I(t-g) > threshold, then pt_sb_follow). Returns 1 and the
 * point, or 0 when the ray leaves the roi (or reaches len) first. */
static inline PT_HD int pt_sb_cast(const pt_sb_view *c, double sx, double sy, double dx,
                                   double dy, int len, pt_point *edge)
{
    if (len > PT_SB_RAY_MAX)
        len = PT_SB_RAY_MAX;
    for (int t = c->gap;;) {
        float d = 0;
        int step = pt_sb_step_at(c, sx, sy, dx, dy, len, t, &d);
        if (step < 0)
            return 0;
        if (!step) {
            t++;
            continue;
        }
        int resume = 0, r = pt_sb_follow(c, sx, sy, dx, dy, len, t, d, edge, &resume);
        if (r != 2)
            return r;
        t = resume;
    }
}

/* ---- fitting helpers --------------------------------------------------------- */

/* Inlier band of a circle model: the fixed ransac_inlier, widened with the
 * radius so a circle fitted to a slightly elliptical pupil keeps both arcs. */
static inline PT_HD double pt_sb_circle_band(const pt_sb_config *k, double r)
{
    double rel = k->circle_tol * r;
    return rel > k->inlier ? rel : k->inlier;
}

static inline PT_HD int pt_sb_circle_inlier(const pt_sb_config *k, const pt_circle *c,
                                            double x, double y)
{
    return pt_circle_distance(c, x, y) <= pt_sb_circle_band(k, c->r);
}

/* Whether point (x, y) votes for circle c, a RANSAC sample's circle: within
 * ransac_inlier of it (PT_SB_VOTES_INLIER), or within its circle band
 * (PT_SB_VOTES_BAND). A band that grows with r lets a large circle collect
 * clutter: a straight lid edge stays within 0.1 r of a circle of radius r
 * over a chord longer than r, and the iris outline is a circle too; at a fixed
 * band the pupil's own border holds the most points. The best sample's
 * refit still takes all points within the band (pt_sb_circle_inlier), so an
 * elliptical pupil keeps both arcs. */
static inline PT_HD int pt_sb_circle_vote(const pt_sb_config *k, const pt_circle *c, double x,
                                          double y)
{
    if (k->circle_votes == PT_SB_VOTES_BAND)
        return pt_sb_circle_inlier(k, c, x, y);
    return pt_circle_distance(c, x, y) <= k->inlier;
}

/* Distance between two points with exact operations only (no hypot). */
static inline PT_HD double pt_sb_dist(double ax, double ay, double bx, double by)
{
    double dx = ax - bx, dy = ay - by;
    return sqrt(dx * dx + dy * dy);
}

#endif
