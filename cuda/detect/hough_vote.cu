/* Hough voting on the GPU for every job of a chunk, as omp/detect/hough.c does it.
 *
 * Gradient voting (hough_vote=gradient): each edge votes, weighted by its
 * magnitude, for the coarse cells on its dark side at every tested radius
 * (atomic float adds); the centre is the first maximum of the 3x3 sums in
 * scan order (a 64-bit key: sum bits, then the inverted cell index); the
 * radius histogram counts fixed-point weights (lib/detect/hough_radii.h) by
 * integer atomics over many blocks a job, the same sums as the CPU's in any
 * order; candidates as gradient_peak().
 *
 * Sampled voting (the paper): batches of radius planes per job, votes at the
 * precomputed circle offsets limited to +- vote_spread of the dark side; the
 * first maximum of each plane (same key) is taken while the plane is cleared;
 * radii compared by the share of a perfect circle's votes. */
#include <math.h>

#include "cuda/core/block_rank.cuh"
#include "cuda/detect/hough_internal.h"
#include "cuda/detect/hough_reject.cuh"
#include "lib/detect/hough_peak.h"
#include "lib/detect/hough_radii.h"
#include "lib/detect/hough_seed.h"

#define THREADS 256
/* the candidates' blocks (a block per job): one frame's edges spread over more threads */
#define CAND_THREADS 1024
#define VOTE_BLOCKS 32 /* blocks per job of the edge loops */
#define AIM_COS 0.8660254
#define SHARED_BINS 2048 /* radius histograms up to this long are counted in shared memory */

__device__ static inline int edge_x(int32_t xy) { return xy & 0xffff; }
__device__ static inline int edge_y(int32_t xy) { return xy >> 16; }

/* Side of the gradient accumulator's cells (omp/detect/hough.c hough_cell). */
__host__ __device__ static inline int cell_side(int cell, int w, int h)
{
    if (cell > 0)
        return cell;
    int side = w < h ? w : h, c = side / 256;
    return c < 1 ? 1 : c;
}

/* dark: the dark-edge vote's pass (lib/detect/hough_dark_vote.h): only
 * jobs with ndark >= 0 and edges without eskip vote. */
__global__ void gradient_votes(pt_cuda_buffers b, pt_hough_dev d, int dark)
{
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    if (!pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r) || (dark && d.ndark[j] < 0))
        return;
    int cell = cell_side(d.s.cell, job.w, job.h);
    int cw = (job.w + cell - 1) / cell, ch = (job.h + cell - 1) / cell;
    int step = d.s.radius_step < 1 ? 1 : d.s.radius_step;
    if (step < cell)
        step = cell;
    float inv = 1.0f / (float)cell;
    int n = d.edge_count[j];
    size_t e0 = (size_t)j * d.s.edge_cap;
    float *acc = d.acc + (size_t)j * d.s.cells_per_job;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (dark && d.eskip[e0 + i])
            continue;
        int32_t xy = d.exy[e0 + i];
        float x = ((float)edge_x(xy) + 0.5f) * inv, y = ((float)edge_y(xy) + 0.5f) * inv;
        float ux = d.eux[e0 + i] * inv, uy = d.euy[e0 + i] * inv, m = d.emag[e0 + i];
        for (int r = min_r; r <= max_r; r += step) {
            int cx = (int)floorf(x + (float)r * ux), cy = (int)floorf(y + (float)r * uy);
            if ((unsigned)cx >= (unsigned)cw || (unsigned)cy >= (unsigned)ch)
                break;
            atomicAdd(&acc[(size_t)cy * cw + cx], m);
        }
    }
}

/* The best 3x3 sum of cells whose own cell has votes. */
__global__ void gradient_peak(pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    if (!pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r) || d.edge_count[j] < 3)
        return;
    int cell = cell_side(d.s.cell, job.w, job.h);
    int cw = (job.w + cell - 1) / cell, ch = (job.h + cell - 1) / cell;
    const float *acc = d.acc + (size_t)j * d.s.cells_per_job;
    unsigned long long best = 0;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < cw * ch; k += gridDim.x * blockDim.x) {
        int x = k % cw, y = k / cw;
        if (x < 1 || y < 1 || x + 1 >= cw || y + 1 >= ch)
            continue;
        const float *r0 = acc + (size_t)(y - 1) * cw, *r1 = r0 + cw, *r2 = r1 + cw;
        if (!r1[x])
            continue;
        float v = r0[x - 1] + r0[x] + r0[x + 1] + r1[x - 1] + r1[x] + r1[x + 1] + r2[x - 1] +
                  r2[x] + r2[x + 1];
        if (!(v > 0.0f))
            continue;
        unsigned long long key =
            ((unsigned long long)__float_as_uint(v) << 32) | (0xffffffffu - (unsigned)k);
        best = key > best ? key : best;
    }
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long other = __shfl_xor_sync(0xffffffffu, best, o);
        best = other > best ? other : best;
    }
    if ((threadIdx.x & 31) == 0 && best)
        atomicMax(&d.peak[j], best);
}

