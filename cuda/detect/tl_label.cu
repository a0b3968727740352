/* 8-connected labeling of (roi pixels <= threshold) for a batch of tl tasks,
 * block-based union-find (Playne & Hawick, "A new algorithm for parallel
 * connected-component labelling on GPUs", 2018):
 *
 *   tl_local   block per 32x32 tile, warp per tile row: pixels start under
 *              their horizontal run's first pixel (ballot bit masks), runs
 *              are joined to the runs above them once per overlap
 *              (union-find in shared memory), every pixel is labelled with
 *              its tile root's raster index in the roi
 *   tl_merge   block per tile: union across its left and top borders on the
 *              global label image
 *   tl_flatten thread per pixel: label = root; blob size (warp-aggregated
 *              atomics), roi-border flag, the list of roots
 *
 * Unions always hang the larger root under the smaller (atomicMin), so the
 * root of a blob is its first pixel in raster order: the order in which
 * omp/detect/labeling.c numbers blobs, which its tie-breaks depend on. */
#include "cuda/detect/tl_internal.h"
#include "cuda/core/union_find.cuh"

#define TILE 32
#define TILE_ROWS 8
#define TILE_PER_THREAD (TILE / TILE_ROWS)
#define FLAT_THREADS 256
#define TOUCHES 0x80000000u

__global__ void __launch_bounds__(TILE *TILE_ROWS)
    tl_local(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ int32_t s[TILE * TILE];
    __shared__ unsigned row_bits[TILE];
    int slot = blockIdx.z;
    const tl_task task = tl_task_at(d, jobs, first + slot);
    if (task.t < 0)
        return;
    const pt_cuda_eye_job job = b.jobs[task.job];
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)
        d.root_count[slot] = 0;
    int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
    if (x0 >= job.w || y0 >= job.h)
        return;
    const uint8_t *img = b.smoothed + job.frame * p.plane + (size_t)job.y0 * p.pitch + job.x0;
    /* A warp per tile row: its foreground as a bit mask; every pixel starts
     * under the first pixel of its horizontal run. */
    int tx = threadIdx.x;
    bool fg[TILE_PER_THREAD];
#pragma unroll
    for (int r = 0; r < TILE_PER_THREAD; r++) {
        int ly = threadIdx.y + r * TILE_ROWS, x = x0 + tx, y = y0 + ly;
        fg[r] = x < job.w && y < job.h && img[(size_t)y * p.pitch + x] <= task.t;
        unsigned bits = __ballot_sync(0xffffffffu, fg[r]);
        if (tx == 0)
            row_bits[ly] = bits;
        unsigned gaps = ~bits & ((1u << tx) - 1u); /* background left of tx */
        int start = gaps ? 32 - __clz(gaps) : 0;
        s[ly * TILE + tx] = fg[r] ? ly * TILE + start : -1;
    }
    __syncthreads();
    /* Join each run to the runs above it, once per overlap: where the pixel
     * above starts being foreground, and diagonally at the run's ends. */
#pragma unroll
    for (int r = 0; r < TILE_PER_THREAD; r++) {
        int ly = threadIdx.y + r * TILE_ROWS, i = ly * TILE + tx;
        if (!fg[r] || ly == 0)
            continue;
        unsigned bits = row_bits[ly], up = row_bits[ly - 1];
        bool run_start = tx == 0 || !((bits >> (tx - 1)) & 1u);
        bool run_end = tx == TILE - 1 || !((bits >> (tx + 1)) & 1u);
        bool up_a = tx > 0 && ((up >> (tx - 1)) & 1u), up_b = (up >> tx) & 1u;
        bool up_c = tx + 1 < TILE && ((up >> (tx + 1)) & 1u);
        if (up_b && (run_start || !up_a))
            pt_uf_unite(s, i, i - TILE);
        if (!up_b && run_start && up_a)
            pt_uf_unite(s, i, i - TILE - 1);
        if (!up_b && run_end && up_c)
            pt_uf_unite(s, i, i - TILE + 1);
    }
    __syncthreads();
    int32_t *labels = d.labels + slot * d.cap;
    uint32_t *sizes = (uint32_t *)(d.points + slot * d.cap);
