/* RANSAC over each tl task's border points, pt_ransac_circle /
 * pt_ransac_ellipse (lib/detect/ransac.h) with the task's inlier band:
 *
 *   tl_models  block per (256 rows of the sample table, task): thread per
 *              row fits its sample, the model kept for the votes.
 *   tl_ransac  block per (rows of the sample table, share of the points,
 *              task): each row's model's votes over the block's chunks of
 *              1024 points (shared memory; 128 in a launch of few tasks,
 *              whose votes then spread over more blocks), a thread a row
 *              of 256 for circles; tl_ransac_ellipse: a warp a row for
 *              ellipses (its lanes over the points, which share the
 *              ellipse's closest-point steps), 8 rows a block in a launch
 *              of few tasks; the counts go to the row's total by atomics. Border
 *              lists run from a few hundred to 10^5 points: splitting them
 *              keeps every block short. Circle votes first test in float
 *              with a margin far above float rounding and take the double
 *              distance only near the band's edges, so every vote is the
 *              CPU's.
 *   tl_select  block per task: the best row (most votes, ties to the lowest
 *              row), its inliers in point order (ballots), the refit on them,
 *              the votes of the final model (block sum), its confidence and
 *              quality = votes / n x confidence. The refit is lib/detect/fit.h's,
 *              bit for bit, on the first warp (warp_refit: each lane takes its
 *              share of fit.h's lane sums), the inliers read from shared
 *              memory up to TL_SHARED_REFIT of them. The confidence's samples
 *              are shared out over the warp. */
#include "cuda/core/block_rank.cuh"
#include "cuda/detect/tl_internal.h"

#include "lib/detect/fit.h"
#include "lib/io/pt_image.h"
#include "lib/detect/pt_result.h"
#include "lib/detect/ransac.h"
#include "lib/detect/starburst_ray.h"

#include "lib/detect/confidence.h"

#define RANSAC_THREADS 256 /* rows per block */
#define RANSAC_CHUNK 1024  /* points in shared memory at a time */
#define RANSAC_SPLITS 32   /* blocks sharing the points of one row block */
#define RANSAC_FEW_TASKS 8 /* launches of at most this many tasks ... */
#define RANSAC_FEW_SPAN 128 /* ... give each block this many points */
#define RANSAC_FEW_ROWS 8   /* ... and their ellipse votes this many rows: one a warp */
#define TL_SHARED_REFIT 4096

/* Model of table row s over the n points pts[0], pts[step], ...; 0 when its
 * indices repeat, the fit fails or leaves the range. */
static __device__ int sample_model(const pt_cuda_params &p, int ellipse, const pt_point *pts,
                                   int n, int step, int s, double min_r, double max_r,
                                   pt_circle *c, pt_ellipse *e)
{
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    if (!pt_ransac_sample_indices(p.ransac_values, p.sample_size, s, n, idx))
        return 0;
    for (int k = 0; k < p.sample_size; k++)
        idx[k] *= step;
    if (ellipse)
        return pt_fit_ellipse(pts, idx, p.sample_size, e) &&
               pt_ransac_ellipse_in_range(e, min_r, max_r);
    return pt_fit_circle(pts, idx, p.sample_size, c) &&
           pt_ransac_circle_in_range(c, min_r, max_r);
}

/* Whether point q is an inlier of the model (f: the ellipse's frame). */
static __device__ __forceinline__ bool inlier(int ellipse, const pt_circle &c,
                                              const pt_ellipse_frame &f, pt_point q, double band)
{
    return ellipse ? pt_ellipse_frame_within(&f, q.x, q.y, band)
                   : pt_circle_distance(&c, q.x, q.y) <= band;
}

/* Votes with a float pre-test on the distance from the centre: a point
 * farther than hi + m or nearer than lo - m gets no vote, one between
 * lo + m and hi - m gets one (circles only), any other the exact test of the
 * CPU. Circle: [lo, hi] = r -/+ band. Ellipse: [b - band, a + band], outside
 * which the outline (between b and a from the centre) is more than band away.
 * m is about 25 times the float error of the distance for coordinates up to
 * |cx| + |cy|, so every vote is the CPU's. */
typedef struct {
    pt_circle c;
    pt_ellipse_frame f;
    double band;
    float cx, cy, out_lo2, in_lo2, in_hi2, out_hi2;
} vote_test;

