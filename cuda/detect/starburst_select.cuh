/* One Starburst iteration's select step, block-wide (starburst_select of the
 * pipeline, cuda/detect/starburst.cu): given the best RANSAC row, its model, the refit on
 * its inliers, circle mode's ellipse refinement (lib/detect/starburst_refit.h) and
 * the confidence, with the same arithmetic as omp/detect/starburst.c.
 *
 * Everything is spread over the block: the inlier and candidate lists are
 * ordered compactions (ballots), the refinement's rows go to groups of
 * threads that split each row's votes over the candidates (integer counts,
 * so any split sums to the serial count), the confidence samples go one per
 * thread, and pt_sb_refit_finish runs as its pieces: the per-point tests
 * over the block, the checks on thread 0. The fits on many points (the
 * refit on the inliers, the refinement's final refit) run on the first
 * warp, each lane taking its share of fit.h's lane sums (select_fit); the
 * best row's fit, when the RANSAC kernel did not keep it, runs on thread
 * 0. Points are kept in shared memory when they fit. Include after
 * lib/detect/confidence.h. */
#ifndef PT_STARBURST_SELECT_CUH
#define PT_STARBURST_SELECT_CUH

#include "cuda/core/block_rank.cuh"
#include "cuda/detect/starburst_device.cuh"
#include "cuda/detect/warp_fit.cuh"

#include "lib/detect/confidence.h"
#include "lib/detect/starburst_inner.h"
#include "lib/detect/starburst_refit.h"
#include "lib/detect/starburst_visible.h"

/* Points of a job that the select step keeps in shared memory (more: it
 * reads them, and keeps its index lists, in global memory). */
#define SELECT_SHARED_POINTS 2048
#define SELECT_MAX_WARPS 32

typedef struct {
    pt_point pts[SELECT_SHARED_POINTS]; /* the job's points, when they fit */
    int idx[SELECT_SHARED_POINTS];      /* inliers, then the refinement's candidates */
    int warp_a[SELECT_MAX_WARPS], warp_b[SELECT_MAX_WARPS];
    int total_a; /* a value for every thread: a row, a flag */
    pt_circle circle;
    pt_ellipse ellipse;
    warp_fit_shared fit; /* select_fit's */
    /* select_levels: each angle's core and inner ring levels (-1: outside
     * the image), then the two order statistics */
    int level_core[PT_PUPIL_ANGLES], level_inner[PT_PUPIL_ANGLES], level_out[2];
    /* select_visible: each confidence sample's state and inside level, the pupil's level */
    int visible_state[PT_CONFIDENCE_SAMPLES], visible_inside[PT_CONFIDENCE_SAMPLES];
    int visible_level;
} sb_select_shared;

/* Whether row (votes ov, ro) beats (mv, mr): most votes, the lowest of
 * equals, a row < 0 (none) never. */
static __device__ int select_row_better(int ov, int ro, int mv, int mr)
{
    return ro >= 0 && (ov > mv || (ov == mv && (mr < 0 || ro < mr)));
}

/* Ordered compaction over the block: for k in [0, n), pick(k, &value)
 * says whether k is kept and what to write; the kept values go to list in
 * increasing k. Every thread reads (pick) before any writes in each tile of
 * blockDim.x, and a value never moves to a higher place, so list may be
 * what pick reads (compaction in place). Returns the count to every
 * thread. All threads call it. */
template <typename Pick>
static __device__ int select_compact(int n, Pick pick, int *list, sb_select_shared *S)
{
    int count = 0;
    for (int tile = 0; tile < n; tile += blockDim.x) {
        int k = tile + threadIdx.x, value = 0;
        int in = k < n && pick(k, &value);
        int total, rank = pt_block_rank(in, S->warp_a, &total);
        if (in)
            list[count + rank] = value;
        count += total;
    }
    __syncthreads(); /* the list written before any thread reads it */
    return count;
}

/* pt_fit_ellipse (ellipse) or pt_fit_circle, bit for bit, by the block's
 * first warp (cuda/detect/warp_fit.cuh: fit.h's sums in lane order, each
 * lane taking its own). Returns the fit's result and leaves the model in
 * S->circle or S->ellipse. All threads call it. Not inlined: the select
 * step calls it twice (the refit, the refinement's refit). */
static __device__ __noinline__ int select_fit(int ellipse, const pt_point *pts, const int *idx,
                                              int n, sb_select_shared *S)
{
    if (threadIdx.x < 32) {
        int fitted = warp_fit(ellipse, pts, idx, n, &S->fit, &S->circle, &S->ellipse);
        if (threadIdx.x == 0)
            S->total_a = fitted;
    }
    __syncthreads();
    int fitted = S->total_a;
    __syncthreads(); /* read by all before anyone writes total_a again */
    return fitted;
}

