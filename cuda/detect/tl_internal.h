/* The CUDA threshold-and-labeling detector (-a tl -b cuda), shared by its
 * files: the work is a list of tasks, each one (job, threshold): first the
 * thresholds of every job, in the order of cuda/detect/tl_tasks.h (every
 * job's first tl_count, then the second dark level's of the jobs that try
 * it, listed by tl_second.cu), then, with tl_refine, one refit per job
 * (task = jobs * thresholds + job) at the grey level the choice step found.
 * Each task's fit lies in d.fits at job * thresholds + its threshold slot
 * (refits: at the task's number). Tasks run in batches over a fixed number
 * of slots, each slot with its own label image, point list and counters:
 *
 *   tl_label.cu   8-connected labeling: union-find inside 32x32 tiles in
 *                 shared memory, union across tile borders, flattening with
 *                 blob sizes (warp-aggregated atomics) and the list of roots
 *   tl_border.cu  the biggest plausible blob, its border pixels in raster
 *                 order (per-row counts, a scan, an ordered scatter), less
 *                 those on flat edges (tl_flat)
 *   tl_fit.cu     RANSAC over the shared sample table (thread per row, the
 *                 points split over blocks, votes summed by atomics), the
 *                 best row, refit on the inliers, votes, quality
 *   tl_second.cu  the jobs whose second dark level is tried, and whether
 *                 each round of the other tasks runs (tl.cu: CUDA graph
 *                 conditional nodes)
 *   tl_choose.cu  the best threshold per job, the mid-level refit's
 *                 threshold, the fit that stands (winner or refit), and the
 *                 result
 *
 * In circle mode with tl_shape=auto, one more task per job (task = jobs *
 * thresholds + jobs + job) fits an ellipse to the border of the fit that
 * stands, at its threshold, with the narrow band, and counts that border's
 * pixels near the circle (lib/detect/tl_shape.h).
 *
 * Everything mirrors omp/detect/tl.c (the reference) step for step. */
#ifndef PT_CUDA_TL_INTERNAL_H
#define PT_CUDA_TL_INTERNAL_H

#include "cuda/detect/cuda_internal.h"
#include "cuda/detect/tl_tasks.h"
#include "cuda/detect/warp_fit.cuh"
#include "lib/detect/eye_levels.h"
#include "lib/detect/tl_small.h"
#include "lib/detect/tl_shape.h"
#include "lib/params/params_tl.h"

/* What one task found. */
typedef struct {
    int found;        /* RANSAC gave a model */
    int votes;        /* inliers of the final model */
    int n;            /* border points of the picked blob */
    int flat;         /* tl_flat: how many of them lie on flat edges */
    int root;         /* picked blob: raster index (in the roi) of its first pixel; -1: none */
    int size;         /* its pixels */
    int last_row;     /* its last row in the roi */
    double blob_r;    /* its equivalent radius sqrt(size / pi) */
    double band;      /* RANSAC inlier distance */
    double quality;   /* votes / n * confidence; 0 when not found */
    int circle_votes; /* shape-check task: border points within the band of the standing circle */
    pt_circle circle;
    pt_ellipse ellipse;
} tl_fit;

/* The outline a job reports, before its confidence (tl_finish, tl_cross). */
typedef struct {
    int found;        /* a fit stands */
    pt_circle circle; /* circle mode's */
    pt_ellipse ellipse; /* --ellipse's */
} tl_outline;

