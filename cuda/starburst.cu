/* Starburst on the GPU: one thread block per (frame, eye), the same stages and
 * arithmetic as omp/starburst.c so the two back ends agree: start point (the
 * darkest window, a fixed point, or the previous frame's centre), first-stage
 * rays, second-stage rays back towards the start, RANSAC over the shared
 * sample table (one sample per thread, best chosen on the device), refit on
 * the inliers, iterate until the centre moves less than converge_px. The
 * host never synchronises inside a frame. Edge points are compacted in ray
 * order with warp ballots, so RANSAC sees them in the CPU's order. */
#include "starburst_device.cuh"

#include "../lib/starburst_refit.h"

/* The shared confidence measure, compiled here as device code. */
#include "../lib/confidence.c"

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

/* Darkest (block x block) cell window of the roi, as pt_darkest_point(). */
__device__ pt_point darkest_point(const uint8_t *img, int pitch, const pt_cuda_eye_job *job,
                                  uint32_t *cells, unsigned long long *best_key)
{
    int x0 = job->x0, y0 = job->y0, w = job->w, h = job->h;
    pt_point centre = {(float)(x0 + (w - 1) / 2.0), (float)(y0 + (h - 1) / 2.0)};
    /* cells of min_r px, as omp/backend.c start_point: a window of 2 x 2
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

/* Circle mode's ellipse refinement (lib/starburst_refit.h), split over
 * threads: this thread's rows first, first + stride, ... of the short RANSAC
 * over the candidates; *row = its best (most votes, the lowest of equals),
 * -1 if none fits. */
__device__ int refit_rows(const pt_cuda_params *p, const pt_point *pts, const int *cand, int m,
                          double min_r, double max_r, int first, int stride, int *row)
{
    int rows = pt_sb_refit_rows(p->ransac_rows, p->sample_size);
    int best_votes = -1;
    *row = -1;
    for (int s = first; s < rows && m >= PT_SB_REFIT_SAMPLE; s += stride) {
        pt_ellipse e;
        if (!pt_sb_refit_row_fit(p->ransac_values, s, pts, cand, m, min_r, max_r, &e))
            continue;
        int votes = pt_sb_refit_votes(&e, p->sb.inlier, pts, cand, m);
        if (votes > best_votes) {
            best_votes = votes;
            *row = s;
        }
    }
    return best_votes;
}

/* Whether row (votes ov, ro) beats (mv, mr) in the refinement's order. */
__device__ int refit_better(int ov, int ro, int mv, int mr)
{
    return ro >= 0 && (ov > mv || (ov == mv && (mr < 0 || ro < mr)));
}

/* The refinement's last step from the best row (pt_sb_circle_ellipse's tail):
 * 1 and the ellipse when credible. cand holds the m candidates. */
__device__ int refit_finish(const pt_cuda_params *p, const pt_circle *cc, const pt_point *pts,
                            int n, int *cand, int m, double min_r, double max_r, int row,
                            pt_ellipse *out)
{
    pt_ellipse e;
    if (row < 0 || !pt_sb_refit_row_fit(p->ransac_values, row, pts, cand, m, min_r, max_r, &e))
        return 0;
    return pt_sb_refit_finish(&p->sb, cc, pts, n, cand, m, min_r, max_r, e, out);
}

__device__ void refit_adopt(const pt_ellipse *e, pt_circle *cc, pt_ellipse *ee)
{
    *ee = *e;
    cc->cx = e->cx;
    cc->cy = e->cy;
    cc->r = 0.5 * (e->a + e->b);
}

__global__ void __launch_bounds__(SB_THREADS)
starburst_kernel(pt_cuda_params p, pt_cuda_buffers b, int first_job, pt_cuda_previous *previous)
{
    __shared__ int warp_counts[SB_WARPS];
    __shared__ int shared_n, shared_done, shared_found;
    __shared__ pt_point shared_start;
    __shared__ unsigned long long shared_key;
    __shared__ int best_votes[SB_THREADS], best_sample[SB_THREADS];
    __shared__ pt_circle fit_circle, iter_circle;
    __shared__ pt_ellipse fit_ellipse, iter_ellipse;
    __shared__ double best_conf;
    __shared__ int refit_m;

    int j = first_job + blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_sb_view c;
    c.buf = b.smoothed + job.frame * p.plane;
    c.mask = p.reflection == PT_REFLECTION_SKIP ? b.mask + job.frame * p.plane : NULL;
    c.width = dims.width;
    c.height = dims.height;
    c.stride = p.pitch;
    c.xmin = job.x0;
    c.ymin = job.y0;
    c.xmax = job.x0 + job.w - 1;
    c.ymax = job.y0 + job.h - 1;
    c.threshold = p.sb.threshold;
    c.gap = pt_sb_gap(&p.sb, job.gap);
    c.edge_level = p.sb.edge_level;
    c.max_step = p.sb.max_step;
    c.edge_offset = p.sb.edge_offset;
    c.edge_fraction = p.sb.edge_fraction;
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
    if (threadIdx.x == 0) {
        shared_start = clamp_point(&c, start);
        shared_found = 0;
        shared_n = 0;
        best_conf = -1.0;
    }
    __syncthreads();
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
        /* Stage 1: rays over 360 degrees, compacted in ray order. */
        int base = 0;
        for (int tile = 0; tile < p.rays; tile += SB_THREADS) {
            int i = tile + threadIdx.x;
            pt_point e;
            int found = 0;
            if (i < p.rays) {
                double dx, dy;
                pt_sb_stage1_dir(i, p.rays, &dx, &dy);
                found = pt_sb_cast(&c, s0.x, s0.y, dx, dy, job.len1, &e);
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
                                   pt_sb_stage2_len(s0, from, job.len2, c.gap), &e);
            }
            int total;
            int pos = tile_position(found, warp_counts, &total);
            if (found)
                pts[base + pos] = e;
            base += total;
            __syncthreads();
        }
        int n = base;
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
            if (!sample_fit(&p, pts, n, s, job.min_r, job.max_r, &cc, &ee))
                continue;
            int votes = count_votes(pts, n, &cc, &ee, p.ellipse, &p.sb);
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
        int *inl = b.scratch_idx + (size_t)j * p.points_per_eye;
        if (threadIdx.x == 0) {
            int s = best_sample[0];
            shared_found = s >= 0;
            shared_done = 0;
            refit_m = 0;
            if (s >= 0) {
                pt_circle cc = {0, 0, 0};
                pt_ellipse ee = {0, 0, 0, 0, 0};
                sample_fit(&p, pts, n, s, job.min_r, job.max_r, &cc, &ee);
                /* Refit once on the inliers of the best sample. */
                int count = 0;
                if (p.ellipse) {
                    pt_ellipse_frame f;
                    pt_ellipse_frame_init(&ee, &f);
                    for (int k = 0; k < n; k++)
                        if (pt_ellipse_frame_distance(&f, pts[k].x, pts[k].y) <= p.inlier)
                            inl[count++] = k;
                    pt_ellipse refit;
                    if (pt_fit_ellipse(pts, inl, count, &refit) &&
                        pt_ransac_ellipse_in_range(&refit, job.min_r, job.max_r))
                        ee = refit;
                    cc.cx = ee.cx;
                    cc.cy = ee.cy;
                    cc.r = 0.5 * (ee.a + ee.b);
                } else {
                    for (int k = 0; k < n; k++)
                        if (pt_sb_circle_inlier(&p.sb, &cc, pts[k].x, pts[k].y))
                            inl[count++] = k;
                    pt_circle refit;
                    if (pt_fit_circle(pts, inl, count, &refit) &&
                        pt_ransac_circle_in_range(&refit, job.min_r, job.max_r))
                        cc = refit;
                    pt_ellipse_from_circle(&cc, &ee);
                    /* the refinement's candidates, for every thread's rows */
                    if (p.sb.circle_refit == PT_SB_REFIT_ELLIPSE)
                        for (int k = 0; k < n; k++)
                            if (pt_sb_refit_candidate(&p.sb, &cc, pts[k].x, pts[k].y))
                                inl[refit_m++] = k;
                }
                iter_circle = cc;
                iter_ellipse = ee;
            }
        }
        __syncthreads();
        if (refit_m >= PT_SB_REFIT_SAMPLE) {
            /* circle mode's ellipse refinement: rows over the block, then the best */
            int row;
            best_votes[threadIdx.x] = refit_rows(&p, pts, inl, refit_m, job.min_r, job.max_r,
                                                 threadIdx.x, SB_THREADS, &row);
            best_sample[threadIdx.x] = row;
            __syncthreads();
            for (int stride = SB_THREADS / 2; stride > 0; stride >>= 1) {
                if (threadIdx.x < stride &&
                    refit_better(best_votes[threadIdx.x + stride], best_sample[threadIdx.x + stride],
                                 best_votes[threadIdx.x], best_sample[threadIdx.x])) {
                    best_votes[threadIdx.x] = best_votes[threadIdx.x + stride];
                    best_sample[threadIdx.x] = best_sample[threadIdx.x + stride];
                }
                __syncthreads();
            }
        }
        if (threadIdx.x == 0 && shared_found) {
            pt_circle cc = iter_circle;
            pt_ellipse ee = iter_ellipse, refined;
            if (refit_m >= PT_SB_REFIT_SAMPLE &&
                refit_finish(&p, &cc, pts, n, inl, refit_m, job.min_r, job.max_r,
                             best_sample[0], &refined))
                refit_adopt(&refined, &cc, &ee);
            /* the most pupil-like fit of all iterations, as on the CPU (in
             * circle mode ee is the circle or its refined ellipse) */
            pt_image view = {dims.width, dims.height, p.pitch, (uint8_t *)c.buf};
            double conf = pt_confidence_ellipse(&view, &ee);
            if (conf > best_conf) {
                best_conf = conf;
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
        }
        __syncthreads();
        if (!shared_found || shared_done)
            break;
    }
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    out->npoints = shared_n;
    out->has_circle = out->has_ellipse = 0;
    out->status = PT_DETECT_NOTFOUND;
    out->confidence = 0;
    if (best_conf >= 0) {
        if (p.ellipse) {
            out->ellipse = fit_ellipse;
            out->circle.cx = fit_ellipse.cx;
            out->circle.cy = fit_ellipse.cy;
            out->circle.r = sqrt(fit_ellipse.a * fit_ellipse.b);
            out->has_ellipse = 1;
        } else {
            out->circle = fit_circle;
        }
        out->confidence = best_conf;
        out->has_circle = 1;
        if (out->confidence >= PT_CONFIDENCE_MIN)
            out->status = PT_DETECT_OK;
        else
            out->has_circle = out->has_ellipse = 0;
    }
    if (p.sequence) {
        previous[job.slot].have = out->status == PT_DETECT_OK;
        previous[job.slot].x = (float)out->circle.cx;
        previous[job.slot].y = (float)out->circle.cy;
    }
}

