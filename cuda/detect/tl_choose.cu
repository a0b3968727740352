/* The tl detector's choice over thresholds and its result, as pt_omp_tl()
 * after its loop over thresholds (tl_choose and tl_finish a warp per job,
 * tl_settle a thread per job):
 *
 *   tl_choose  the winner (score votes / support / quality, ties to the lower
 *              threshold; a credible fit it encloses instead, lib/detect/tl_nest.h)
 *              and, with tl_refine, the mid-level threshold to refit
 *   tl_settle  the refit kept when as credible and describing the same pupil;
 *              in circle mode with tl_shape=auto, the shape check's threshold
 *   tl_finish  the shape check's ellipse circle where it describes the border
 *              better (lib/detect/tl_shape.h), the half-pixel border offset
 *   tl_cross   a block per job: the outline on its border's mid-level
 *              crossings (tl_crossings, cuda/detect/border_crossings.cuh)
 *   tl_report  a warp per job: confidence and status */
#include <math.h>

#include "cuda/detect/tl_internal.h"
#include "cuda/detect/border_crossings.cuh"

#include "lib/detect/fit.h"
#include "lib/params/params_tl.h"
#include "lib/io/pt_image.h"
#include "lib/detect/pt_result.h"
#include "lib/detect/starburst_ray.h"
#include "lib/detect/tl_level.h"
#include "lib/detect/tl_nest.h"
#include "lib/detect/tl_retry.h"
#include "lib/detect/tl_shape.h"

#include "lib/detect/confidence.h"

/* Constants of omp/detect/tl.c. */
#define TL_SUPPORT_NEAR 0.9
#define TL_QUALITY_NEAR 0.9
#define TL_BORDER_OFFSET 0.5

#define CHOOSE_THREADS 64

static __device__ double outline_length(const tl_fit *fit, int ellipse)
{
    if (!ellipse)
        return fmax(2.0 * M_PI * fit->circle.r, 1.0);
    double a = fit->ellipse.a, b = fit->ellipse.b;
    return fmax(M_PI * (3.0 * (a + b) - sqrt((3.0 * a + b) * (a + 3.0 * b))), 1.0);
}

/* Median grey level of PT_TL_LEVEL_SAMPLES points on a circle of radius r
 * around c; -1 when fewer than half of them lie in the image. Every lane of
 * a warp calls it with the same arguments and gets the level: the samples
 * are shared out over the lanes and counted with warp sums (integers). */
