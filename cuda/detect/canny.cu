/* Canny on the GPU for every job of a chunk, the same edges as omp/detect/canny.c:
 * the separable derivative-of-Gaussian filter with the same taps and the
 * same order of float operations (built with --fmad=false), the magnitude
 * histogram's high threshold, 4-sector non-maximum suppression, and
 * hysteresis as connected components (union-find over 8-connected
 * candidates; a component is kept when it holds a strong pixel, which is
 * what the CPU's stack-based growth keeps). The edge list is compacted in
 * raster order (row counts, a scan, ballots), as collect_edges() makes it. */
#include <math.h>

#include "cuda/detect/hough_internal.h"
#include "cuda/core/union_find.cuh"
#include "lib/detect/hough_flat.h"

#define TILE 32
#define ROWS_PER_PASS 8
#define WARPS 8
#define FLAT_BLOCKS 64 /* canny_flat: blocks per job, 256 threads each */
/* Magnitudes below this are float rounding on flat areas (omp/detect/canny.c). */
#define CANNY_ZERO 1e-3f

__device__ static inline float magnitude(float gx, float gy)
{
    return sqrtf(gx * gx + gy * gy);
}

/* Tile of TILE x TILE outputs: the rows of the horizontal pass (both
 * kernels, clamped to the roi; a warp a row, its pixels read once into
 * shared memory) in shared memory, then the vertical pass; the largest
 * magnitude of each job goes to vmax. */
__global__ void canny_gradient(pt_cuda_params p, pt_cuda_buffers b, pt_hough_dev d)
{
    extern __shared__ float rows[]; /* [TILE + 2R][TILE] smooth, then derivative */
    __shared__ float g[2 * PT_HOUGH_CANNY_MAX_RADIUS + 1], dg[2 * PT_HOUGH_CANNY_MAX_RADIUS + 1];
    __shared__ uint8_t row_pix[ROWS_PER_PASS][TILE + 2 * PT_HOUGH_CANNY_MAX_RADIUS];
    const pt_cuda_eye_job job = b.jobs[blockIdx.z];
    int w = job.w, h = job.h;
    int tx0 = blockIdx.x * TILE, ty0 = blockIdx.y * TILE;
    if (tx0 >= w || ty0 >= h)
        return;
    /* the taps of the roi's step (lib/detect/hough_sigma.h) */
    const pt_hough_taps *taps = d.taps + (pt_hough_sigma_step(w, h) - 1);
    int R = taps->radius;
    for (int k = threadIdx.y * TILE + threadIdx.x; k <= 2 * R; k += TILE * ROWS_PER_PASS) {
        g[k] = taps->g[k];
        dg[k] = taps->dg[k];
    }
    __syncthreads();
    const uint8_t *img = b.smoothed + (size_t)job.frame * p.plane + (size_t)job.y0 * p.pitch + job.x0;
    int nrows = TILE + 2 * R, ncols = TILE + 2 * R;
    float *smooth = rows, *deriv = rows + nrows * TILE;
    int lx = threadIdx.x, x = tx0 + lx;
    /* each warp's row: its pixels with their borders (clamped to the roi),
     * read once into pix */
    uint8_t *pix = row_pix[threadIdx.y];
    for (int r = threadIdx.y; r < nrows; r += ROWS_PER_PASS) {
        int yy = ty0 - R + r;
        yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
        const uint8_t *src = img + (size_t)yy * p.pitch;
        __syncwarp(); /* the row before read by all lanes */
        for (int c = lx; c < ncols; c += TILE) {
            int xx = tx0 - R + c;
            pix[c] = src[xx < 0 ? 0 : xx >= w ? w - 1 : xx];
        }
        __syncwarp();
        float sg = 0.0f, sd = 0.0f;
        if (x < w)
            for (int k = 0; k <= 2 * R; k++) {
                float v = pix[lx + k]; /* column x - R + k */
                sg += g[k] * v;
                sd += dg[k] * v;
            }
        smooth[r * TILE + lx] = sg;
        deriv[r * TILE + lx] = sd;
    }
    __syncthreads();
    float local_max = 0.0f;
    for (int ly = threadIdx.y; ly < TILE; ly += ROWS_PER_PASS) {
        int y = ty0 + ly;
        if (x >= w || y >= h)
            continue;
        float gx = 0.0f, gy = 0.0f;
        for (int k = -R; k <= R; k++) {
            /* tile row r holds row clamp(ty0 - R + r), so clamp(y + k) is row y + k - ty0 + R */
            int r = y + k - ty0 + R;
            gx += g[k + R] * deriv[r * TILE + lx];
            gy += dg[k + R] * smooth[r * TILE + lx];
        }
        size_t i = (size_t)blockIdx.z * d.s.job_px + (size_t)y * w + x;
        d.gx[i] = gx;
        d.gy[i] = gy;
        local_max = fmaxf(local_max, magnitude(gx, gy));
    }
    for (int o = 16; o > 0; o >>= 1)
        local_max = fmaxf(local_max, __shfl_xor_sync(0xffffffffu, local_max, o));
    if (lx == 0)
        atomicMax(&d.vmax[blockIdx.z], __float_as_uint(local_max));
}

