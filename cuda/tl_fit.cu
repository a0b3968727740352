/* RANSAC over each tl task's border points, exactly pt_ransac_circle /
 * pt_ransac_ellipse (lib/ransac.h) with the task's inlier band:
 *
 *   tl_ransac  block per 256 rows of the sample table per task: thread per
 *              row fits its sample and counts its votes; the block's best
 *              row (most votes, ties to the lowest row) -> partials
 *   tl_select  warp per task: the best row, its inliers in point order
 *              (ballots), the refit on them, the votes of the final model
 *              (warp sum), its confidence and quality = votes / n x confidence */
#include "tl_internal.h"

#include "../lib/fit.h"
#include "../lib/pt_image.h"
#include "../lib/pt_result.h"
#include "../lib/ransac.h"
#include "../lib/starburst_ray.h"

/* The shared confidence measure (declarations and definitions) as device
 * code private to this file: cuda/starburst.cu compiles its own copy. */
namespace {
#include "../lib/confidence.c"
}

#define RANSAC_THREADS 256
#define RANSAC_SHARED_POINTS 4096

/* Model of table row s; 0 when its indices repeat, the fit fails or leaves the range. */
static __device__ int sample_model(const pt_cuda_params &p, int ellipse, const pt_point *pts,
                                   int n, int s, double min_r, double max_r, pt_circle *c,
                                   pt_ellipse *e)
{
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    if (!pt_ransac_sample_indices(p.ransac_values, p.sample_size, s, n, idx))
        return 0;
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
    return ellipse ? pt_ellipse_frame_distance(&f, q.x, q.y) <= band
                   : pt_circle_distance(&c, q.x, q.y) <= band;
}

