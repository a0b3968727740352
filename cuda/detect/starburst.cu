/* Starburst on the GPU, the steps of the pipeline (starburst_pipeline.cu)
 * that need the confidence measure: the select step of each iteration
 * (starburst_select.cuh: refit on the inliers, circle mode's refinement,
 * confidence; the next start and convergence) and the results, with the same
 * arithmetic as omp/detect/starburst.c so the two back ends agree. */
#include "cuda/detect/starburst_device.cuh"

#include "lib/detect/confidence.h"
#include "lib/detect/starburst_choice.h"

#include "cuda/detect/starburst_select.cuh"
#include "lib/detect/starburst_size.h"

/* An eye's result: the best fit (confidence best_conf < 0: none) in the
 * reported size of view c, its status, and the number of edge points. */
static __device__ void fill_result(const pt_cuda_params &p, const pt_sb_view *c, int npoints,
                                   double best_conf, pt_circle circle, pt_ellipse ellipse,
                                   pt_cuda_eye_result *out)
{
    out->npoints = npoints;
    out->iterating = 0;
    out->darker_core = 0;
    out->has_circle = out->has_ellipse = 0;
    out->status = PT_DETECT_NOTFOUND;
    out->confidence = 0;
    if (!(best_conf >= 0))
        return;
    pt_sb_report_size(c, &p.sb, &circle, &ellipse);
    if (p.ellipse) {
        out->ellipse = ellipse;
        out->circle.cx = ellipse.cx;
        out->circle.cy = ellipse.cy;
        out->circle.r = sqrt(ellipse.a * ellipse.b);
        out->has_ellipse = 1;
    } else {
        out->circle = circle;
    }
    out->confidence = best_conf;
    out->has_circle = 1;
    if (out->confidence >= PT_CONFIDENCE_MIN)
        out->status = PT_DETECT_OK;
    else
        out->has_circle = out->has_ellipse = 0;
}

/* ---- the throughput pipeline's steps that need the confidence measure ---- */

/* Job j's result from its state, as omp/detect/starburst.c reports it. */
static __device__ void write_result(const pt_cuda_params &p, const pt_cuda_buffers &b, int j)
{
    const pt_cuda_sb_state *st = b.state + j;
    const pt_cuda_eye_job job = b.jobs[j];
    pt_sb_view c = job_view(p, b, job);
    c.threshold = st->threshold;
    double conf = st->best_conf;
    pt_circle circle = st->circle;
    pt_ellipse ellipse = st->ellipse;
    if (st->inner) {
        /* the inner pass's answer or the first pass's (lib/detect/starburst_inner.h) */
        const pt_cuda_frame_dims dims = b.dims[job.frame];
        pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
        if (!pt_sb_inner_answer(&view, conf, &ellipse, st->outer_conf, &st->outer_ellipse)) {
            conf = st->outer_conf;
            circle = st->outer_circle;
            ellipse = st->outer_ellipse;
            c.threshold = st->outer_threshold;
        }
    }
    pt_cuda_eye_result *out = b.results + j;
    fill_result(p, &c, st->n, conf, circle, ellipse, out);
    out->iterating = st->active;
    if (p.sequence && b.previous) {
        /* --sequence: the next frame's start (pupiltrack(1), --sequence) */
        b.previous[job.slot].have = out->status == PT_DETECT_OK;
        b.previous[job.slot].x = (float)out->circle.cx;
        b.previous[job.slot].y = (float)out->circle.cy;
    }
}

/* Thread per job: the results, for a call that ran no select step. */
__global__ void starburst_finish(pt_cuda_params p, pt_cuda_buffers b, int jobs)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < jobs)
        write_result(p, b, j);
}

/* Block per job: the best row over the RANSAC blocks and its model (as
 * that block fitted it: the same function on the same points), then
 * select_step (the refit on its inliers, circle mode's refinement, the
 * confidence) over the block; thread 0 keeps the best fit so far
 * (pt_sb_fit_wins) and decides the next start and convergence, with the
 * CPU's arithmetic after its RANSAC. With finish (the call's last
 * iteration) it also writes the job's result, active or not.
 *
 * 256 threads (one refinement row each) at most 128 registers, so a block
 * leaves half a multiprocessor to other work during its ~50 us per active
 * iteration, most of it the refinement rows' float64 (512 x 128 registers
 * filled one). Measured on the H100: the same speed within noise
 * (24.0-24.3k against 23.7-23.8k frames/s at batch 256, 27.5k against 28.1k
 * at batch 1024), the same results. */