#pragma unroll
    for (int r = 0; r < TILE_PER_THREAD; r++) {
        int ly = threadIdx.y + r * TILE_ROWS, x = x0 + tx, y = y0 + ly, i = ly * TILE + tx;
        if (x >= job.w || y >= job.h)
            continue;
        size_t at = (size_t)y * job.w + x;
        if (!fg[r]) {
            labels[at] = -1;
            continue;
        }
        int32_t root = pt_uf_find(s, i);
        labels[at] = (y0 + root / TILE) * job.w + x0 + root % TILE;
        if (root == i) { /* the global roots are among the tile roots */
            sizes[at] = 0;
            sizes[d.cap + at] = 0; /* last row */
        }
    }
}

/* Block per tile: threads 0..31 join the tile's left column to the column
 * left of it (3 neighbours each), threads 32..63 its top row to the row above. */
__global__ void __launch_bounds__(2 * TILE)
    tl_merge(pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    int slot = blockIdx.z;
    const tl_task task = tl_task_at(d, jobs, first + slot);
    if (task.t < 0)
        return;
    const pt_cuda_eye_job job = b.jobs[task.job];
    int w = job.w, h = job.h;
    int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;
    int k = threadIdx.x % TILE, left = threadIdx.x < TILE;
    int x = left ? x0 : x0 + k, y = left ? y0 + k : y0;
    if (x >= w || y >= h || (left ? x0 == 0 : y0 == 0))
        return;
    int32_t *labels = d.labels + slot * d.cap;
    int32_t i = y * w + x;
    if (labels[i] < 0)
        return;
    for (int n = -1; n <= 1; n++) {
        int nx = left ? x - 1 : x + n, ny = left ? y + n : y - 1;
        if (nx < 0 || nx >= w || ny < 0 || ny >= h)
            continue;
        int32_t ni = ny * w + nx;
        if (labels[ni] >= 0)
            pt_uf_unite(labels, i, ni);
    }
}

/* Thread per pixel: flatten to the root, count the blob's pixels, flag
 * blobs touching the roi border, list the roots. */
__global__ void __launch_bounds__(FLAT_THREADS)
    tl_flatten(tl_dev d, pt_cuda_buffers b, int jobs, int first)
{
    int slot = blockIdx.z;
    const tl_task task = tl_task_at(d, jobs, first + slot);
    if (task.t < 0)
        return;
    const pt_cuda_eye_job job = b.jobs[task.job];
    int w = job.w, h = job.h, npix = w * h;
    if (blockIdx.x * FLAT_THREADS >= npix)
        return;
    int32_t *labels = d.labels + slot * d.cap;
    uint32_t *sizes = (uint32_t *)(d.points + slot * d.cap);
    int i = blockIdx.x * FLAT_THREADS + threadIdx.x;
    int32_t l = i < npix ? labels[i] : -1;
    bool fg = l >= 0;
    int32_t root = -1;
    if (fg) {
        root = pt_uf_find(labels, l);
        if (root != l)
            labels[i] = root;
    }
    unsigned fg_lanes = __ballot_sync(0xffffffffu, fg);
    if (!fg)
        return;
    unsigned peers = __match_any_sync(fg_lanes, root);
    int lane = threadIdx.x & 31;
    int x = i % w, y = i / w;
    if (lane == 31 - __clz(peers)) { /* the peers' last: the lowest row */
        atomicAdd(&sizes[root], (uint32_t)__popc(peers));
        atomicMax(&sizes[d.cap + root], (uint32_t)y);
    }
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        atomicOr(&sizes[root], TOUCHES);
    if (root == i) {
        int at = atomicAdd(&d.root_count[slot], 1);
        d.roots[slot * d.root_cap + at] = i;
    }
}

cudaError_t pt_tl_label(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                        int jobs, int first, int count, int width, int height,
                        cudaStream_t stream)
{
    dim3 tiles((width + TILE - 1) / TILE, (height + TILE - 1) / TILE, count);
    tl_local<<<tiles, dim3(TILE, TILE_ROWS), 0, stream>>>(*p, *b, *d, jobs, first);
    tl_merge<<<tiles, 2 * TILE, 0, stream>>>(*b, *d, jobs, first);
    unsigned pixels = (unsigned)width * (unsigned)height;
    dim3 flat((pixels + FLAT_THREADS - 1) / FLAT_THREADS, 1, count);
    tl_flatten<<<flat, FLAT_THREADS, 0, stream>>>(*d, *b, jobs, first);
    return cudaGetLastError();
}