/* Device work buffers and settings of one detector instance (by value into launches). */
typedef struct {
    /* settings */
    int thresholds, tmin, tstep; /* thresholds: slots per job (lib/detect/tl_small.h) */
    int count;        /* range=eye: thresholds per dark level (tl_count) */
    int range;        /* PT_TL_RANGE_*: per-job thresholds from levels, or tmin + i tstep */
    int spacing;      /* tl_spacing (range=eye): PT_TL_SPACING_* */
    int score, refine, ellipse;
    int shape;        /* PT_TL_SHAPE_*: circle mode's shape check */
    double shape_confidence; /* tl_shape_confidence (lib/detect/tl_shape.h) */
    int pupil_prior;  /* tl_pupil_prior: the credible fit the winner encloses wins */
    int flat;         /* tl_flat: border pixels on flat edges leave (lib/detect/tl_flat.h) */
    int crossings;    /* tl_crossings: the outline on its border's mid-level crossings
                         (lib/detect/border_crossings.h) */
    double small_share; /* tl_small_share: the fine grid's small dark region (eye_levels.h) */
    double small_also;  /* tl_small_also: both dark levels tried (lib/detect/tl_small.h) */
    double level_share; /* tl_level_share: the refit threshold (lib/detect/tl_level.h) */
    double level_gap;   /* tl_level_gap: the surround's ring at least this far out */
    double circle_band;
    /* capacities */
    size_t cap;       /* pixels per slot: label image, point list */
    size_t root_cap;  /* roots per slot */
    int rows_cap;     /* rows per slot */
    int nblocks;      /* RANSAC row blocks per task (256 rows each) */
    /* per slot */
    int32_t *labels;     /* cap: labels; after the border, the inlier list */
    pt_point *points;    /* cap: border points; before, per root: blob size (uint32, top
                            bit: touches the roi border) at [root], last row at [cap + root] */
    int32_t *roots;      /* root_cap: roots of the label image */
    int32_t *root_count; /* 1 */
    int32_t *row_offsets; /* rows_cap: border pixels per row, then their exclusive scan */
    int32_t *votes;      /* nblocks * 256: votes per RANSAC row (-1: no model) */
    pt_ellipse *models;  /* nblocks * 256: each RANSAC row's model (a circle's r in a;
                            a = -1: none) */
    /* per task / job */
    tl_fit *fits;        /* max_jobs * (thresholds + 2) */
    int *winner;         /* max_jobs: index of the winning threshold, -1: none */
    int *refine_t;       /* max_jobs: refit threshold, -1: no refit */
    int *settled;        /* max_jobs: index in fits of the fit that stands, -1: none */
    int *check_t;        /* max_jobs: shape-check threshold, -1: no check */
    tl_outline *outline; /* max_jobs: the outline reported (tl_finish, tl_cross, tl_report) */
    int4 *levels;        /* max_jobs: (coarse dark, dark, surround, second dark level or -1)
                            grey levels (range=eye) */
    int *second;         /* max_jobs: the jobs whose slots past count are tried, in order */
    int *seconds;        /* 1: their number */
    /* circle mode's shape check (tl_shape=auto; else NULL): the border points
     * of each fit that may stand, up to TL_KEPT_POINTS of them, so that the
     * check fits the standing fit's border without labelling its threshold
     * again */
    pt_point *kept;      /* max_jobs * (thresholds + 1) * TL_KEPT_POINTS */
    int *kept_n;         /* max_jobs * (thresholds + 1): points kept, -1: none */
    int *check_from;     /* max_jobs: the fit whose kept points the check takes, -1: none */
} tl_dev;

#define TL_KEPT_POINTS 4096

/* Rounds of other slots' tasks that run only where they hold one
 * (pt_tl_round_runs), in a CUDA graph: the handles
 * (cudaGraphConditionalHandle) of the conditional nodes of up to TL_GATES
 * rounds, those starting at tasks at + k batch (k < count). */
#define TL_GATES 64
typedef struct {
    int count, at, batch;
    unsigned long long handle[TL_GATES];
} tl_gates;

#ifdef __CUDACC__
/* Threshold i of job j, as omp/detect/tl.c's eye_thresholds (-1: a slot of
 * the second dark level not tried, lib/detect/tl_small.h). */
static __device__ __forceinline__ int tl_threshold(const tl_dev &d, int j, int i)
{
    if (d.range == PT_TL_RANGE_EYE)
        return pt_tl_small_threshold(d.levels[j].x, d.levels[j].y, d.levels[j].w,
                                     d.levels[j].z, i, d.count, d.tmin, d.tstep, d.spacing + 1);
    return d.tmin + i * d.tstep;
}

/* What a task does: its job, its threshold (< 0: nothing to do) and the
 * index of its fit in d.fits (-1: none). */
typedef struct {
    int job, t, fit;
} tl_task;

