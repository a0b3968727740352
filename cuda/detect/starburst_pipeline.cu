/* Starburst on the GPU: the stages of omp/detect/starburst.c as grid-wide
 * launches over every (frame, eye) job of a chunk, so the whole GPU works on
 * every stage:
 *
 *   dark_windows DARK_BLOCKS blocks per job: darkest window    (start = dark)
 *   start        thread per job: start point (--sequence: the previous
 *                frame's centre when it had one), state
 *   per iteration (launched max_iterations times; finished jobs return at once):
 *     rays       block per first-stage ray: warp 0 casts it, the others
 *                its second-stage rays (pt_sb_cast_warp)
 *     drop_flat_slots  (flat_edges=reject) block per job: each found edge
 *                tested once against the job's others, the points on flat
 *                edges marked not found when there are enough of them
 *     ransac     block per 128 rows (32 with a RANSAC ellipse) of the sample
 *                table per job, a row's votes split over its threads, each
 *                block compacting the found edges in ray order itself (a
 *                separate compact launch when they do not fit in shared
 *                memory); the best row of each block and its model
 *     select     (starburst.cu) block per job: best row (its model as
 *                ransac fitted it), refit on inliers, circle mode's
 *                refinement, confidence (the best fit is kept, pt_sb_fit_wins),
 *                convergence
 *   finish       (starburst.cu) the result
 *
 * Every value is computed by the same device functions as the CPU's, in the
 * same order per job, so results are identical to omp/detect/starburst.c's. */
#include "cuda/core/block_rank.cuh"
#include "cuda/detect/starburst_device.cuh"

#define PIPE_THREADS 256
#define PIPE_WARPS (PIPE_THREADS / 32)
#define RANSAC_SHARED_POINTS 2048

/* The darkest-window search of omp/detect/backend.c start_point: cells of block = max(min_r, 2) px, windows of
 * 2 x 2 cells (1 where the roi has a single cell row or column), the least
 * sum wins, ties to the lowest cell index. Block (i, job) sums window rows
 * cy = i, i + DARK_BLOCKS, ...: threads take (cell, row) items, each the
 * sum of the cell's `block` bytes in that row (a warp reads consecutive
 * cells of a row), and add them into the cell's sum in shared memory
 * (integer sums: the same in any order; the lanes of a warp add to
 * different cells); the windows of the row then come from adjacent cells,
 * and the block's least key goes to the job's dark_key by atomicMin (the
 * job's last block to finish then sets its start point). Cells
 * are taken DARK_TILE at a time, tiles overlapping by a cell so every
 * window sees both of its cells. */
#define DARK_THREADS 1024
#define DARK_TILE 1024
#define DARK_BLOCKS 64 /* per job */

/* The least key of window row cy (every thread of the block calls it;
 * the result is in each thread's share, reduced by the caller). */
static __device__ unsigned long long dark_row(const uint8_t *img, int pitch, int block, int gw,
                                              int ww, int nx, int rows, int cy,
                                              uint32_t *cell_sum)
{
    int per_tile = DARK_TILE - (ww - 1); /* windows per tile */
    unsigned long long mine = ~0ull;
    for (int c0 = 0; c0 < nx; c0 += per_tile) {
        int cells = min(DARK_TILE, gw - c0);
        for (int k = threadIdx.x; k < cells; k += DARK_THREADS)
            cell_sum[k] = 0;
        __syncthreads();
        const uint8_t *tile = img + c0 * block;
        for (int k = threadIdx.x; k < cells * rows; k += DARK_THREADS) {
            int cell = k % cells, y = k / cells;
            const uint8_t *px = tile + (size_t)y * pitch + cell * block;
            uint32_t sum = 0;
            for (int i = 0; i < block; i++)
                sum += px[i];
            atomicAdd(&cell_sum[cell], sum);
        }
        __syncthreads();
        int windows = min(per_tile, nx - c0);
        for (int k = threadIdx.x; k < windows; k += DARK_THREADS) {
            unsigned long long s = (unsigned long long)cell_sum[k];
            if (ww > 1)
                s += cell_sum[k + 1];
            unsigned long long key = (s << 24) | (unsigned long long)(cy * gw + c0 + k);
            mine = key < mine ? key : mine;
        }
        __syncthreads();
    }
    return mine;
}