static __device__ vote_test vote_test_make(int ellipse, const pt_circle &c, const pt_ellipse &e,
                                           double band)
{
    vote_test k;
    k.c = c;
    k.band = band;
    double cx = ellipse ? e.cx : c.cx, cy = ellipse ? e.cy : c.cy;
    double lo = (ellipse ? fmin(e.a, e.b) : c.r) - band, hi = (ellipse ? fmax(e.a, e.b) : c.r) + band;
    double m = 1e-5 * (fabs(cx) + fabs(cy) + hi + 1.0);
    if (ellipse)
        pt_ellipse_frame_init(&e, &k.f);
    k.cx = (float)cx;
    k.cy = (float)cy;
    k.out_lo2 = lo - m > 0 ? (float)((lo - m) * (lo - m)) : -1.0f;
    k.in_lo2 = lo + m > 0 ? (float)((lo + m) * (lo + m)) : 0.0f;
    k.in_hi2 = !ellipse && hi - m > 0 ? (float)((hi - m) * (hi - m)) : -1.0f;
    k.out_hi2 = (float)((hi + m) * (hi + m));
    return k;
}

/* An ellipse's vote, for a warp whose lanes share k: the float pre-test,
 * then pt_ellipse_frame_within. */
static __device__ __forceinline__ int vote_ellipse(const vote_test &k, pt_point q)
{
    float dx = q.x - k.cx, dy = q.y - k.cy;
    float d2 = dx * dx + dy * dy;
    if (d2 < k.out_lo2 || d2 > k.out_hi2)
        return 0;
    return pt_ellipse_frame_within(&k.f, q.x, q.y, k.band);
}

/* A circle's vote: the float pre-test decides most points. */
static __device__ __forceinline__ int vote_circle(const vote_test &k, pt_point q)
{
    float dx = q.x - k.cx, dy = q.y - k.cy;
    float d2 = dx * dx + dy * dy;
    if (d2 < k.out_lo2 || d2 > k.out_hi2)
        return 0;
    if (d2 >= k.in_lo2 && d2 <= k.in_hi2)
        return 1;
    return pt_circle_distance(&k.c, q.x, q.y) <= k.band;
}

/* Points base .. base + span of the n (every step-th of pts) to chunk in
 * shared memory, once every thread is done with the chunk before; returns
 * how many. */
static __device__ int load_chunk(pt_point *chunk, const pt_point *pts, int base, int n, int span,
                                 int step)
{
    int m = n - base < span ? n - base : span;
    __syncthreads();
    for (int i = threadIdx.x; i < m; i += RANSAC_THREADS)
        chunk[i] = pts[(base + i) * step];
    __syncthreads();
    return m;
}

__global__ void __launch_bounds__(RANSAC_THREADS)
    tl_models(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    int slot = blockIdx.z, at = first + slot;
    const tl_task task = tl_task_fit_at(d, jobs, at);
    int s = blockIdx.x * RANSAC_THREADS + threadIdx.x;
    if (task.t < 0 || s >= p.ransac_rows)
        return;
    const tl_fit *fit = d.fits + task.fit;
    /* circle mode's shape check: every step-th point (lib/detect/tl_shape.h) */
    int step = tl_task_step(d, jobs, at, fit->n), n = (fit->n + step - 1) / step;
    if (n < p.sample_size)
        return;
    const pt_cuda_eye_job job = b.jobs[task.job];
    const pt_point *pts = tl_task_points(d, jobs, at, slot);
    pt_circle c = {0, 0, 0};
    pt_ellipse e = {0, 0, 0, 0, 0};
    int ell = tl_task_ellipse(d, jobs, at);
    bool valid = sample_model(p, ell, pts, n, step, s, job.min_r, job.max_r, &c, &e);
    size_t row = (size_t)slot * d.nblocks * RANSAC_THREADS + s;
    /* RANSAC adds its votes to the row's (tl_pick zeroed them where it ran) */
    d.votes[row] = valid ? 0 : -1;
    if (!valid) {
        e.a = -1.0;
    } else if (!ell) {
        e.cx = c.cx;
        e.cy = c.cy;
        e.a = c.r;
    }
    d.models[row] = e;
}

/* A vote launch's task in this block's slot (blockIdx.z) and share of its
 * points (blockIdx.y): its fit, its points (every step-th of the fit's,
 * n of them), and its rows' models and votes; 0 where the block has none. */
typedef struct {
    const tl_fit *fit;
    const pt_point *pts;
    int n, step, chunks;
    const pt_ellipse *models;
    int32_t *votes;
} vote_job;