/* Sums of a and b over the block, to every thread. */
static __device__ void select_sum2(int *a, int *b, sb_select_shared *S)
{
    int x = *a, y = *b;
    for (int o = 16; o > 0; o >>= 1) {
        x += __shfl_xor_sync(0xffffffffu, x, o);
        y += __shfl_xor_sync(0xffffffffu, y, o);
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if (lane == 0) {
        S->warp_a[warp] = x;
        S->warp_b[warp] = y;
    }
    __syncthreads();
    x = y = 0;
    for (int w = 0; w < warps; w++) {
        x += S->warp_a[w];
        y += S->warp_b[w];
    }
    __syncthreads();
    *a = x;
    *b = y;
}

/* The best refinement row (pt_sb_circle_ellipse's loop) over the block:
 * groups of L threads (a power of two, L x rows <= blockDim.x when the
 * block allows) take rows g, g + G, ...; each thread of a group fits the
 * row (the same fit) and counts its share of the m candidates. Returns the
 * best row (-1: none) to every thread, and leaves its ellipse in
 * S->ellipse. */
static __device__ int select_refit_row(const pt_cuda_params *p, const pt_point *pts,
                                       const int *cand, int m, double min_r, double max_r,
                                       sb_select_shared *S)
{
    int rows = pt_sb_refit_rows(p->ransac_rows, p->sample_size);
    int lanes = 1;
    while (lanes < 32 && 2 * lanes * rows <= (int)blockDim.x)
        lanes *= 2;
    int groups = blockDim.x / lanes, g = threadIdx.x / lanes, q = threadIdx.x % lanes;
    int lo = q * m / lanes, hi = (q + 1) * m / lanes;
    int best_votes = -1, best_row = -1;
    pt_ellipse best_e = {0, 0, 0, 0, 0};
    for (int base = 0; base < rows; base += groups) {
        int r = base + g, ok = 0, votes = 0;
        pt_ellipse e;
        if (r < rows && pt_sb_refit_row_fit(p->ransac_values, r, pts, cand, m, min_r, max_r, &e)) {
            ok = 1;
            votes = pt_sb_refit_votes(&e, p->sb.inlier, pts, cand + lo, hi - lo);
        }
        for (int o = 1; o < lanes; o <<= 1)
            votes += __shfl_xor_sync(0xffffffffu, votes, o);
        if (ok && votes > best_votes) {
            best_votes = votes;
            best_row = r;
            best_e = e;
        }
    }
    int mine = best_row;
    for (int o = 16; o > 0; o >>= 1) {
        int ov = __shfl_down_sync(0xffffffffu, best_votes, o);
        int orow = __shfl_down_sync(0xffffffffu, best_row, o);
        if (select_row_better(ov, orow, best_votes, best_row)) {
            best_votes = ov;
            best_row = orow;
        }
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if (lane == 0) {
        S->warp_a[warp] = best_votes;
        S->warp_b[warp] = best_row;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int v = -1, row = -1;
        for (int w = 0; w < warps; w++)
            if (select_row_better(S->warp_a[w], S->warp_b[w], v, row)) {
                v = S->warp_a[w];
                row = S->warp_b[w];
            }
        S->total_a = row;
    }
    __syncthreads();
    int row = S->total_a;
    if (row >= 0 && mine == row && q == 0) /* the one group that fitted the best row */
        S->ellipse = best_e;
    __syncthreads();
    return row;
}

/* pt_sb_refit_finish over the block, from its pieces (lib/detect/starburst_refit.h),
 * given the best row's ellipse in S->ellipse (select_refit_row): the
 * candidates it keeps (compacted in place, in order), the refit and its
 * checks on thread 0, the two vote counts over the n points one per thread.
 * Returns 1 and *out (to every thread) when the ellipse is credible. */
static __device__ int select_refit_finish(const pt_sb_config *k, const pt_circle *c,
                                          const pt_point *pts, int n, int *cand, int m,
                                          double min_r, double max_r, sb_select_shared *S,
                                          pt_ellipse *out)
{
    pt_ellipse e = S->ellipse;
    pt_ellipse_frame f;
    pt_sb_ellipse_frame(&e, &f);
    int count = select_compact(
        m,
        [&](int j, int *v) {
            *v = cand[j];
            return pt_sb_refit_keep(k, &f, pts[*v].x, pts[*v].y);
        },
        cand, S);
    int fitted = select_fit(1, pts, cand, count, S); /* pt_fit_ellipse, the refit in S->ellipse */
    if (threadIdx.x == 0) {
        if (fitted && pt_ransac_ellipse_in_range(&S->ellipse, min_r, max_r))
            e = S->ellipse;
        S->total_a = pt_sb_refit_credible(k, c, &e);
        S->ellipse = e;
    }
    __syncthreads();
    int credible = S->total_a;
    e = S->ellipse;
    __syncthreads();
    if (!credible)
        return 0;
    /* the ellipse must hold at least as many points as the circle within ransac_inlier */
    pt_sb_ellipse_frame(&e, &f);
    int circle_votes = 0, ellipse_votes = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int cv, ev;
        pt_sb_refit_point_votes(k, c, &f, pts[i].x, pts[i].y, &cv, &ev);
        circle_votes += cv;
        ellipse_votes += ev;
    }
    select_sum2(&circle_votes, &ellipse_votes, S);
    if (ellipse_votes < circle_votes)
        return 0;
    *out = e;
    return 1;
}

/* pt_confidence_ellipse of e over the block (off > 0: the inner pass's
 * pt_confidence_ellipse_off, samples off px from the outline): its samples one
 * per thread, the two counts summed (integers: any order gives the serial
 * sums). */
static __device__ double select_confidence(const pt_image *view, const pt_ellipse *e, double off,
                                           sb_select_shared *S)
{
    double ct = 0, st = 0;
    int axes = pt_confidence_axes(e, &ct, &st);
    int valid = 0, dark_inside = 0;
    for (int k = threadIdx.x; axes && k < PT_CONFIDENCE_SAMPLES; k += blockDim.x) {
        int dark = 0;
        if (pt_confidence_sample_off(view, e, ct, st, k, off > 0 ? off : PT_CONFIDENCE_OFFSET,
                                     &dark)) {
            valid++;
            dark_inside += dark;
        }
    }
    select_sum2(&valid, &dark_inside, S);
    return axes ? pt_confidence_from_counts(valid, dark_inside) : 0.0;
}

/* pt_sb_levels_of of e over the block (blockDim.x >= PT_PUPIL_ANGLES):
 * angle k on thread k, each order statistic the level of the thread whose
 * rank (levels below its own, and equal ones at lower angles) is the
 * statistic's: the value the serial sort puts there. Every thread calls it
 * and gets the levels. */
static __device__ void select_levels(const pt_image *view, const pt_ellipse *e,
                                     sb_select_shared *S, pt_sb_levels *out)
{
    double ct = 0, st = 0;
    int axes = pt_confidence_axes(e, &ct, &st);
    int k = threadIdx.x, ok = 0, core = 0, inner = 0;
    if (axes && k < PT_PUPIL_ANGLES)
        ok = pt_sb_inner_angle(view, e, ct, st, k, &core, &inner);
    if (k < PT_PUPIL_ANGLES) {
        S->level_core[k] = ok ? core : -1;
        S->level_inner[k] = ok ? inner : -1;
    }
    if (k < 2)
        S->level_out[k] = 0;
    __syncthreads();
    int n = 0;
    for (int u = 0; u < PT_PUPIL_ANGLES; u++)
        n += S->level_core[u] >= 0;
    if (ok) {
        int rank_core = 0, rank_inner = 0;
        for (int u = 0; u < PT_PUPIL_ANGLES; u++) {
            int cu = S->level_core[u], iu = S->level_inner[u];
            if (cu < 0)
                continue;
            rank_core += cu < core || (cu == core && u < k);
            rank_inner += iu < inner || (iu == inner && u < k);
        }
        if (rank_core == (n - 1) / 2)
            S->level_out[0] = core;
        if (rank_inner == pt_sb_inner_rank(n))
            S->level_out[1] = inner;
    }
    __syncthreads();
    out->valid = n;
    out->core = S->level_out[0];
    out->inner = S->level_out[1];
    __syncthreads();
}

/* pt_visible_confidence of e over the block (blockDim.x >=
 * PT_CONFIDENCE_SAMPLES): sample k on thread k, the pupil's level from the
 * thread whose rank is the median's, the counts summed (integers: any
 * order gives the serial sums). Every thread calls it and gets the value. */
static __device__ double select_visible(const pt_image *view, const pt_ellipse *e,
                                        sb_select_shared *S)
{
    double ct = 0, st = 0;
    int axes = pt_confidence_axes(e, &ct, &st);
    int k = threadIdx.x, sampled = k < PT_CONFIDENCE_SAMPLES;
    if (sampled) {
        int inside = 0;
        S->visible_state[k] = axes ? pt_visible_sample(view, e, ct, st, k, &inside)
                                   : PT_VISIBLE_NONE;
        S->visible_inside[k] = inside;
    }
    if (k == 0)
        S->visible_level = 0;
    __syncthreads();
    int valid = sampled && S->visible_state[k] != PT_VISIBLE_NONE;
    int pass = sampled && S->visible_state[k] == PT_VISIBLE_PASS;
    select_sum2(&valid, &pass, S);
    if (sampled && S->visible_state[k] == PT_VISIBLE_PASS &&
        pt_visible_rank(S->visible_state, S->visible_inside, k) == pass / 2)
        S->visible_level = S->visible_inside[k];
    __syncthreads();
    int level = S->visible_level;
    int covered = sampled && pt_visible_covered(S->visible_state, S->visible_inside, k, level);
    int covered_pass = covered && S->visible_state[k] == PT_VISIBLE_PASS;
    int arcs = sampled && pt_visible_arc_start(S->visible_state, S->visible_inside, k, level);
    int unused = 0;
    select_sum2(&covered, &covered_pass, S);
    select_sum2(&arcs, &unused, S);
    if (!axes)
        return 0.0;
    return pt_visible_from_counts(valid, pass, covered, covered_pass, arcs);
}

/* The select step of one iteration for row s >= 0 of the RANSAC table (the
 * best over pts[0..n), global memory): every thread of the block calls it
 * with the same arguments (blockDim.x a multiple of 32, at most 1024).
 * scratch: n ints of global memory, used when n > SELECT_SHARED_POINTS.
 * model: row s's model as sample_fit() gave it (from the RANSAC kernel;
 * NULL: fitted here, on thread 0).
 * On return (to every thread) *cc / *ee: the iteration's circle and ellipse
 * (in circle mode ee is the circle or the refined ellipse it reports), and
 * the confidence of ee (off > 0: select_confidence's inner pass). max_r: the
 * largest radius accepted (job->max_r, or less in the inner pass). */
static __device__ double select_step(const pt_cuda_params *p, const pt_cuda_eye_job *job,
                                     double max_r, double off, const pt_image *view,
                                     const pt_point *gpts,
                                     int n, int s, const pt_cuda_sb_model *model, int *scratch,
                                     sb_select_shared *S, pt_circle *cc, pt_ellipse *ee)
{
    int in_shared = n <= SELECT_SHARED_POINTS;
    const pt_point *pts = in_shared ? S->pts : gpts;
    int *idx = in_shared ? S->idx : scratch;
    double min_r = job->min_r;
    if (in_shared)
        for (int k = threadIdx.x; k < n; k += blockDim.x)
            S->pts[k] = gpts[k];
    __syncthreads();
    if (threadIdx.x == 0) {
        pt_circle c = {0, 0, 0};
        pt_ellipse e = {0, 0, 0, 0, 0};
        if (model) {
            c = model->circle;
            e = model->ellipse;
        } else {
            sample_fit(p, pts, n, s, min_r, max_r, &c, &e);
        }
        S->circle = c;
        S->ellipse = e;
    }
    __syncthreads();
    pt_circle c = S->circle;
    pt_ellipse e = S->ellipse;
    /* the model's inliers, in point order, and the refit on them */
    int count;
    const int fits_ellipse = pt_sb_fits_ellipse(&p->sb, p->ellipse);
    if (fits_ellipse) {
        pt_ellipse_frame f;
        pt_ellipse_frame_init(&e, &f);
        double band = p->inlier;
        count = select_compact(
            n,
            [&](int j, int *v) {
                *v = j;
                return pt_ellipse_frame_distance(&f, pts[j].x, pts[j].y) <= band;
            },
            idx, S);
    } else {
        const pt_sb_config *k = &p->sb;
        count = select_compact(
            n,
            [&](int j, int *v) {
                *v = j;
                return pt_sb_circle_inlier(k, &c, pts[j].x, pts[j].y);
            },
            idx, S);
    }
    /* pt_ransac_refit_inliers, its fit over the block */
    int fitted = select_fit(fits_ellipse, pts, idx, count, S);
    if (threadIdx.x == 0) {
        pt_ransac_refit_keep(fits_ellipse, fitted, &S->circle, &S->ellipse, min_r, max_r, &c, &e);
        S->circle = c;
        S->ellipse = e;
    }
    __syncthreads();
    c = S->circle;
    e = S->ellipse;
    if (!fits_ellipse && p->sb.circle_refit == PT_SB_REFIT_ELLIPSE) {
        /* circle mode's ellipse refinement: candidates in point order, the
         * rows over the block, the best row finished on thread 0 */
        const pt_sb_config *k = &p->sb;
        int m = select_compact(
            n,
            [&](int j, int *v) {
                *v = j;
                return pt_sb_refit_candidate(k, &c, pts[j].x, pts[j].y);
            },
            idx, S);
        if (m >= PT_SB_REFIT_SAMPLE) {
            int row = select_refit_row(p, pts, idx, m, min_r, max_r, S);
            pt_ellipse refined;
            if (row >= 0 &&
                select_refit_finish(k, &c, pts, n, idx, m, min_r, max_r, S, &refined)) {
                e = refined;
                c.cx = refined.cx;
                c.cy = refined.cy;
                c.r = 0.5 * (refined.a + refined.b);
            }
        }
    }
    *cc = c;
    *ee = e;
    return select_confidence(view, &e, off, S);
}

#endif