typedef struct {
    double score[SHARED_BINS]; /* radius_peaks' scores where they fit */
    /* radius_peaks: the local maxima of at least keep (a) and keep_small
     * (b), ascending; per warp, then the block's best score */
    short peak_a[SHARED_BINS], peak_b[SHARED_BINS];
    int warp_a[32], warp_b[32], na, nb;
    double warp_best[32], best;
    double centre[2];
    unsigned long long seed_key;
    int count;
} candidates_shared;

/* pt_hough_seed_prefix() by the block: each row's running sums (a warp a
 * row, 32 cells a step by shuffles, a carry between steps), then each
 * column's (a thread a column); integers, so the same integral image. */
__device__ static void block_seed_prefix(int32_t *ii, int gw, int gh)
{
    long s = gw + 1;
    for (int gx = threadIdx.x; gx <= gw; gx += blockDim.x)
        ii[gx] = 0;
    int lane = threadIdx.x & 31, warps = blockDim.x >> 5;
    for (int gy = threadIdx.x >> 5; gy < gh; gy += warps) {
        int32_t *here = ii + (gy + 1) * s, carry = 0;
        if (lane == 0)
            here[0] = 0;
        for (int base = 1; base <= gw; base += 32) {
            int gx = base + lane;
            int32_t v = gx <= gw ? here[gx] : 0;
            for (int o = 1; o < 32; o <<= 1) {
                int32_t u = __shfl_up_sync(0xffffffffu, v, o);
                v += lane >= o ? u : 0;
            }
            if (gx <= gw)
                here[gx] = v + carry;
            carry += __shfl_sync(0xffffffffu, v, 31);
        }
    }
    __syncthreads();
    for (int gx = 1 + threadIdx.x; gx <= gw; gx += blockDim.x) {
        int32_t col = 0;
#pragma unroll 4
        for (int gy = 1; gy <= gh; gy++) {
            col += ii[gy * s + gx];
            ii[gy * s + gx] = col;
        }
    }
    __syncthreads();
}

/* pt_hough_darkest() by the block: every box's sum at once, the least
 * (the first in row order among equals: a key of sum, then box index). */
__device__ static int block_seed_darkest(const int32_t *ii, int gw, int gh, pt_hough_seed *seed,
                                         candidates_shared *sh)
{
    int half = PT_HOUGH_SEED_HALF, bw = gw - 2 * half, bh = gh - 2 * half;
    unsigned long long mine = ~0ull;
    if (threadIdx.x == 0)
        sh->seed_key = ~0ull;
    __syncthreads();
    for (int k = threadIdx.x; bw > 0 && bh > 0 && k < bw * bh; k += blockDim.x) {
        int x = half + k % bw, y = half + k / bw;
        int32_t sum = pt_hough_seed_box(ii, gw, x - half, y - half, x + half + 1, y + half + 1);
        unsigned long long key = (unsigned long long)(uint32_t)sum << 32 | (unsigned)k;
        mine = key < mine ? key : mine;
    }
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long other = __shfl_xor_sync(0xffffffffu, mine, o);
        mine = other < mine ? other : mine;
    }
    if ((threadIdx.x & 31) == 0 && mine != ~0ull)
        atomicMin(&sh->seed_key, mine);
    __syncthreads();
    unsigned long long key = sh->seed_key;
    __syncthreads();
    if (key == ~0ull) {
        seed->gx = -1;
        return 0;
    }
    int k = (int)(key & 0xffffffffu);
    seed->gx = half + k % bw;
    seed->gy = half + k / bw;
    seed->half = half;
    seed->sum = (int32_t)(key >> 32);
    return 1;
}

