/* Starburst on the GPU: one thread block per (frame, eye), the same stages and
 * arithmetic as omp/detect/starburst.c so the two back ends agree: start point (the
 * darkest window, a fixed point, or the previous frame's centre), first-stage
 * rays, second-stage rays back towards the start, RANSAC over the shared
 * sample table (one sample per thread, best chosen on the device), then the
 * select step (starburst_select.cuh, shared with the throughput pipeline's
 * starburst_select below): refit on the inliers, circle mode's refinement,
 * confidence; iterate until the centre moves less than converge_px. The
 * host never synchronises inside a frame. Edge points are compacted in ray
 * order with warp ballots, so RANSAC sees them in the CPU's order. */
#include "cuda/detect/starburst_device.cuh"

#include "lib/detect/confidence.h"
#include "lib/detect/starburst_choice.h"

#include "cuda/detect/starburst_select.cuh"
#include "lib/detect/starburst_size.h"

#define SB_THREADS 256
#define SB_WARPS (SB_THREADS / 32)

/* Ordered compaction of one tile: every thread holds a flag; returns this
 * thread's position among the set flags of the tile (valid when flag is set)
 * and adds the tile's count to *base (shared) after the call. */
__device__ int tile_position(int flag, int *warp_counts, int *total)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned ballot = __ballot_sync(0xffffffffu, flag);
    int before_in_warp = __popc(ballot & ((1u << lane) - 1u));
    if (lane == 0)
        warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int before = 0, sum = 0;
    for (int w = 0; w < SB_WARPS; w++) {
        if (w < warp)
            before += warp_counts[w];
        sum += warp_counts[w];
    }
    *total = sum;
    return before + before_in_warp;
}

/* pts[0..n) without the points on flat edges when there are enough of them
 * (lib/detect/starburst_flat.h), in order, as omp/detect/starburst.c's
 * drop_flat: the normals and the tests a point per thread, their count by
 * __syncthreads_count, then an in-place compaction tile by tile (a tile's
 * points are read before any of it is written; they move only down).
 * Returns the new count. Every thread of the block calls it. */
static __device__ int drop_flat(const pt_sb_view *c, const pt_cuda_eye_job *job, pt_point *pts,
                                pt_point *normals, int *keep, int n, int *warp_counts)
{
    for (int i = threadIdx.x; i < n; i += SB_THREADS)
        normals[i] = pt_sb_edge_normal(c, pts[i]);
    __syncthreads();
    double reach = pt_sb_flat_reach(job->max_r);
    for (int i = threadIdx.x; i < n; i += SB_THREADS)
        keep[i] = !pt_sb_flat_point(pts, normals, NULL, n, i, reach);
    __syncthreads();
    int flat = 0;
    for (int tile = 0; tile < n; tile += SB_THREADS) {
        int i = tile + threadIdx.x;
        flat += __syncthreads_count(i < n && !keep[i]);
    }
    if (!pt_sb_flat_drops(flat))
        return n;
    int m = 0;
    for (int tile = 0; tile < n; tile += SB_THREADS) {
        int i = tile + threadIdx.x;
        int flag = i < n && keep[i];
        pt_point e = {0.0f, 0.0f};
        if (flag)
            e = pts[i];
        int total;
        int pos = tile_position(flag, warp_counts, &total);
        if (flag)
            pts[m + pos] = e;
        m += total;
        __syncthreads();
    }
    return m;
}

/* An eye's result: the best fit (confidence best_conf < 0: none) in the
 * reported size of view c, its status, and the number of edge points. */