/* ---- the throughput pipeline's steps that need the confidence measure ---- */

/* Warp per job: the best row over the RANSAC blocks, refit on its inliers
 * (found by the warp, kept in point order), the confidence, the most
 * confident fit so far, the next start and convergence: thread 0's work in
 * starburst_kernel, with the same arithmetic. */
#define SELECT_SHARED_POINTS 2048
__global__ void starburst_select(pt_cuda_params p, pt_cuda_buffers b, int nblocks)
{
    __shared__ pt_point inlier_pts[SELECT_SHARED_POINTS];
    __shared__ pt_circle best_circle;
    __shared__ pt_ellipse best_ellipse;
    __shared__ int best_row;
    int j = blockIdx.x, lane = threadIdx.x;
    pt_cuda_sb_state *st = b.state + j;
    if (!st->active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    int n = st->n;
    if (n < p.sample_size) { /* too few edges: the job ends without a fit */
        if (lane == 0) {
            st->found = 0;
            st->active = 0;
        }
        return;
    }
    const pt_point *pts = b.points + (size_t)j * p.points_per_eye;
    if (lane == 0) {
        int best_votes = -1, s = -1;
        for (int k = 0; k < nblocks; k++) {
            int2 v = b.partials[(size_t)j * b.partials_per_job + k];
            if (v.y >= 0 && (v.x > best_votes || (v.x == best_votes && (s < 0 || v.y < s)))) {
                best_votes = v.x;
                s = v.y;
            }
        }
        pt_circle cc = {0, 0, 0};
        pt_ellipse ee = {0, 0, 0, 0, 0};
        if (s >= 0)
            sample_fit(&p, pts, n, s, job.min_r, job.max_r, &cc, &ee);
        best_row = s;
        best_circle = cc;
        best_ellipse = ee;
    }
    __syncwarp();
    if (best_row < 0) {
        if (lane == 0) {
            st->found = 0;
            st->active = 0;
        }
        return;
    }
    pt_circle cc = best_circle;
    pt_ellipse ee = best_ellipse;
    pt_ellipse_frame f;
    if (p.ellipse)
        pt_ellipse_frame_init(&ee, &f);
    /* The inliers in point order: as points in shared memory (the refit's
     * passes over them then wait on shared, not global, loads), or as
     * indices when there are too many. */
    int *inl = b.scratch_idx + (size_t)j * p.points_per_eye;
    int in_shared = n <= SELECT_SHARED_POINTS;
    int count = 0;
    for (int base = 0; base < n; base += 32) {
        int k = base + lane, in = 0;
        pt_point q = {0, 0};
        if (k < n) {
            q = pts[k];
            in = p.ellipse ? pt_ellipse_frame_distance(&f, q.x, q.y) <= p.inlier
                           : pt_sb_circle_inlier(&p.sb, &cc, q.x, q.y);
        }
        unsigned ballot = __ballot_sync(0xffffffffu, in);
        int at = count + __popc(ballot & ((1u << lane) - 1u));
        if (in && in_shared)
            inlier_pts[at] = q;
        else if (in)
            inl[at] = k;
        count += __popc(ballot);
    }
    __syncwarp();
    const pt_point *fit_pts = in_shared ? inlier_pts : pts;
    const int *fit_idx = in_shared ? NULL : inl;
    if (lane == 0) {
        if (p.ellipse) {
            pt_ellipse refit;
            if (pt_fit_ellipse(fit_pts, fit_idx, count, &refit) &&
                pt_ransac_ellipse_in_range(&refit, job.min_r, job.max_r))
                ee = refit;
            cc.cx = ee.cx;
            cc.cy = ee.cy;
            cc.r = 0.5 * (ee.a + ee.b);
        } else {
            pt_circle refit;
            if (pt_fit_circle(fit_pts, fit_idx, count, &refit) &&
                pt_ransac_circle_in_range(&refit, job.min_r, job.max_r))
                cc = refit;
            pt_ellipse_from_circle(&cc, &ee);
        }
        best_circle = cc;
        best_ellipse = ee;
    }
    __syncwarp();
    if (!p.ellipse && p.sb.circle_refit == PT_SB_REFIT_ELLIPSE) {
        /* circle mode's ellipse refinement: candidates in point order, rows over the warp */
        pt_circle rc = best_circle;
        int m = 0;
        for (int base = 0; base < n; base += 32) {
            int k = base + lane;
            int in = k < n && pt_sb_refit_candidate(&p.sb, &rc, pts[k].x, pts[k].y);
            unsigned ballot = __ballot_sync(0xffffffffu, in);
            if (in)
                inl[m + __popc(ballot & ((1u << lane) - 1u))] = k;
            m += __popc(ballot);
        }
        __syncwarp();
        int row, votes = refit_rows(&p, pts, inl, m, job.min_r, job.max_r, lane, 32, &row);
        for (int off = 16; off > 0; off >>= 1) {
            int ov = __shfl_down_sync(0xffffffffu, votes, off);
            int orow = __shfl_down_sync(0xffffffffu, row, off);
            if (refit_better(ov, orow, votes, row)) {
                votes = ov;
                row = orow;
            }
        }
        pt_ellipse refined;
        if (lane == 0 && m >= PT_SB_REFIT_SAMPLE &&
            refit_finish(&p, &rc, pts, n, inl, m, job.min_r, job.max_r, row, &refined)) {
            refit_adopt(&refined, &rc, &best_ellipse);
            best_circle = rc;
        }
        __syncwarp();
    }
    /* The confidence (pt_confidence_ellipse, or _circle = the ellipse with
     * a = b = r, theta 0: what pt_ellipse_from_circle gave; in circle mode
     * best_ellipse is that, or the refined ellipse the circle reports) with
     * its samples spread over the warp; the counts do not depend on the order. */
    pt_ellipse outline = best_ellipse;
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    double ct = 0, stt = 0;
    int axes = pt_confidence_axes(&outline, &ct, &stt);
    int valid = 0, dark_inside = 0;
    for (int k = lane; axes && k < PT_CONFIDENCE_SAMPLES; k += 32) {
        int dark = 0;
        if (pt_confidence_sample(&view, &outline, ct, stt, k, &dark)) {
            valid++;
            dark_inside += dark;
        }
    }
    for (int o = 16; o > 0; o >>= 1) { /* integer sums over the warp (sm_75 too) */
        valid += __shfl_xor_sync(0xffffffffu, valid, o);
        dark_inside += __shfl_xor_sync(0xffffffffu, dark_inside, o);
    }
    if (lane != 0)
        return;
    cc = best_circle;
    ee = best_ellipse;
    double conf = axes ? pt_confidence_from_counts(valid, dark_inside) : 0.0;
    if (conf > st->best_conf) {
        st->best_conf = conf;
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
    c.xmin = job.x0;
    c.ymin = job.y0;
    c.xmax = job.x0 + job.w - 1;
    c.ymax = job.y0 + job.h - 1;
    st->start = clamp_point(&c, centre);
    st->active = !(moved < p.converge_px);
}

/* Thread per job: the result from the job's state, as starburst_kernel's tail. */
__global__ void starburst_finish(pt_cuda_params p, pt_cuda_buffers b, int jobs)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= jobs)
        return;
    const pt_cuda_sb_state *st = b.state + j;
    pt_cuda_eye_result *out = b.results + j;
    out->npoints = st->n;
    out->has_circle = out->has_ellipse = 0;
    out->status = PT_DETECT_NOTFOUND;
    out->confidence = 0;
    if (!(st->best_conf >= 0))
        return;
    if (p.ellipse) {
        out->ellipse = st->ellipse;
        out->circle.cx = st->ellipse.cx;
        out->circle.cy = st->ellipse.cy;
        out->circle.r = sqrt(st->ellipse.a * st->ellipse.b);
        out->has_ellipse = 1;
    } else {
        out->circle = st->circle;
    }
    out->confidence = st->best_conf;
    out->has_circle = 1;
    if (out->confidence >= PT_CONFIDENCE_MIN)
        out->status = PT_DETECT_OK;
    else
        out->has_circle = out->has_ellipse = 0;
}

extern "C" cudaError_t pt_cuda_starburst_select(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                                int jobs, int nblocks, cudaStream_t stream)
{
    starburst_select<<<jobs, 32, 0, stream>>>(*p, *b, nblocks);
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
        q.sb.circle_refit = PT_SB_REFIT_CIRCLE;
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
