/* Refinement of the Hough candidates on the GPU, as refine() in omp/detect/hough.c,
 * a few launches per group of candidate ranks, a block per job and rank.
 * The candidates are independent: a chunk of few jobs refines several
 * ranks at once in the scratch slots (point lists, RANSAC partials) its
 * other jobs would use, so one frame's candidates run side by side.
 * Point lists are compacted in edge order (ballots), each over
 * PT_HOUGH_GATHER_BLOCKS blocks that count their share of the edges before
 * writing it after the shares before, so the shared RANSAC sample table
 * picks the CPU's points; RANSAC rows are spread over warps
 * (a row's inliers counted by its lanes) and the best (most votes, then the
 * lowest row) reduced; the fits are lib/detect/fit.h's, a sample's on every
 * lane of its warp and a refit's
 * over the first warp (cuda/detect/warp_fit.cuh), built with --fmad=false
 * so they round as on the CPU. Then the choice among candidates
 * (confidence x edge support) and the result. */
#include <math.h>

#include "cuda/core/block_rank.cuh"
#include "cuda/detect/hough_internal.h"
#include "cuda/detect/hough_reject.cuh"
#include "cuda/detect/pupil_score_block.cuh"
#include "cuda/detect/warp_fit.cuh"

#include "lib/detect/fit.h"
#include "lib/detect/hough_choose.h"
#include "lib/detect/hough_dark.h"
#include "lib/detect/hough_refit.h"
#include "lib/detect/hough_seed.h"
#include "lib/detect/pt_result.h"
#include "lib/detect/pupil_score.h"
#include "lib/detect/ransac.h"

#include "lib/detect/confidence.h"

/* a block per candidate: one frame's edges spread over more threads */
#define THREADS 1024
#define WARPS (THREADS / 32)
#define SHARED_POINTS 2048
#define RANSAC_THREADS 128
#define RANSAC_ROWS (RANSAC_THREADS / 32) /* table rows per block, a warp each */
#define MODEL_THREADS 128                 /* ransac_models: rows per block, a thread each */
#define REFINE_PX 2.0
#define REFINE_SHARE 0.1
#define ANNULUS_IN 0.8
#define ANNULUS_OUT 1.25
#define AIM_COS 0.8660254
#define COS45 0.70710678

typedef struct {
    int warp_counts[WARPS];
    int count, found;
    pt_circle circle;
    pt_ellipse ellipse;
    warp_fit_shared fit;      /* warp 0's fits */
    pupil_score_shared score; /* finish_task's pupil score */
} refine_shared;

/* pt_fit_ellipse / pt_fit_circle of pts[idx[0..n)] by warp 0, bit for bit
 * (cuda/detect/warp_fit.cuh): the result to thread 0's *c / *e, its return
 * value to thread 0. All threads call it. */
__device__ static int block_fit(int ellipse, const pt_point *pts, const int *idx, int n,
                                refine_shared *sh, pt_circle *c, pt_ellipse *e)
{
    int fitted = 0;
    if (threadIdx.x < 32)
        fitted = warp_fit(ellipse, pts, idx, n, &sh->fit, c, e);
    return fitted;
}

typedef struct {
    const int32_t *xy;
    const float *ux, *uy;
    const uint8_t *flat; /* on a flat edge: left out of the fits and the support */
    int n, x0, y0;
    double offset;    /* hough_edge_offset */
    const int *rows;  /* the first edge of each roi row (canny.cu's row offsets) */
    int h;            /* roi rows */
} edge_view;

/* Job j's edges as the refinement sees them (max_height: the row offsets'
 * stride less one, as canny.cu laid them out). */
__device__ static edge_view job_edges(const pt_hough_dev *d, const pt_cuda_eye_job *job, int j,
                                      int max_height)
{
    size_t e0 = (size_t)j * d->s.edge_cap;
    edge_view e = {d->exy + e0, d->eux + e0, d->euy + e0, d->eflat + e0, d->edge_count[j],
                   job->x0, job->y0, d->s.edge_offset, d->row_count + (size_t)j * (max_height + 1),
                   job->h};
    return e;
}

/* The edges [*first, *last) whose rows can hold a point within reach of
 * the row cy (full frame) once moved by the edge offset: the list is in
 * raster order, so every other edge lies farther than reach from any
 * point of that row and no test that needs it within reach keeps it, and
 * the kept points keep their order. The whole list when the bounds are not
 * finite. */
__device__ static void edge_range(const edge_view *e, double cy, double reach, int *first,
                                  int *last)
{
    *first = 0;
    *last = e->n;
    double pad = fabs(e->offset) + 1.0;
    double lo = cy - reach - pad - e->y0, hi = cy + reach + pad - e->y0;
    if (!(lo - lo == 0.0) || !(hi - hi == 0.0))
        return;
    if (lo >= e->h || hi < 0.0) {
        *last = 0;
        return;
    }
    if (lo > 0.0)
        *first = min(e->rows[(int)lo], e->n);
    if (hi + 1.0 < e->h)
        *last = min(e->rows[(int)hi + 1], e->n);
    if (*last < *first)
        *last = *first;
}

