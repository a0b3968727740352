/* RANSAC over the shared sample table (semantics documented in ransac.h). */
#include "lib/detect/ransac.h"
#include "lib/core/pt_clones.h"
#include "lib/core/pt_rng.h"

#include <math.h>
#include <stdlib.h>


static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman & Vigna): fixed-width integer arithmetic only, so
 * the table is bit-identical on every platform. */
static uint64_t xoshiro256ss_next(uint64_t s[4])
{
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

pt_status pt_ransac_table_create(pt_ransac_table *t, int samples, int sample_size,
                                 uint64_t seed, pt_error *err)
{
    t->samples = 0;
    t->sample_size = 0;
    t->values = NULL;
    if (samples < 1 || samples > PT_RANSAC_MAX_SAMPLES)
        return pt_error_set(err, PT_ERR_PARAM, "ransac_samples",
                            "RANSAC samples must be 1..%d, got %d", PT_RANSAC_MAX_SAMPLES,
                            samples);
    if (sample_size < PT_RANSAC_MIN_SAMPLE_SIZE || sample_size > PT_RANSAC_MAX_SAMPLE_SIZE)
        return pt_error_set(err, PT_ERR_PARAM, "ransac_sample_size",
                            "RANSAC sample size must be %d..%d, got %d",
                            PT_RANSAC_MIN_SAMPLE_SIZE, PT_RANSAC_MAX_SAMPLE_SIZE,
                            sample_size);
    size_t count = (size_t)samples * (size_t)sample_size;
    uint32_t *values = (uint32_t *)malloc(count * sizeof *values);
    if (!values)
        return pt_error_set(err, PT_ERR_NOMEM, "ransac_samples",
                            "cannot allocate a RANSAC table of %zu values", count);
    uint64_t sm = seed, state[4];
    for (int k = 0; k < 4; k++)
        state[k] = pt_rng_next(&sm);
    /* the high half of each output: xoshiro256**'s best bits */
    for (size_t k = 0; k < count; k++)
        values[k] = (uint32_t)(xoshiro256ss_next(state) >> 32);
    t->samples = samples;
    t->sample_size = sample_size;
    t->values = values;
    return PT_OK;
}

void pt_ransac_table_free(pt_ransac_table *t)
{
    if (!t)
        return;
    free(t->values);
    t->values = NULL;
    t->samples = 0;
    t->sample_size = 0;
}

/* The circle test pt_circle_distance(c, x, y) <= inlier_px, i.e.
 * |sqrt(d2) - r| <= t for d2 = dx^2 + dy^2, decided from d2 alone wherever
 * d2 lies clearly inside or outside the band: for radial distances more than
 * `margin` (a millionth of r + t) inside the band's edges the square root's
 * and the subtraction's roundings (below 1e-15 relative) cannot move the
 * result across t, so only points within the margin of an edge (and NaN)
 * need the exact test. */
typedef struct {
    double cx, cy, in_lo, in_hi, out_lo, out_hi;
} circle_band;

/* The band's sure regions for a radial margin (circle_band_make's or the
 * float test's). */
static circle_band circle_band_margin(const pt_circle *c, double t, double margin)
{
    circle_band b;
    double r = c->r;
    double lo = r - t, hi = r + t;
    b.cx = c->cx;
    b.cy = c->cy;
    /* Inside: lo + margin <= sqrt(d2) <= hi - margin (lo + margin <= 0: any d2 >= 0). */
    b.in_lo = lo + margin > 0.0 ? (lo + margin) * (lo + margin) : -1.0;
    b.in_hi = hi - margin > 0.0 ? (hi - margin) * (hi - margin) : -2.0;
    /* Outside: sqrt(d2) < lo - margin or > hi + margin. */
    b.out_lo = lo - margin > 0.0 ? (lo - margin) * (lo - margin) : -1.0;
    b.out_hi = (hi + margin) * (hi + margin);
    if (!(margin < INFINITY) || !(b.out_hi < INFINITY)) { /* nothing is sure: every point exact */
        b.in_lo = 1.0;
        b.in_hi = -2.0;
        b.out_lo = -1.0;
        b.out_hi = INFINITY;
    }
    return b;
}

static circle_band circle_band_make(const pt_circle *c, double t)
{
    return circle_band_margin(c, t, 1e-6 * (fabs(c->r) + fabs(t)));
}

/* The same decisions in float, where they are sure in float: for centres
 * and radii within PT_RANSAC_FLOAT_REACH px, float's roundings of the
 * centre (half an ulp below 2^14: 4.9e-4 px a coordinate), of the
 * differences (as much again near the band) and of d2 (1.8e-7 of it) move
 * a point near the band by less than 0.003 px radially, so a margin of
 * 0.01 px + 1e-5 (r + t) keeps every sure decision right; the thresholds
 * round outwards. `usable` is 0 where the float test cannot serve (far or
 * non-finite models). */
#define PT_RANSAC_FLOAT_REACH 16384.0

typedef struct {
    float cx, cy, in_lo, in_hi, out_lo, out_hi;
    int usable;
} circle_band_f;

static float round_up_f(double v)
{
    float f = (float)v;
    return (double)f < v ? nextafterf(f, INFINITY) : f;
}

static float round_down_f(double v)
{
    float f = (float)v;
    return (double)f > v ? nextafterf(f, -INFINITY) : f;
}

static circle_band_f circle_band_float(const pt_circle *c, double t)
{
    circle_band_f b = {0.0f, 0.0f, 1.0f, -2.0f, -1.0f, INFINITY, 0};
    double reach = PT_RANSAC_FLOAT_REACH;
    if (!(fabs(c->cx) <= reach && fabs(c->cy) <= reach && fabs(c->r) <= reach && t >= 0.0 &&
          t <= reach))
        return b;
    /* the sure regions shrink: inside bounds round in, outside bounds out */
    circle_band w = circle_band_margin(c, t, 0.01 + 1e-5 * (fabs(c->r) + t));
    b.cx = (float)c->cx;
    b.cy = (float)c->cy;
    b.in_lo = round_up_f(w.in_lo);
    b.in_hi = round_down_f(w.in_hi);
    b.out_lo = round_down_f(w.out_lo);
    b.out_hi = round_up_f(w.out_hi);
    b.usable = 1;
    return b;
}

#define VOTE_CHUNK 32

PT_VECTOR_CLONES int pt_ransac_circle_votes(const pt_point *pts, int n, const pt_circle *c,
                                            double inlier_px, int beat)
{
    circle_band b = circle_band_make(c, inlier_px);
    circle_band_f bf = circle_band_float(c, inlier_px);
    int votes = 0;
    for (int k0 = 0; k0 < n; k0 += VOTE_CHUNK) {
        int m = n - k0 < VOTE_CHUNK ? n - k0 : VOTE_CHUNK;
        const pt_point *p = pts + k0;
        int64_t in = 0, sure = 0;
        if (bf.usable) {
            /* 32-bit counts, as wide as the floats, so the loop vectorises. */
            int32_t in_f = 0, sure_f = 0;
#ifndef __clang__
#pragma omp simd reduction(+ : in_f, sure_f)
#endif
            for (int j = 0; j < m; j++) {
                float dx = p[j].x - bf.cx, dy = p[j].y - bf.cy;
                float d2 = dx * dx + dy * dy;
                int32_t inside = (int32_t)(d2 >= bf.in_lo) & (int32_t)(d2 <= bf.in_hi);
                in_f += inside;
                sure_f += inside | (int32_t)(d2 < bf.out_lo) | (int32_t)(d2 > bf.out_hi);
            }
            in = in_f;
            sure = sure_f;
        }
        if (sure != m) {
            /* 64-bit counts, as wide as the doubles, so the loop vectorises. */
            in = 0;
            sure = 0;
#ifndef __clang__ /* clang declines this loop in its -O1 builds and warns */
#pragma omp simd reduction(+ : in, sure)
#endif
            for (int j = 0; j < m; j++) {
                double dx = (double)p[j].x - b.cx, dy = (double)p[j].y - b.cy;
                double d2 = dx * dx + dy * dy;
                int64_t inside = (int64_t)(d2 >= b.in_lo) & (int64_t)(d2 <= b.in_hi);
                in += inside;
                sure += inside | (int64_t)(d2 < b.out_lo) | (int64_t)(d2 > b.out_hi);
            }
        }
        if (sure != m) {
            in = 0;
            for (int j = 0; j < m; j++)
                in += pt_circle_distance(c, p[j].x, p[j].y) <= inlier_px;
        }
        votes += (int)in;
        /* A sample that can no longer exceed beat needs no exact count. */
        if (beat >= 0 && votes + (n - k0 - m) <= beat)
            return votes;
    }
    return votes;
}


PT_VECTOR_CLONES int pt_ransac_circle_radial_votes(const pt_point *pts, const pt_point *dirs,
                                                   int n, const pt_circle *c, double inlier_px,
                                                   double min_cos, int beat)
{
    double cx = c->cx, cy = c->cy, r = c->r;
    int votes = 0;
    for (int k0 = 0; k0 < n; k0 += VOTE_CHUNK) {
        int m = n - k0 < VOTE_CHUNK ? n - k0 : VOTE_CHUNK;
        const pt_point *p = pts + k0, *q = dirs + k0;
        /* 64-bit counts, as wide as the doubles, so the loop vectorises;
         * one square root serves both tests, as pt_circle_distance takes it */
        int64_t in = 0;
#ifndef __clang__
#pragma omp simd reduction(+ : in)
#endif
        for (int j = 0; j < m; j++) {
            double dx = (double)p[j].x - cx, dy = (double)p[j].y - cy;
            double d = sqrt(dx * dx + dy * dy);
            double nx = q[j].x, ny = q[j].y;
            int64_t near = (int64_t)(fabs(d - r) <= inlier_px);
            int64_t along = (int64_t)(dx * nx + dy * ny >= min_cos * d) |
                            ((int64_t)(nx == 0.0) & (int64_t)(ny == 0.0));
            in += near & along;
        }
        votes += (int)in;
        if (beat >= 0 && votes + (n - k0 - m) <= beat)
            return votes;
    }
    return votes;
}

/* The points of one chunk that pt_ellipse_frame_within's bound cannot
 * decide: u, v are their ellipse-frame coordinates folded into the first
 * quadrant (as pt_ellipse_frame_distance computes them). Each lane runs
 * pt_ellipse_frame_distance's four iterations (lib/detect/fit.h) with the
 * same operations in the same order; where the scalar loop would break, the
 * lane stops moving its outline point (ca, sb). So every lane ends on the
 * scalar distance to the last bit. Returns how many lie within d. */
PT_VECTOR_CLONES static int64_t ellipse_lanes_within(const double *u, const double *v, int m,
                                                     double a, double b, double d)
{
    double ia = 1.0 / a, ib = 1.0 / b;
    double kx = (a * a - b * b) * ia, ky = (b * b - a * a) * ib;
    double ca[VOTE_CHUNK], sb[VOTE_CHUNK], live[VOTE_CHUNK];
    for (int j = 0; j < m; j++) {
        ca[j] = sb[j] = 0.70710678118654752440;
        live[j] = 1.0;
    }
    for (int it = 0; it < 4; it++) {
#ifndef __clang__ /* clang declines this loop in its -O1 builds and warns */
#pragma omp simd
#endif
        for (int j = 0; j < m; j++) {
            double c = ca[j], s = sb[j];
            double ex = kx * c * c * c, ey = ky * s * s * s;
            double rx = a * c - ex, ry = b * s - ey;
            double qx = u[j] - ex, qy = v[j] - ey;
            double r = sqrt(rx * rx + ry * ry), q = sqrt(qx * qx + qy * qy);
            double t = r / q;
            double nc = (qx * t + ex) * ia, ns = (qy * t + ey) * ib;
            /* the scalar clamp to [0, 1], NaN kept; every comparison made
             * on every lane, so the loop has no branches */
            int nc_lo = nc < 0.0, nc_hi = nc > 1.0, ns_lo = ns < 0.0, ns_hi = ns > 1.0;
            nc = nc_lo ? 0.0 : (nc_hi ? 1.0 : nc);
            ns = ns_lo ? 0.0 : (ns_hi ? 1.0 : ns);
            double len = sqrt(nc * nc + ns * ns);
            double il = 1.0 / len;
            int on = (live[j] > 0.0) & (q > 0.0) & (len > 0.0);
            live[j] = on ? 1.0 : 0.0;
            ca[j] = on ? nc * il : c;
            sb[j] = on ? ns * il : s;
        }
    }
    int64_t in = 0;
#ifndef __clang__
#pragma omp simd reduction(+ : in)
#endif
    for (int j = 0; j < m; j++) {
        double px = u[j] - a * ca[j], py = v[j] - b * sb[j];
        in += (int64_t)(sqrt(px * px + py * py) <= d);
    }
    return in;
}

/* Step 1c for an ellipse: pt_ellipse_frame_within(f, x, y, d) point by
 * point, a chunk at a time. The bounds reject the points clearly off the
 * outline and count those clearly on it in one vectorised pass; the rest
 * take the lanes' full test. */
PT_VECTOR_CLONES int pt_ransac_ellipse_votes(const pt_point *pts, int n, const pt_ellipse *e,
                                             double inlier_px, int beat)
{
    pt_ellipse_frame f;
    pt_ellipse_frame_init(e, &f);
    double d = inlier_px;
    int votes = 0;
    for (int k0 = 0; k0 < n; k0 += VOTE_CHUNK) {
        int m = n - k0 < VOTE_CHUNK ? n - k0 : VOTE_CHUNK;
        const pt_point *p = pts + k0;
        double u[VOTE_CHUNK], v[VOTE_CHUNK];
        int64_t open[VOTE_CHUNK], sure = 0;
#ifndef __clang__
#pragma omp simd reduction(+ : sure)
#endif
        for (int j = 0; j < m; j++) {
            double dx = (double)p[j].x - f.cx, dy = (double)p[j].y - f.cy;
            double uj = fabs(dx * f.cos_t + dy * f.sin_t);
            double vj = fabs(-dx * f.sin_t + dy * f.cos_t);
            u[j] = uj;
            v[j] = vj;
            int64_t near = (int64_t)pt_ellipse_frame_near(f.a, f.b, uj, vj, d);
            sure += near;
            open[j] = (int64_t)!pt_ellipse_frame_beyond(f.a, f.b, uj, vj, d) & !near;
        }
        votes += (int)sure;
        int left = 0;
        for (int j = 0; j < m; j++) {
            u[left] = u[j];
            v[left] = v[j];
            left += (int)open[j];
        }
        votes += (int)ellipse_lanes_within(u, v, left, f.a, f.b, d);
        /* A sample that can no longer exceed beat needs no exact count. */
        if (beat >= 0 && votes + (n - k0 - m) <= beat)
            return votes;
    }
    return votes;
}

static int usable_samples(const pt_ransac_table *t, int samples_used)
{
    if (!t || !t->values)
        return 0;
    return samples_used < t->samples ? samples_used : t->samples;
}

static void clear_fit(pt_ransac_fit *out)
{
    out->found = 0;
    out->votes = 0;
    out->sample = -1;
    out->circle.cx = out->circle.cy = out->circle.r = 0.0;
    pt_ellipse_from_circle(&out->circle, &out->ellipse);
}

int pt_ransac_circle(const pt_point *pts, int n, const pt_ransac_table *t, int samples_used,
                     double inlier_px, double min_r, double max_r, int *scratch_idx,
                     pt_ransac_fit *out)
{
    clear_fit(out);
    int rows = usable_samples(t, samples_used);
    int k_size = t ? t->sample_size : 0;
    if (n < k_size || k_size < 3 || k_size > PT_RANSAC_MAX_SAMPLE_SIZE)
        return 0;
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    int best_votes = -1, best_s = -1;
    pt_circle best = {0.0, 0.0, 0.0};
    for (int s = 0; s < rows; s++) {
        if (!pt_ransac_sample_indices(t->values, k_size, s, n, idx))
            continue;
        pt_circle c;
        if (!pt_fit_circle(pts, idx, k_size, &c) || !pt_ransac_circle_in_range(&c, min_r, max_r))
            continue;
        int votes = pt_ransac_circle_votes(pts, n, &c, inlier_px, best_votes);
        if (votes > best_votes) {
            best_votes = votes;
            best_s = s;
            best = c;
        }
    }
    if (best_s < 0)
        return 0;
    int inliers = 0;
    for (int k = 0; k < n; k++)
        if (pt_circle_distance(&best, pts[k].x, pts[k].y) <= inlier_px)
            scratch_idx[inliers++] = k;
    out->circle = best;
    pt_ransac_refit_inliers(0, pts, scratch_idx, inliers, min_r, max_r, &out->circle,
                            &out->ellipse);
    best = out->circle;
    out->found = 1;
    out->sample = best_s;
    out->votes = pt_ransac_circle_votes(pts, n, &best, inlier_px, -1);
    return 1;
}

int pt_ransac_ellipse(const pt_point *pts, int n, const pt_ransac_table *t,
                      int samples_used, double inlier_px, double min_r, double max_r,
                      int *scratch_idx, pt_ransac_fit *out)
{
    clear_fit(out);
    int rows = usable_samples(t, samples_used);
    int k_size = t ? t->sample_size : 0;
    if (n < k_size || k_size < 5 || k_size > PT_RANSAC_MAX_SAMPLE_SIZE)
        return 0;
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    int best_votes = -1, best_s = -1;
    pt_ellipse best = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int s = 0; s < rows; s++) {
        if (!pt_ransac_sample_indices(t->values, k_size, s, n, idx))
            continue;
        pt_ellipse e;
        if (!pt_fit_ellipse(pts, idx, k_size, &e) ||
            !pt_ransac_ellipse_in_range(&e, min_r, max_r))
            continue;
        int votes = pt_ransac_ellipse_votes(pts, n, &e, inlier_px, best_votes);
        if (votes > best_votes) {
            best_votes = votes;
            best_s = s;
            best = e;
        }
    }
    if (best_s < 0)
        return 0;
    pt_ellipse_frame f;
    pt_ellipse_frame_init(&best, &f);
    int inliers = 0;
    for (int k = 0; k < n; k++)
        if (pt_ellipse_frame_within(&f, pts[k].x, pts[k].y, inlier_px))
            scratch_idx[inliers++] = k;
    out->ellipse = best;
    pt_ransac_refit_inliers(1, pts, scratch_idx, inliers, min_r, max_r, &out->circle,
                            &out->ellipse);
    best = out->ellipse;
    out->found = 1;
    out->sample = best_s;
    out->votes = pt_ransac_ellipse_votes(pts, n, &best, inlier_px, -1);
    return 1;
}