/* The passes of the radius histogram (radius_hist): around the voting's
 * centre, the seed's, and the dark-edge vote's (its voters only). */
enum { RHIST_VOTE = 0, RHIST_SEED = 1, RHIST_DARK = 2 };

/* pt_hough_radius_strongest() over list[0..len) (the local maxima of at
 * least keep, ascending), the same picks: a radius before another of equal
 * score wins, as in the scan of every radius. */
__device__ static int strongest_of(const double *score, const short *list, int len, int upto,
                                   int *radius, int n)
{
    while (n < upto) {
        int pick = -1;
        for (int k = 0; k < len; k++) {
            int r = list[k];
            if ((pick < 0 || score[r] > score[pick]) && !pt_hough_radius_taken(radius, n, r))
                pick = r;
        }
        if (pick < 0)
            break;
        radius[n++] = pick;
    }
    return n;
}

/* Block: the local maxima of score[lo..hi] of at least keep and of at
 * least keep_small into sh->peak_a and sh->peak_b in ascending order
 * (ordered compactions, cuda/core/block_rank.cuh); their counts in sh->na
 * and sh->nb. */
__device__ static void peak_lists(const double *score, int min_r, int max_r, int lo, int hi,
                                  double keep, double keep_small, candidates_shared *sh)
{
    int na = 0, nb = 0;
    for (int base = lo; base <= hi; base += blockDim.x) {
        int r = base + threadIdx.x;
        int fa = r <= hi && pt_hough_radius_peak(score, min_r, max_r, r, keep);
        int fb = r <= hi && pt_hough_radius_peak(score, min_r, max_r, r, keep_small);
        int ta, ra = pt_block_rank(fa, sh->warp_a, &ta);
        int tb, rb = pt_block_rank(fb, sh->warp_b, &tb);
        if (fa)
            sh->peak_a[na + ra] = (short)r;
        if (fb)
            sh->peak_b[nb + rb] = (short)r;
        na += ta;
        nb += tb;
    }
    if (threadIdx.x == 0) {
        sh->na = na;
        sh->nb = nb;
    }
    __syncthreads();
}

/* Block per job (all threads call it): the second half of
 * radius_candidates() of omp/detect/hough.c for centre (px, py) (roi
 * coordinates) whose radius histogram radius_hist counted into job j's
 * rhist: the scores, up to max of their local maxima in [lo, hi]
 * (pt_hough_radius_peaks: the `strong` strongest, then the smallest)
 * appended (full frame) at cand[at..]. Returns their number (on every
 * thread). Where the scores fit in shared memory, the best score is a
 * block's maximum and the local maxima are listed by the block, so the
 * one thread that picks among them reads a few radii instead of all;
 * the picks are pt_hough_radius_peaks'. */
__device__ static int radius_peaks(const pt_hough_dev *d, int j, const pt_cuda_eye_job *job,
                                   double px, double py, int min_r, int max_r, int lo, int hi,
                                   int strong, int max, int at, candidates_shared *sh)
{
    const long long *hist = d->rhist + (size_t)j * d->s.hist_len;
    int shared = max_r + 2 <= SHARED_BINS;
    double *score = shared ? sh->score : d->score + (size_t)j * d->s.hist_len;
    int clo = lo < min_r ? min_r : lo, chi = hi > max_r ? max_r : hi;
    double best = 0.0;
    for (int r = min_r + threadIdx.x; r <= max_r; r += blockDim.x) {
        score[r] = pt_hough_radius_score(hist, max_r, r);
        if (r >= clo && r <= chi)
            best = score[r] > best ? score[r] : best;
    }
    for (int o = 16; o > 0; o >>= 1) {
        double other = __shfl_xor_sync(0xffffffffu, best, o);
        best = other > best ? other : best;
    }
    if ((threadIdx.x & 31) == 0)
        sh->warp_best[threadIdx.x >> 5] = best;
    __syncthreads();
    if (threadIdx.x == 0) {
        double b = 0.0;
        for (int w = 0; w < (int)(blockDim.x >> 5); w++)
            b = sh->warp_best[w] > b ? sh->warp_best[w] : b;
        sh->best = b;
    }
    __syncthreads();
    int upto = max < PT_HOUGH_CANDIDATES ? max : PT_HOUGH_CANDIDATES;
    if (shared)
        peak_lists(score, min_r, max_r, clo, chi, PT_HOUGH_RADIUS_KEEP * sh->best,
                   PT_HOUGH_RADIUS_KEEP_SMALL * sh->best, sh);
    if (threadIdx.x == 0) {
        int radius[PT_HOUGH_CANDIDATES], count;
        if (shared) {
            count = strongest_of(score, sh->peak_a, sh->na, strong < upto ? strong : upto, radius,
                                 0);
            for (int k = 0; k < sh->nb && count < upto; k++)
                if (!pt_hough_radius_taken(radius, count, sh->peak_b[k]))
                    radius[count++] = sh->peak_b[k];
            if (strong > 0)
                count = strongest_of(score, sh->peak_a, sh->na, upto, radius, count);
            for (int k = 1; k < count; k++) { /* insertion sort: smallest first */
                int v = radius[k], i = k;
                while (i > 0 && radius[i - 1] > v) {
                    radius[i] = radius[i - 1];
                    i--;
                }
                radius[i] = v;
            }
        } else {
            count = pt_hough_radius_peaks(score, min_r, max_r, lo, hi, strong, upto, radius);
        }
        pt_circle *cand = d->cand + (size_t)j * PT_HOUGH_CANDIDATES + at;
        for (int k = 0; k < count; k++) {
            cand[k].cx = px + job->x0;
            cand[k].cy = py + job->y0;
            cand[k].r = radius[k];
        }
        sh->count = count;
    }
    __syncthreads();
    int count = sh->count;
    __syncthreads();
    return count;
}