static __device__ bool vote_job_at(const pt_cuda_params &p, const tl_dev &d, int jobs, int first,
                                   int span, vote_job *v)
{
    int slot = blockIdx.z, at = first + slot;
    const tl_task task = tl_task_fit_at(d, jobs, at);
    if (task.t < 0)
        return false;
    v->fit = d.fits + task.fit;
    v->step = tl_task_step(d, jobs, at, v->fit->n);
    v->n = (v->fit->n + v->step - 1) / v->step;
    v->chunks = (v->n + span - 1) / span;
    if (v->n < p.sample_size || (int)blockIdx.y >= v->chunks)
        return false;
    v->pts = tl_task_points(d, jobs, at, slot);
    v->models = d.models + (size_t)slot * d.nblocks * RANSAC_THREADS;
    v->votes = d.votes + (size_t)slot * d.nblocks * RANSAC_THREADS;
    return true;
}

/* Circle votes: a thread a row of the block's RANSAC_THREADS rows. */
__global__ void __launch_bounds__(RANSAC_THREADS)
    tl_ransac(pt_cuda_params p, tl_dev d, int jobs, int first, int span)
{
    __shared__ pt_point chunk[RANSAC_CHUNK];
    vote_job v;
    if (!vote_job_at(p, d, jobs, first, span, &v))
        return;
    int s = blockIdx.x * RANSAC_THREADS + threadIdx.x;
    pt_ellipse e = {0, 0, 0, 0, 0};
    if (s < p.ransac_rows)
        e = v.models[s];
    bool valid = s < p.ransac_rows && e.a >= 0.0;
    pt_circle c = {e.cx, e.cy, e.a};
    vote_test k = vote_test_make(0, c, e, v.fit->band);
    int count = 0;
    for (int ch = blockIdx.y; ch < v.chunks; ch += RANSAC_SPLITS) {
        int m = load_chunk(chunk, v.pts, ch * span, v.n, span, v.step);
        if (valid)
            for (int i = 0; i < m; i++)
                count += vote_circle(k, chunk[i]);
    }
    if (valid && count)
        atomicAdd(&v.votes[s], count);
}

/* Ellipse votes: a warp a row, its lanes over the chunk's points (the
 * lanes share the ellipse, so where one iterates to the closest point the
 * others mostly do too; a thread a row leaves 31 lanes waiting on the one
 * whose point needs it), `rows` rows a block (at most RANSAC_THREADS): a
 * launch of few tasks (the shape check's 256 points, one frame) spreads
 * its rows over as many blocks as the GPU has processors, one of many
 * tasks reads each chunk once for RANSAC_THREADS rows. */
__global__ void __launch_bounds__(RANSAC_THREADS)
    tl_ransac_ellipse(pt_cuda_params p, tl_dev d, int jobs, int first, int span, int rows)
{
    __shared__ pt_point chunk[RANSAC_CHUNK];
    __shared__ vote_test tests[RANSAC_THREADS];
    __shared__ bool row_valid[RANSAC_THREADS];
    vote_job v;
    if (!vote_job_at(p, d, jobs, first, span, &v))
        return;
    int row0 = blockIdx.x * rows;
    if (threadIdx.x < rows) {
        int s = row0 + threadIdx.x;
        pt_ellipse e = {0, 0, 0, 0, 0};
        if (s < p.ransac_rows)
            e = v.models[s];
        row_valid[threadIdx.x] = s < p.ransac_rows && e.a >= 0.0;
        pt_circle c = {e.cx, e.cy, e.a};
        tests[threadIdx.x] = vote_test_make(1, c, e, v.fit->band);
    }
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int ch = blockIdx.y; ch < v.chunks; ch += RANSAC_SPLITS) {
        int m = load_chunk(chunk, v.pts, ch * span, v.n, span, v.step); /* syncs: tests are set */
        for (int r = warp; r < rows; r += RANSAC_THREADS / 32) {
            if (!row_valid[r])
                continue;
            int votes = 0;
            for (int i = lane; i < m; i += 32)
                votes += vote_ellipse(tests[r], chunk[i]);
            votes = warp_isum(votes);
            if (lane == 0 && votes)
                atomicAdd(&v.votes[row0 + r], votes);
        }
    }
}

#define SELECT_THREADS 256 /* tl_select's block */
#define SELECT_WARPS (SELECT_THREADS / 32)

/* Sum of v over tl_select's block, to every thread (integers: exact in any
 * order). part: SELECT_WARPS ints of shared memory. */
