/* The blob each tl task fits and its border, as pick_blob() and
 * blob_border() of omp/detect/tl.c:
 *
 *   tl_pick     block per task: over the roots, the biggest blob whose
 *               equivalent radius lies in [min_r, max_r], preferring blobs
 *               not touching the roi border, ties to the first in raster order
 *   tl_rows     block per row: border pixels of the blob in the row
 *   tl_scan     block per task: exclusive scan of the row counts
 *   tl_scatter  block per row: the row's border pixels, in order, as points
 *   tl_flat_test  FLAT_SPLIT blocks per task (tl_flat): each pixel's
 *               flat-edge test (lib/detect/tl_flat.h) by a warp over the
 *               rows within reach, and the task's count of flat pixels
 *   tl_flat_drop  block per task: where the flat pixels leave, the others
 *               compacted in order
 *
 * so the point list is in raster order, the order RANSAC's sample indices
 * refer to on the CPU. */
#include <math.h>

#include "cuda/core/block_rank.cuh"
#include "cuda/detect/tl_internal.h"
#include "lib/detect/tl_flat.h"

#define PICK_THREADS 256 /* = rows per RANSAC block (tl_fit.cu) */
#define ROW_THREADS 256
#define ROW_WARPS (ROW_THREADS / 32)
#define SCAN_THREADS 1024
#define SCAN_WARPS (SCAN_THREADS / 32)
#define FLAT_THREADS 1024
#define FLAT_WARPS (FLAT_THREADS / 32)
/* The flat-edge tests of a task's pixels are independent searches of up to
 * thousands of partners each over up to a hundred rows: FLAT_SPLIT blocks of
 * TEST_THREADS share them, a warp per pixel, so a frame's few tasks spread
 * over the GPU. */
#define FLAT_SPLIT 128
#define TEST_THREADS 256
#define TEST_WARPS (TEST_THREADS / 32)
#define TOUCHES 0x80000000u

__global__ void __launch_bounds__(PICK_THREADS)
    tl_pick(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ unsigned long long best_inner, best_any;
    int slot = blockIdx.x;
    const tl_task task = tl_task_at(d, jobs, first + slot);
    if (task.t < 0) {
        /* a threshold slot not tried: no fit (a refit or check not run is never read) */
        if (threadIdx.x == 0 && task.fit >= 0 && first + slot < jobs * d.thresholds) {
            d.fits[task.fit].found = 0;
            d.fits[task.fit].quality = 0.0;
        }
        return;
    }
    const pt_cuda_eye_job job = b.jobs[task.job];
    const uint32_t *sizes = (const uint32_t *)(d.points + slot * d.cap);
    const int32_t *roots = d.roots + slot * d.root_cap;
    int count = d.root_count[slot];
    if (threadIdx.x == 0)
        best_inner = best_any = 0;
    __syncthreads();
    /* key: size, then the earlier root (0 = none: sizes are >= 1) */
    unsigned long long inner = 0, any = 0;
    for (int k = threadIdx.x; k < count; k += PICK_THREADS) {
        int32_t root = roots[k];
        uint32_t v = sizes[root];
        int size = (int)(v & ~TOUCHES);
        double r = sqrt(size / M_PI);
        if (r < job.min_r || r > job.max_r)
            continue;
        unsigned long long key = ((unsigned long long)size << 32) | (0xffffffffu - (uint32_t)root);
        any = key > any ? key : any;
        if (!(v & TOUCHES))
            inner = key > inner ? key : inner;
    }
    atomicMax(&best_any, any);
    atomicMax(&best_inner, inner);
    /* RANSAC adds its votes to these */
    int32_t *votes = d.votes + (size_t)slot * d.nblocks * PICK_THREADS;
    for (int s = threadIdx.x; s < d.nblocks * PICK_THREADS; s += PICK_THREADS)
        votes[s] = 0;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    unsigned long long key = best_inner ? best_inner : best_any;
    tl_fit *fit = d.fits + task.fit;
    fit->found = 0;
    fit->votes = 0;
    fit->n = 0;
    fit->flat = 0;
    fit->quality = 0.0;
    fit->root = key ? (int)(0xffffffffu - (uint32_t)(key & 0xffffffffu)) : -1;
    fit->size = (int)(key >> 32);
    fit->last_row = key ? (int)sizes[d.cap + fit->root] : -1;
    fit->blob_r = key ? sqrt(fit->size / M_PI) : 0.0;
    /* tl_inlier_band() */
    double band = p.inlier;
    if (!tl_task_ellipse(d, jobs, first + slot) && d.circle_band * fit->blob_r > band)
        band = d.circle_band * fit->blob_r;
    fit->band = band;
}