static __device__ int ring_median(const pt_image *img, const pt_circle *c, double r)
{
    int v[PT_TL_LEVEL_SAMPLES / 32], in[PT_TL_LEVEL_SAMPLES / 32], n = 0;
    for (int i = 0; i < PT_TL_LEVEL_SAMPLES / 32; i++) {
        int k = (threadIdx.x & 31) + 32 * i;
        double phi = 2.0 * M_PI * k / PT_TL_LEVEL_SAMPLES;
        int x = (int)lround(c->cx + r * cos(phi)), y = (int)lround(c->cy + r * sin(phi));
        in[i] = !(x < 0 || y < 0 || x >= img->width || y >= img->height);
        v[i] = in[i] ? img->buf[(size_t)y * img->stride + x] : 0;
        n += in[i];
    }
    n = warp_isum(n);
    if (2 * n < PT_TL_LEVEL_SAMPLES)
        return -1;
    /* the smallest level with at least half the samples at or below it: what
     * the histogram walk of omp/detect/tl.c returns (bisection over 0..255) */
    int half = (n + 1) / 2, lo = 0, hi = 255;
    while (lo < hi) {
        int mid = (lo + hi) / 2, upto = 0;
        for (int i = 0; i < PT_TL_LEVEL_SAMPLES / 32; i++)
            upto += in[i] && v[i] <= mid;
        if (warp_isum(upto) >= half)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static __device__ int mid_level(const pt_image *img, const pt_circle *c, double share,
                               double gap)
{
    int inside = ring_median(img, c, 0.5 * c->r);
    int outside = ring_median(img, c, pt_tl_level_outside(c->r, gap));
    if (inside < 0 || outside <= inside)
        return -1;
    return inside + (int)lround(share * (outside - inside));
}

static __device__ pt_image frame_view(const pt_cuda_params &p, const pt_cuda_buffers &b,
                                      const pt_cuda_eye_job &job)
{
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    return view;
}

/* Block per eye job (LEVELS_THREADS threads): the coarse grid's dark and
 * surround levels from its histogram, counted by the whole block in shared
 * memory (thread 0 reads the two ranks off it), and the fine grid's dark
 * levels (lib/detect/eye_levels.h, pt_eye_fine_patch's steps, and
 * lib/detect/tl_small.h's second one), its samples held
 * in shared memory and its darkest patch and count shared out over the
 * block; counts, the minimum and the ranks are exact, so the levels are
 * pt_eye_grid_level's and pt_eye_fine_patch's. */
#define LEVELS_THREADS 256
#define FINE_SAMPLES (PT_EYE_FINE_GRID * PT_EYE_FINE_GRID)

__global__ void __launch_bounds__(LEVELS_THREADS) tl_levels(pt_cuda_params p, pt_cuda_buffers b,
                                                            tl_dev d)
{
    __shared__ uint8_t fine[FINE_SAMPLES];
    __shared__ unsigned hist[256];
    __shared__ int coarse_dark, surround, best9, below;
    const int j = blockIdx.x;
    const pt_cuda_eye_job job = b.jobs[j];
    if (job.w <= 0 || job.h <= 0) {
        if (threadIdx.x == 0)
            d.levels[j] = make_int4(0, 0, 0, -1);
        return;
    }
    const uint8_t *buf = b.smoothed + job.frame * p.plane;
    for (int v = threadIdx.x; v < 256; v += LEVELS_THREADS)
        hist[v] = 0;
    pt_eye_fine_gather(buf, p.pitch, job.x0, job.y0, job.w, job.h, fine, threadIdx.x,
                       LEVELS_THREADS);
    __syncthreads();
    for (int s = threadIdx.x; s < PT_EYE_SAMPLES; s += LEVELS_THREADS)
        atomicAdd(&hist[pt_eye_grid_sample(buf, p.pitch, job.x0, job.y0, job.w, job.h, s)], 1u);
    __syncthreads();
    if (threadIdx.x == 0) {
        coarse_dark = pt_eye_level_of_histogram(hist, PT_EYE_DARK_RANK);
        surround = pt_eye_level_of_histogram(hist, PT_EYE_SURROUND_RANK);
        best9 = 9 * 255;
        below = 0;
    }
    __syncthreads();
    atomicMin(&best9, pt_eye_fine_least9(fine, threadIdx.x, LEVELS_THREADS));
    __syncthreads();
    const int mid = pt_eye_fine_mid(coarse_dark, best9);
    if (mid >= 0) { /* the same for every thread of the block */
        atomicAdd(&below, pt_eye_fine_below(fine, mid, threadIdx.x, LEVELS_THREADS));
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        /* the dark levels of lib/detect/tl_small.h */
        int other, dark = pt_tl_small_darks(coarse_dark, mid, below, d.small_share,
                                            d.small_also, &other);
        d.levels[j] = make_int4(coarse_dark, dark, surround, other);
    }
}

/* Warp per job: every lane runs the choice (the same values in each), the
 * ring levels and confidences are shared out over the lanes, lane 0 writes. */
__global__ void __launch_bounds__(32) tl_choose(pt_cuda_params p, pt_cuda_buffers b, tl_dev d,
                                                int jobs)
{
    int j = blockIdx.x;
    const bool lane0 = threadIdx.x == 0;
    if (j >= jobs)
        return;
    const tl_fit *fits = d.fits + (size_t)j * d.thresholds;
    double best_support = 0.0, best_quality = 0.0;
    /* the winner from the first d.count slots; those of a second dark level
     * (lib/detect/tl_small.h) compete as enclosed fits only, as pt_omp_tl() */
    for (int i = 0; i < d.count; i++) {
        if (!fits[i].found)
            continue;
        best_support = fmax(best_support, fits[i].votes / outline_length(&fits[i], d.ellipse));
        best_quality = fmax(best_quality, fits[i].quality);
    }
    int winner = -1;
    for (int i = 0; i < d.count; i++) {
        const tl_fit *fit = &fits[i];
        if (!fit->found)
            continue;
        if (d.score == PT_TL_SCORE_SUPPORT &&
            fit->votes / outline_length(fit, d.ellipse) < TL_SUPPORT_NEAR * best_support)
            continue;
        if (d.score == PT_TL_SCORE_QUALITY && fit->quality < TL_QUALITY_NEAR * best_quality)
            continue;
        if (winner < 0 || (d.score != PT_TL_SCORE_QUALITY && fit->votes > fits[winner].votes))
            winner = i;
    }
    if (lane0)
        d.refine_t[j] = -1;
    if (winner < 0) {
        if (lane0)
            d.winner[j] = winner;
        return;
    }
    const pt_cuda_eye_job job = b.jobs[j];
    pt_image view = frame_view(p, b, job);
    /* the pupil inside the iris (lib/detect/tl_nest.h) */
    int inner = -1;
    for (int i = 0; d.pupil_prior && i < d.thresholds; i++) {
        const tl_fit *fit = &fits[i];
        if (i == winner || !fit->found || !pt_tl_nested(&fits[winner].circle, &fit->circle) ||
            fit->quality < PT_TL_NEST_QUALITY * best_quality)
            continue;
        double conf = d.ellipse ? warp_confidence(&view, &fit->ellipse)
                                : warp_confidence_circle(&view, &fit->circle);
        if (conf < PT_CONFIDENCE_MIN)
            continue;
        if (inner < 0 || fit->quality > fits[inner].quality)
            inner = i;
    }
    if (inner >= 0)
        winner = inner;
    if (lane0)
        d.winner[j] = winner;
    if (!d.refine)
        return;
    int t_mid = mid_level(&view, &fits[winner].circle, d.level_share, d.level_gap);
    int t_best = tl_threshold(d, j, winner);
    if (lane0 && t_mid >= 0 && t_mid != t_best)
        d.refine_t[j] = t_mid;
}

__global__ void tl_settle(pt_cuda_params p, pt_cuda_buffers b, tl_dev d, int jobs)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= jobs)
        return;
    int winner = d.winner[j];
    d.settled[j] = -1;
    d.check_t[j] = -1;
    if (d.check_from)
        d.check_from[j] = -1;
    if (winner < 0)
        return;
    int settled = j * d.thresholds + winner, t = tl_threshold(d, j, winner);
    const tl_fit *won = d.fits + settled;
    if (d.refine_t[j] >= 0) {
        const tl_fit *mid = d.fits + (size_t)jobs * d.thresholds + j;
        if (mid->quality >= TL_QUALITY_NEAR * won->quality && mid->found &&
            hypot(mid->circle.cx - won->circle.cx, mid->circle.cy - won->circle.cy) <
                0.25 * won->circle.r) {
            settled = jobs * d.thresholds + j;
            t = d.refine_t[j];
        }
    }
    d.settled[j] = settled;
    if (!d.ellipse && d.shape == PT_TL_SHAPE_AUTO)
        d.check_t[j] = t;
    if (!d.check_from)
        return;
    /* the check's border is the standing fit's (the same threshold): where
     * it is kept, the check fits it with the band of an ellipse task
     * (tl_pick's) instead of labelling the threshold again */
    if (d.check_t[j] >= 0 && d.kept_n[settled] >= 0) {
        tl_fit *check = d.fits + (size_t)jobs * (d.thresholds + 1) + j;
        check->found = 0;
        check->votes = 0;
        check->flat = 0;
        check->quality = 0.0;
        check->n = d.kept_n[settled];
        check->band = p.inlier;
        d.check_from[j] = settled;
    }
}

