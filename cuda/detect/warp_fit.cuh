/* lib/detect/fit.h's circle and ellipse fits and lib/detect/confidence.h's
 * confidence taken by one warp, with the serial code's results bit for bit
 * (files that include it build with --fmad=false, as fit.h's users do).
 *
 * A fit's sums (the mean's x and y, the RMS's u^2 + v^2, then the moments'
 * pt_fit_circle_term / pt_fit_ellipse_term) are added in point order, one
 * dependent addition after another, as the serial loops add them: the warp
 * computes every term of a chunk of points into shared memory and lane j
 * adds term j's values. The per-point loads and arithmetic, which made a
 * single thread's fit wait on every point in turn, run across the lanes.
 * The confidence's samples are shared out over the lanes and its two
 * integer counts summed, which any order gives exactly. */
#ifndef PT_CUDA_WARP_FIT_CUH
#define PT_CUDA_WARP_FIT_CUH

#include "lib/detect/confidence.h"
#include "lib/detect/fit.h"

#define WARP_FIT_CHUNK 64 /* points whose terms are held at a time */

/* Shared memory of one warp's fits. */
typedef struct {
    double sum[PT_FIT_ELLIPSE_MOMENTS];
    double terms[PT_FIT_ELLIPSE_MOMENTS * WARP_FIT_CHUNK]; /* term-major */
} warp_fit_shared;

/* Sum of v over the 32 lanes of a warp, to every lane (sm_75 has no
 * __reduce_add_sync). */
static __device__ __forceinline__ int warp_isum(int v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Adds term(j, i) over the chunk's points i < cnt to sum[j], j < nterms,
 * each sum in point order by lane j. Every lane calls it. */
template <typename Term>
static __device__ void warp_fit_chunk(int nterms, int cnt, Term term, warp_fit_shared *S)
{
    const int lane = threadIdx.x & 31;
    for (int q = lane; q < nterms * cnt; q += 32) {
        int j = q / cnt, i = q - j * cnt;
        S->terms[j * WARP_FIT_CHUNK + i] = term(j, i);
    }
    __syncwarp();
    if (lane < nterms) {
        const double *t = S->terms + lane * WARP_FIT_CHUNK;
        double acc = S->sum[lane];
#pragma unroll 8
        for (int i = 0; i < cnt; i++)
            acc += t[i];
        S->sum[lane] = acc;
    }
    __syncwarp();
}

/* Sets sum[0..count) to zero. Every lane calls it. */
static __device__ __forceinline__ void warp_fit_clear(int count, warp_fit_shared *S)
{
    __syncwarp();
    if ((threadIdx.x & 31) < count)
        S->sum[threadIdx.x & 31] = 0.0;
    __syncwarp();
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
    const int lane = threadIdx.x & 31;
    warp_fit_clear(2, S);
    for (int base = 0; base < n; base += WARP_FIT_CHUNK)
        warp_fit_chunk(2, min(WARP_FIT_CHUNK, n - base),
                       [&](int j, int i) {
                           pt_point p = pt_fit_point_at(pts, idx, base + i);
                           return j ? (double)p.y : (double)p.x;
                       },
                       S);
    double mx, my, scale, inv;
    if (!pt_fit_mean_from_sums(S->sum[0], S->sum[1], n, &mx, &my))
        return 0;
    warp_fit_clear(1, S);
    for (int base = 0; base < n; base += WARP_FIT_CHUNK)
        warp_fit_chunk(1, min(WARP_FIT_CHUNK, n - base),
                       [&](int, int i) {
                           return pt_fit_square_term(pt_fit_point_at(pts, idx, base + i), mx, my);
                       },
                       S);
    if (!pt_fit_scale_from_sum(S->sum[0], n, &scale, &inv))
        return 0;
    const int nterms = ellipse ? PT_FIT_ELLIPSE_MOMENTS : PT_FIT_CIRCLE_MOMENTS;
    warp_fit_clear(nterms, S);
    for (int base = 0; base < n; base += WARP_FIT_CHUNK)
        warp_fit_chunk(nterms, min(WARP_FIT_CHUNK, n - base),
                       [&](int j, int i) {
                           pt_point p = pt_fit_point_at(pts, idx, base + i);
                           double x = (p.x - mx) * inv, y = (p.y - my) * inv;
                           return ellipse ? pt_fit_ellipse_term(j, x, y)
                                          : pt_fit_circle_term(j, x, y);
                       },
                       S);
    if (lane != 0)
        return 0;
    return ellipse ? pt_fit_ellipse_from_sums(S->sum, n, mx, my, scale, e)
                   : pt_fit_circle_from_sums(S->sum, n, mx, my, scale, c);
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
