/* Device code shared by the Starburst kernels (cuda/starburst.cu, one block
 * per eye, used for --sequence; cuda/starburst_pipeline.cu, the throughput
 * path): sampling along rays, the edge search of omp/starburst.c cast_ray()
 * (serial, and warp-parallel with identical results), RANSAC sample fits. */
#ifndef PT_STARBURST_DEVICE_CUH
#define PT_STARBURST_DEVICE_CUH

#include "cuda_internal.h"

#include "../lib/fit.h"
#include "../lib/pt_result.h"
#include "../lib/ransac.h"

#define PI_D 3.14159265358979323846

typedef struct {
    const uint8_t *img;  /* smoothed plane */
    const uint8_t *mask; /* reflections to skip, or NULL */
    int pitch;
    double xmin, ymin, xmax, ymax;
    double threshold;
    int gap;
} ray_view;

static __device__ double sample_bilinear(const ray_view *c, int width, int height, double x, double y)
{
    int xi = (int)x, yi = (int)y;
    double fx = x - xi, fy = y - yi;
    int x1 = xi + 1 < width ? xi + 1 : xi, y1 = yi + 1 < height ? yi + 1 : yi;
    const uint8_t *r0 = c->img + (size_t)yi * c->pitch;
    const uint8_t *r1 = c->img + (size_t)y1 * c->pitch;
    double top = r0[xi] + fx * (r0[x1] - r0[xi]);
    double bottom = r1[xi] + fx * (r1[x1] - r1[xi]);
    return top + fy * (bottom - top);
}

static __device__ int ray_inside(const ray_view *c, double x, double y)
{
    return x >= c->xmin && x <= c->xmax && y >= c->ymin && y <= c->ymax;
}

static __device__ int ray_masked(const ray_view *c, double x, double y)
{
    if (!c->mask)
        return 0;
    int xi = (int)(x + 0.5), yi = (int)(y + 0.5);
    return c->mask[(size_t)yi * c->pitch + xi] != 0;
}

/* The profile value and skip flag at step t, or 0 when t is past the ray's end
 * (outside the roi or beyond len): the CPU's sampled array, computed on demand. */
static __device__ int ray_at(const ray_view *c, int width, int height, double sx, double sy, double dx,
                      double dy, int len, int t, float *v, int *skip)
{
    if (t > len)
        return 0;
    double x = sx + t * dx, y = sy + t * dy;
    if (!ray_inside(c, x, y))
        return 0;
    *v = (float)sample_bilinear(c, width, height, x, y);
    *skip = ray_masked(c, x, y);
    return 1;
}

/* Mirrors cast_ray() of omp/starburst.c. Steps are inside the ray while
 * ray_at() says so; the ray is a straight segment from a point inside the
 * convex roi, so "inside" is monotone in t. */
static __device__ int cast_ray(const ray_view *c, int width, int height, double sx, double sy, double dx,
                        double dy, int len, pt_point *edge)
{
    const int g = c->gap;
    if (len > 4095)
        len = 4095;
    for (int t = g;; t++) {
        float va, vb, vt;
        int sa, sb, st;
        if (!ray_at(c, width, height, sx, sy, dx, dy, len, t + g, &va, &sa))
            return 0;
        ray_at(c, width, height, sx, sy, dx, dy, len, t - g, &vb, &sb);
        ray_at(c, width, height, sx, sy, dx, dy, len, t, &vt, &st);
        if (sa | sb | st)
            continue;
        float d = va - vb;
        if (d <= c->threshold)
            continue;
        int tb = t;
        float best_f = d;
        for (;;) {
            float na, nb;
            int ska, skb;
            if (!ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 + g, &na, &ska))
                break;
            ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 - g, &nb, &skb);
            if (ska | skb)
                break;
            float next = na - nb;
            if (!(next > best_f))
                break;
            best_f = next;
            tb++;
        }
        double best = best_f, offset = 0.0;
        float pa, pb, qa, qb;
        int s1, s2, s3, s4;
        if (tb - 1 - g >= 0 &&
            ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 + g, &qa, &s3)) {
            ray_at(c, width, height, sx, sy, dx, dy, len, tb - 1 + g, &pa, &s1);
            ray_at(c, width, height, sx, sy, dx, dy, len, tb - 1 - g, &pb, &s2);
            ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 - g, &qb, &s4);
            double prev = pa - pb;
            double next = qa - qb;
            double denom = prev - 2 * best + next;
            if (denom < 0)
                offset = 0.5 * (prev - next) / denom;
            if (offset > 0.5)
                offset = 0.5;
            if (offset < -0.5)
                offset = -0.5;
        }
        edge->x = (float)(sx + (tb + offset) * dx);
        edge->y = (float)(sy + (tb + offset) * dy);
        return 1;
    }
}

static __device__ pt_point clamp_point(const ray_view *c, pt_point p)
{
    if (!(p.x >= c->xmin))
        p.x = (float)c->xmin;
    if (p.x > c->xmax)
        p.x = (float)c->xmax;
    if (!(p.y >= c->ymin))
        p.y = (float)c->ymin;
    if (p.y > c->ymax)
        p.y = (float)c->ymax;
    return p;
}

/* cast_ray() with the 32 lanes of a warp sampling 32 consecutive steps at
 * once; every lane returns the same answer, bit-identical to cast_ray(): the
 * samples are the same function of t, and the first step meeting the serial
 * loop's condition is found by ballot. Needs gap <= 12 (callers check). */