/* The start point of job j from its darkest window's key (when the job
 * starts there), and its state. */
static __device__ void start_job(const pt_cuda_params &p, const pt_cuda_buffers &b, int j,
                                 unsigned long long key, int surround)
{
    const pt_cuda_eye_job job = b.jobs[j];
    pt_point start = {(float)(job.x0 + (job.w - 1) / 2.0), (float)(job.y0 + (job.h - 1) / 2.0)};
    if (p.sequence && b.previous && b.previous[job.slot].have) {
        start.x = b.previous[job.slot].x;
        start.y = b.previous[job.slot].y;
    } else if (job.start_mode == PT_CUDA_START_FIXED) {
        start.x = job.start_x;
        start.y = job.start_y;
    } else if (job.start_mode == PT_CUDA_START_DARK) {
        int block = job.min_r < 2 ? 2 : job.min_r;
        int gw = job.w / block, gh = job.h / block;
        if (gw >= 1 && gh >= 1) {
            int ww = gw > 1 ? 2 : 1, wh = gh > 1 ? 2 : 1;
            int index = (int)(key & 0xffffffull);
            int bx = index % gw, by = index / gw;
            start.x = (float)(job.x0 + bx * block + ww * block / 2.0 - 0.5);
            start.y = (float)(job.y0 + by * block + wh * block / 2.0 - 0.5);
        }
    }
    pt_sb_view c;
    pt_sb_view_roi(&c, job.x0, job.y0, job.w, job.h);
    pt_cuda_sb_state *st = b.state + j;
    st->start = clamp_point(&c, start);
    st->active = job.w >= 3 && job.h >= 3;
    st->threshold = st->active ? pt_sb_eye_threshold_at(&p.sb, b.smoothed + job.frame * p.plane,
                                                        p.pitch, st->start, surround)
                               : p.sb.threshold;
    st->found = 0;
    st->n = 0;
    st->best_conf = -1.0;
    st->best_dark = 0;
    st->stall = 0;
    st->inner = 0;
    st->max_r = job.max_r;
    st->fit_r = job.max_r;
    st->outer_conf = -1.0;
}

/* Block blockIdx.x's share of job j's window rows (see above) -> dark_key. */
static __device__ void dark_search(const pt_cuda_params &p, const pt_cuda_buffers &b,
                                   const pt_cuda_eye_job &job, int j, int block, int gw, int gh,
                                   uint32_t *cell_sum, unsigned long long *warp_best)
{
    int ww = gw > 1 ? 2 : 1, wh = gh > 1 ? 2 : 1;
    int nx = gw - ww + 1, ny = gh - wh + 1;
    if ((int)blockIdx.x >= ny)
        return;
    unsigned long long mine = ~0ull;
    for (int cy = blockIdx.x; cy < ny; cy += gridDim.x) {
        const uint8_t *img =
            b.smoothed + job.frame * p.plane + (size_t)(job.y0 + cy * block) * p.pitch + job.x0;
        unsigned long long row =
            dark_row(img, p.pitch, block, gw, ww, nx, wh * block, cy, cell_sum);
        mine = row < mine ? row : mine;
    }
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long other = __shfl_xor_sync(0xffffffffu, mine, o);
        mine = other < mine ? other : mine;
    }
    if ((threadIdx.x & 31) == 0)
        warp_best[threadIdx.x >> 5] = mine;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < DARK_THREADS / 32; w++)
            mine = warp_best[w] < mine ? warp_best[w] : mine;
        atomicMin(b.dark_key + j, mine);
    }
}