/* Edge i as the refinement sees it: full frame, moved by e->offset px
 * towards its dark side (omp/detect/hough.c edge_point()). */
__device__ static inline void edge_point(const edge_view *e, int i, double *x, double *y)
{
    *x = (double)((e->xy[i] & 0xffff) + e->x0) + e->offset * e->ux[i];
    *y = (double)((e->xy[i] >> 16) + e->y0) + e->offset * e->uy[i];
}

/* The tile's kept points (every thread of the block calls it, keep for its
 * own) numbered from *at on in thread order (cuda/core/block_rank.cuh);
 * every stride-th number goes to pts[number / stride]. */
__device__ static inline void append_kept(int keep, double x, double y, pt_point *pts,
                                          int stride, int *at, int *warp_counts)
{
    int tile, q = *at + pt_block_rank(keep, warp_counts, &tile);
    if (keep && q % stride == 0) {
        pts[q / stride].x = (float)x;
        pts[q / stride].y = (float)y;
    }
    *at += tile;
}

/* Whether edge i is one of around_peak()'s points of circle c (between
 * r_in and r_out of c, facing it within 45 degrees, dark behind up to
 * dark_limit: lib/detect/hough_dark.h, not on mask when given, not flat);
 * (x, y): the point, full frame. */
__device__ static int annulus_keep(const edge_view *e, int i, const pt_circle *c, double r_in,
                                   double r_out, const pt_image *img, int dark_limit,
                                   const uint8_t *mask, double *x, double *y)
{
    edge_point(e, i, x, y);
    double dx = c->cx - *x, dy = c->cy - *y;
    float d2 = reject_dist2(c->cx, c->cy, *x, *y);
    int xi = e->xy[i] & 0xffff, yi = e->xy[i] >> 16;
    if (reject_ring(d2, r_in, r_out) ||
        (mask && mask[(size_t)(yi + e->y0) * img->stride + (xi + e->x0)]) || e->flat[i] ||
        reject_aim(e->ux[i], e->uy[i], dx, dy, d2, COS45))
        return 0;
    double d = hypot(dx, dy);
    if (d < r_in || d > r_out || e->ux[i] * dx + e->uy[i] * dy < COS45 * d)
        return 0;
    return dark_limit >= 255 ||
           pt_hough_dark_behind(img, *x, *y, e->ux[i], e->uy[i], PT_HOUGH_DARK_REACH * c->r,
                                dark_limit);
}

/* Edges within band of the circle that face its centre, not flat, per px
 * of its circumference, at most 1 (circle_support()). */
__device__ static double support(const edge_view *e, const pt_circle *c, double band,
                                 refine_shared *sh)
{
    int mine = 0, first, last;
    edge_range(e, c->cy, c->r + band, &first, &last);
    for (int i = first + threadIdx.x; i < last; i += THREADS) {
        double x, y;
        edge_point(e, i, &x, &y);
        double dx = c->cx - x, dy = c->cy - y;
        float d2 = reject_dist2(dx, dy, 0.0, 0.0);
        if (reject_ring(d2, c->r - band, c->r + band) || e->flat[i] ||
            reject_aim(e->ux[i], e->uy[i], dx, dy, d2, AIM_COS))
            continue;
        double d = hypot(dx, dy);
        mine += fabs(d - c->r) <= band && e->ux[i] * dx + e->uy[i] * dy >= AIM_COS * d;
    }
    mine = warp_isum(mine);
    if (threadIdx.x == 0)
        sh->count = 0;
    __syncthreads();
    if ((threadIdx.x & 31) == 0)
        atomicAdd(&sh->count, mine);
    __syncthreads();
    double s = sh->count / fmax(2.0 * M_PI * c->r, 1.0);
    return s > 1.0 ? 1.0 : s;
}

__device__ static pt_image frame_image(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                       const pt_cuda_eye_job *job)
{
    pt_cuda_frame_dims dims = b->dims[job->frame];
    pt_image img = {dims.width, dims.height, p->pitch,
                    b->smoothed + (size_t)job->frame * p->plane};
    return img;
}

/* annulus_keep()'s reflection mask (omp/detect/hough.c glint_mask()): the job's frame
 * plane of b->mask with hough_glint_edges=skip when reflection is not off. */
__device__ static const uint8_t *glint_mask(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                            const pt_hough_dev *d, const pt_cuda_eye_job *job)
{
    if (!d->s.skip_glints || p->reflection == PT_REFLECTION_OFF)
        return NULL;
    return b->mask + (size_t)job->frame * p->plane;
}

/* The scratch slot (stage, point list, partials) of job j's candidate in
 * lane `lane` of the ranks refined at once; jobs x lanes <= d->slots, so
 * every slot is below d->slots. */
__device__ static inline int rank_slot(int j, int lane, int jobs)
{
    return lane * jobs + j;
}

/* Thread per job and lane: candidate k0 + lane, the centre and dark limit
 * of its annulus (refine()'s first step; the points: gather_count,
 * gather_write). */