/* The voting centre of job j's accumulator peak key: the weighted mean of
 * the 3x3 cells (lib/detect/hough_peak.h, as omp/detect/hough.c
 * gradient_peak()), roi coordinates. */
__device__ static void peak_centre(const pt_hough_dev *d, int j, const pt_cuda_eye_job *job,
                                   unsigned long long key, double *cx, double *cy)
{
    int cell = cell_side(d->s.cell, job->w, job->h);
    int cw = (job->w + cell - 1) / cell;
    const float *acc = d->acc + (size_t)j * d->s.cells_per_job;
    int k = (int)(0xffffffffu - (unsigned)(key & 0xffffffffu));
    pt_hough_peak_centre(acc, cw, cell, k % cw, k / cw, cx, cy);
}

/* Edge per thread, VOTE_BLOCKS blocks per job: the first half of
 * radius_candidates() of omp/detect/hough.c, the radius histogram of one
 * pass's centre (fixed-point weights, lib/detect/hough_radii.h) counted in
 * each block's shared memory and added into the job's rhist (zeroed
 * before): integer sums, the same in any order. The voting's and the
 * dark-edge vote's centre: the accumulator peak's (peak_centre); the
 * seed's: rcentre, where rlo >= 0. The dark pass leaves out the edges
 * with eskip set. */
__global__ void radius_hist(pt_cuda_buffers b, pt_hough_dev d, int pass)
{
    __shared__ long long bins[SHARED_BINS];
    __shared__ double centre[2];
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    unsigned long long key = d.peak[j];
    if (!pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r))
        return;
    if (pass == RHIST_VOTE && (d.edge_count[j] < 3 || !key))
        return;
    if (pass == RHIST_SEED && d.rlo[j] < 0)
        return;
    if (pass == RHIST_DARK && (d.ndark[j] < 0 || !key))
        return;
    if (threadIdx.x == 0) {
        if (pass == RHIST_SEED) {
            centre[0] = d.rcentre[2 * j];
            centre[1] = d.rcentre[2 * j + 1];
        } else {
            peak_centre(&d, j, &job, key, &centre[0], &centre[1]);
        }
    }
    int shared = max_r + 2 <= SHARED_BINS;
    long long *global = d.rhist + (size_t)j * d.s.hist_len;
    long long *hist = shared ? bins : global;
    for (int k = threadIdx.x; shared && k < max_r + 2; k += blockDim.x)
        bins[k] = 0;
    __syncthreads();
    double px = centre[0], py = centre[1];
    const uint8_t *skip = pass == RHIST_DARK ? d.eskip : NULL;
    int n = d.edge_count[j];
    size_t e0 = (size_t)j * d.s.edge_cap;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (skip && skip[e0 + i])
            continue;
        int32_t xy = d.exy[e0 + i];
        double dx = px - edge_x(xy), dy = py - edge_y(xy);
        float ux = d.eux[e0 + i], uy = d.euy[e0 + i];
        float d2 = reject_dist2(dx, dy, 0.0, 0.0);
        if (reject_ring(d2, min_r - 0.5, max_r + 0.5) || reject_aim(ux, uy, dx, dy, d2, AIM_COS))
            continue;
        double dist = hypot(dx, dy);
        int k = (int)llround(dist);
        if (!(k < min_r || k > max_r || ux * dx + uy * dy < AIM_COS * dist))
            atomicAdd((unsigned long long *)&hist[k],
                      (unsigned long long)pt_hough_vote_weight(d.emag[e0 + i]));
    }
    if (!shared)
        return;
    __syncthreads();
    for (int k = threadIdx.x; k < max_r + 2; k += blockDim.x)
        if (bins[k])
            atomicAdd((unsigned long long *)&global[k], (unsigned long long)bins[k]);
}