__global__ void __launch_bounds__(DARK_THREADS) dark_windows(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ uint32_t cell_sum[DARK_TILE];
    __shared__ unsigned long long warp_best[DARK_THREADS / 32];
    __shared__ int last;
    __shared__ unsigned eye_hist[256];
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int block = job.min_r < 2 ? 2 : job.min_r; /* as start_point() */
    int gw = job.w / block, gh = job.h / block;
    if (job.start_mode == PT_CUDA_START_DARK && gw >= 1 && gh >= 1)
        dark_search(p, b, job, j, block, gw, gh, cell_sum, warp_best);
    /* The job's last block to get here (every other one's atomicMin is
     * done) starts the job and resets the key and the count for the next
     * chunk: no launch of its own for the start. */
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(b.dark_done + j, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    /* the job's surround level, read by the whole (last) block */
    int surround = p.sb.contrast > 0 && job.w >= 3 && job.h >= 3
                       ? block_surround_level(b.smoothed + job.frame * p.plane, p.pitch, job.x0,
                                              job.y0, job.w, job.h, eye_hist)
                       : 0;
    if (threadIdx.x == 0) {
        b.dark_done[j] = 0;
        start_job(p, b, j, atomicExch(b.dark_key + j, ~0ull), surround);
    }
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

/* Whether the rays keep their edges' directions: for the flat-edge test
 * and for circle votes that test them (vote_angle). */
static __host__ __device__ bool radial_votes(const pt_cuda_params &p)
{
    return pt_sb_radial_on(&p.sb) && !pt_sb_fits_ellipse(&p.sb, p.ellipse);
}
static __device__ bool wants_normals(const pt_cuda_params &p)
{
    return p.sb.flat_edges == PT_SB_FLAT_REJECT || radial_votes(p);
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
    c.threshold = b.state[j].threshold;
    pt_point s0 = b.state[j].start;
    const int inner = b.state[j].inner;
    const double max_r = b.state[j].max_r;
    size_t base = (size_t)j * p.points_per_eye;
    if (warp == 0) {
        pt_point e;
        double dx, dy;
        pt_sb_stage1_dir(i, p.rays, &dx, &dy);
        int found = pt_sb_cast_warp(&c, s0.x, s0.y, dx, dy,
                                    pt_sb_inner_len(job.len1, inner, max_r), &e);
        if (lane == 0) {
            b.slot_found[base + i] = (uint8_t)found;
            if (found)
                b.slot_points[base + i] = e;
            if (found && wants_normals(p))
                b.slot_normals[base + i] = pt_sb_edge_normal(&c, e);
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
                                    pt_sb_stage2_len(s0, from,
                                                     pt_sb_inner_len(job.len2, inner, 2.0 * max_r),
                                                     c.gap),
                                    &e);
        if (lane == 0) {
            b.slot_found[slot] = (uint8_t)found;
            if (found)
                b.slot_points[slot] = e;
            if (found && wants_normals(p))
                b.slot_normals[slot] = pt_sb_edge_normal(&c, e);
        }
    }
}

/* Block per job, flat_edges=reject: the points on flat edges
 * (lib/detect/starburst_flat.h) leave the fit when there are enough of
 * them, the same points as omp/detect/starburst.c's drop_flat leaves out.
 * Once per job and iteration, before RANSAC, so the RANSAC blocks only
 * compact the found slots. Up to FLAT_SHARED_POINTS slots, the found ones
 * are gathered into shared memory (in any order: whether a point has
 * PT_SB_FLAT_PARTNERS partners does not depend on the order they are
 * counted in) and each is tested there by one thread; more slots are
 * tested in place in global memory, a slot per thread, a flat one marked 2
 * (still found for the others' tests) until the count is known. */
#define FLAT_SHARED_POINTS 1024

static __device__ void drop_flat_in_place(const pt_cuda_params &p, const pt_cuda_buffers &b,
                                          int j, int slots, double reach)
{
    size_t base = (size_t)j * p.points_per_eye;
    uint8_t *found = b.slot_found + base;
    int count = 0;
    for (int tile = 0; tile < slots; tile += PIPE_THREADS) {
        int s = tile + threadIdx.x;
        int is_flat = s < slots && found[s] &&
                      pt_sb_flat_point(b.slot_points + base, b.slot_normals + base, found, slots,
                                       s, reach, p.sb.flat_band);
        count += __syncthreads_count(is_flat);
        /* marked after every thread of the tile has tested (the count's
         * barrier): a mark keeps the slot found for later tiles' tests */
        if (is_flat)
            found[s] = 2;
    }
    __syncthreads();
    int drop = pt_sb_flat_drops(count);
    for (int s = threadIdx.x; s < slots; s += PIPE_THREADS)
        if (found[s] == 2)
            found[s] = drop ? 0 : 1;
}

__global__ void __launch_bounds__(PIPE_THREADS) drop_flat_slots(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ pt_point pts[FLAT_SHARED_POINTS], nrm[FLAT_SHARED_POINTS];
    __shared__ short slot_of[FLAT_SHARED_POINTS];
    __shared__ uint8_t flat[FLAT_SHARED_POINTS];
    __shared__ int gathered, flat_count;
    int j = blockIdx.x;
    if (!b.state[j].active)
        return;
    int slots = p.rays * (1 + p.rays2);
    const double reach = pt_sb_flat_reach(b.jobs[j].max_r, p.sb.flat_band);
    if (slots > FLAT_SHARED_POINTS) {
        drop_flat_in_place(p, b, j, slots, reach);
        return;
    }
    size_t base = (size_t)j * p.points_per_eye;
    uint8_t *found = b.slot_found + base;
    if (threadIdx.x == 0)
        gathered = flat_count = 0;
    __syncthreads();
    for (int s = threadIdx.x; s < slots; s += PIPE_THREADS)
        if (found[s]) {
            int k = atomicAdd(&gathered, 1);
            pts[k] = b.slot_points[base + s];
            nrm[k] = b.slot_normals[base + s];
            slot_of[k] = (short)s;
        }
    __syncthreads();
    int n = gathered, mine = 0;
    for (int k = threadIdx.x; k < n; k += PIPE_THREADS) {
        flat[k] = (uint8_t)pt_sb_flat_point(pts, nrm, NULL, n, k, reach, p.sb.flat_band);
        mine += flat[k];
    }
    atomicAdd(&flat_count, mine);
    __syncthreads();
    if (pt_sb_flat_drops(flat_count))
        for (int k = threadIdx.x; k < n; k += PIPE_THREADS)
            if (flat[k])
                found[slot_of[k]] = 0;
}

/* Found edges of job j in slot order (first stage, then second stage by
 * first-stage ray), the order of the serial detector (with flat_edges=reject
 * the flat kernel has already left the points on flat edges out): into
 * shared (when not NULL) and, with to_global, into the job's points; their
 * edge directions alike into shared_nrm (when not NULL) and, with
 * to_global and radial votes, into the job's normals. Returns their
 * number. Called by every thread of a PIPE_THREADS block. */
static __device__ int compact_slots(const pt_cuda_params &p, const pt_cuda_buffers &b, int j,
                                    pt_point *shared, pt_point *shared_nrm, int to_global,
                                    int *warp_counts)
{
    const bool radial = radial_votes(p);
    int slots = p.rays * (1 + p.rays2);
    size_t base = (size_t)j * p.points_per_eye;
    int n = 0;
    for (int tile = 0; tile < slots; tile += PIPE_THREADS) {
        int s = tile + threadIdx.x;
        int flag = s < slots && b.slot_found[base + s];
        int total, rank = pt_block_rank(flag, warp_counts, &total);
        if (flag) {
            int at = n + rank;
            pt_point e = b.slot_points[base + s];
            if (shared)
                shared[at] = e;
            if (to_global)
                b.points[base + at] = e;
            if (shared_nrm || (to_global && radial)) {
                pt_point d = b.slot_normals[base + s];
                if (shared_nrm)
                    shared_nrm[at] = d;
                if (to_global && radial)
                    b.normals[base + at] = d;
            }
        }
        n += total;
    }
    __syncthreads(); /* the points written before any thread reads them */
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
    int n = compact_slots(p, b, j, NULL, NULL, 1, warp_counts);
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
template <bool FUSED, bool RADIAL>
__global__ void __launch_bounds__(PIPE_THREADS) ransac(pt_cuda_params p, pt_cuda_buffers b, int cap)
{
    /* cap points, then (RADIAL) their cap edge directions; enqueue_iteration
     * sizes it */
    extern __shared__ pt_point ransac_shared[];
    pt_point *shared_pts = ransac_shared, *shared_nrm = ransac_shared + cap;
    __shared__ int best_votes[PIPE_THREADS], best_row[PIPE_THREADS];
    __shared__ int warp_counts[PIPE_WARPS];
    int j = blockIdx.y;
    if (!b.state[j].active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    int n;
    const pt_point *pts, *nrm = NULL;
    if (FUSED) {
        n = compact_slots(p, b, j, shared_pts, RADIAL ? shared_nrm : NULL, blockIdx.x == 0,
                          warp_counts);
        if (blockIdx.x == 0 && threadIdx.x == 0)
            b.state[j].n = n;
        if (n < p.sample_size)
            return;
        pts = shared_pts;
        nrm = RADIAL ? shared_nrm : NULL;
    } else {
        n = b.state[j].n;
        pts = b.points + (size_t)j * p.points_per_eye;
        nrm = RADIAL ? b.normals + (size_t)j * p.points_per_eye : NULL;
        if (n <= cap) {
            for (int k = threadIdx.x; k < n; k += PIPE_THREADS) {
                shared_pts[k] = pts[k];
                if (RADIAL)
                    shared_nrm[k] = nrm[k];
            }
            __syncthreads();
            pts = shared_pts;
            nrm = RADIAL ? shared_nrm : NULL;
        }
    }
    int lanes = ransac_lanes(&p), q = threadIdx.x % lanes;
    int s = blockIdx.x * (PIPE_THREADS / lanes) + threadIdx.x / lanes;
    int votes = 0, ok = 0;
    pt_circle cc = {0, 0, 0}; /* as the select step starts them */
    pt_ellipse ee = {0, 0, 0, 0, 0};
    if (s < p.ransac_rows) {
        if (sample_fit(&p, pts, n, s, job.min_r, b.state[j].fit_r, &cc, &ee)) {
            int lo = q * n / lanes, hi = (q + 1) * n / lanes;
            votes = count_votes(pts + lo, hi - lo, &cc, &ee,
                                pt_sb_fits_ellipse(&p.sb, p.ellipse), &p.sb,
                                RADIAL ? nrm + lo : NULL);
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
    size_t part = (size_t)j * b.partials_per_job + blockIdx.x;
    if (threadIdx.x == 0)
        b.partials[part] = make_int2(best_votes[0], best_row[0]);
    if (ok && q == 0 && s == best_row[0]) /* the row's model, for the select step */
        b.partial_models[part] = pt_cuda_sb_model{cc, ee};
}

extern "C" int pt_cuda_ransac_blocks(const pt_cuda_params *p)
{
    int rows_per_block = PIPE_THREADS / ransac_lanes(p);
    return (p->ransac_rows + rows_per_block - 1) / rows_per_block;
}

/* One iteration's launches: rays, the flat edges (flat_edges=reject),
 * RANSAC (compacting first when the edges do not fit in its shared
 * memory), select. */
static cudaError_t enqueue_iteration(const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                     int finish, cudaStream_t stream)
{
    int nblocks = pt_cuda_ransac_blocks(p);
    rays<<<jobs * p->rays, 32 * rays_warps(p), 0, stream>>>(*p, *b);
    if (p->sb.flat_edges == PT_SB_FLAT_REJECT)
        drop_flat_slots<<<jobs, PIPE_THREADS, 0, stream>>>(*p, *b);
    /* shared memory for the job's points (and their directions), no more
     * than its slots: a small block leaves room for more blocks a
     * multiprocessor */
    dim3 grid(nblocks, jobs);
    bool radial = radial_votes(*p);
    int slots = p->rays * (1 + p->rays2);
    bool fused = slots <= RANSAC_SHARED_POINTS;
    int cap = fused ? slots : RANSAC_SHARED_POINTS;
    size_t bytes = (size_t)cap * sizeof(pt_point) * (radial ? 2 : 1);
    if (!fused)
        compact<<<jobs, PIPE_THREADS, 0, stream>>>(*p, *b);
    if (fused && radial)
        ransac<true, true><<<grid, PIPE_THREADS, bytes, stream>>>(*p, *b, cap);
    else if (fused)
        ransac<true, false><<<grid, PIPE_THREADS, bytes, stream>>>(*p, *b, cap);
    else if (radial)
        ransac<false, true><<<grid, PIPE_THREADS, bytes, stream>>>(*p, *b, cap);
    else
        ransac<false, false><<<grid, PIPE_THREADS, bytes, stream>>>(*p, *b, cap);
    return pt_cuda_starburst_select(p, b, jobs, nblocks, finish, stream);
}

#if CUDART_VERSION >= 12040
/* After an iteration of a --sequence chunk: whether the loop below runs
 * another, i.e. an eye is still active and fewer than `to` ran. */
__global__ void iteration_gate(pt_cuda_buffers b, int jobs, int to, cudaGraphConditionalHandle h)
{
    int active = 0;
    for (int j = threadIdx.x; j < jobs; j += blockDim.x)
        active |= b.state[j].active;
    active = __syncthreads_or(active);
    if (threadIdx.x == 0) {
        int done = ++*b.iterations_done;
        cudaGraphSetConditional(h, active && done < to);
    }
}

/* A --sequence chunk's iterations [0, to) as a graph's while node (the
 * stream is being captured): the chain of one frame's launches is the mode's
 * limit, and an eye usually converges in a few of max_iterations; the
 * iterations a finished chunk skips would have changed nothing. Returns
 * cudaErrorNotSupported, having added nothing, where such a node cannot be
 * made here. */
static cudaError_t enqueue_while(const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                 int to, cudaStream_t stream)
{
    cudaStreamCaptureStatus status;
    cudaGraph_t graph;
    const cudaGraphNode_t *deps;
    const cudaGraphEdgeData *edges;
    size_t ndeps;
    cudaGraphConditionalHandle handle;
    if (cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &edges, &ndeps) !=
            cudaSuccess ||
        status != cudaStreamCaptureStatusActive ||
        cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault) !=
            cudaSuccess) {
        cudaGetLastError();
        return cudaErrorNotSupported;
    }
    cudaError_t st = cudaMemsetAsync(b->iterations_done, 0, sizeof(int), stream);
    if (st == cudaSuccess)
        st = cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &edges, &ndeps);
    cudaGraphNodeParams node_params = {cudaGraphNodeTypeConditional};
    node_params.conditional.handle = handle;
    node_params.conditional.type = cudaGraphCondTypeWhile;
    node_params.conditional.size = 1;
    cudaGraphNode_t node;
    if (st == cudaSuccess)
        st = cudaGraphAddNode(&node, graph, deps, edges, ndeps, &node_params);
    if (st == cudaSuccess)
        st = cudaStreamUpdateCaptureDependencies(stream, &node, NULL, 1,
                                                 cudaStreamSetCaptureDependencies);
    /* the body: one iteration and the gate, captured on a stream of its own */
    cudaStream_t side = NULL;
    if (st == cudaSuccess)
        st = cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaGraph_t body = node_params.conditional.phGraph_out ? node_params.conditional.phGraph_out[0]
                                                          : NULL;
    if (st == cudaSuccess)
        st = cudaStreamBeginCaptureToGraph(side, body, NULL, NULL, 0,
                                           cudaStreamCaptureModeRelaxed);
    if (st == cudaSuccess) {
        cudaError_t launched = enqueue_iteration(p, b, jobs, 0, side);
        if (launched == cudaSuccess) {
            iteration_gate<<<1, 256, 0, side>>>(*b, jobs, to, handle);
            launched = cudaGetLastError();
        }
        st = cudaStreamEndCapture(side, &body);
        if (st == cudaSuccess)
            st = launched;
    }
    if (side)
        cudaStreamDestroy(side);
    return st;
}
#endif

extern "C" cudaError_t pt_cuda_starburst_pipeline(const pt_cuda_params *p,
                                                  const pt_cuda_buffers *b, int jobs, int from,
                                                  int to, cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    if (from == 0) {
        dark_windows<<<dim3(DARK_BLOCKS, jobs), DARK_THREADS, 0, stream>>>(*p, *b);
    }
#if CUDART_VERSION >= 12040
    if (p->sequence && from == 0 && to > 1) {
        cudaError_t st = enqueue_while(p, b, jobs, to, stream);
        if (st != cudaErrorNotSupported)
            return st != cudaSuccess ? st : pt_cuda_starburst_finish(p, b, jobs, stream);
    }
#endif
    cudaError_t st = cudaSuccess;
    /* the last select step writes the results (one launch less) */
    for (int it = from; it < to && st == cudaSuccess; it++)
        st = enqueue_iteration(p, b, jobs, it == to - 1, stream);
    if (st != cudaSuccess)
        return st;
    st = cudaGetLastError();
    if (st != cudaSuccess || from < to)
        return st;
    return pt_cuda_starburst_finish(p, b, jobs, stream);
}