static __device__ void fill_result(const pt_cuda_params &p, const pt_sb_view *c, int npoints,
                                   double best_conf, pt_circle circle, pt_ellipse ellipse,
                                   pt_cuda_eye_result *out)
{
    out->npoints = npoints;
    out->iterating = 0;
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

/* Darkest (block x block) cell window of the roi, as pt_darkest_point(). */
__device__ pt_point darkest_point(const uint8_t *img, int pitch, const pt_cuda_eye_job *job,
                                  uint32_t *cells, unsigned long long *best_key)
{
    int x0 = job->x0, y0 = job->y0, w = job->w, h = job->h;
    pt_point centre = {(float)(x0 + (w - 1) / 2.0), (float)(y0 + (h - 1) / 2.0)};
    /* cells of min_r px, as omp/detect/backend.c start_point: a window of 2 x 2
     * cells fits inside a pupil but not on an eyelash (job->dark_block is
     * no longer used; the cell buffer is sized for 2 px cells) */
    int block = job->min_r < 2 ? 2 : job->min_r;
    int gw = w / block, gh = h / block;
    if (gw < 1 || gh < 1)
        return centre;
    for (int c = threadIdx.x; c < gw * gh; c += blockDim.x) {
        int cx = c % gw, cy = c / gw;
        uint32_t sum = 0;
        for (int y = 0; y < block; y++) {
            const uint8_t *row = img + (size_t)(y0 + cy * block + y) * pitch + x0 + cx * block;
            for (int i = 0; i < block; i++)
                sum += row[i];
        }
        cells[c] = sum;
    }
    if (threadIdx.x == 0)
        *best_key = ~0ull;
    __syncthreads();
    int ww = gw > 1 ? 2 : 1, wh = gh > 1 ? 2 : 1;
    int nx = gw - ww + 1, ny = gh - wh + 1;
    /* Key = (sum, raster index): the smallest is the CPU's first strict minimum. */
    unsigned long long mine = ~0ull;
    for (int k = threadIdx.x; k < nx * ny; k += blockDim.x) {
        int cx = k % nx, cy = k / nx;
        unsigned long long s = 0;
        for (int j = 0; j < wh; j++)
            for (int i = 0; i < ww; i++)
                s += cells[(size_t)(cy + j) * gw + cx + i];
        unsigned long long key = (s << 24) | (unsigned long long)(cy * gw + cx);
        if (key < mine)
            mine = key;
    }
    atomicMin(best_key, mine);
    __syncthreads();
    unsigned long long key = *best_key;
    int index = (int)(key & 0xffffffull);
    int bx = index % gw, by = index / gw;
    pt_point p = {(float)(x0 + bx * block + ww * block / 2.0 - 0.5),
                  (float)(y0 + by * block + wh * block / 2.0 - 0.5)};
    return p;
}

__global__ void __launch_bounds__(SB_THREADS)
starburst_kernel(pt_cuda_params p, pt_cuda_buffers b, int first_job, pt_cuda_previous *previous)
{
    __shared__ int warp_counts[SB_WARPS];
    __shared__ int shared_n, shared_done, shared_found;
    __shared__ pt_point shared_start;
    __shared__ unsigned long long shared_key;
    __shared__ int best_votes[SB_THREADS], best_sample[SB_THREADS];
    __shared__ pt_circle fit_circle;
    __shared__ pt_ellipse fit_ellipse;
    __shared__ double best_conf;
    __shared__ int best_dark;
    __shared__ double shared_threshold;
    /* the inner pass (lib/detect/starburst_inner.h) */
    __shared__ int shared_inner;
    __shared__ double shared_max_r, outer_conf, outer_threshold;
    __shared__ pt_circle outer_circle;
    __shared__ pt_ellipse outer_ellipse;
    __shared__ unsigned eye_hist[256];
    __shared__ sb_select_shared work;

    int j = first_job + blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_sb_view c = job_view(p, b, job);
    pt_point *pts = b.points + (size_t)j * p.points_per_eye;
    pt_cuda_eye_result *out = b.results + j;

    pt_point start;
    if (p.sequence && previous[job.slot].have) {
        start.x = previous[job.slot].x;
        start.y = previous[job.slot].y;
    } else if (job.start_mode == PT_CUDA_START_FIXED) {
        start.x = job.start_x;
        start.y = job.start_y;
    } else if (job.start_mode == PT_CUDA_START_DARK) {
        start = darkest_point(c.buf, c.stride, &job, b.cells + (size_t)j * b.cells_per_job,
                              &shared_key);
    } else {
        start.x = (float)(job.x0 + (job.w - 1) / 2.0);
        start.y = (float)(job.y0 + (job.h - 1) / 2.0);
    }
    /* the eye's surround level, read by the whole block (job is the block's) */
    const int adapt = p.sb.contrast > 0 && job.w >= 3 && job.h >= 3;
    int surround = adapt ? block_surround_level(c.buf, c.stride, job.x0, job.y0, job.w, job.h,
                                                eye_hist)
                         : 0;
    if (threadIdx.x == 0) {
        shared_start = clamp_point(&c, start);
        shared_found = 0;
        shared_n = 0;
        best_conf = -1.0;
        best_dark = 0;
        shared_inner = 0;
        shared_max_r = job.max_r;
        outer_conf = -1.0;
        outer_threshold = 0.0;
        shared_threshold = job.w >= 3 && job.h >= 3
                               ? pt_sb_eye_threshold_at(&p.sb, c.buf, c.stride, shared_start,
                                                        surround)
                               : c.threshold;
    }
    __syncthreads();
    c.threshold = shared_threshold;
    if (job.w < 3 || job.h < 3) {
        if (threadIdx.x == 0) {
            out->status = PT_DETECT_NOTFOUND;
            out->has_circle = out->has_ellipse = 0;
            out->npoints = 0;
            out->confidence = 0;
            if (p.sequence)
                previous[job.slot].have = 0;
        }
        return;
    }
    int iterations = p.max_iterations > 0 ? p.max_iterations : 1;
    for (int iter = 0; iter < iterations; iter++) {
        pt_point s0 = shared_start;
        c.threshold = shared_threshold;
        const int inner = shared_inner;
        const double max_r = shared_max_r;
        /* Stage 1: rays over 360 degrees, compacted in ray order. */
        int base = 0;
        for (int tile = 0; tile < p.rays; tile += SB_THREADS) {
            int i = tile + threadIdx.x;
            pt_point e;
            int found = 0;
            if (i < p.rays) {
                double dx, dy;
                pt_sb_stage1_dir(i, p.rays, &dx, &dy);
                found = pt_sb_cast(&c, s0.x, s0.y, dx, dy,
                                   pt_sb_inner_len(job.len1, inner, max_r), &e);
            }
            int total;
            int pos = tile_position(found, warp_counts, &total);
            if (found)
                pts[base + pos] = e;
            base += total;
            __syncthreads();
        }
        int first = base;
        /* Stage 2: from each first-stage point back towards the start. */
        int m = first * p.rays2;
        for (int tile = 0; tile < m; tile += SB_THREADS) {
            int idx = tile + threadIdx.x;
            pt_point e;
            int found = 0;
            if (idx < m) {
                int jj = idx / p.rays2, k = idx % p.rays2;
                pt_point from = pts[jj];
                double dx, dy;
                found = pt_sb_stage2_dir(s0, from, k, p.rays2, p.spread, &dx, &dy) &&
                        pt_sb_cast(&c, from.x, from.y, dx, dy,
                                   pt_sb_stage2_len(s0, from,
                                                    pt_sb_inner_len(job.len2, inner, 2.0 * max_r),
                                                    c.gap),
                                   &e);
            }
            int total;
            int pos = tile_position(found, warp_counts, &total);
            if (found)
                pts[base + pos] = e;
            base += total;
            __syncthreads();
        }
        int n = base;
        if (p.sb.flat_edges == PT_SB_FLAT_REJECT)
            n = drop_flat(&c, &job, pts, b.slot_normals + (size_t)j * p.points_per_eye,
                          b.scratch_idx + (size_t)j * p.points_per_eye, n, warp_counts);
        if (threadIdx.x == 0)
            shared_n = n;
        if (n < p.sample_size) {
            if (threadIdx.x == 0)
                shared_found = 0;
            break;
        }
        /* RANSAC: one table row per thread, most votes wins, ties to the lowest row. */
        int rows = p.ransac_rows;
        int my_votes = -1, my_sample = -1;
        for (int s = threadIdx.x; s < rows; s += SB_THREADS) {
            pt_circle cc;
            pt_ellipse ee;
            if (!sample_fit(&p, pts, n, s, job.min_r, max_r, &cc, &ee))
                continue;
            int votes = count_votes(pts, n, &cc, &ee, pt_sb_fits_ellipse(&p.sb, p.ellipse), &p.sb);
            if (votes > my_votes) {
                my_votes = votes;
                my_sample = s;
            }
        }
        best_votes[threadIdx.x] = my_votes;
        best_sample[threadIdx.x] = my_sample;
        __syncthreads();
        for (int stride = SB_THREADS / 2; stride > 0; stride >>= 1) {
            if (threadIdx.x < stride) {
                int ov = best_votes[threadIdx.x + stride], os = best_sample[threadIdx.x + stride];
                int mv = best_votes[threadIdx.x], ms = best_sample[threadIdx.x];
                if (os >= 0 && (ov > mv || (ov == mv && (ms < 0 || os < ms)))) {
                    best_votes[threadIdx.x] = ov;
                    best_sample[threadIdx.x] = os;
                }
            }
            __syncthreads();
        }
        int s = best_sample[0];
        if (s < 0) {
            if (threadIdx.x == 0)
                shared_found = 0;
            break;
        }
        /* the fit of row s, its refit and refinement, its confidence */
        pt_circle cc;
        pt_ellipse ee;
        pt_image view = {dims.width, dims.height, p.pitch, (uint8_t *)c.buf};
        double conf = select_step(&p, &job, max_r, &view, pts, n, s, NULL,
                                  b.scratch_idx + (size_t)j * p.points_per_eye, &work, &cc, &ee);
        pt_sb_levels levels = {0, 0, 0};
        if (p.sb.inner_pass == PT_SB_INNER_ON)
            select_levels(&view, &ee, &work, &levels);
        if (threadIdx.x == 0) {
            shared_found = 1;
            /* the most pupil-like fit of all iterations, as on the CPU (in
             * circle mode ee is the circle or its refined ellipse) */
            int dark = pt_sb_dark_core(&levels);
            if (pt_sb_fit_wins(&p.sb, conf, dark, &ee, best_conf, best_dark, &fit_ellipse)) {
                best_conf = conf;
                best_dark = dark;
                fit_circle = cc;
                fit_ellipse = ee;
            }
            pt_point centre = {(float)cc.cx, (float)cc.cy};
            if (p.ellipse) {
                centre.x = (float)ee.cx;
                centre.y = (float)ee.cy;
            }
            double moved = pt_sb_dist(centre.x, centre.y, s0.x, s0.y);
            shared_start = clamp_point(&c, centre);
            shared_done = moved < p.converge_px;
            pt_sb_inner ip;
            if (!inner && p.sb.inner_pass == PT_SB_INNER_ON &&
                pt_sb_inner_wanted(&ee, &levels, c.threshold, &ip)) {
                /* the inner pass, as omp/detect/starburst.c */
                shared_inner = 1;
                outer_conf = best_conf;
                outer_circle = fit_circle;
                outer_ellipse = fit_ellipse;
                outer_threshold = c.threshold;
                best_conf = -1.0;
                shared_threshold = ip.threshold;
                if (ip.reach < shared_max_r)
                    shared_max_r = ip.reach;
                shared_done = 0;
            }
        }
        __syncthreads();
        if (!shared_found || shared_done)
            break;
    }
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    c.threshold = shared_threshold;
    if (shared_inner) {
        /* the inner pass's answer or the first pass's (lib/detect/starburst_inner.h) */
        pt_image view = {dims.width, dims.height, p.pitch, (uint8_t *)c.buf};
        if (!pt_sb_inner_answer(&view, best_conf, &fit_ellipse, outer_conf, &outer_ellipse)) {
            best_conf = outer_conf;
            fit_circle = outer_circle;
            fit_ellipse = outer_ellipse;
            c.threshold = outer_threshold;
        }
    }
    fill_result(p, &c, shared_n, best_conf, fit_circle, fit_ellipse, out);
    if (p.sequence) {
        previous[job.slot].have = out->status == PT_DETECT_OK;
        previous[job.slot].x = (float)out->circle.cx;
        previous[job.slot].y = (float)out->circle.cy;
    }
}

/* ---- the throughput pipeline's steps that need the confidence measure ---- */

/* Job j's result from its state, as starburst_kernel's tail. */
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
    fill_result(p, &c, st->n, conf, circle, ellipse, b.results + j);
    b.results[j].iterating = st->active;
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
 * (pt_sb_fit_wins) and decides the next start and convergence: starburst_kernel's work after
 * its RANSAC, with the same arithmetic. With finish (the call's last
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
    double conf = select_step(&p, &job, st->max_r, &view, pts, n, s, &model,
                              b.scratch_idx + (size_t)j * p.points_per_eye, &work, &cc, &ee);
    pt_sb_levels levels = {0, 0, 0};
    if (p.sb.inner_pass == PT_SB_INNER_ON)
        select_levels(&view, &ee, &work, &levels);
    if (threadIdx.x != 0)
        return;
    int dark = pt_sb_dark_core(&levels);
    if (pt_sb_fit_wins(&p.sb, conf, dark, &ee, st->best_conf, st->best_dark, &st->ellipse)) {
        st->best_conf = conf;
        st->best_dark = dark;
        st->circle = cc;
        st->ellipse = ee;
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
    int converged = moved < p.converge_px;
    pt_sb_inner ip;
    if (!st->inner && p.sb.inner_pass == PT_SB_INNER_ON &&
        pt_sb_inner_wanted(&ee, &levels, st->threshold, &ip)) {
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

extern "C" cudaError_t pt_cuda_starburst(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                         int jobs, pt_cuda_previous *previous,
                                         cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    pt_cuda_params q = *p;
    if (!(q.sb.threshold > 0)) {
        /* p->sb not filled by the host: the settings that predate it */
        q.sb.threshold = q.threshold;
        q.sb.gap = 0;
        q.sb.gap_min = 1;
        q.sb.edge_level = 1.0;
        q.sb.circle_tol = 0.0;
        q.sb.inlier = q.inlier;
        q.sb.max_step = 0.0;
        q.sb.edge_offset = 0.0;
        q.sb.edge_fraction = 0.0;
        q.sb.size_fraction = 0.0;
        q.sb.contrast = 0.0;
        q.sb.circle_refit = PT_SB_REFIT_CIRCLE;
        q.sb.circle_votes = PT_SB_VOTES_BAND;
        q.sb.ellipse_fit = PT_SB_ELLIPSE_DIRECT;
        q.sb.inner_pass = PT_SB_INNER_OFF;
    }
    if (q.sequence) {
        /* Each eye starts where the previous frame's pupil was: in order. */
        for (int j = 0; j < jobs; j++)
            starburst_kernel<<<1, SB_THREADS, 0, stream>>>(q, *b, j, previous);
    } else {
        starburst_kernel<<<jobs, SB_THREADS, 0, stream>>>(q, *b, 0, previous);
    }
    return cudaGetLastError();
}