__global__ void __launch_bounds__(RANSAC_THREADS)
    tl_ransac(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ pt_point shared_pts[RANSAC_SHARED_POINTS];
    __shared__ int best_votes[RANSAC_THREADS], best_row[RANSAC_THREADS];
    int slot = blockIdx.y, task = first + slot, t;
    int j = tl_task_job(d, jobs, task, &t);
    if (t < 0)
        return;
    const tl_fit *fit = d.fits + task;
    int n = fit->n;
    if (n < p.sample_size)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    double band = fit->band;
    const pt_point *pts = d.points + slot * d.cap;
    if (n <= RANSAC_SHARED_POINTS) {
        for (int k = threadIdx.x; k < n; k += RANSAC_THREADS)
            shared_pts[k] = pts[k];
        __syncthreads();
        pts = shared_pts;
    }
    int s = blockIdx.x * RANSAC_THREADS + threadIdx.x;
    int votes = -1, row = -1;
    pt_circle c;
    pt_ellipse e;
    if (s < p.ransac_rows && sample_model(p, d.ellipse, pts, n, s, job.min_r, job.max_r, &c, &e)) {
        pt_ellipse_frame f;
        if (d.ellipse)
            pt_ellipse_frame_init(&e, &f);
        votes = 0;
        for (int k = 0; k < n; k++)
            votes += inlier(d.ellipse, c, f, pts[k], band);
        row = s;
    }
    best_votes[threadIdx.x] = votes;
    best_row[threadIdx.x] = row;
    __syncthreads();
    for (int stride = RANSAC_THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) {
            int ov = best_votes[threadIdx.x + stride], os = best_row[threadIdx.x + stride];
            int mv = best_votes[threadIdx.x], ms = best_row[threadIdx.x];
            if (os >= 0 && (ov > mv || (ov == mv && (ms < 0 || os < ms)))) {
                best_votes[threadIdx.x] = ov;
                best_row[threadIdx.x] = os;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        d.partials[slot * d.nblocks + blockIdx.x] = make_int2(best_votes[0], best_row[0]);
}

/* Votes of a model over all points, by the 32 lanes of the warp. */
static __device__ int warp_votes(int ellipse, const pt_circle &c, const pt_ellipse &e,
                                 const pt_point *pts, int n, double band)
{
    pt_ellipse_frame f;
    if (ellipse)
        pt_ellipse_frame_init(&e, &f);
    int votes = 0;
    for (int k = threadIdx.x; k < n; k += 32)
        votes += inlier(ellipse, c, f, pts[k], band);
    return tl_warp_sum(votes);
}

__global__ void __launch_bounds__(32)
    tl_select(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ pt_circle model_c;
    __shared__ pt_ellipse model_e;
    __shared__ int best_row;
    int slot = blockIdx.x, task = first + slot, t, lane = threadIdx.x;
    int j = tl_task_job(d, jobs, task, &t);
    if (t < 0)
        return;
    tl_fit *fit = d.fits + task;
    int n = fit->n;
    if (n < p.sample_size)
        return; /* found = 0, quality 0 (tl_pick) */
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_point *pts = d.points + slot * d.cap;
    double band = fit->band;
    if (lane == 0) {
        int votes = -1, s = -1;
        for (int k = 0; k < d.nblocks; k++) {
            int2 v = d.partials[slot * d.nblocks + k];
            if (v.y >= 0 && (v.x > votes || (v.x == votes && (s < 0 || v.y < s)))) {
                votes = v.x;
                s = v.y;
            }
        }
        pt_circle c = {0, 0, 0};
        pt_ellipse e = {0, 0, 0, 0, 0};
        if (s >= 0)
            sample_model(p, d.ellipse, pts, n, s, job.min_r, job.max_r, &c, &e);
        best_row = s;
        model_c = c;
        model_e = e;
    }
    __syncwarp();
    if (best_row < 0)
        return;
    pt_circle c = model_c;
    pt_ellipse e = model_e;
    pt_ellipse_frame f;
    if (d.ellipse)
        pt_ellipse_frame_init(&e, &f);
    /* the inliers of the best row, in point order */
    int *inl = d.labels + slot * d.cap;
    int count = 0;
    for (int base = 0; base < n; base += 32) {
        int k = base + lane;
        bool in = k < n && inlier(d.ellipse, c, f, pts[k], band);
        unsigned ballot = __ballot_sync(0xffffffffu, in);
        if (in)
            inl[count + __popc(ballot & ((1u << lane) - 1u))] = k;
        count += __popc(ballot);
    }
    __syncwarp();
    if (lane == 0) {
        if (d.ellipse) {
            pt_ellipse refit;
            if (pt_fit_ellipse(pts, inl, count, &refit) &&
                pt_ransac_ellipse_in_range(&refit, job.min_r, job.max_r))
                e = refit;
            c.cx = e.cx;
            c.cy = e.cy;
            c.r = 0.5 * (e.a + e.b);
        } else {
            pt_circle refit;
            if (pt_fit_circle(pts, inl, count, &refit) &&
                pt_ransac_circle_in_range(&refit, job.min_r, job.max_r))
                c = refit;
            pt_ellipse_from_circle(&c, &e);
        }
        model_c = c;
        model_e = e;
    }
    __syncwarp();
    c = model_c;
    e = model_e;
    int votes = warp_votes(d.ellipse, c, e, pts, n, band);
    if (lane != 0)
        return;
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    double conf = d.ellipse ? pt_confidence_ellipse(&view, &e) : pt_confidence_circle(&view, &c);
    fit->found = 1;
    fit->votes = votes;
    fit->circle = c;
    fit->ellipse = e;
    fit->quality = (double)votes / n * conf;
}

cudaError_t pt_tl_fit(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                      int jobs, int first, int count, cudaStream_t stream)
{
    tl_ransac<<<dim3(d->nblocks, count), RANSAC_THREADS, 0, stream>>>(*p, *b, *d, jobs, first);
    tl_select<<<count, 32, 0, stream>>>(*p, *b, *d, jobs, first);
    return cudaGetLastError();
}