/* pt_tl_darker_core (lib/detect/tl_retry.h) over a warp: the angles'
 * levels a lane each (PT_PUPIL_ANGLES / 32 per lane), each order statistic
 * the level whose rank (levels below it, and equal ones at lower angles)
 * is the statistic's: the value the serial sort puts there. Every lane of
 * the block's one warp calls it and gets the answer. */
static __device__ int warp_darker_core(const pt_image *img, const pt_circle *c,
                                       const pt_ellipse *e)
{
    __shared__ int core_v[PT_PUPIL_ANGLES], inner_v[PT_PUPIL_ANGLES], stat[2];
    pt_ellipse fit;
    if (e)
        fit = *e;
    else
        pt_ellipse_from_circle(c, &fit);
    double ct = 0, st = 0;
    int axes = pt_confidence_axes(&fit, &ct, &st);
    const int lane = threadIdx.x & 31;
    for (int k = lane; k < PT_PUPIL_ANGLES; k += 32) {
        int core = 0, inner = 0;
        int ok = axes && pt_sb_inner_angle(img, &fit, ct, st, k, &core, &inner);
        core_v[k] = ok ? core : -1;
        inner_v[k] = ok ? inner : -1;
    }
    if (lane == 0)
        stat[0] = stat[1] = 0;
    __syncwarp();
    int n = 0;
    for (int u = 0; u < PT_PUPIL_ANGLES; u++)
        n += core_v[u] >= 0;
    for (int k = lane; k < PT_PUPIL_ANGLES; k += 32) {
        if (core_v[k] < 0)
            continue;
        int rank_core = 0, rank_inner = 0;
        for (int u = 0; u < PT_PUPIL_ANGLES; u++) {
            if (core_v[u] < 0)
                continue;
            rank_core += core_v[u] < core_v[k] || (core_v[u] == core_v[k] && u < k);
            rank_inner += inner_v[u] < inner_v[k] || (inner_v[u] == inner_v[k] && u < k);
        }
        if (rank_core == (n - 1) / 2)
            stat[0] = core_v[k];
        if (rank_inner == pt_sb_inner_rank(n))
            stat[1] = inner_v[k];
    }
    __syncwarp();
    pt_sb_levels levels = {n, stat[0], stat[1]};
    __syncwarp(); /* read by all before a next call writes them */
    return pt_sb_dark_core(&levels);
}