static __device__ int cast_ray_warp(const ray_view *c, int width, int height, double sx,
                                    double sy, double dx, double dy, int len, pt_point *edge)
{
    const int g = c->gap, lane = threadIdx.x & 31;
    const unsigned all = 0xffffffffu;
    if (g > 12) /* windows too narrow: every lane walks the ray itself */
        return cast_ray(c, width, height, sx, sy, dx, dy, len, edge);
    if (len > 4095)
        len = 4095;
    /* Phase 1: the first t >= g whose sample t+g is past the ray (no edge) or
     * where the rise v(t+g) - v(t-g) passes the threshold with no skipped sample. */
    int t = -1;
    for (int base = 0;; base += 32 - 2 * g) {
        float v = 0.f;
        int skip = 0;
        int ok = ray_at(c, width, height, sx, sy, dx, dy, len, base + lane, &v, &skip);
        float va = __shfl_sync(all, v, (lane + g) & 31), vb = __shfl_sync(all, v, (lane - g) & 31);
        int oka = __shfl_sync(all, ok, (lane + g) & 31);
        int sa = __shfl_sync(all, skip, (lane + g) & 31), sb = __shfl_sync(all, skip, (lane - g) & 31);
        int cand = lane >= g && lane <= 31 - g;
        int end = cand && !oka;
        int hit = cand && oka && !(sa | sb | skip) && (va - vb) > c->threshold;
        unsigned ballot = __ballot_sync(all, end | hit);
        if (ballot) {
            int first = __ffs(ballot) - 1;
            if (__shfl_sync(all, end, first))
                return 0;
            t = base + first;
            break;
        }
    }
    /* Phase 2: climb while the next rise is strictly larger. u = base + lane;
     * d(u) needs samples u +- g, d(u+1) samples u+1 +- g: lanes g..30-g. */
    int tb = t;
    for (int base = t - g;; base += 31 - 2 * g) {
        float v = 0.f;
        int skip = 0;
        int ok = ray_at(c, width, height, sx, sy, dx, dy, len, base + lane, &v, &skip);
        float v_ug = __shfl_sync(all, v, (lane + g) & 31), v_um = __shfl_sync(all, v, (lane - g) & 31);
        float v_1g = __shfl_sync(all, v, (lane + 1 + g) & 31);
        float v_1m = __shfl_sync(all, v, (lane + 1 - g) & 31);
        int ok_1g = __shfl_sync(all, ok, (lane + 1 + g) & 31);
        int s_1g = __shfl_sync(all, skip, (lane + 1 + g) & 31);
        int s_1m = __shfl_sync(all, skip, (lane + 1 - g) & 31);
        int u = base + lane;
        int cand = lane >= g && lane <= 30 - g && u >= t;
        float here = v_ug - v_um, next = v_1g - v_1m;
        int stop = cand && !(ok_1g && !(s_1g | s_1m) && next > here);
        unsigned ballot = __ballot_sync(all, stop);
        if (ballot) {
            tb = base + __ffs(ballot) - 1;
            break;
        }
    }
    /* Phase 3: parabola through the rises at tb-1, tb, tb+1 (as cast_ray()). */
    float bt_a = 0.f, bt_b = 0.f;
    int s0, s1;
    ray_at(c, width, height, sx, sy, dx, dy, len, tb + g, &bt_a, &s0);
    ray_at(c, width, height, sx, sy, dx, dy, len, tb - g, &bt_b, &s1);
    float best_f = bt_a - bt_b;
    double best = best_f, offset = 0.0;
    float pa, pb, qa, qb;
    int s2, s3, s4, s5;
    if (tb - 1 - g >= 0 && ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 + g, &qa, &s3)) {
        ray_at(c, width, height, sx, sy, dx, dy, len, tb - 1 + g, &pa, &s2);
        ray_at(c, width, height, sx, sy, dx, dy, len, tb - 1 - g, &pb, &s4);
        ray_at(c, width, height, sx, sy, dx, dy, len, tb + 1 - g, &qb, &s5);
        double prev = pa - pb;
        double next = qa - qb;
        double denom = prev - 2 * best + next;
        if (denom < 0)
            offset = 0.5 * (prev - next) / denom;
        if (offset > 0.5)
            offset = 0.5;
        if (offset < -0.5)
            offset = -0.5;
    }
    edge->x = (float)(sx + (tb + offset) * dx);
    edge->y = (float)(sy + (tb + offset) * dy);
    return 1;
}

static __device__ int count_votes(const pt_point *pts, int n, const pt_circle *c, const pt_ellipse *e,
                           int ellipse, double inlier)
{
    int votes = 0;
    if (ellipse) {
        pt_ellipse_frame f;
        pt_ellipse_frame_init(e, &f);
        for (int k = 0; k < n; k++)
            votes += pt_ellipse_frame_distance(&f, pts[k].x, pts[k].y) <= inlier;
    } else {
        for (int k = 0; k < n; k++)
            votes += pt_circle_distance(c, pts[k].x, pts[k].y) <= inlier;
    }
    return votes;
}

/* Fit of table row s; 0 when its indices repeat, the fit fails or leaves the range. */
static __device__ int sample_fit(const pt_cuda_params *p, const pt_point *pts, int n, int s, double min_r,
                          double max_r, pt_circle *c, pt_ellipse *e)
{
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    if (!pt_ransac_sample_indices(p->ransac_values, p->sample_size, s, n, idx))
        return 0;
    if (p->ellipse)
        return pt_fit_ellipse(pts, idx, p->sample_size, e) &&
               pt_ransac_ellipse_in_range(e, min_r, max_r);
    return pt_fit_circle(pts, idx, p->sample_size, c) &&
           pt_ransac_circle_in_range(c, min_r, max_r);
}

#endif