/* A pixel of blob k with a 4-neighbour outside it or outside the roi. */
static __device__ __forceinline__ bool is_border(const int32_t *labels, int w, int h, int x,
                                                 int y, int32_t k)
{
    const int32_t *row = labels + (size_t)y * w;
    if (row[x] != k)
        return false;
    bool inner = x > 0 && x + 1 < w && y > 0 && y + 1 < h && row[x - 1] == k &&
                 row[x + 1] == k && row[x - w] == k && row[x + w] == k;
    return !inner;
}

/* The slot's task's fit, its blob (root k) and job; NULL when none. */
static __device__ __forceinline__ tl_fit *task_blob(const tl_dev &d, const pt_cuda_buffers &b,
                                                    int jobs, int first, int slot,
                                                    pt_cuda_eye_job *job, int32_t *k)
{
    const tl_task task = tl_task_at(d, jobs, first + slot);
    if (task.t < 0)
        return NULL;
    tl_fit *fit = d.fits + task.fit;
    *k = fit->root;
    if (*k < 0)
        return NULL;
    *job = b.jobs[task.job];
    return fit;
}

__global__ void __launch_bounds__(ROW_THREADS) tl_rows(pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ int warp_sums[ROW_WARPS];
    int slot = blockIdx.z, y = blockIdx.x;
    pt_cuda_eye_job job;
    int32_t k;
    const tl_fit *fit = task_blob(d, b, jobs, first, slot, &job, &k);
    if (!fit || y >= job.h)
        return;
    int32_t *counts = d.row_offsets + slot * d.rows_cap;
    if (y < k / job.w || y > fit->last_row) { /* rows outside the blob */
        if (threadIdx.x == 0)
            counts[y] = 0;
        return;
    }
    const int32_t *labels = d.labels + slot * d.cap;
    int n = 0;
    for (int x = threadIdx.x; x < job.w; x += ROW_THREADS)
        n += is_border(labels, job.w, job.h, x, y, k);
    n = warp_isum(n);
    if ((threadIdx.x & 31) == 0)
        warp_sums[threadIdx.x >> 5] = n;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int w = 0; w < ROW_WARPS; w++)
            sum += warp_sums[w];
        counts[y] = sum;
    }
}

__global__ void __launch_bounds__(SCAN_THREADS) tl_scan(pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ int warp_sums[SCAN_WARPS];
    int slot = blockIdx.x;
    pt_cuda_eye_job job;
    int32_t k;
    tl_fit *fit = task_blob(d, b, jobs, first, slot, &job, &k);
    if (!fit)
        return;
    int32_t *counts = d.row_offsets + slot * d.rows_cap;
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int carry = 0;
    for (int base = 0; base < job.h; base += SCAN_THREADS) {
        int y = base + threadIdx.x;
        int v = y < job.h ? counts[y] : 0, incl = v;
        for (int o = 1; o < 32; o <<= 1) {
            int u = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o)
                incl += u;
        }
        if (lane == 31)
            warp_sums[warp] = incl;
        __syncthreads();
        int before = 0, total = 0;
        for (int w = 0; w < SCAN_WARPS; w++) {
            before += w < warp ? warp_sums[w] : 0;
            total += warp_sums[w];
        }
        if (y < job.h)
            counts[y] = carry + before + incl - v;
        carry += total;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        fit->n = carry;
}

__global__ void __launch_bounds__(ROW_THREADS) tl_scatter(pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ int warp_counts[ROW_WARPS];
    int slot = blockIdx.z, y = blockIdx.x;
    pt_cuda_eye_job job;
    int32_t k;
    const tl_fit *fit = task_blob(d, b, jobs, first, slot, &job, &k);
    if (!fit || y >= job.h || y < k / job.w)
        return;
    const int32_t *offsets = d.row_offsets + slot * d.rows_cap;
    int at = offsets[y];
    int end = y + 1 < job.h ? offsets[y + 1] : fit->n;
    if (end == at)
        return;
    const int32_t *labels = d.labels + slot * d.cap;
    pt_point *points = d.points + slot * d.cap;
    for (int tile = 0; tile < job.w; tile += ROW_THREADS) {
        int x = tile + threadIdx.x;
        bool flag = x < job.w && is_border(labels, job.w, job.h, x, y, k);
        int total, rank = pt_block_rank(flag, warp_counts, &total);
        if (flag) {
            pt_point q = {(float)(x + job.x0), (float)(y + job.y0)};
            points[at + rank] = q;
        }
        at += total;
    }
}