#define SELECT_THREADS 256
__global__ void __launch_bounds__(SELECT_THREADS, 2)
starburst_select(pt_cuda_params p, pt_cuda_buffers b, int nblocks, int finish)
{
    __shared__ sb_select_shared work;
    __shared__ int best_row;
    __shared__ pt_cuda_sb_model model;
    __shared__ int judge_visible;
    int j = blockIdx.x;
    pt_cuda_sb_state *st = b.state + j;
    if (!st->active) {
        if (finish && threadIdx.x == 0)
            write_result(p, b, j);
        return;
    }
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    int n = st->n;
    if (threadIdx.x < 32) {
        /* the RANSAC blocks' best rows over warp 0 (rows are distinct and
         * the order total, so any grouping finds the serial loop's row) */
        int best_votes = -1, s = -1, from = -1;
        for (int k = threadIdx.x; n >= p.sample_size && k < nblocks; k += 32) {
            int2 v = b.partials[(size_t)j * b.partials_per_job + k];
            if (select_row_better(v.x, v.y, best_votes, s)) {
                best_votes = v.x;
                s = v.y;
                from = k;
            }
        }
        for (int o = 16; o > 0; o >>= 1) {
            int ov = __shfl_down_sync(0xffffffffu, best_votes, o);
            int os = __shfl_down_sync(0xffffffffu, s, o);
            int of = __shfl_down_sync(0xffffffffu, from, o);
            if (select_row_better(ov, os, best_votes, s)) {
                best_votes = ov;
                s = os;
                from = of;
            }
        }
        if (threadIdx.x == 0) {
            best_row = s;
            if (s >= 0)
                model = b.partial_models[(size_t)j * b.partials_per_job + from];
        }
    }
    __syncthreads();
    int s = best_row;
    if (s < 0) { /* too few edges, or no row gave a model: the job ends without a fit */
        if (threadIdx.x == 0) {
            st->found = 0;
            st->active = 0;
            if (finish)
                write_result(p, b, j);
        }
        return;
    }
    const pt_point *pts = b.points + (size_t)j * p.points_per_eye;
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    pt_circle cc;
    pt_ellipse ee;
    /* the inner pass's fits at pt_sb_inner_offset (lib/detect/starburst_inner.h) */
    double off = st->inner ? pt_sb_inner_offset(pt_sb_gap(&p.sb, job.gap)) : 0.0;
    double conf = select_step(&p, &job, st->fit_r, off, &view, pts, n, s, &model,
                              b.scratch_idx + (size_t)j * p.points_per_eye, &work, &cc, &ee);
    pt_sb_levels levels = {0, 0, 0};
    if (p.sb.inner_pass == PT_SB_INNER_ON)
        select_levels(&view, &ee, &work, &levels);
    int dark = pt_sb_fit_dark(&levels, conf);
    /* thread 0 decides whether the block takes the visible test
     * (fit_choice=visible), before it updates the best so far */
    int wins = 0;
    if (threadIdx.x == 0) {
        wins = pt_sb_fit_wins(&p.sb, conf, dark, &ee, st->best_conf, st->best_dark, &st->ellipse);
        judge_visible = !wins && pt_sb_visible_wanted(&p.sb, conf, dark, &ee, st->best_conf,
                                                      st->best_dark, &st->ellipse);
    }
    __syncthreads();
    double visible = judge_visible ? select_visible(&view, &ee, &work) : 0.0;
    if (threadIdx.x != 0)
        return;
    if (judge_visible)
        wins = pt_sb_visible_wins(visible, st->best_conf);
    if (wins) {
        st->best_conf = conf;
        st->best_dark = dark;
        st->circle = cc;
        st->ellipse = ee;
        st->stall = 0;
    } else {
        st->stall++;
    }
    st->found = 1;
    pt_point centre = {(float)cc.cx, (float)cc.cy};
    if (p.ellipse) {
        centre.x = (float)ee.cx;
        centre.y = (float)ee.cy;
    }
    pt_point s0 = st->start;
    double moved = pt_sb_dist(centre.x, centre.y, s0.x, s0.y);
    pt_sb_view c;
    pt_sb_view_roi(&c, job.x0, job.y0, job.w, job.h);
    st->start = clamp_point(&c, centre);
    int converged = pt_sb_search_done(&p.sb, moved, p.converge_px, st->stall);
    pt_sb_inner ip;
    if (!st->inner && p.sb.inner_pass == PT_SB_INNER_ON &&
        pt_sb_inner_wanted(&ee, &levels, conf, st->threshold, &ip)) {
        /* the inner pass, as omp/detect/starburst.c */
        st->inner = 1;
        st->outer_conf = st->best_conf;
        st->outer_circle = st->circle;
        st->outer_ellipse = st->ellipse;
        st->outer_threshold = st->threshold;
        st->best_conf = -1.0;
        st->threshold = ip.threshold;
        if (ip.reach < st->max_r)
            st->max_r = ip.reach;
        if (ip.radius < st->fit_r)
            st->fit_r = ip.radius;
        st->stall = 0;
        converged = 0;
    }
    st->active = !converged;
    if (finish)
        write_result(p, b, j);
}

extern "C" cudaError_t pt_cuda_starburst_select(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                                int jobs, int nblocks, int finish,
                                                cudaStream_t stream)
{
    starburst_select<<<jobs, SELECT_THREADS, 0, stream>>>(*p, *b, nblocks, finish);
    return cudaGetLastError();
}

extern "C" cudaError_t pt_cuda_starburst_finish(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                                int jobs, cudaStream_t stream)
{
    starburst_finish<<<(jobs + 63) / 64, 64, 0, stream>>>(*p, *b, jobs);
    return cudaGetLastError();
}