/* Warp per job, as tl_choose: the outline reported (d.outline). */
__global__ void __launch_bounds__(32) tl_finish(pt_cuda_params p, pt_cuda_buffers b, tl_dev d,
                                                int jobs)
{
    int j = blockIdx.x;
    if (j >= jobs)
        return;
    tl_outline o;
    memset(&o, 0, sizeof o);
    int settled = d.settled[j];
    if (settled >= 0) {
        pt_circle circle = d.fits[settled].circle;
        pt_ellipse ellipse = d.fits[settled].ellipse;
        if (d.check_t[j] >= 0) {
            /* circle mode's shape check (lib/detect/tl_shape.h) */
            const tl_fit *check = d.fits + (size_t)jobs * (d.thresholds + 1) + j;
            if (check->found && pt_tl_prefer_ellipse(&circle, check->circle_votes,
                                                     &check->ellipse, check->votes)) {
                /* tl_shape_confidence: all as reported, the border offset added
                 * (every lane takes this branch: the warp confidences are collective) */
                pt_circle as_circle = circle, as_ellipse = pt_tl_ellipse_circle(&check->ellipse);
                pt_ellipse outline = check->ellipse;
                as_circle.r += TL_BORDER_OFFSET;
                as_ellipse.r += TL_BORDER_OFFSET;
                outline.a += TL_BORDER_OFFSET;
                outline.b += TL_BORDER_OFFSET;
                const pt_cuda_eye_job cjob = b.jobs[j];
                pt_image cview = frame_view(p, b, cjob);
                if (d.shape_confidence <= 0.0 ||
                    pt_tl_ellipse_credible(warp_confidence_circle(&cview, &as_circle),
                                           warp_confidence(&cview, &outline),
                                           warp_confidence_circle(&cview, &as_ellipse),
                                           d.shape_confidence, check->votes, check->n))
                    circle = pt_tl_ellipse_circle(&check->ellipse);
            }
        }
        /* border pixels are the blob's outermost: its boundary lies half a pixel further */
        circle.r += TL_BORDER_OFFSET;
        ellipse.a += TL_BORDER_OFFSET;
        ellipse.b += TL_BORDER_OFFSET;
        o.found = 1;
        o.circle = circle;
        o.ellipse = ellipse;
    }
    if (threadIdx.x == 0)
        d.outline[j] = o;
}