__global__ void refine_start(pt_cuda_params p, pt_cuda_buffers b, pt_hough_dev d, int k0,
                             int jobs)
{
    int j = blockIdx.x, k = k0 + blockIdx.y, slot = rank_slot(j, blockIdx.y, jobs);
    pt_hough_stage *st = &d.stage[slot];
    int active = k < d.ncand[j] && !d.overflow[j];
    st->active = active;
    if (!active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    pt_circle peak = d.cand[(size_t)j * PT_HOUGH_CANDIDATES + k];
    pt_image img = frame_image(&p, &b, &job);
    st->peak = peak;
    st->circle = peak;
    st->limit = pt_hough_dark_limit_circle(&img, &peak, d.s.dark_spread);
}

/* The share of the edges [first, last) of one of PT_HOUGH_GATHER_BLOCKS
 * blocks: [*lo, *hi), in order. */
__device__ static void gather_share(int first, int last, int block, int *lo, int *hi)
{
    long span = last - first;
    *lo = first + (int)(span * block / PT_HOUGH_GATHER_BLOCKS);
    *hi = first + (int)(span * (block + 1) / PT_HOUGH_GATHER_BLOCKS);
}

#define GATHER_THREADS 256

/* The block's share count (each thread's own count mine) to the slot's
 * list of share counts. warp_counts: shared, a count per warp. */
__device__ static void share_count_store(const pt_hough_dev *d, int slot, int mine,
                                         int *warp_counts)
{
    mine = warp_isum(mine);
    if ((threadIdx.x & 31) == 0)
        warp_counts[threadIdx.x >> 5] = mine;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < GATHER_THREADS / 32; w++)
            total += warp_counts[w];
        d->gathered[(size_t)slot * PT_HOUGH_GATHER_BLOCKS + blockIdx.x] = total;
    }
}

/* Where the block's share starts in the slot's list (*at: the counts of
 * the shares before it) and the list's length (*total). */
__device__ static void share_offset(const pt_hough_dev *d, int slot, int *at, int *total)
{
    const int *counts = d->gathered + (size_t)slot * PT_HOUGH_GATHER_BLOCKS;
    *at = 0;
    *total = 0;
    for (int k = 0; k < PT_HOUGH_GATHER_BLOCKS; k++) {
        *at += k < (int)blockIdx.x ? counts[k] : 0;
        *total += counts[k];
    }
}

/* Which points a gather keeps: around_peak()'s annulus points of the
 * slot's circle (annulus_keep), or near_ellipse()'s points within
 * REFINE_PX of its ellipse while its refits go on (near_keep). */
enum { GATHER_ANNULUS, GATHER_NEAR_ELLIPSE };

/* What a gather block of job j's slot reads: its share [lo, hi) of the
 * edges that can hold a kept point, and the test's shape. */
typedef struct {
    int mode;
    edge_view e;
    pt_circle c;
    double r_in, r_out;
    pt_image img;
    const uint8_t *mask;
    int limit;
    pt_ellipse_frame frame;
    int lo, hi;
} gather_job;

/* Whether the slot gathers in this mode (its candidate is active; for
 * GATHER_NEAR_ELLIPSE, its refits go on). */
__device__ static int gathers(const pt_hough_stage *st, int mode)
{
    return st->active && (mode == GATHER_ANNULUS || st->refining);
}

__device__ static __forceinline__ void gather_setup(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                    const pt_hough_dev *d, int j, const pt_hough_stage *st,
                                    int mode, int max_height, gather_job *g)
{
    const pt_cuda_eye_job job = b->jobs[j];
    int first, last;
    g->mode = mode;
    g->e = job_edges(d, &job, j, max_height);
    if (mode == GATHER_ANNULUS) {
        g->c = st->circle;
        g->r_in = ANNULUS_IN * g->c.r;
        g->r_out = ANNULUS_OUT * g->c.r;
        g->img = frame_image(p, b, &job);
        g->mask = glint_mask(p, b, d, &job);
        g->limit = st->limit;
        edge_range(&g->e, g->c.cy, g->r_out, &first, &last);
    } else {
        pt_ellipse_frame_init(&st->ellipse, &g->frame);
        edge_range(&g->e, g->frame.cy, fmax(g->frame.a, g->frame.b) + REFINE_PX, &first, &last);
    }
    gather_share(first, last, blockIdx.x, &g->lo, &g->hi);
}

/* Whether edge i is within band of the ellipse of frame (near_ellipse() of
 * omp/detect/hough.c); (x, y): the point, full frame. The ring of the
 * outline's radii first: the distance to a point of the outline, which lies
 * between b and a from the centre, is at least the gap to that range. */
__device__ static int near_keep(const edge_view *e, int i, const pt_ellipse_frame *frame,
                                double band, double *x, double *y)
{
    edge_point(e, i, x, y);
    if (reject_ring(reject_dist2(frame->cx, frame->cy, *x, *y), frame->b - band,
                    frame->a + band))
        return 0;
    return pt_ellipse_frame_within(frame, *x, *y, band);
}

