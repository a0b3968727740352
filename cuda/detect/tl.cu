/* The CUDA threshold-and-labeling detector's host side (see tl_internal.h):
 * buffers made once per stream slot, then per chunk, with no host
 * synchronisation: every (job, threshold) task in batches of slots (label,
 * border, RANSAC), the choice per job, the mid-level refits in batches, the
 * fit that stands per job, circle mode's shape checks in batches, the
 * results. */
#include <stdlib.h>
#include <string.h>

#include "cuda/detect/tl_internal.h"

/* Device memory of one instance's slots in MB, at most (at least one slot). */
#ifndef TL_SLOT_MB
#define TL_SLOT_MB 768
#endif
#define TL_SLOT_BYTES ((size_t)TL_SLOT_MB << 20)
#define TL_RANSAC_THREADS 256 /* rows per RANSAC block (tl_fit.cu) */

typedef struct {
    tl_dev d;
    int batch; /* slots */
} tl_instance;

static void tl_destroy(void *instance)
{
    tl_instance *in = (tl_instance *)instance;
    if (!in)
        return;
    cudaFree(in->d.labels);
    cudaFree(in->d.points);
    cudaFree(in->d.roots);
    cudaFree(in->d.root_count);
    cudaFree(in->d.row_offsets);
    cudaFree(in->d.votes);
    cudaFree(in->d.fits);
    cudaFree(in->d.winner);
    cudaFree(in->d.refine_t);
    cudaFree(in->d.settled);
    cudaFree(in->d.check_t);
    cudaFree(in->d.levels);
    free(in);
}

static cudaError_t tl_create(const pt_config *cfg, int ellipse, const pt_cuda_params *p,
                             int max_jobs, int width, int height, void **instance)
{
    *instance = NULL;
    tl_instance *in = (tl_instance *)calloc(1, sizeof *in);
    if (!in)
        return cudaErrorMemoryAllocation;
    tl_dev *d = &in->d;
    const pt_tl_params *tl = &cfg->tl;
    d->tmin = tl->threshold_min;
    d->tstep = tl->threshold_step > 0 ? tl->threshold_step : 1;
    d->range = tl->range;
    d->spacing = tl->spacing;
    d->count = tl->range == PT_TL_RANGE_EYE ? (tl->count > 0 ? tl->count : 1)
               : tl->threshold_step <= 0 || tl->threshold_max < tl->threshold_min
                   ? 0
                   : (tl->threshold_max - tl->threshold_min) / tl->threshold_step + 1;
    /* tl_small_also may add a second tl_count (lib/detect/tl_small.h) */
    d->thresholds = tl->range == PT_TL_RANGE_EYE
                        ? pt_tl_small_slots(d->count, tl->small_share, tl->small_also)
                        : d->count;
    d->score = tl->score;
    d->refine = tl->refine;
    d->ellipse = ellipse;
    d->shape = tl->shape;
    d->shape_confidence = tl->shape_confidence;
    d->pupil_prior = tl->pupil_prior;
    d->flat = tl->flat;
    d->small_share = tl->small_share;
    d->small_also = tl->small_also;
    d->level_share = tl->level_share;
    d->level_gap = tl->level_gap;
    d->circle_band = tl->circle_band;
    if (width < 1)
        width = 1;
    if (height < 1)
        height = 1;
    d->cap = (size_t)width * height;
    /* at most one blob per 2x2 block: two would be 8-adjacent */
    d->root_cap = (size_t)((width + 1) / 2) * ((height + 1) / 2) + 1;
    d->rows_cap = height;
    d->nblocks = (p->ransac_rows + TL_RANSAC_THREADS - 1) / TL_RANSAC_THREADS;
    if (d->nblocks < 1)
        d->nblocks = 1;
    size_t per_slot = d->cap * (sizeof(int32_t) + sizeof(pt_point)) +
                      d->root_cap * sizeof(int32_t) + sizeof(int32_t) +
                      (size_t)d->rows_cap * sizeof(int32_t) + (size_t)d->nblocks * TL_RANSAC_THREADS * sizeof(int32_t);
    size_t tasks = (size_t)max_jobs * (d->thresholds > 1 ? d->thresholds : 1);
    size_t batch = TL_SLOT_BYTES / per_slot;
    if (batch > tasks)
        batch = tasks;
    if (batch > 65535) /* grid z */
        batch = 65535;
    if (batch < 1)
        batch = 1;
    in->batch = (int)batch;
    size_t jobs = (size_t)(max_jobs > 0 ? max_jobs : 1);
    cudaError_t st = cudaSuccess;
#define TL_ALLOC(ptr, count)                                                                 \
    if (st == cudaSuccess)                                                                   \
    st = cudaMalloc((void **)&(ptr), (count) * sizeof *(ptr))
    TL_ALLOC(d->labels, batch * d->cap);
    TL_ALLOC(d->points, batch * d->cap);
    TL_ALLOC(d->roots, batch * d->root_cap);
    TL_ALLOC(d->root_count, batch);
    TL_ALLOC(d->row_offsets, batch * d->rows_cap);
    TL_ALLOC(d->votes, batch * d->nblocks * TL_RANSAC_THREADS);
    TL_ALLOC(d->fits, jobs * (d->thresholds + 2));
    TL_ALLOC(d->winner, jobs);
    TL_ALLOC(d->refine_t, jobs);
    TL_ALLOC(d->settled, jobs);
    TL_ALLOC(d->check_t, jobs);
    TL_ALLOC(d->levels, jobs);
#undef TL_ALLOC
    if (st != cudaSuccess) {
        tl_destroy(in);
        return st;
    }
    *instance = in;
    return cudaSuccess;
}