/* Histogram of the non-zero magnitudes over [0, vmax], 2048 bins. */
__global__ void canny_histogram(pt_cuda_buffers b, pt_hough_dev d)
{
    __shared__ int bins[PT_HOUGH_CANNY_BINS];
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    float vmax = __uint_as_float(d.vmax[j]);
    if (vmax <= CANNY_ZERO)
        return;
    for (int k = threadIdx.x; k < PT_HOUGH_CANNY_BINS; k += blockDim.x)
        bins[k] = 0;
    __syncthreads();
    float scale = (float)PT_HOUGH_CANNY_BINS / vmax;
    size_t n = (size_t)job.w * job.h, base = (size_t)j * d.s.job_px;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float v = magnitude(d.gx[base + i], d.gy[base + i]);
        if (v <= CANNY_ZERO)
            continue;
        int k = (int)(v * scale);
        atomicAdd(&bins[k < PT_HOUGH_CANNY_BINS ? k : PT_HOUGH_CANNY_BINS - 1], 1);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < PT_HOUGH_CANNY_BINS; k += blockDim.x)
        if (bins[k])
            atomicAdd(&d.hist[(size_t)j * PT_HOUGH_CANNY_BINS + k], bins[k]);
}

/* pt_canny_quantile()'s threshold from the histogram: block per job of
 * PT_HOUGH_CANNY_BINS / 2 threads, two bins a thread. The bins' running
 * sums (integers: the same in any order) come from a block scan; the
 * thread holding the first bin whose running sum reaches the target
 * (there is one, the sums only grow) sets the threshold. */
__global__ void __launch_bounds__(PT_HOUGH_CANNY_BINS / 2) canny_thresholds(pt_hough_dev d)
{
    __shared__ long warp_sums[PT_HOUGH_CANNY_BINS / 64];
    __shared__ int first;
    int j = blockIdx.x, t = threadIdx.x, lane = t & 31, warp = t >> 5;
    float vmax = __uint_as_float(d.vmax[j]);
    if (vmax <= CANNY_ZERO) {
        if (t == 0) {
            d.high[j] = 0.0f;
            d.low[j] = 0.0f;
        }
        return;
    }
    const int *hist = d.hist + (size_t)j * PT_HOUGH_CANNY_BINS;
    long h0 = hist[2 * t], h1 = hist[2 * t + 1], incl = h0 + h1;
    for (int o = 1; o < 32; o <<= 1) {
        long v = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o)
            incl += v;
    }
    if (lane == 31)
        warp_sums[warp] = incl;
    if (t == 0)
        first = PT_HOUGH_CANNY_BINS;
    __syncthreads();
    long before = 0, nonzero = 0;
    for (int w = 0; w < PT_HOUGH_CANNY_BINS / 64; w++) {
        before += w < warp ? warp_sums[w] : 0;
        nonzero += warp_sums[w];
    }
    incl += before;
    long prev = incl - h0 - h1; /* running sum before bin 2t */
    long target = (long)ceil(d.s.canny_high * (double)nonzero);
    if (prev + h0 >= target && (t == 0 || prev < target))
        first = 2 * t;
    else if (incl >= target && prev + h0 < target)
        first = 2 * t + 1;
    __syncthreads();
    if (t == 0) {
        float scale = (float)PT_HOUGH_CANNY_BINS / vmax;
        float high = first < PT_HOUGH_CANNY_BINS ? (float)(first + 1) / scale : vmax;
        d.high[j] = high;
        d.low[j] = (float)(d.s.canny_low * high);
    }
}

/* Non-maximum suppression: state 1 = candidate, 2 = strong; label = own index. */
__global__ void canny_suppress(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.z;
    const pt_cuda_eye_job job = b.jobs[j];
    int w = job.w, h = job.h;
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    size_t base = (size_t)j * d.s.job_px;
    int i = y * w + x;
    float high = d.high[j], low = d.low[j];
    uint8_t st = 0;
    if (high > 0.0f && x >= 1 && y >= 1 && x + 1 < w && y + 1 < h) {
        const float *gx = d.gx + base, *gy = d.gy + base;
        float v = magnitude(gx[i], gy[i]);
        if (!(v < low)) {
            const float tan22 = 0.41421356f;
            float ax = fabsf(gx[i]), ay = fabsf(gy[i]);
            int o;
            if (ay <= tan22 * ax)
                o = 1;
            else if (ax <= tan22 * ay)
                o = w;
            else if ((gx[i] > 0) == (gy[i] > 0))
                o = w + 1;
            else
                o = w - 1;
            float n1 = magnitude(gx[i - o], gy[i - o]), n2 = magnitude(gx[i + o], gy[i + o]);
            if (v > n1 && v >= n2)
                st = v >= high ? 2 : 1;
        }
    }
    d.state[base + i] = st;
    d.label[base + i] = st ? i : -1;
}

