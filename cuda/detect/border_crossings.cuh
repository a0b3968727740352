/* lib/detect/border_crossings.h's search over a block of PT_CROSS_RAYS
 * threads, with the serial code's result bit for bit: thread k takes ray k's
 * levels and crossing (the same functions, so the same values), each median
 * is the value of the same rank (each thread ranks its value among all),
 * the crossings and the points kept are listed in ray order by ordered
 * compaction (cuda/core/block_rank.cuh), and the fits are warp_fit's on the
 * first warp (the serial fit's lane sums). Include in files built with
 * --fmad=false. */
#ifndef PT_CUDA_BORDER_CROSSINGS_CUH
#define PT_CUDA_BORDER_CROSSINGS_CUH

#include "cuda/core/block_rank.cuh"
#include "cuda/detect/warp_fit.cuh"
#include "lib/detect/border_crossings.h"

#define CROSS_THREADS PT_CROSS_RAYS
#define CROSS_WARPS (CROSS_THREADS / 32)

typedef struct {
    double inner[PT_CROSS_RAYS], outer[PT_CROSS_RAYS], val[PT_CROSS_RAYS];
    pt_point pts[PT_CROSS_RAYS]; /* the crossings in ray order */
    int keep[PT_CROSS_RAYS], idx[PT_CROSS_RAYS];
    int warp_counts[CROSS_WARPS];
    double stat;
    int fitted;
    pt_ellipse fit;
    warp_fit_shared fs;
} cross_shared;

/* pt_cross_rank_value over the block, to every thread: each kept value
 * counts the kept values ranked below it (the shared values are read by
 * all lanes at once). */
static __device__ double block_rank_value(const double *v, const int *keep, int count, int rank,
                                          cross_shared *S)
{
    if (threadIdx.x == 0)
        S->stat = 0.0;
    __syncthreads();
    int k = threadIdx.x;
    if (k < count && (!keep || keep[k])) {
        double mine = v[k];
        int below = 0;
        for (int u = 0; u < count; u++) {
            double vu = v[u];
            below += (!keep || keep[u]) & ((vu < mine) | ((vu == mine) & (u < k)));
        }
        if (below == rank)
            S->stat = mine;
    }
    __syncthreads();
    double r = S->stat;
    __syncthreads(); /* read by all before the next call writes it */
    return r;
}

/* The first warp's fit of S->pts[S->idx[0..m)], to every thread; 0 when it
 * fails. */
static __device__ int block_cross_fit(int m, cross_shared *S, pt_ellipse *fit)
{
    if (threadIdx.x < 32) {
        pt_ellipse e;
        int fitted = warp_fit(1, S->pts, S->idx, m, &S->fs, NULL, &e);
        if (threadIdx.x == 0) {
            S->fitted = fitted;
            S->fit = e;
        }
    }
    __syncthreads();
    int fitted = S->fitted;
    *fit = S->fit;
    __syncthreads();
    return fitted;
}

/* pt_border_crossings(img, e, out) over a block of CROSS_THREADS: every
 * thread calls it with the same arguments and gets the same return value
 * and *out. */
static __device__ int block_border_crossings(const pt_image *img, const pt_ellipse *e,
                                             pt_ellipse *out, cross_shared *S)
{
    const int k = threadIdx.x; /* this thread's ray */
    pt_cross_frame f;
    if (!pt_cross_frame_init(e, &f))
        return 0;
    int total;
    pt_cross_levels(img, &f, k, &S->inner[k], &S->outer[k]);
    S->keep[k] = S->inner[k] >= 0.0;
    pt_block_rank(S->keep[k], S->warp_counts, &total);
    if (total < PT_CROSS_RAYS / 2)
        return 0;
    double pupil = block_rank_value(S->inner, S->keep, PT_CROSS_RAYS, total / 2, S);
    S->keep[k] = S->outer[k] > pupil;
    S->val[k] = S->outer[k] - pupil;
    pt_block_rank(S->keep[k], S->warp_counts, &total);
    if (total < PT_CROSS_RAYS / 2)
        return 0;
    double rise = block_rank_value(S->val, S->keep, PT_CROSS_RAYS, total / 2, S);
    /* the crossings, listed in ray order */
    pt_point p;
    int has = pt_cross_point(img, &f, k, pupil, S->outer[k], rise, &p), n;
    int at = pt_block_rank(has, S->warp_counts, &n);
    if (has)
        S->pts[at] = p;
    if (n < PT_CROSS_MIN_POINTS)
        return 0;
    S->idx[k] = k;
    __syncthreads();
    pt_ellipse fit;
    int m = n, refit = 1; /* refit: the last round left points out (its fit is stale) */
    for (int round = 0; round < PT_CROSS_ROUNDS; round++) {
        if (!block_cross_fit(m, S, &fit))
            return 0;
        if (k < m)
            S->val[k] = pt_ellipse_distance(&fit, S->pts[S->idx[k]].x, S->pts[S->idx[k]].y);
        __syncthreads();
        double lim = pt_cross_trim_limit(block_rank_value(S->val, NULL, m, m / 2, S));
        /* those within lim, in order, in place (pt_block_rank synchronises
         * between every thread's read and the writes) */
        int in = k < m && S->val[k] <= lim, from = in ? S->idx[k] : 0, kept;
        int place = pt_block_rank(in, S->warp_counts, &kept);
        if (in)
            S->idx[place] = from;
        __syncthreads();
        int next = pt_cross_round_next(kept, m);
        if (next < 0)
            return 0;
        refit = next;
        if (!next)
            break;
        m = kept;
    }
    if ((refit && !block_cross_fit(m, S, &fit)) || !pt_cross_accept(e, &fit))
        return 0;
    *out = fit;
    return 1;
}

#endif
