/* Starburst for independent frames at throughput: the stages of
 * cuda/starburst.cu (and omp/starburst.c) as grid-wide launches over every
 * (frame, eye) job of a chunk, so the whole GPU works on every stage:
 *
 *   dark_cells   block per row of darkest-window cells      (start = dark)
 *   start        block per job: start point, state
 *   per iteration (launched max_iterations times; finished jobs return at once):
 *     rays       block per first-stage ray: warp 0 casts it, the others
 *                its second-stage rays (pt_sb_cast_warp)
 *     ransac     block per 128 rows (32 with --ellipse) of the sample table
 *                per job, a row's votes split over its threads, each block
 *                compacting the found edges in ray order itself (a separate
 *                compact launch when they do not fit in shared memory)
 *     select     (starburst.cu) block per job: best row, refit on inliers,
 *                circle mode's refinement, confidence (the most confident
 *                fit is kept), convergence
 *   finish       (starburst.cu) the result
 *
 * Every value is computed by the same device functions, in the same order per
 * job, as the one-block-per-eye kernel, so results are identical to it. */
#include "starburst_device.cuh"

#define PIPE_THREADS 256
#define PIPE_WARPS (PIPE_THREADS / 32)
#define RANSAC_SHARED_POINTS 2048

/* Cell sums of the darkest-window search: block (cy, job) sums cell row cy. */
__global__ void dark_cells(pt_cuda_params p, pt_cuda_buffers b)
{
    int j = blockIdx.y, cy = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    int block = job.min_r < 2 ? 2 : job.min_r; /* as darkest_point() */
    int gw = job.w / block, gh = job.h / block;
    if (job.start_mode != PT_CUDA_START_DARK || cy >= gh || gw < 1)
        return;
    const uint8_t *img = b.smoothed + job.frame * p.plane;
    uint32_t *cells = b.cells + (size_t)j * b.cells_per_job;
    for (int cx = threadIdx.x; cx < gw; cx += blockDim.x) {
        uint32_t sum = 0;
        for (int y = 0; y < block; y++) {
            const uint8_t *row =
                img + (size_t)(job.y0 + cy * block + y) * p.pitch + job.x0 + cx * block;
            for (int i = 0; i < block; i++)
                sum += row[i];
        }
        cells[(size_t)cy * gw + cx] = sum;
    }
}

/* The start point of every job, and its state. */
__global__ void start_jobs(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ unsigned long long best_key;
    int j = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    pt_point start = {(float)(job.x0 + (job.w - 1) / 2.0), (float)(job.y0 + (job.h - 1) / 2.0)};
    if (job.start_mode == PT_CUDA_START_FIXED) {
        start.x = job.start_x;
        start.y = job.start_y;
    } else if (job.start_mode == PT_CUDA_START_DARK) {
        /* As darkest_point() of starburst.cu, from the cells dark_cells() summed. */
        int block = job.min_r < 2 ? 2 : job.min_r;
        int gw = job.w / block, gh = job.h / block;
        if (gw >= 1 && gh >= 1) {
            const uint32_t *cells = b.cells + (size_t)j * b.cells_per_job;
            if (threadIdx.x == 0)
                best_key = ~0ull;
            __syncthreads();
            int ww = gw > 1 ? 2 : 1, wh = gh > 1 ? 2 : 1;
            int nx = gw - ww + 1, ny = gh - wh + 1;
            unsigned long long mine = ~0ull;
            for (int k = threadIdx.x; k < nx * ny; k += blockDim.x) {
                int cx = k % nx, cy = k / nx;
                unsigned long long s = 0;
                for (int jj = 0; jj < wh; jj++)
                    for (int i = 0; i < ww; i++)
                        s += cells[(size_t)(cy + jj) * gw + cx + i];
                unsigned long long key = (s << 24) | (unsigned long long)(cy * gw + cx);
                if (key < mine)
                    mine = key;
            }
            atomicMin(&best_key, mine);
            __syncthreads();
            int index = (int)(best_key & 0xffffffull);
            int bx = index % gw, by = index / gw;
            start.x = (float)(job.x0 + bx * block + ww * block / 2.0 - 0.5);
            start.y = (float)(job.y0 + by * block + wh * block / 2.0 - 0.5);
        }
    }
    if (threadIdx.x != 0)
        return;
    pt_sb_view c;
    c.xmin = job.x0;
    c.ymin = job.y0;
    c.xmax = job.x0 + job.w - 1;
    c.ymax = job.y0 + job.h - 1;
    pt_cuda_sb_state *st = b.state + j;
    st->start = clamp_point(&c, start);
    st->active = job.w >= 3 && job.h >= 3;
    st->found = 0;
    st->n = 0;
    st->best_conf = -1.0;
}