/* Block of CROSS_THREADS per job: the outline on its border's mid-level
 * crossings (tl_crossings, cuda/detect/border_crossings.cuh). */
__global__ void __launch_bounds__(CROSS_THREADS) tl_cross(pt_cuda_params p, pt_cuda_buffers b,
                                                          tl_dev d, int jobs)
{
    __shared__ cross_shared cross;
    int j = blockIdx.x;
    if (j >= jobs || !d.outline[j].found)
        return;
    tl_outline o = d.outline[j];
    const pt_cuda_eye_job job = b.jobs[j];
    pt_image view = frame_view(p, b, job);
    pt_ellipse from = o.ellipse, to;
    if (!d.ellipse)
        pt_ellipse_from_circle(&o.circle, &from);
    if (!block_border_crossings(&view, &from, &to, &cross) || threadIdx.x != 0)
        return;
    o.ellipse = to;
    o.circle.cx = to.cx;
    o.circle.cy = to.cy;
    o.circle.r = 0.5 * (to.a + to.b);
    d.outline[j] = o;
}

/* Warp per job: the outline's confidence, status and darker core (b.results). */
__global__ void __launch_bounds__(32) tl_report(pt_cuda_params p, pt_cuda_buffers b, tl_dev d,
                                                int jobs)
{
    int j = blockIdx.x;
    if (j >= jobs)
        return;
    pt_cuda_eye_result *out = b.results + j;
    pt_cuda_eye_result r;
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_NOTFOUND;
    const tl_outline o = d.outline[j];
    const pt_cuda_eye_job job = b.jobs[j];
    pt_image view = frame_view(p, b, job);
    if (o.found) {
        if (d.ellipse) {
            r.ellipse = o.ellipse;
            r.circle.cx = o.ellipse.cx;
            r.circle.cy = o.ellipse.cy;
            r.circle.r = 0.5 * (o.ellipse.a + o.ellipse.b);
            r.confidence = warp_confidence(&view, &o.ellipse);
            r.has_ellipse = 1;
        } else {
            r.circle = o.circle;
            r.confidence = warp_confidence_circle(&view, &o.circle);
        }
        r.has_circle = 1;
        if (r.confidence < PT_CONFIDENCE_MIN)
            r.has_circle = r.has_ellipse = 0;
        else
            r.status = PT_DETECT_OK;
    }
    if (r.status == PT_DETECT_OK) /* the same on every lane */
        r.darker_core = warp_darker_core(&view, &r.circle, r.has_ellipse ? &r.ellipse : NULL);
    if (threadIdx.x == 0)
        *out = r;
}

cudaError_t pt_tl_levels(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream)
{
    if (jobs > 0)
        tl_levels<<<jobs, LEVELS_THREADS, 0, stream>>>(*p, *b, *d);
    return cudaGetLastError();
}

cudaError_t pt_tl_choose(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream)
{
    if (jobs > 0)
        tl_choose<<<jobs, 32, 0, stream>>>(*p, *b, *d, jobs);
    return cudaGetLastError();
}

cudaError_t pt_tl_settle(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream)
{
    tl_settle<<<(jobs + CHOOSE_THREADS - 1) / CHOOSE_THREADS, CHOOSE_THREADS, 0, stream>>>(
        *p, *b, *d, jobs);
    return cudaGetLastError();
}

cudaError_t pt_tl_finish(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    tl_finish<<<jobs, 32, 0, stream>>>(*p, *b, *d, jobs);
    if (d->crossings)
        tl_cross<<<jobs, CROSS_THREADS, 0, stream>>>(*p, *b, *d, jobs);
    tl_report<<<jobs, 32, 0, stream>>>(*p, *b, *d, jobs);
    return cudaGetLastError();
}