__device__ static __forceinline__ int gather_keep(const gather_job *g, int i, double *x, double *y)
{
    if (g->mode == GATHER_ANNULUS)
        return annulus_keep(&g->e, i, &g->c, g->r_in, g->r_out, &g->img, g->limit, g->mask, x,
                            y);
    return near_keep(&g->e, i, &g->frame, REFINE_PX, x, y);
}

/* Block per share of the edges, job and lane: how many of its share's
 * edges the gather keeps. A kernel per mode: each keeps only its own
 * test's state (one kernel taking the mode was 8 % slower). */
template <int mode>
__global__ void __launch_bounds__(GATHER_THREADS) gather_count(pt_cuda_params p, pt_cuda_buffers b,
                                                                pt_hough_dev d, int jobs,
                                                                int max_height)
{
    __shared__ int warp_counts[GATHER_THREADS / 32];
    int j = blockIdx.y, slot = rank_slot(j, blockIdx.z, jobs);
    const pt_hough_stage *st = &d.stage[slot];
    if (!gathers(st, mode))
        return;
    gather_job g;
    gather_setup(&p, &b, &d, j, st, mode, max_height, &g);
    int mine = 0;
    for (int i = g.lo + threadIdx.x; i < g.hi; i += GATHER_THREADS) {
        double x, y;
        mine += gather_keep(&g, i, &x, &y);
    }
    share_count_store(&d, slot, mine, warp_counts);
}

/* Block per share of the edges, job and lane: its share's kept points to
 * their places in the slot's list, after the points of the shares before
 * it (gather_count), so the list is in edge order; with thin, only every
 * stride-th of the list (pt_hough_thin_annulus: the ellipse RANSAC's
 * points). The first block sets the slot's point count. */
template <int mode>
__global__ void __launch_bounds__(GATHER_THREADS) gather_write(pt_cuda_params p, pt_cuda_buffers b,
                                                                pt_hough_dev d, int jobs,
                                                                int max_height, int thin)
{
    __shared__ int warp_counts[GATHER_THREADS / 32];
    int j = blockIdx.y, slot = rank_slot(j, blockIdx.z, jobs);
    pt_hough_stage *st = &d.stage[slot];
    if (!gathers(st, mode))
        return;
    int at, total;
    share_offset(&d, slot, &at, &total);
    int stride = 1;
    if (thin && total > PT_HOUGH_ELLIPSE_POINTS)
        stride = (total + PT_HOUGH_ELLIPSE_POINTS - 1) / PT_HOUGH_ELLIPSE_POINTS;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        st->n = (total + stride - 1) / stride;
    gather_job g;
    gather_setup(&p, &b, &d, j, st, mode, max_height, &g);
    pt_point *pts = d.pts + (size_t)slot * d.s.edge_cap;
    for (int t0 = g.lo; t0 < g.hi; t0 += GATHER_THREADS) {
        int i = t0 + threadIdx.x, keep = 0;
        double x = 0.0, y = 0.0;
        if (i < g.hi)
            keep = gather_keep(&g, i, &x, &y);
        append_kept(keep, x, y, pts, stride, &at, warp_counts);
    }
}

/* Thread per row of the sample table, job and lane: the row's model (its
 * sample's fit, when its indices differ and the fit is in range; a = -1
 * where it has none). Apart from the votes, whose warps take a row each:
 * the fits run on distinct rows in every lane instead of the same fit on
 * all 32. */
__global__ void __launch_bounds__(MODEL_THREADS) ransac_models(pt_cuda_params p, pt_cuda_buffers b,
                                                                pt_hough_dev d, int ellipse,
                                                                int jobs)
{
    int j = blockIdx.y, slot = rank_slot(j, blockIdx.z, jobs);
    int s = blockIdx.x * MODEL_THREADS + threadIdx.x;
    const pt_hough_stage *st = &d.stage[slot];
    if (!st->active || s >= p.ransac_rows)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    int n = st->n, ks = p.sample_size, ok = 0;
    pt_ellipse e = {0, 0, 0, 0, 0};
    int sidx[PT_RANSAC_MAX_SAMPLE_SIZE];
    const pt_point *pts = d.pts + (size_t)slot * d.s.edge_cap;
    if (n >= ks && ks >= (ellipse ? 5 : 3) && ks <= PT_RANSAC_MAX_SAMPLE_SIZE &&
        pt_ransac_sample_indices(p.ransac_values, ks, s, n, sidx)) {
        if (ellipse) {
            ok = pt_fit_ellipse(pts, sidx, ks, &e) &&
                 pt_ransac_ellipse_in_range(&e, job.min_r, job.max_r);
        } else {
            pt_circle c;
            ok = pt_fit_circle(pts, sidx, ks, &c) &&
                 pt_ransac_circle_in_range(&c, job.min_r, job.max_r);
            e.cx = c.cx;
            e.cy = c.cy;
            e.a = c.r;
        }
    }
    if (!ok)
        e.a = -1.0; /* a model's radius or axis is never negative */
    d.models[(size_t)slot * d.model_rows + s] = e;
}