/* Block per first-stage ray i of job j: warp 0 casts it (slot i), then the
 * other warps cast its second-stage rays back towards the start, ray k at
 * slot rays + i * rays2 + k (not found when ray i found no edge). One launch
 * for both stages: a second-stage ray needs only its own first-stage edge. */
#define RAYS_MAX_WARPS 8
static int rays_warps(const pt_cuda_params *p)
{
    return p->rays2 > 0 ? 1 + (p->rays2 < RAYS_MAX_WARPS - 1 ? p->rays2 : RAYS_MAX_WARPS - 1) : 1;
}

__global__ void __launch_bounds__(32 * RAYS_MAX_WARPS, 2) rays(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ int found1;
    __shared__ pt_point edge1;
    int j = blockIdx.x / p.rays, i = blockIdx.x % p.rays;
    if (!b.state[j].active)
        return;
    int warp = threadIdx.x >> 5, warps = blockDim.x >> 5, lane = threadIdx.x & 31;
    const pt_cuda_eye_job job = b.jobs[j];
    pt_sb_view c = job_view(p, b, job);
    pt_point s0 = b.state[j].start;
    size_t base = (size_t)j * p.points_per_eye;
    if (warp == 0) {
        pt_point e;
        double dx, dy;
        pt_sb_stage1_dir(i, p.rays, &dx, &dy);
        int found = pt_sb_cast_warp(&c, s0.x, s0.y, dx, dy, job.len1, &e);
        if (lane == 0) {
            b.slot_found[base + i] = (uint8_t)found;
            if (found)
                b.slot_points[base + i] = e;
            found1 = found;
            edge1 = e;
        }
    }
    if (p.rays2 <= 0)
        return;
    __syncthreads();
    int first = warps > 1 ? 1 : 0; /* warps casting second-stage rays */
    for (int k = warp - first; k >= 0 && k < p.rays2; k += warps - first) {
        size_t slot = base + p.rays + (size_t)i * p.rays2 + k;
        if (!found1) {
            if (lane == 0)
                b.slot_found[slot] = 0;
            continue;
        }
        pt_point from = edge1, e;
        double dx, dy;
        int found = pt_sb_stage2_dir(s0, from, k, p.rays2, p.spread, &dx, &dy) &&
                    pt_sb_cast_warp(&c, from.x, from.y, dx, dy,
                                    pt_sb_stage2_len(s0, from, job.len2, c.gap), &e);
        if (lane == 0) {
            b.slot_found[slot] = (uint8_t)found;
            if (found)
                b.slot_points[slot] = e;
        }
    }
}

/* Found edges of job j in slot order (first stage, then second stage by
 * first-stage ray), the order of the serial detector: into shared (when not
 * NULL) and, with to_global, into the job's points. Returns their number.
 * Called by every thread of a PIPE_THREADS block. */
static __device__ int compact_slots(const pt_cuda_params &p, const pt_cuda_buffers &b, int j,
                                    pt_point *shared, int to_global, int *warp_counts)
{
    int slots = p.rays * (1 + p.rays2);
    size_t base = (size_t)j * p.points_per_eye;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int n = 0;
    for (int tile = 0; tile < slots; tile += PIPE_THREADS) {
        int s = tile + threadIdx.x;
        int flag = s < slots && b.slot_found[base + s];
        unsigned ballot = __ballot_sync(0xffffffffu, flag);
        if (lane == 0)
            warp_counts[warp] = __popc(ballot);
        __syncthreads();
        int before = 0, total = 0;
        for (int w = 0; w < PIPE_WARPS; w++) {
            before += w < warp ? warp_counts[w] : 0;
            total += warp_counts[w];
        }
        if (flag) {
            int at = n + before + __popc(ballot & ((1u << lane) - 1u));
            pt_point e = b.slot_points[base + s];
            if (shared)
                shared[at] = e;
            if (to_global)
                b.points[base + at] = e;
        }
        n += total;
        __syncthreads();
    }
    return n;
}

/* Block per job: the found edges -> points (when RANSAC cannot compact them
 * itself: more than RANSAC_SHARED_POINTS slots per job). */
__global__ void __launch_bounds__(PIPE_THREADS) compact(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ int warp_counts[PIPE_WARPS];
    int j = blockIdx.x;
    if (!b.state[j].active)
        return;
    int n = compact_slots(p, b, j, NULL, 1, warp_counts);
    if (threadIdx.x == 0) {
        b.state[j].n = n;
        if (n < p.sample_size) {
            b.state[j].found = 0;
            b.state[j].active = 0;
        }
    }
}

/* Threads per RANSAC row: each fits the row (the same fit) and counts the
 * votes of its share of the points (integer counts: any split sums to the
 * serial count). Ellipse votes (pt_ellipse_frame_distance, four iterations
 * of square roots and divisions per point) are worth splitting further. */