static __device__ int block_sum(int v, int *part)
{
    v = warp_isum(v);
    __syncthreads(); /* part's previous values read by all */
    if ((threadIdx.x & 31) == 0)
        part[threadIdx.x >> 5] = v;
    __syncthreads();
    int total = 0;
    for (int w = 0; w < SELECT_WARPS; w++)
        total += part[w];
    return total;
}

/* Votes of a model over all points, by the threads of tl_select's block. */
static __device__ int block_votes(int ellipse, const pt_circle &c, const pt_ellipse &e,
                                  const pt_point *pts, int n, double band, int *part)
{
    pt_ellipse_frame f;
    if (ellipse)
        pt_ellipse_frame_init(&e, &f);
    int votes = 0;
    for (int k = threadIdx.x; k < n; k += SELECT_THREADS)
        votes += inlier(ellipse, c, f, pts[k], band);
    return block_sum(votes, part);
}

/* The row of most votes among votes[0..rows), ties to the lowest (-1 when
 * every row's model failed: votes -1), to every thread of tl_select's
 * block: each thread's rows, then the warps' and the block's choice, each
 * with the same rule. part: SELECT_WARPS pairs of shared memory. */
static __device__ __forceinline__ void best_row_merge(int &v, int &s, int ov, int os)
{
    if (os >= 0 && (ov > v || (ov == v && (s < 0 || os < s)))) {
        v = ov;
        s = os;
    }
}