/* Block per RANSAC_ROWS rows of the sample table per job and lane, a warp
 * per row (its lanes count the inliers: integer votes, the same in any
 * order): the block's best row (most votes, ties to the lowest) -> partials. */
__global__ void __launch_bounds__(RANSAC_THREADS) ransac_rows(pt_cuda_params p, pt_cuda_buffers b,
                                                              pt_hough_dev d, int ellipse, int jobs)
{
    __shared__ pt_point shared_pts[SHARED_POINTS];
    __shared__ int votes_of[RANSAC_ROWS], row_of[RANSAC_ROWS];
    int j = blockIdx.y, slot = rank_slot(j, blockIdx.z, jobs);
    const pt_hough_stage *st = &d.stage[slot];
    if (!st->active)
        return;
    int n = st->n, ks = p.sample_size;
    int2 *out = d.partials + (size_t)slot * d.partials_per_job + blockIdx.x;
    if (n < ks || ks < (ellipse ? 5 : 3) || ks > PT_RANSAC_MAX_SAMPLE_SIZE) {
        if (threadIdx.x == 0)
            *out = make_int2(-1, -1);
        return;
    }
    /* circle: refine()'s band; ellipse: ransac_inlier */
    double inlier = ellipse ? d.s.ransac_inlier : fmax(REFINE_PX, REFINE_SHARE * st->peak.r);
    const pt_point *pts = d.pts + (size_t)slot * d.s.edge_cap;
    if (n <= SHARED_POINTS) {
        for (int k = threadIdx.x; k < n; k += RANSAC_THREADS)
            shared_pts[k] = pts[k];
        __syncthreads();
        pts = shared_pts;
    }
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int s = blockIdx.x * RANSAC_ROWS + warp, votes = -1, row = -1;
    /* the row and its model (ransac_models) are the same on every lane */
    pt_ellipse e = {0, 0, -1.0, 0, 0};
    if (s < p.ransac_rows)
        e = d.models[(size_t)slot * d.model_rows + s];
    if (e.a >= 0.0) {
        int mine = 0;
        if (ellipse) {
            pt_ellipse_frame f;
            pt_ellipse_frame_init(&e, &f);
            double lo = f.b - inlier, hi = f.a + inlier;
            for (int k = lane; k < n; k += 32)
                mine += !reject_ring(reject_dist2(pts[k].x, pts[k].y, f.cx, f.cy), lo, hi) &&
                        pt_ellipse_frame_within(&f, pts[k].x, pts[k].y, inlier);
        } else {
            pt_circle c = {e.cx, e.cy, e.a};
            vote_circle_f vc = vote_circle_init(c.cx, c.cy, c.r, inlier);
            for (int k = lane; k < n; k += 32) {
                int vote = vote_circle(&vc, pts[k].x, pts[k].y);
                mine += vote >= 0 ? vote : pt_circle_distance(&c, pts[k].x, pts[k].y) <= inlier;
            }
        }
        row = s;
        votes = warp_isum(mine);
    }
    if (lane == 0) {
        votes_of[warp] = votes;
        row_of[warp] = row;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int best_votes = -1, best_row = -1; /* rows ascend with the warps: the first best wins */
        for (int w = 0; w < RANSAC_ROWS; w++)
            if (row_of[w] >= 0 && votes_of[w] > best_votes) {
                best_votes = votes_of[w];
                best_row = row_of[w];
            }
        *out = make_int2(best_votes, best_row);
    }
}

/* Block per job and lane: the best row over the slot's partials, its model
 * refitted on its inliers (in point order); found -> sh. */