static __host__ __device__ int ransac_lanes(const pt_cuda_params *p)
{
    return pt_sb_fits_ellipse(&p->sb, p->ellipse) ? 8 : 2;
}

/* Block per PIPE_THREADS / ransac_lanes rows of the sample table per job:
 * the best row of the block (most votes, ties to the lowest row) ->
 * partials. FUSED: every block compacts the job's edges into shared memory
 * itself (block 0 also writes them and their number out for the select
 * step, which ends a job with fewer than sample_size points); otherwise
 * compact() did it. */
template <bool FUSED>
__global__ void __launch_bounds__(PIPE_THREADS) ransac(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ pt_point shared_pts[RANSAC_SHARED_POINTS];
    __shared__ int best_votes[PIPE_THREADS], best_row[PIPE_THREADS];
    __shared__ int warp_counts[PIPE_WARPS];
    int j = blockIdx.y;
    if (!b.state[j].active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    int n;
    const pt_point *pts;
    if (FUSED) {
        n = compact_slots(p, b, j, shared_pts, blockIdx.x == 0, warp_counts);
        if (blockIdx.x == 0 && threadIdx.x == 0)
            b.state[j].n = n;
        if (n < p.sample_size)
            return;
        pts = shared_pts;
    } else {
        n = b.state[j].n;
        pts = b.points + (size_t)j * p.points_per_eye;
        if (n <= RANSAC_SHARED_POINTS) {
            for (int k = threadIdx.x; k < n; k += PIPE_THREADS)
                shared_pts[k] = pts[k];
            __syncthreads();
            pts = shared_pts;
        }
    }
    int lanes = ransac_lanes(&p), q = threadIdx.x % lanes;
    int s = blockIdx.x * (PIPE_THREADS / lanes) + threadIdx.x / lanes;
    int votes = 0, ok = 0;
    if (s < p.ransac_rows) {
        pt_circle cc;
        pt_ellipse ee;
        if (sample_fit(&p, pts, n, s, job.min_r, job.max_r, &cc, &ee)) {
            int lo = q * n / lanes, hi = (q + 1) * n / lanes;
            votes = count_votes(pts + lo, hi - lo, &cc, &ee,
                                pt_sb_fits_ellipse(&p.sb, p.ellipse), &p.sb);
            ok = 1;
        }
    }
    for (int o = 1; o < lanes; o <<= 1)
        votes += __shfl_xor_sync(0xffffffffu, votes, o);
    best_votes[threadIdx.x] = ok ? votes : -1;
    best_row[threadIdx.x] = ok ? s : -1;
    __syncthreads();
    for (int stride = PIPE_THREADS / 2; stride > 0; stride >>= 1) {
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
        b.partials[(size_t)j * b.partials_per_job + blockIdx.x] = make_int2(best_votes[0], best_row[0]);
}

extern "C" int pt_cuda_ransac_blocks(const pt_cuda_params *p)
{
    int rows_per_block = PIPE_THREADS / ransac_lanes(p);
    return (p->ransac_rows + rows_per_block - 1) / rows_per_block;
}

extern "C" cudaError_t pt_cuda_starburst_pipeline(const pt_cuda_params *p,
                                                  const pt_cuda_buffers *b, int jobs,
                                                  int max_width, int max_height,
                                                  cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    (void)max_width;
    /* Cell rows: at most height / 2 (cells are at least 2 px). */
    dim3 cells_grid(max_height / 2 + 1, jobs);
    dark_cells<<<cells_grid, PIPE_THREADS, 0, stream>>>(*p, *b);
    start_jobs<<<jobs, PIPE_THREADS, 0, stream>>>(*p, *b);
    int nblocks = pt_cuda_ransac_blocks(p);
    cudaError_t st = cudaSuccess;
    int iterations = p->max_iterations > 0 ? p->max_iterations : 1;
    int fused = p->rays * (1 + p->rays2) <= RANSAC_SHARED_POINTS;
    for (int it = 0; it < iterations; it++) {
        rays<<<jobs * p->rays, 32 * rays_warps(p), 0, stream>>>(*p, *b);
        if (fused) {
            ransac<true><<<dim3(nblocks, jobs), PIPE_THREADS, 0, stream>>>(*p, *b);
        } else {
            compact<<<jobs, PIPE_THREADS, 0, stream>>>(*p, *b);
            ransac<false><<<dim3(nblocks, jobs), PIPE_THREADS, 0, stream>>>(*p, *b);
        }
        st = pt_cuda_starburst_select(p, b, jobs, nblocks, stream);
        if (st != cudaSuccess)
            return st;
    }
    st = cudaGetLastError();
    if (st != cudaSuccess)
        return st;
    return pt_cuda_starburst_finish(p, b, jobs, stream);
}