/* Cell per thread, VOTE_BLOCKS blocks per job: the coarse localisation's
 * cell sums (lib/detect/hough_seed.h) into the job's integral image, for
 * the jobs gradient_candidates looks at. */
__global__ void seed_cells(pt_cuda_params p, pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    if (!pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r) || d.edge_count[j] < 3 ||
        !d.peak[j])
        return;
    int seed_cell = pt_hough_seed_cell(min_r), gw = job.w / seed_cell, gh = job.h / seed_cell;
    if (gw < 3 || gh < 3)
        return;
    pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image img = {dims.width, dims.height, p.pitch, b.smoothed + (size_t)job.frame * p.plane};
    int32_t *ii = d.seed_ii + (size_t)j * d.s.seed_ii_per_job;
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < gw * gh; c += gridDim.x * blockDim.x) {
        int gx = c % gw, gy = c / gw;
        ii[(size_t)(gy + 1) * (gw + 1) + gx + 1] =
            pt_hough_seed_cell_sum(&img, job.x0, job.y0, seed_cell, gx, gy);
    }
}

/* Block per job: sub-cell centre and its radius candidates (from the
 * histogram radius_hist counted), then the coarse localisation's seed
 * (lib/detect/hough_seed.h: the integral of seed_cells' sums and the
 * darkest box over the block); unless the voting's centre lies in its box,
 * the seed's centre and smallest radius are left in rcentre and rlo for
 * seed_candidates (omp/detect/hough.c gradient_peak() and
 * seed_candidates()). */
__global__ void __launch_bounds__(CAND_THREADS)
    gradient_candidates(pt_cuda_buffers b, pt_hough_dev d)
{
    __shared__ candidates_shared sh;
    int j = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    unsigned long long key = d.peak[j];
    if (threadIdx.x == 0)
        d.rlo[j] = -1;
    if (!pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r) || d.edge_count[j] < 3 ||
        !key) {
        if (threadIdx.x == 0) {
            d.ncand[j] = d.nvote[j] = 0;
            d.seed_level[j] = -1.0;
        }
        return;
    }
    if (threadIdx.x == 0)
        peak_centre(&d, j, &job, key, &sh.centre[0], &sh.centre[1]);
    __syncthreads();
    int count = radius_peaks(&d, j, &job, sh.centre[0], sh.centre[1], min_r, max_r, min_r, max_r,
                             PT_HOUGH_STRONG_RADII, PT_HOUGH_VOTE_CANDIDATES, 0, &sh);
    if (threadIdx.x == 0)
        d.nvote[j] = count;
    int seed_cell = pt_hough_seed_cell(min_r), gw = job.w / seed_cell, gh = job.h / seed_cell;
    if (threadIdx.x == 0)
        d.seed_level[j] = -1.0;
    if (gw >= 3 && gh >= 3) {
        int32_t *ii = d.seed_ii + (size_t)j * d.s.seed_ii_per_job;
        block_seed_prefix(ii, gw, gh);
        pt_hough_seed seed;
        int found = block_seed_darkest(ii, gw, gh, &seed, &sh);
        if (threadIdx.x == 0) {
            d.seed_level[j] = found ? pt_hough_seed_level(&seed, seed_cell) : -1.0;
            /* the voting's centre in the seed's box: no seed candidates */
            if (found && !pt_hough_seed_near(&seed, seed_cell, sh.centre[0], sh.centre[1])) {
                d.rcentre[2 * j] = (seed.gx + 0.5) * seed_cell - 0.5;
                d.rcentre[2 * j + 1] = (seed.gy + 0.5) * seed_cell - 0.5;
                d.rlo[j] = (int)floor(0.5 * pt_hough_seed_radius(&seed, seed_cell));
            }
        }
    }
    if (threadIdx.x == 0)
        d.ncand[j] = count;
}