__global__ void __launch_bounds__(TEST_THREADS)
    tl_flat_test(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    int slot = blockIdx.y;
    pt_cuda_eye_job job;
    int32_t k;
    tl_fit *fit = task_blob(d, b, jobs, first, slot, &job, &k);
    if (!fit)
        return;
    int n = fit->n;
    const int32_t *offsets = d.row_offsets + slot * d.rows_cap;
    const pt_point *points = d.points + slot * d.cap;
    int32_t *flags = d.labels + slot * d.cap; /* the label image is read no more */
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    const uint8_t *plane = b.smoothed + job.frame * p.plane;
    double reach = pt_tl_flat_reach(job.max_r);
    int lane = threadIdx.x & 31, flat = 0;
    /* a warp per pixel, its lanes over the rows the search crosses: a pixel
     * is flat where the rows hold PT_TL_FLAT_PARTNERS partners in all, as
     * pt_tl_flat_point() finds them one row after another */
    for (int i = blockIdx.x * TEST_WARPS + (threadIdx.x >> 5); i < n;
         i += FLAT_SPLIT * TEST_WARPS) {
        pt_tl_flat_probe q;
        int partners = 0;
        if (pt_tl_flat_probe_init(points, job.y0, job.h, plane, p.pitch, dims.width, dims.height,
                                  i, reach, &q))
            for (int r0 = q.row_lo; r0 <= q.row_hi && partners < PT_TL_FLAT_PARTNERS; r0 += 32) {
                int r = r0 + lane, mine = 0;
                if (r <= q.row_hi && pt_tl_flat_probe_row(&q, r))
                    mine = pt_tl_flat_row_partners(&q, points, offsets, job.h, n, plane, p.pitch,
                                                   dims.width, dims.height, r,
                                                   PT_TL_FLAT_PARTNERS);
                partners += warp_isum(mine);
            }
        if (lane == 0) {
            flags[i] = partners >= PT_TL_FLAT_PARTNERS;
            flat += flags[i];
        }
    }
    if (lane == 0 && flat)
        atomicAdd(&fit->flat, flat); /* an integer count: the same in any order */
}

__global__ void __launch_bounds__(FLAT_THREADS)
    tl_flat_drop(pt_cuda_buffers b, tl_dev d, int jobs, int first)
{
    __shared__ int warp_counts[FLAT_WARPS];
    int slot = blockIdx.x;
    pt_cuda_eye_job job;
    int32_t k;
    tl_fit *fit = task_blob(d, b, jobs, first, slot, &job, &k);
    if (!fit)
        return;
    int n = fit->n;
    if (!pt_tl_flat_drops(fit->flat, n, pt_tl_flat_reach(job.max_r)))
        return;
    pt_point *points = d.points + slot * d.cap;
    const int32_t *flags = d.labels + slot * d.cap;
    /* the kept pixels, in order, in place (a pixel moves to a lower index;
     * the tile's reads come before pt_block_rank's barrier, its writes after) */
    int at = 0;
    for (int tile = 0; tile < n; tile += FLAT_THREADS) {
        int i = tile + threadIdx.x;
        bool keep = i < n && !flags[i];
        pt_point q = keep ? points[i] : pt_point{0.0f, 0.0f};
        int total, rank = pt_block_rank(keep, warp_counts, &total);
        if (keep)
            points[at + rank] = q;
        at += total;
    }
    if (threadIdx.x == 0)
        fit->n = at;
}

cudaError_t pt_tl_border(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, int first, int count, int width, int height,
                         cudaStream_t stream)
{
    (void)width;
    tl_pick<<<count, PICK_THREADS, 0, stream>>>(*p, *b, *d, jobs, first);
    dim3 rows(height, 1, count);
    tl_rows<<<rows, ROW_THREADS, 0, stream>>>(*b, *d, jobs, first);
    tl_scan<<<count, SCAN_THREADS, 0, stream>>>(*b, *d, jobs, first);
    tl_scatter<<<rows, ROW_THREADS, 0, stream>>>(*b, *d, jobs, first);
    if (d->flat) {
        tl_flat_test<<<dim3(FLAT_SPLIT, count), TEST_THREADS, 0, stream>>>(*p, *b, *d, jobs, first);
        tl_flat_drop<<<count, FLAT_THREADS, 0, stream>>>(*b, *d, jobs, first);
    }
    return cudaGetLastError();
}