__device__ static void ransac_pick(const pt_cuda_params *p, const pt_hough_dev *d, int slot,
                                   int ellipse, double inlier, double min_r, double max_r,
                                   refine_shared *sh)
{
    const pt_hough_stage *st = &d->stage[slot];
    int n = st->n;
    const pt_point *pts = d->pts + (size_t)slot * d->s.edge_cap;
    int *idx = d->idx + (size_t)slot * d->s.edge_cap;
    if (threadIdx.x < 32) {
        /* the best partial (most votes, ties to the first: the lowest row,
         * rows ascend with the partials) by warp 0, lane by lane then by
         * shuffles of (votes, -index), an order-free maximum */
        const int2 *part = d->partials + (size_t)slot * d->partials_per_job;
        int best_votes = -1, best_b = -1;
        for (int b = threadIdx.x; b < d->partials_per_job; b += 32)
            if (part[b].y >= 0 && part[b].x > best_votes) {
                best_votes = part[b].x;
                best_b = b;
            }
        for (int o = 16; o > 0; o >>= 1) {
            int v = __shfl_down_sync(0xffffffffu, best_votes, o);
            int i = __shfl_down_sync(0xffffffffu, best_b, o);
            if (v > best_votes || (v == best_votes && i >= 0 && (best_b < 0 || i < best_b))) {
                best_votes = v;
                best_b = i;
            }
        }
        int best_row = best_b >= 0 ? part[best_b].y : -1;
        if (threadIdx.x == 0) {
            sh->found = best_row >= 0;
            if (best_row >= 0) {
                int sidx[PT_RANSAC_MAX_SAMPLE_SIZE];
                pt_ransac_sample_indices(p->ransac_values, p->sample_size, best_row, n, sidx);
                if (ellipse)
                    pt_fit_ellipse(pts, sidx, p->sample_size, &sh->ellipse);
                else
                    pt_fit_circle(pts, sidx, p->sample_size, &sh->circle);
            }
        }
    }
    __syncthreads();
    if (!sh->found)
        return;
    pt_circle best_c = sh->circle;
    pt_ellipse_frame f;
    if (ellipse)
        pt_ellipse_frame_init(&sh->ellipse, &f);
    int inliers = 0;
    for (int t0 = 0; t0 < n; t0 += THREADS) {
        int k = t0 + threadIdx.x, in = 0;
        if (k < n)
            in = ellipse ? pt_ellipse_frame_within(&f, pts[k].x, pts[k].y, inlier)
                         : pt_circle_distance(&best_c, pts[k].x, pts[k].y) <= inlier;
        int total, at = pt_block_rank(in, sh->warp_counts, &total);
        if (in)
            idx[inliers + at] = k;
        inliers += total;
    }
    __syncthreads();
    pt_ellipse refit_e;
    pt_circle refit_c;
    int fitted = block_fit(ellipse, pts, idx, inliers, sh, &refit_c, &refit_e);
    if (threadIdx.x == 0) {
        if (ellipse) {
            if (fitted && pt_ransac_ellipse_in_range(&refit_e, min_r, max_r))
                sh->ellipse = refit_e;
        } else {
            if (fitted && pt_ransac_circle_in_range(&refit_c, min_r, max_r))
                sh->circle = refit_c;
        }
    }
    __syncthreads();
}

/* The candidate's task: ok, the circle it reports (out), its ellipse (el:
 * the circle as one when circle mode keeps the circle), and for the choice
 * its value (confidence of el x edge support of the RANSAC circle), the
 * darkness inside el and el's pupil score. */
__device__ static void finish_task(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                   const pt_hough_dev *d, int j, int k, const edge_view *e,
                                   int ok, const pt_circle *circle, const pt_circle *out,
                                   const pt_ellipse *el, refine_shared *sh)
{
    double value = 0.0, shape = 0.0;
    int inside = 0;
    if (ok && d->s.gradient) {
        const pt_cuda_eye_job job = b->jobs[j];
        pt_image img = frame_image(p, b, &job);
        double s = support(e, circle, fmax(REFINE_PX, REFINE_SHARE * circle->r), sh);
        double conf = threadIdx.x < 32 ? warp_confidence(&img, el) : 0.0;
        double score = block_pupil_score(&img, el, &sh->score);
        if (threadIdx.x == 0) {
            value = conf * s;
            inside = pt_hough_inside_level(&img, el);
            shape = score;
        }
    }
    if (threadIdx.x == 0) {
        pt_hough_task *t = &d->task[(size_t)j * PT_HOUGH_CANDIDATES + k];
        t->ok = ok;
        t->value = value;
        t->inside = inside;
        t->shape = shape;
        t->circle = *out;
        t->ellipse = *el;
    }
}

/* Block per job after the circle RANSAC: the circle (the peak when RANSAC
 * found nothing); in circle mode with hough_refit=circle the candidate is
 * done, otherwise the centre and dark limit of the annulus around the
 * circle whose points (gather_count, gather_write, thinned to at most
 * PT_HOUGH_ELLIPSE_POINTS) the ellipse RANSAC takes. */