static __device__ __forceinline__ tl_task tl_task_at(const tl_dev &d, int jobs, int task)
{
    tl_task k;
    int refits = jobs * d.thresholds; /* the first refit task */
    if (task < refits) {
        int slot, seconds = task < jobs * d.count ? 0 : *d.seconds;
        k.job = pt_tl_task_slot(task, jobs, d.count, d.thresholds, d.second, seconds, &slot);
        k.t = slot < 0 ? -1 : tl_threshold(d, k.job, slot);
        k.fit = slot < 0 ? -1 : k.job * d.thresholds + slot;
        return k;
    }
    k.fit = task;
    k.job = task - refits;
    if (k.job < jobs) {
        k.t = d.refine_t[k.job];
        return k;
    }
    k.job -= jobs; /* circle mode's shape check */
    k.t = d.check_t[k.job];
    /* with the standing fit's points kept, nothing to label (tl_task_fit_at) */
    if (d.check_from && d.check_from[k.job] >= 0)
        k.t = -1;
    return k;
}

/* A task as its RANSAC and choice see it: tl_task_at's, but a shape check
 * on kept points is there to fit. */
static __device__ __forceinline__ tl_task tl_task_fit_at(const tl_dev &d, int jobs, int task)
{
    tl_task k = tl_task_at(d, jobs, task);
    if (k.t < 0 && task >= jobs * d.thresholds + jobs)
        k.t = d.check_t[k.job];
    return k;
}

/* The border points a task's RANSAC and choice take: its slot's, or the
 * standing fit's kept ones for a shape check that uses them. */
static __device__ __forceinline__ const pt_point *tl_task_points(const tl_dev &d, int jobs,
                                                                 int task, int slot)
{
    int refits = jobs * d.thresholds + jobs;
    if (d.check_from && task >= refits && d.check_from[task - refits] >= 0)
        return d.kept + (size_t)d.check_from[task - refits] * TL_KEPT_POINTS;
    return d.points + slot * d.cap;
}

/* The step between the n border points a task's RANSAC samples and votes
 * with: every k-th for circle mode's shape check (lib/detect/tl_shape.h),
 * else every one. */
static __device__ __forceinline__ int tl_task_step(const tl_dev &d, int jobs, int task, int n)
{
    return task >= jobs * d.thresholds + jobs ? pt_tl_ellipse_step(n) : 1;
}

/* Whether a task fits ellipses: ellipse mode, or circle mode's shape check. */
static __device__ __forceinline__ int tl_task_ellipse(const tl_dev &d, int jobs, int task)
{
    return d.ellipse || task >= jobs * d.thresholds + jobs;
}
#endif

/* Launches over tasks [first, first + count), each in slot task - first.
 * width x height: the chunk's frame size (every roi lies inside). */
cudaError_t pt_tl_label(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                        int jobs, int first, int count, int width, int height,
                        cudaStream_t stream);
cudaError_t pt_tl_border(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, int first, int count, int width, int height,
                         cudaStream_t stream);
cudaError_t pt_tl_fit(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                      int jobs, int first, int count, cudaStream_t stream);
/* Per job (tl_range=eye): its dark and surround levels (d->levels). */
cudaError_t pt_tl_levels(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream);
/* After pt_tl_levels, where jobs have slots past count: the jobs that try
 * them (d->second, d->seconds), for the others those slots' fits cleared
 * (not found), and the conditions of the rounds in gates. */
cudaError_t pt_tl_second(const tl_dev *d, int jobs, const tl_gates *gates, cudaStream_t stream);
/* The conditions of further rounds (after pt_tl_second). */
cudaError_t pt_tl_gate(const tl_dev *d, int jobs, const tl_gates *gates, cudaStream_t stream);
/* Per job: the winner over the thresholds and the refit's threshold. */
cudaError_t pt_tl_choose(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream);
/* Per job: the fit that stands (winner or mid-level refit) and, in circle
 * mode with tl_shape=auto, the threshold of its shape check. */
cudaError_t pt_tl_settle(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream);
/* Per job: the outline (the shape check's choice, the border offset, the
 * mid-level crossings), then the result (b->results). */
cudaError_t pt_tl_finish(const pt_cuda_params *p, const pt_cuda_buffers *b, const tl_dev *d,
                         int jobs, cudaStream_t stream);

#endif
