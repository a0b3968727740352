/* lib/detect/fit.h's circle and ellipse fits and lib/detect/confidence.h's
 * confidence taken by one warp, with the serial code's results bit for bit
 * (files that include it build with --fmad=false, as fit.h's users do).
 *
 * fit.h takes every sum over the points in lane order (PT_FIT_LANES = 32):
 * lane l adds the terms of points l, l + 32, ... in turn, then the lanes'
 * sums are added in lane order. Here lane l of the warp takes its own sums,
 * and lane j then adds the 32 lanes' sums of term j in lane order: the
 * same additions in the same order, so the warp gets the serial code's
 * sums. The confidence's samples are shared out over the lanes and its
 * two integer counts summed, which any order gives exactly. */
#ifndef PT_CUDA_WARP_FIT_CUH
#define PT_CUDA_WARP_FIT_CUH

#include "lib/detect/confidence.h"
#include "lib/detect/fit.h"

#if PT_FIT_LANES != 32
#error "warp_fit.cuh takes fit.h's lane sums over the 32 lanes of a warp"
#endif

/* Sum of v over the 32 lanes of a warp, to every lane (sm_75 has no
 * __reduce_add_sync). */
static __device__ __forceinline__ int warp_isum(int v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Shared memory of one warp's fits: each lane's sums, term-major. */
typedef struct {
    double lanes[PT_FIT_ELLIPSE_MOMENTS * 32];
} warp_fit_shared;

/* The NT sums of term(k, t) (t[0..NT) the terms of point k) over the
 * points k < n in fit.h's lane order, to sum[] of every lane: each lane
 * takes its own sums, lane j then adds the lanes' sums of term j in lane
 * order (from shared memory, so the NT chains run side by side) and the
 * totals go to every lane by shuffles. Every lane calls it with the same
 * arguments. */
template <int NT, typename Term>
static __device__ __forceinline__ void warp_lane_sums(int n, Term term, warp_fit_shared *S,
                                                      double sum[NT])
{
    const int lane = threadIdx.x & 31;
    if (lane < n) {
        double own[NT], t[NT];
        term(lane, own);
        for (int k = lane + 32; k < n; k += 32) {
            term(k, t);
#pragma unroll
            for (int j = 0; j < NT; j++)
                own[j] += t[j];
        }
#pragma unroll
        for (int j = 0; j < NT; j++)
            S->lanes[j * 32 + lane] = own[j];
    }
    __syncwarp();
    double total = 0.0;
    if (lane < NT) {
        const double *l = S->lanes + lane * 32;
        int lanes = n < 32 ? n : 32;
        total = l[0];
        for (int i = 1; i < lanes; i++)
            total += l[i];
    }
#pragma unroll
    for (int j = 0; j < NT; j++)
        sum[j] = __shfl_sync(0xffffffffu, total, j);
    __syncwarp(); /* S->lanes read by all before the next sums write it */
}

/* pt_fit_normalise of pts[idx[0..n)] (pts[0..n) when idx is NULL), bit for
 * bit, to every lane. */
static __device__ int warp_fit_normalise(const pt_point *pts, const int *idx, int n,
                                         warp_fit_shared *S, double *mx, double *my,
                                         double *scale, double *inv)
{
    double s2[2];
    warp_lane_sums<2>(n,
                      [&](int k, double *t) {
                          pt_point p = pt_fit_point_at(pts, idx, k);
                          t[0] = p.x;
                          t[1] = p.y;
                      },
                      S, s2);
    if (!pt_fit_mean_from_sums(s2[0], s2[1], n, mx, my))
        return 0;
    const double cx = *mx, cy = *my;
    double s1[1];
    warp_lane_sums<1>(n,
                      [&](int k, double *t) {
                          t[0] = pt_fit_square_term(pt_fit_point_at(pts, idx, k), cx, cy);
                      },
                      S, s1);
    return pt_fit_scale_from_sum(s1[0], n, scale, inv);
}

/* pt_fit_ellipse (ellipse) or pt_fit_circle of pts[idx[0..n)] (pts[0..n)
 * when idx is NULL), bit for bit. Every lane calls it with the same
 * arguments; lane 0 gets the fit's return value and *c or *e, the other
 * lanes 0 and nothing written. */
static __device__ int warp_fit(int ellipse, const pt_point *pts, const int *idx, int n,
                               warp_fit_shared *S, pt_circle *c, pt_ellipse *e)
{
    if (n < (ellipse ? 5 : 3))
        return 0;
    double mx, my, scale, inv;
    if (!warp_fit_normalise(pts, idx, n, S, &mx, &my, &scale, &inv))
        return 0;
    const int lane = threadIdx.x & 31;
    if (ellipse) {
        double m[PT_FIT_ELLIPSE_MOMENTS];
        warp_lane_sums<PT_FIT_ELLIPSE_MOMENTS>(
            n,
            [&](int k, double *t) {
                pt_point p = pt_fit_point_at(pts, idx, k);
                pt_fit_ellipse_terms((p.x - mx) * inv, (p.y - my) * inv, t);
            },
            S, m);
        return lane == 0 ? pt_fit_ellipse_from_sums(m, n, mx, my, scale, e) : 0;
    }
    double m[PT_FIT_CIRCLE_MOMENTS];
    warp_lane_sums<PT_FIT_CIRCLE_MOMENTS>(
        n,
        [&](int k, double *t) {
            pt_point p = pt_fit_point_at(pts, idx, k);
            pt_fit_circle_terms((p.x - mx) * inv, (p.y - my) * inv, t);
        },
        S, m);
    return lane == 0 ? pt_fit_circle_from_sums(m, n, mx, my, scale, c) : 0;
}

/* pt_confidence_ellipse of e, to every lane. Every lane calls it with the
 * same e. */
static __device__ double warp_confidence(const pt_image *img, const pt_ellipse *e)
{
    double ct = 0, st = 0;
    if (!pt_confidence_axes(e, &ct, &st))
        return 0.0;
    int valid = 0, dark_inside = 0;
    for (int k = threadIdx.x & 31; k < PT_CONFIDENCE_SAMPLES; k += 32) {
        int dark = 0;
        if (pt_confidence_sample(img, e, ct, st, k, &dark)) {
            valid++;
            dark_inside += dark;
        }
    }
    return pt_confidence_from_counts(warp_isum(valid), warp_isum(dark_inside));
}

static __device__ __forceinline__ double warp_confidence_circle(const pt_image *img,
                                                                const pt_circle *c)
{
    pt_ellipse e = {c->cx, c->cy, c->r, c->r, 0.0};
    return warp_confidence(img, &e);
}

#endif