__global__ void __launch_bounds__(THREADS) refine_circle(pt_cuda_params p, pt_cuda_buffers b,
                                                         pt_hough_dev d, int k0, int jobs,
                                                         int max_height)
{
    __shared__ refine_shared sh;
    int j = blockIdx.x, k = k0 + blockIdx.y, slot = rank_slot(j, blockIdx.y, jobs);
    pt_hough_stage *st = &d.stage[slot];
    if (!st->active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    edge_view e = job_edges(&d, &job, j, max_height);
    pt_circle peak = st->peak, circle = peak;
    ransac_pick(&p, &d, slot, 0, fmax(REFINE_PX, REFINE_SHARE * peak.r), job.min_r, job.max_r,
                &sh);
    if (sh.found)
        circle = sh.circle;
    if (!d.s.ellipse && !d.s.refit) {
        pt_ellipse as_ellipse;
        pt_ellipse_from_circle(&circle, &as_ellipse);
        finish_task(&p, &b, &d, j, k, &e, 1, &circle, &circle, &as_ellipse, &sh);
        return;
    }
    if (threadIdx.x == 0) {
        pt_image img = frame_image(&p, &b, &job);
        st->circle = circle;
        st->limit = pt_hough_dark_limit_circle(&img, &circle, d.s.dark_spread);
    }
}

/* Block per job and lane after the ellipse RANSAC: its model, refitted on
 * its inliers, to the slot (ok; refining: the refits below start from it). */
__global__ void __launch_bounds__(THREADS) ellipse_pick(pt_cuda_params p, pt_cuda_buffers b,
                                                        pt_hough_dev d, int jobs)
{
    __shared__ refine_shared sh;
    int j = blockIdx.x, slot = rank_slot(j, blockIdx.y, jobs);
    pt_hough_stage *st = &d.stage[slot];
    if (!st->active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    ransac_pick(&p, &d, slot, 1, d.s.ransac_inlier, job.min_r, job.max_r, &sh);
    if (threadIdx.x == 0) {
        st->ok = sh.found;
        st->refining = sh.found;
        if (sh.found)
            st->ellipse = sh.ellipse;
    }
}

/* Warp per job and lane while the slot's refits go on: the ellipse
 * refitted on the points near it (lib/detect/fit.h, bit for bit:
 * cuda/detect/warp_fit.cuh); the refits end where one fails. */
__global__ void ellipse_refit(pt_hough_dev d, int jobs)
{
    __shared__ warp_fit_shared fit;
    int j = blockIdx.x, slot = rank_slot(j, blockIdx.y, jobs);
    pt_hough_stage *st = &d.stage[slot];
    if (!st->active || !st->refining)
        return;
    pt_ellipse e;
    int fitted = warp_fit(1, d.pts + (size_t)slot * d.s.edge_cap, NULL, st->n, &fit, NULL, &e);
    if (threadIdx.x == 0) {
        st->refining = fitted;
        if (fitted)
            st->ellipse = e;
    }
}

/* Block per job and lane after the refits: circle mode with
 * hough_refit=ellipse keeps its circle unless the ellipse is credible
 * (lib/detect/hough_refit.h), then reports its centre and mean radius;
 * the candidate's value. */
__global__ void __launch_bounds__(THREADS) refine_ellipse(pt_cuda_params p, pt_cuda_buffers b,
                                                          pt_hough_dev d, int k0, int jobs,
                                                          int max_height)
{
    __shared__ refine_shared sh;
    int j = blockIdx.x, k = k0 + blockIdx.y, slot = rank_slot(j, blockIdx.y, jobs);
    const pt_hough_stage *st = &d.stage[slot];
    if (!st->active)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    edge_view e = job_edges(&d, &job, j, max_height);
    pt_circle circle = st->circle;
    pt_ellipse el = {0, 0, 0, 0, 0};
    int ok = st->ok;
    if (ok)
        el = st->ellipse;
    pt_circle out = circle;
    if (d.s.refit) {
        if (ok && pt_hough_refit_credible(&circle, &el))
            out = pt_hough_refit_circle(&el);
        else
            pt_ellipse_from_circle(&circle, &el);
        ok = 1;
    }
    finish_task(&p, &b, &d, j, k, &e, ok, &circle, &out, &el, &sh);
}

/* Job j's chosen candidate among its refined ones, -1 when none. */
__device__ static int choose(const pt_hough_dev *d, int j)
{
    int nc = d->overflow[j] ? 0 : d->ncand[j], best = -1;
    const pt_hough_task *task = d->task + (size_t)j * PT_HOUGH_CANDIDATES;
    if (d->s.gradient) {
        int ok[PT_HOUGH_CANDIDATES], inside[PT_HOUGH_CANDIDATES];
        double value[PT_HOUGH_CANDIDATES], shape[PT_HOUGH_CANDIDATES];
        pt_circle out[PT_HOUGH_CANDIDATES];
        for (int k = 0; k < nc; k++) {
            ok[k] = task[k].ok;
            value[k] = task[k].value;
            shape[k] = task[k].shape;
            inside[k] = task[k].inside;
            out[k] = task[k].circle;
        }
        /* seed candidates that repeat a voting one (omp/detect/hough.c);
         * the dark-edge vote's stay */
        int nvote = d->nvote[j] < nc ? d->nvote[j] : nc;
        int nseed = d->ndark[j] >= 0 && d->ndark[j] < nc ? d->ndark[j] : nc;
        for (int k = nvote; k < nseed; k++)
            if (ok[k] && pt_hough_seed_repeats(&out[k], inside[k], nvote, ok, out, inside))
                ok[k] = 0;
        best = pt_hough_choose_nest(nc, ok, value, inside, shape, out, d->s.nest_keep);
    } else if (nc > 0 && task[0].ok) {
        best = 0;
    }
    return best;
}

/* Warp per job: the chosen candidate (lane 0), its confidence (the warp's
 * samples), the result. */
__global__ void hough_finish(pt_cuda_params p, pt_cuda_buffers b, pt_hough_dev d)
{
    __shared__ int chosen;
    int j = blockIdx.x;
    if (threadIdx.x == 0)
        chosen = choose(&d, j);
    __syncthreads();
    int best = chosen;
    const pt_hough_task *task = d.task + (size_t)j * PT_HOUGH_CANDIDATES;
    pt_cuda_eye_result res;
    memset(&res, 0, sizeof res);
    res.status = PT_DETECT_NOTFOUND;
    if (best >= 0) {
        const pt_cuda_eye_job job = b.jobs[j];
        pt_image img = frame_image(&p, &b, &job);
        if (d.s.ellipse) {
            pt_ellipse el = task[best].ellipse;
            res.ellipse = el;
            res.circle.cx = el.cx;
            res.circle.cy = el.cy;
            res.circle.r = 0.5 * (el.a + el.b);
            res.confidence = warp_confidence(&img, &el);
        } else {
            /* the circle, or the ellipse whose centre and mean radius it took */
            res.circle = task[best].circle;
            res.confidence = warp_confidence(&img, &task[best].ellipse);
        }
        /* gradient voting also keeps a pupil-shaped outline whose border
         * steps are small (omp/detect/hough.c) */
        if (res.confidence >= PT_CONFIDENCE_MIN ||
            (d.s.gradient && task[best].shape >= PT_CONFIDENCE_FILTER)) {
            /* gradient voting reports value (outline confidence x edge
             * support) x the darkness share (omp/detect/hough.c) */
            if (d.s.gradient)
                res.confidence =
                    task[best].value * pt_hough_dark_share(d.seed_level[j], task[best].inside);
            res.has_circle = 1;
            res.has_ellipse = d.s.ellipse;
            res.status = PT_DETECT_OK;
        }
    }
    if (threadIdx.x == 0)
        b.results[j] = res;
}

cudaError_t pt_cuda_hough_refine(const pt_hough_dev *d, const pt_cuda_params *p,
                                 const pt_cuda_buffers *b, int jobs, int height,
                                 cudaStream_t stream)
{
    int ranks = d->s.gradient ? PT_HOUGH_CANDIDATES : 1;
    /* as many ranks at once as the chunk's scratch slots hold, in groups of
     * equal size (the same launches for every group) */
    int fit = d->slots / jobs, lanes = fit < 1 ? 1 : fit > ranks ? ranks : fit;
    int groups = (ranks + lanes - 1) / lanes;
    lanes = (ranks + groups - 1) / groups;
    dim3 blocks(jobs, lanes), rows_grid(d->partials_per_job, jobs, lanes);
    dim3 shares(PT_HOUGH_GATHER_BLOCKS, jobs, lanes);
    dim3 models_grid((p->ransac_rows + MODEL_THREADS - 1) / MODEL_THREADS, jobs, lanes);
    for (int k0 = 0; k0 < ranks; k0 += lanes) {
        refine_start<<<blocks, 1, 0, stream>>>(*p, *b, *d, k0, jobs);
        gather_count<GATHER_ANNULUS><<<shares, GATHER_THREADS, 0, stream>>>(*p, *b, *d, jobs,
                                                                            height);
        gather_write<GATHER_ANNULUS><<<shares, GATHER_THREADS, 0, stream>>>(*p, *b, *d, jobs,
                                                                            height, 0);
        ransac_models<<<models_grid, MODEL_THREADS, 0, stream>>>(*p, *b, *d, 0, jobs);
        ransac_rows<<<rows_grid, RANSAC_THREADS, 0, stream>>>(*p, *b, *d, 0, jobs);
        refine_circle<<<blocks, THREADS, 0, stream>>>(*p, *b, *d, k0, jobs, height);
        if (d->s.ellipse || d->s.refit) {
            gather_count<GATHER_ANNULUS><<<shares, GATHER_THREADS, 0, stream>>>(*p, *b, *d, jobs,
                                                                                height);
            gather_write<GATHER_ANNULUS><<<shares, GATHER_THREADS, 0, stream>>>(*p, *b, *d, jobs,
                                                                                height, 1);
            ransac_models<<<models_grid, MODEL_THREADS, 0, stream>>>(*p, *b, *d, 1, jobs);
            ransac_rows<<<rows_grid, RANSAC_THREADS, 0, stream>>>(*p, *b, *d, 1, jobs);
            ellipse_pick<<<blocks, THREADS, 0, stream>>>(*p, *b, *d, jobs);
            for (int pass = 0; pass < 2; pass++) {
                gather_count<GATHER_NEAR_ELLIPSE><<<shares, GATHER_THREADS, 0, stream>>>(
                    *p, *b, *d, jobs, height);
                gather_write<GATHER_NEAR_ELLIPSE><<<shares, GATHER_THREADS, 0, stream>>>(
                    *p, *b, *d, jobs, height, 0);
                ellipse_refit<<<blocks, 32, 0, stream>>>(*d, jobs);
            }
            refine_ellipse<<<blocks, THREADS, 0, stream>>>(*p, *b, *d, k0, jobs, height);
        }
    }
    hough_finish<<<jobs, 32, 0, stream>>>(*p, *b, *d);
    return cudaGetLastError();
}

int pt_cuda_hough_ransac_blocks(int rows)
{
    int blocks = (rows + RANSAC_ROWS - 1) / RANSAC_ROWS;
    return blocks < 1 ? 1 : blocks;
}