/* Block per job: the seed's radius candidates (from the histogram
 * radius_hist counted around rcentre) appended after the voting's. */
__global__ void __launch_bounds__(CAND_THREADS) seed_candidates(pt_cuda_buffers b, pt_hough_dev d)
{
    __shared__ candidates_shared sh;
    int j = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    if (d.rlo[j] < 0 || !pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r))
        return;
    int at = d.ncand[j];
    int count = radius_peaks(&d, j, &job, d.rcentre[2 * j], d.rcentre[2 * j + 1], min_r, max_r,
                             d.rlo[j], max_r, 0, PT_HOUGH_SEED_RADII, at, &sh);
    if (threadIdx.x == 0)
        d.ncand[j] = at + count;
}

/* Edge per thread: the dark-edge vote's voters (lib/detect/hough_dark_vote.h,
 * omp/detect/hough.c dark_vote_candidates()); ndark = the candidates so far,
 * -1 where the job has none (no candidates, no seed, hough_dark_vote=off). */
__global__ void dark_voters(pt_cuda_params p, pt_cuda_buffers b, pt_hough_dev d)
{
    int j = blockIdx.y;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    int limit = pt_hough_dark_vote_limit(d.seed_level[j], d.s.dark_spread);
    int active = d.s.dark_vote && d.ncand[j] > 0 && limit >= 0 &&
                 pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        d.ndark[j] = active ? d.ncand[j] : -1;
    if (!active)
        return;
    pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image img = {dims.width, dims.height, p.pitch, b.smoothed + (size_t)job.frame * p.plane};
    double reach = pt_hough_dark_vote_reach(min_r);
    int n = d.edge_count[j];
    size_t e0 = (size_t)j * d.s.edge_cap;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int32_t xy = d.exy[e0 + i];
        d.eskip[e0 + i] = !pt_hough_dark_vote_edge(&img, edge_x(xy) + job.x0, edge_y(xy) + job.y0,
                                                   d.eux[e0 + i], d.euy[e0 + i],
                                                   d.eflat[e0 + i], reach, limit);
    }
}

/* Block per job: the dark-edge vote's centre and its PT_HOUGH_DARK_RADII
 * strongest radii (from the histogram radius_hist counted of its voters
 * alone) appended to the candidates, less those the candidates before them
 * repeat (pt_hough_dark_vote_new). */
__global__ void __launch_bounds__(CAND_THREADS) dark_candidates(pt_cuda_buffers b, pt_hough_dev d)
{
    __shared__ candidates_shared sh;
    int j = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    unsigned long long key = d.peak[j];
    if (d.ndark[j] < 0 || !key || !pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r))
        return;
    if (threadIdx.x == 0)
        peak_centre(&d, j, &job, key, &sh.centre[0], &sh.centre[1]);
    __syncthreads();
    int at = d.ncand[j];
    int count = radius_peaks(&d, j, &job, sh.centre[0], sh.centre[1], min_r, max_r, min_r, max_r,
                             PT_HOUGH_DARK_RADII, PT_HOUGH_DARK_RADII, at, &sh);
    if (threadIdx.x == 0)
        d.ncand[j] = at + pt_hough_dark_vote_new(d.cand + (size_t)j * PT_HOUGH_CANDIDATES, at,
                                                 count);
}