static __device__ int block_best_row(const int32_t *votes, int rows, int2 *part)
{
    int best_v = -1, best_s = -1;
    for (int s = threadIdx.x; s < rows; s += SELECT_THREADS) {
        int v = votes[s];
        if (v > best_v) { /* rows rise with s: ties keep the lower */
            best_v = v;
            best_s = s;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        int ov = __shfl_xor_sync(0xffffffffu, best_v, o);
        int os = __shfl_xor_sync(0xffffffffu, best_s, o);
        best_row_merge(best_v, best_s, ov, os);
    }
    if ((threadIdx.x & 31) == 0)
        part[threadIdx.x >> 5] = make_int2(best_v, best_s);
    __syncthreads();
    best_v = -1;
    best_s = -1;
    for (int w = 0; w < SELECT_WARPS; w++)
        best_row_merge(best_v, best_s, part[w].x, part[w].y);
    return best_s;
}

/* pt_ransac_refit_inliers (lib/detect/ransac.h) on pts[idx[0..n)]
 * (pts[0..n) when idx is NULL) over a warp, bit for bit
 * (cuda/detect/warp_fit.cuh); lane 0 leaves the kept model in *c / *e.
 * Every lane calls it. */
static __device__ void warp_refit(int ellipse, const pt_point *pts, const int *idx, int n,
                                  double min_r, double max_r, warp_fit_shared *S, pt_circle *c,
                                  pt_ellipse *e)
{
    pt_circle refit_c;
    pt_ellipse refit_e;
    int fitted = warp_fit(ellipse, pts, idx, n, S, &refit_c, &refit_e);
    if ((threadIdx.x & 31) == 0)
        pt_ransac_refit_keep(ellipse, fitted, &refit_c, &refit_e, min_r, max_r, c, e);
}

__global__ void __launch_bounds__(SELECT_THREADS)
    tl_select(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ pt_circle model_c;
    __shared__ pt_ellipse model_e;
    __shared__ pt_point refit_pts[TL_SHARED_REFIT];
    __shared__ warp_fit_shared fit_s;
    __shared__ int part[SELECT_WARPS];
    __shared__ int2 best_rows[SELECT_WARPS];
    int slot = blockIdx.x, at = first + slot;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const tl_task task = tl_task_fit_at(d, jobs, at);
    if (task.t < 0)
        return;
    const int j = task.job;
    tl_fit *fit = d.fits + task.fit;
    /* the shape check's RANSAC sees every step-th of the n_all points */
    int n_all = fit->n, step = tl_task_step(d, jobs, at, n_all), n = (n_all + step - 1) / step;
    if (n < p.sample_size)
        return; /* found = 0, quality 0 (tl_pick) */
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_point *pts = tl_task_points(d, jobs, at, slot);
    double band = fit->band;
    int ell = tl_task_ellipse(d, jobs, at);
    /* a fit that may stand keeps its border for circle mode's shape check */
    if (d.kept && at < jobs * d.thresholds + jobs) {
        int kept = n_all <= TL_KEPT_POINTS ? n_all : -1;
        pt_point *to = d.kept + (size_t)task.fit * TL_KEPT_POINTS;
        for (int k = threadIdx.x; k < kept; k += SELECT_THREADS)
            to[k] = pts[k];
        if (threadIdx.x == 0)
            d.kept_n[task.fit] = kept;
    }
    /* the best row: most votes, ties to the lowest row; its model as
     * tl_models fitted it */
    const int32_t *votes = d.votes + (size_t)slot * d.nblocks * RANSAC_THREADS;
    int best_s = block_best_row(votes, p.ransac_rows, best_rows);
    if (best_s < 0)
        return;
    pt_circle c = {0, 0, 0};
    pt_ellipse e = {0, 0, 0, 0, 0};
    const pt_ellipse model = d.models[(size_t)slot * d.nblocks * RANSAC_THREADS + best_s];
    if (ell) {
        e = model;
    } else {
        c.cx = model.cx;
        c.cy = model.cy;
        c.r = model.a;
    }
    pt_ellipse_frame f;
    if (ell)
        pt_ellipse_frame_init(&e, &f);
    /* the inliers of the best row among all the points (the shape check's
     * RANSAC saw every step-th), in point order: a tile of the block's
     * threads at a time, each warp's ballot placed after the warps before */
    int *inl = d.labels + slot * d.cap;
    int count = 0;
    for (int base = 0; base < n_all; base += SELECT_THREADS) {
        int k = base + threadIdx.x;
        bool in = k < n_all && inlier(ell, c, f, pts[k], band);
        int total, rank = pt_block_rank(in, part, &total);
        if (in)
            inl[count + rank] = k;
        count += total;
    }
    __syncthreads();
    if (count <= TL_SHARED_REFIT) {
        /* the refit reads the inliers, in order, from shared memory */
        for (int k = threadIdx.x; k < count; k += SELECT_THREADS)
            refit_pts[k] = pts[inl[k]];
        __syncthreads();
        if (warp == 0)
            warp_refit(ell, refit_pts, NULL, count, job.min_r, job.max_r, &fit_s, &c, &e);
    } else if (warp == 0) {
        warp_refit(ell, pts, inl, count, job.min_r, job.max_r, &fit_s, &c, &e);
    }
    if (threadIdx.x == 0) {
        model_c = c;
        model_e = e;
    }
    __syncthreads();
    c = model_c;
    e = model_e;
    /* votes of every point (the shape check's too, whose RANSAC saw every step-th) */
    int final_votes = block_votes(ell, c, e, pts, n_all, band, part);
    /* circle mode's shape check: the standing circle's border points in the band */
    int circle_votes = 0;
    if (at >= jobs * d.thresholds + jobs)
        circle_votes = block_votes(0, d.fits[d.settled[j]].circle, e, pts, n_all, band, part);
    if (warp != 0)
        return;
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    double conf = ell ? warp_confidence(&view, &e) : warp_confidence_circle(&view, &c);
    if (lane != 0)
        return;
    fit->found = 1;
    fit->circle_votes = circle_votes;
    fit->votes = final_votes;
    fit->circle = c;
    fit->ellipse = e;
    fit->quality = (double)final_votes / n_all * conf;
}

cudaError_t pt_tl_fit(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                      int jobs, int first, int count, cudaStream_t stream)
{
    /* points per block: a launch of few tasks (one frame) leaves most of
     * the GPU idle, and its threads' vote loops are its latency; shorter
     * spans share them over more blocks (the rows' models are fitted once
     * before, tl_models) */
    int span = count <= RANSAC_FEW_TASKS ? RANSAC_FEW_SPAN : RANSAC_CHUNK;
    tl_models<<<dim3(d->nblocks, 1, count), RANSAC_THREADS, 0, stream>>>(*p, *b, *d, jobs, first);
    /* the tasks of a launch all fit ellipses or all circles (tl_task_ellipse) */
    if (d->ellipse || first >= jobs * d->thresholds + jobs) {
        int rows = count <= RANSAC_FEW_TASKS ? RANSAC_FEW_ROWS : RANSAC_THREADS;
        int groups = (p->ransac_rows + rows - 1) / rows;
        tl_ransac_ellipse<<<dim3(groups, RANSAC_SPLITS, count), RANSAC_THREADS, 0, stream>>>(
            *p, *d, jobs, first, span, rows);
    } else {
        tl_ransac<<<dim3(d->nblocks, RANSAC_SPLITS, count), RANSAC_THREADS, 0, stream>>>(
            *p, *d, jobs, first, span);
    }
    tl_select<<<count, SELECT_THREADS, 0, stream>>>(*p, *b, *d, jobs, first);
    return cudaGetLastError();
}