/* Each candidate joins its candidate neighbours left, up-left, up, up-right. */
__global__ void canny_union(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.z;
    const pt_cuda_eye_job job = b.jobs[j];
    int w = job.w, h = job.h;
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    size_t base = (size_t)j * d.s.job_px;
    int32_t *label = d.label + base;
    const uint8_t *state = d.state + base;
    int i = y * w + x;
    if (!state[i])
        return;
    if (x > 0 && state[i - 1])
        pt_uf_unite(label, i, i - 1);
    if (y > 0) {
        if (x > 0 && state[i - w - 1])
            pt_uf_unite(label, i, i - w - 1);
        if (state[i - w])
            pt_uf_unite(label, i, i - w);
        if (x + 1 < w && state[i - w + 1])
            pt_uf_unite(label, i, i - w + 1);
    }
}

/* Every candidate's label set to its root, so the stages after it read the
 * root in one step: chains of the union stage grow with the length of an
 * edge curve. Labels only move to ancestors, so concurrent shortcuts by
 * other threads are safe. */
__global__ void canny_flatten(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.z;
    const pt_cuda_eye_job job = b.jobs[j];
    int w = job.w, h = job.h;
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    size_t base = (size_t)j * d.s.job_px;
    int i = y * w + x;
    if (!(d.state[base + i] & 3))
        return;
    int32_t *label = d.label + base;
    int root = pt_uf_find(label, i);
    ((volatile int32_t *)label)[i] = root;
}

/* Strong pixels mark their component's root. */
__global__ void canny_mark(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.z;
    const pt_cuda_eye_job job = b.jobs[j];
    int w = job.w, h = job.h;
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    size_t base = (size_t)j * d.s.job_px;
    int i = y * w + x;
    if ((d.state[base + i] & 3) != 2)
        return;
    int root = d.label[base + i];
    /* several pixels may set the same bit: an atomic or keeps it clean */
    unsigned *word = (unsigned *)((uintptr_t)(d.state + base + root) & ~(uintptr_t)3);
    unsigned shift = (unsigned)(((uintptr_t)(d.state + base + root) & 3u) * 8u);
    atomicOr(word, 4u << shift);
}

/* Warp per (job, row): flag the edges (candidates of a marked component),
 * count them per row. */
__global__ void canny_rows(pt_cuda_buffers b, pt_hough_dev d, int max_height)
{
    int lane = threadIdx.x & 31, j = blockIdx.y;
    int y = blockIdx.x * WARPS + (threadIdx.x >> 5);
    const pt_cuda_eye_job job = b.jobs[j];
    if (y >= job.h)
        return;
    int w = job.w;
    size_t base = (size_t)j * d.s.job_px;
    int count = 0;
    for (int x0 = 0; x0 < w; x0 += 32) {
        int x = x0 + lane, edge = 0;
        if (x < w) {
            int i = y * w + x;
            if (d.state[base + i] & 3) {
                int root = d.label[base + i];
                edge = (d.state[base + root] & 4) != 0;
            }
        }
        count += __popc(__ballot_sync(0xffffffffu, edge));
        /* the edge flag goes beside the state bits other lanes read (bit 4 of
         * roots), a byte store of this pixel's own state */
        if (edge)
            d.state[base + y * w + x] |= 8;
    }
    if (lane == 0)
        d.row_count[(size_t)j * (max_height + 1) + y] = count;
}

/* Block per job: row counts -> row offsets (exclusive), the edge count. */
__global__ void canny_scan(pt_cuda_buffers b, pt_hough_dev d, int max_height)
{
    __shared__ int warp_sums[32];
    __shared__ int carry;
    int j = blockIdx.x;
    int h = b.jobs[j].h;
    int *rows = d.row_count + (size_t)j * (max_height + 1);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0)
        carry = 0;
    __syncthreads();
    for (int y0 = 0; y0 < h; y0 += blockDim.x) {
        int y = y0 + threadIdx.x;
        int v = y < h ? rows[y] : 0, incl = v;
        for (int o = 1; o < 32; o <<= 1) {
            int t = __shfl_up_sync(0xffffffffu, incl, o);
            if (lane >= o)
                incl += t;
        }
        if (lane == 31)
            warp_sums[warp] = incl;
        __syncthreads();
        int before = carry;
        for (int k = 0; k < warp; k++)
            before += warp_sums[k];
        if (y < h)
            rows[y] = before + incl - v;
        __syncthreads();
        if (threadIdx.x == blockDim.x - 1)
            carry = before + incl;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int total = carry;
        d.overflow[j] = total > d.s.edge_cap;
        d.edge_count[j] = total > d.s.edge_cap ? d.s.edge_cap : total;
    }
}