cudaError_t pt_cuda_hough_vote_gradient(const pt_hough_dev *d, const pt_cuda_params *p,
                                        const pt_cuda_buffers *b, int jobs, int width,
                                        int height, cudaStream_t stream)
{
    (void)width;
    (void)height;
    cudaError_t st;
    if ((st = cudaMemsetAsync(d->acc, 0, (size_t)jobs * d->s.cells_per_job * sizeof *d->acc,
                              stream)) != cudaSuccess ||
        (st = cudaMemsetAsync(d->peak, 0, jobs * sizeof *d->peak, stream)) != cudaSuccess)
        return st;
    size_t hist_bytes = (size_t)jobs * d->s.hist_len * sizeof *d->rhist;
    gradient_votes<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d, 0);
    gradient_peak<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d);
    if ((st = cudaMemsetAsync(d->rhist, 0, hist_bytes, stream)) != cudaSuccess)
        return st;
    radius_hist<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d, RHIST_VOTE);
    seed_cells<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*p, *b, *d);
    gradient_candidates<<<jobs, CAND_THREADS, 0, stream>>>(*b, *d);
    if ((st = cudaGetLastError()) != cudaSuccess ||
        (st = cudaMemsetAsync(d->rhist, 0, hist_bytes, stream)) != cudaSuccess)
        return st;
    radius_hist<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d, RHIST_SEED);
    seed_candidates<<<jobs, CAND_THREADS, 0, stream>>>(*b, *d);
    /* the dark-edge vote: the same accumulator and peak, its voters only */
    dark_voters<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*p, *b, *d);
    if ((st = cudaGetLastError()) != cudaSuccess ||
        (st = cudaMemsetAsync(d->acc, 0, (size_t)jobs * d->s.cells_per_job * sizeof *d->acc,
                              stream)) != cudaSuccess ||
        (st = cudaMemsetAsync(d->peak, 0, jobs * sizeof *d->peak, stream)) != cudaSuccess)
        return st;
    gradient_votes<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d, 1);
    gradient_peak<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d);
    if ((st = cudaGetLastError()) != cudaSuccess ||
        (st = cudaMemsetAsync(d->rhist, 0, hist_bytes, stream)) != cudaSuccess)
        return st;
    radius_hist<<<dim3(VOTE_BLOCKS, jobs), THREADS, 0, stream>>>(*b, *d, RHIST_DARK);
    dark_candidates<<<jobs, CAND_THREADS, 0, stream>>>(*b, *d);
    return cudaGetLastError();
}

/* ---- sampled voting ------------------------------------------------------ */

/* Radius planes first .. first+batch-1 of every job: each edge's samples
 * within its range (sample_ranges() and vote_sampled() of omp/detect/hough.c). */
__global__ void sampled_votes(pt_cuda_buffers b, pt_hough_dev d, int first)
{
    int j = blockIdx.z, plane = blockIdx.y, ri = first + plane;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    int radii = pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r);
    if (ri >= radii || d.edge_count[j] < 3)
        return;
    int r = min_r + ri * (d.s.radius_step < 1 ? 1 : d.s.radius_step);
    if (r >= d.s.table_radii)
        return;
    int w = job.w, h = job.h, A = d.s.angles;
    const int *by_angle = d.off_by_angle + (size_t)r * (A + 1);
    int k_first = d.off_first[r], k_end = d.off_first[r + 1];
    const short2 *off = d.off_dxy;
    uint32_t *acc = d.planes + ((size_t)j * d.batch + plane) * d.s.job_px;
    int n = d.edge_count[j];
    size_t e0 = (size_t)j * d.s.edge_cap;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int32_t xy = d.exy[e0 + i];
        int x = edge_x(xy), y = edge_y(xy);
        float ux = d.eux[e0 + i], uy = d.euy[e0 + i];
        /* atan2 in double, rounded once: the correctly rounded atan2f */
        float a = (float)atan2((double)uy, (double)ux) * (float)(180.0 / M_PI);
        float angle = a < 0.0f ? a + 360.0f : a;
        int a0 = (int)ceil((angle - d.s.vote_spread) / d.s.angle_step);
        int cnt = (int)floor((angle + d.s.vote_spread) / d.s.angle_step) - a0 + 1;
        a0 = ((a0 % A) + A) % A;
        cnt = cnt < 0 ? 0 : cnt > A ? A : cnt;
        int s0[2], s1[2], parts = 1;
        if (cnt >= A) {
            s0[0] = k_first;
            s1[0] = k_end;
        } else if (a0 + cnt <= A) {
            s0[0] = by_angle[a0];
            s1[0] = by_angle[a0 + cnt];
        } else {
            s0[0] = by_angle[a0];
            s1[0] = k_end;
            s0[1] = k_first;
            s1[1] = by_angle[a0 + cnt - A];
            parts = 2;
        }
        for (int part = 0; part < parts; part++)
            for (int k = s0[part]; k < s1[part]; k++) {
                int cx = x + off[k].x, cy = y + off[k].y;
                if ((unsigned)cx < (unsigned)w && (unsigned)cy < (unsigned)h)
                    atomicAdd(&acc[(size_t)cy * w + cx], 1u);
            }
    }
}