/* Tasks [first, end) in batches of the instance's slots. */
static cudaError_t run_tasks(const tl_instance *in, const pt_cuda_params *p,
                             const pt_cuda_buffers *b, int jobs, int first, int end, int width,
                             int height, cudaStream_t stream)
{
    for (int at = first; at < end; at += in->batch) {
        int count = end - at < in->batch ? end - at : in->batch;
        cudaError_t st = pt_tl_label(p, b, &in->d, jobs, at, count, width, height, stream);
        if (st == cudaSuccess)
            st = pt_tl_border(p, b, &in->d, jobs, at, count, width, height, stream);
        if (st == cudaSuccess)
            st = pt_tl_fit(p, b, &in->d, jobs, at, count, stream);
        if (st != cudaSuccess)
            return st;
    }
    return cudaSuccess;
}

static cudaError_t tl_run(void *instance, const pt_cuda_params *p, const pt_cuda_buffers *b,
                          int jobs, int width, int height, cudaStream_t stream)
{
    const tl_instance *in = (const tl_instance *)instance;
    if (jobs <= 0)
        return cudaSuccess;
    int main_tasks = jobs * in->d.thresholds;
    cudaError_t st = in->d.range == PT_TL_RANGE_EYE ? pt_tl_levels(p, b, &in->d, jobs, stream)
                                                     : cudaSuccess;
    if (st == cudaSuccess)
        st = run_tasks(in, p, b, jobs, 0, main_tasks, width, height, stream);
    if (st == cudaSuccess)
        st = pt_tl_choose(p, b, &in->d, jobs, stream);
    if (st == cudaSuccess && in->d.refine && in->d.thresholds > 0)
        st = run_tasks(in, p, b, jobs, main_tasks, main_tasks + jobs, width, height, stream);
    if (st == cudaSuccess)
        st = pt_tl_settle(p, b, &in->d, jobs, stream);
    /* circle mode's shape check (lib/detect/tl_shape.h), one task per job */
    if (st == cudaSuccess && !in->d.ellipse && in->d.shape == PT_TL_SHAPE_AUTO &&
        in->d.thresholds > 0)
        st = run_tasks(in, p, b, jobs, main_tasks + jobs, main_tasks + 2 * jobs, width, height,
                       stream);
    if (st == cudaSuccess)
        st = pt_tl_finish(p, b, &in->d, jobs, stream);
    return st;
}

extern const pt_cuda_detector pt_cuda_detector_tl = {"tl", tl_create, tl_run, tl_destroy};