/* Warp per (job, row): the row's edges to their places in the list. */
__global__ void canny_scatter(pt_cuda_buffers b, pt_hough_dev d, int max_height)
{
    int lane = threadIdx.x & 31, j = blockIdx.y;
    int y = blockIdx.x * WARPS + (threadIdx.x >> 5);
    const pt_cuda_eye_job job = b.jobs[j];
    if (y >= job.h)
        return;
    int w = job.w, cap = d.s.edge_cap;
    size_t base = (size_t)j * d.s.job_px, ebase = (size_t)j * cap;
    int at = d.row_count[(size_t)j * (max_height + 1) + y];
    for (int x0 = 0; x0 < w && at < cap; x0 += 32) {
        int x = x0 + lane;
        int i = y * w + x;
        int edge = x < w && (d.state[base + i] & 8);
        unsigned ballot = __ballot_sync(0xffffffffu, edge);
        int k = at + __popc(ballot & ((1u << lane) - 1u));
        if (edge && k < cap) {
            float gx = d.gx[base + i], gy = d.gy[base + i], mag = magnitude(gx, gy);
            float m = mag > 0.0f ? mag : 1.0f;
            d.exy[ebase + k] = (int32_t)((y << 16) | x);
            d.eux[ebase + k] = -gx / m;
            d.euy[ebase + k] = -gy / m;
            d.emag[ebase + k] = mag;
        }
        at += __popc(ballot);
    }
}

/* Thread per listed edge: whether it lies on a flat edge
 * (lib/detect/hough_flat.h) of the job's largest radius, as
 * omp/detect/hough.c collect_edges() flags them. Apart from the list's
 * scatter, whose warps work a row each and would leave most lanes idle
 * while one walks the tangent. */
__global__ void canny_flat(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    double flat_reach = 0.0;
    if (d.s.flat_edges && pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r))
        flat_reach = pt_hough_flat_reach(max_r);
    size_t base = (size_t)j * d.s.job_px, ebase = (size_t)j * d.s.edge_cap;
    int n = d.edge_count[j];
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
        int32_t xy = d.exy[ebase + k];
        d.eflat[ebase + k] = flat_reach > 0.0 &&
                             pt_hough_flat_edge(d.state + base, 8, d.gx + base, d.gy + base, job.w,
                                                job.h, xy & 0xffff, xy >> 16, flat_reach);
    }
}

cudaError_t pt_cuda_hough_canny(const pt_hough_dev *d, int max_radius,
                                const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                int width, int height, cudaStream_t stream)
{
    cudaError_t st;
    if ((st = cudaMemsetAsync(d->vmax, 0, jobs * sizeof *d->vmax, stream)) != cudaSuccess ||
        (st = cudaMemsetAsync(d->hist, 0, (size_t)jobs * PT_HOUGH_CANNY_BINS * sizeof *d->hist,
                              stream)) != cudaSuccess)
        return st;
    dim3 tiles((width + TILE - 1) / TILE, (height + TILE - 1) / TILE, jobs);
    size_t shared = (size_t)2 * (TILE + 2 * max_radius) * TILE * sizeof(float);
    canny_gradient<<<tiles, dim3(TILE, ROWS_PER_PASS), shared, stream>>>(*p, *b, *d);
    int blocks = (int)(((size_t)width * height + 255) / 256);
    canny_histogram<<<dim3(blocks < 64 ? blocks : 64, jobs), 256, 0, stream>>>(*b, *d);
    canny_thresholds<<<jobs, PT_HOUGH_CANNY_BINS / 2, 0, stream>>>(*d);
    dim3 px((width + 31) / 32, (height + 7) / 8, jobs), px_block(32, 8);
    canny_suppress<<<px, px_block, 0, stream>>>(*b, *d);
    canny_union<<<px, px_block, 0, stream>>>(*b, *d);
    canny_flatten<<<px, px_block, 0, stream>>>(*b, *d);
    canny_mark<<<px, px_block, 0, stream>>>(*b, *d);
    dim3 row_grid((height + WARPS - 1) / WARPS, jobs);
    canny_rows<<<row_grid, WARPS * 32, 0, stream>>>(*b, *d, height);
    canny_scan<<<jobs, 1024, 0, stream>>>(*b, *d, height);
    canny_scatter<<<row_grid, WARPS * 32, 0, stream>>>(*b, *d, height);
    canny_flat<<<dim3(FLAT_BLOCKS, jobs), 256, 0, stream>>>(*b, *d);
    return cudaGetLastError();
}