/* The first maximum of each plane (rows the votes can reach), cleared on the way. */
__global__ void sampled_peaks(pt_cuda_buffers b, pt_hough_dev d, int first)
{
    int j = blockIdx.z, plane = blockIdx.y, ri = first + plane;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    int radii = pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r);
    int n = d.edge_count[j];
    if (ri >= radii || n < 3)
        return;
    int r = min_r + ri * (d.s.radius_step < 1 ? 1 : d.s.radius_step);
    int w = job.w, h = job.h;
    size_t e0 = (size_t)j * d.s.edge_cap;
    /* edges are in raster order: the first and last hold ymin and ymax */
    int ymin = edge_y(d.exy[e0]), ymax = edge_y(d.exy[e0 + n - 1]);
    int y0 = ymin - r < 0 ? 0 : ymin - r, y1 = ymax + r >= h ? h - 1 : ymax + r;
    uint32_t *acc = d.planes + ((size_t)j * d.batch + plane) * d.s.job_px;
    unsigned long long best = 0;
    size_t begin = (size_t)y0 * w, end = (size_t)(y1 + 1) * w;
    for (size_t k = begin + (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < end;
         k += (size_t)gridDim.x * blockDim.x) {
        uint32_t v = acc[k];
        if (v) {
            unsigned long long key = ((unsigned long long)v << 32) | (0xffffffffu - (unsigned)k);
            best = key > best ? key : best;
            acc[k] = 0;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        unsigned long long other = __shfl_xor_sync(0xffffffffu, best, o);
        best = other > best ? other : best;
    }
    if ((threadIdx.x & 31) == 0 && best)
        atomicMax(&d.radius_peak[(size_t)j * d.max_radii + ri], best);
}

/* Thread per job: radii compared by votes over possible votes, in order. */
__global__ void sampled_choose(pt_cuda_buffers b, pt_hough_dev d, int jobs)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= jobs)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    int min_r, max_r;
    int radii = pt_hough_radii(&job, d.s.radius_step, &min_r, &max_r);
    int step = d.s.radius_step < 1 ? 1 : d.s.radius_step;
    d.ncand[j] = 0;
    if (d.edge_count[j] < 3 || radii > d.max_radii)
        return;
    double best_score = 0.0;
    pt_circle *peak = d.cand + (size_t)j * PT_HOUGH_CANDIDATES;
    for (int i = 0; i < radii; i++) {
        int r = min_r + i * step;
        if (r >= d.s.table_radii)
            break;
        unsigned long long key = d.radius_peak[(size_t)j * d.max_radii + i];
        int votes = (int)(key >> 32);
        int index = key ? (int)(0xffffffffu - (unsigned)(key & 0xffffffffu)) : 0;
        double possible = d.off_first[r + 1] - d.off_first[r];
        double score = votes / possible;
        if (score > best_score) {
            best_score = score;
            peak->cx = index % job.w + job.x0;
            peak->cy = index / job.w + job.y0;
            peak->r = r;
        }
    }
    d.ncand[j] = best_score > 0.0;
}

cudaError_t pt_cuda_hough_vote_sampled(const pt_hough_dev *d, const pt_cuda_buffers *b,
                                       int jobs, int width, int height, int radii,
                                       cudaStream_t stream)
{
    if (radii > d->max_radii)
        radii = d->max_radii;
    cudaError_t st = cudaMemsetAsync(d->radius_peak, 0,
                                     (size_t)jobs * d->max_radii * sizeof *d->radius_peak, stream);
    if (st != cudaSuccess)
        return st;
    size_t px = (size_t)width * height;
    int scan_blocks = (int)((px + THREADS * 4 - 1) / (THREADS * 4));
    scan_blocks = scan_blocks < 1 ? 1 : scan_blocks > 64 ? 64 : scan_blocks;
    for (int first = 0; first < radii; first += d->batch) {
        int batch = radii - first < d->batch ? radii - first : d->batch;
        sampled_votes<<<dim3(VOTE_BLOCKS, batch, jobs), THREADS, 0, stream>>>(*b, *d, first);
        sampled_peaks<<<dim3(scan_blocks, batch, jobs), THREADS, 0, stream>>>(*b, *d, first);
    }
    sampled_choose<<<(jobs + 63) / 64, 64, 0, stream>>>(*b, *d, jobs);
    return cudaGetLastError();
}
