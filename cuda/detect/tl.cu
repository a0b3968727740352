/* The CUDA threshold-and-labeling detector's host side (see tl_internal.h):
 * buffers made once per stream slot, then per chunk, with no host
 * synchronisation: every (job, threshold) task in batches of slots (label,
 * border, RANSAC), the choice per job, the mid-level refits in batches, the
 * fit that stands per job, circle mode's shape checks in batches, the
 * results. The batches past every job's first tl_count thresholds hold the
 * second dark level's tasks of the jobs that try it (cuda/detect/tl_tasks.h):
 * in a CUDA graph each such batch is the body of a conditional node that
 * runs only where the batch holds a task; launched from the host, every
 * batch runs and its kernels end at once for slots without a task. */
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
    int batch;         /* slots */
    cudaStream_t body; /* captures the gated batches' bodies (NULL: none) */
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
    cudaFree(in->d.models);
    cudaFree(in->d.fits);
    cudaFree(in->d.winner);
    cudaFree(in->d.refine_t);
    cudaFree(in->d.settled);
    cudaFree(in->d.check_t);
    cudaFree(in->d.outline);
    cudaFree(in->d.levels);
    cudaFree(in->d.second);
    cudaFree(in->d.seconds);
    cudaFree(in->d.kept);
    cudaFree(in->d.kept_n);
    cudaFree(in->d.check_from);
    if (in->body)
        cudaStreamDestroy(in->body);
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
    d->crossings = tl->crossings;
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
                      (size_t)d->rows_cap * sizeof(int32_t) + (size_t)d->nblocks * TL_RANSAC_THREADS * (sizeof(int32_t) + sizeof(pt_ellipse));
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
    TL_ALLOC(d->models, batch * d->nblocks * TL_RANSAC_THREADS);
    TL_ALLOC(d->fits, jobs * (d->thresholds + 2));
    TL_ALLOC(d->winner, jobs);
    TL_ALLOC(d->refine_t, jobs);
    TL_ALLOC(d->settled, jobs);
    TL_ALLOC(d->check_t, jobs);
    TL_ALLOC(d->outline, jobs);
    TL_ALLOC(d->levels, jobs);
    TL_ALLOC(d->second, jobs);
    TL_ALLOC(d->seconds, 1);
    if (!ellipse && d->shape == PT_TL_SHAPE_AUTO && d->thresholds > 0) {
        size_t fits = jobs * (d->thresholds + 1);
        TL_ALLOC(d->kept, fits * TL_KEPT_POINTS);
        TL_ALLOC(d->kept_n, fits);
        TL_ALLOC(d->check_from, jobs);
    }
#undef TL_ALLOC
    if (st == cudaSuccess)
        st = cudaMemset(d->seconds, 0, sizeof *d->seconds);
#if CUDART_VERSION >= 12040
    if (st == cudaSuccess && d->thresholds > d->count)
        st = cudaStreamCreateWithFlags(&in->body, cudaStreamNonBlocking);
#endif
    if (st != cudaSuccess) {
        tl_destroy(in);
        return st;
    }
    *instance = in;
    return cudaSuccess;
}

/* The batch of tasks [at, at + count). */
static cudaError_t run_batch(const tl_instance *in, const pt_cuda_params *p,
                             const pt_cuda_buffers *b, int jobs, int at, int count, int width,
                             int height, cudaStream_t stream)
{
    cudaError_t st = pt_tl_label(p, b, &in->d, jobs, at, count, width, height, stream);
    if (st == cudaSuccess)
        st = pt_tl_border(p, b, &in->d, jobs, at, count, width, height, stream);
    if (st == cudaSuccess)
        st = pt_tl_fit(p, b, &in->d, jobs, at, count, stream);
    return st;
}

/* Tasks [first, end) in batches of the instance's slots. */
static cudaError_t run_tasks(const tl_instance *in, const pt_cuda_params *p,
                             const pt_cuda_buffers *b, int jobs, int first, int end, int width,
                             int height, cudaStream_t stream)
{
    for (int at = first; at < end; at += in->batch) {
        int count = end - at < in->batch ? end - at : in->batch;
        cudaError_t st = run_batch(in, p, b, jobs, at, count, width, height, stream);
        if (st != cudaSuccess)
            return st;
    }
    return cudaSuccess;
}

#if CUDART_VERSION >= 12040
/* In the graph being captured on stream: a conditional node (handle h)
 * whose body, captured on in->body, is the batch [at, at + count). */
static cudaError_t gated_batch(const tl_instance *in, const pt_cuda_params *p,
                               const pt_cuda_buffers *b, int jobs, int at, int count, int width,
                               int height, cudaGraphConditionalHandle h, cudaStream_t stream)
{
    cudaStreamCaptureStatus status;
    cudaGraph_t graph = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *edges = NULL;
    size_t ndeps = 0;
    cudaError_t st = cudaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &edges, &ndeps);
    if (st != cudaSuccess)
        return st;
    cudaGraphNodeParams node_params = {cudaGraphNodeTypeConditional};
    node_params.conditional.handle = h;
    node_params.conditional.type = cudaGraphCondTypeIf;
    node_params.conditional.size = 1;
    cudaGraphNode_t node;
    st = cudaGraphAddNode(&node, graph, deps, edges, ndeps, &node_params);
    if (st != cudaSuccess)
        return st;
    st = cudaStreamBeginCaptureToGraph(in->body, node_params.conditional.phGraph_out[0], NULL,
                                       NULL, 0, cudaStreamCaptureModeRelaxed);
    if (st != cudaSuccess)
        return st;
    cudaError_t launched = run_batch(in, p, b, jobs, at, count, width, height, in->body);
    cudaGraph_t body = NULL;
    st = cudaStreamEndCapture(in->body, &body);
    if (launched != cudaSuccess)
        return launched;
    if (st != cudaSuccess)
        return st;
    /* what follows on stream waits for the conditional node */
    return cudaStreamUpdateCaptureDependencies(stream, &node, NULL, 1,
                                               cudaStreamSetCaptureDependencies);
}

/* In *gates, the conditional handles of the rounds from task at to end, up
 * to TL_GATES, made in the graph being captured on stream; count 0 and
 * cudaErrorNotSupported where none can be made (no graph being captured,
 * or no conditional nodes here). */
static cudaError_t make_gates(const tl_instance *in, int at, int end, cudaStream_t stream,
                              tl_gates *gates)
{
    memset(gates, 0, sizeof *gates);
    gates->at = at;
    gates->batch = in->batch;
    cudaStreamCaptureStatus status;
    cudaGraph_t graph = NULL;
    if (!in->body)
        return cudaErrorNotSupported;
    if (cudaStreamGetCaptureInfo(stream, &status, NULL, &graph) != cudaSuccess) {
        cudaGetLastError();
        return cudaErrorNotSupported;
    }
    if (status != cudaStreamCaptureStatusActive)
        return cudaErrorNotSupported;
    for (; gates->count < TL_GATES && at + gates->count * in->batch < end; gates->count++) {
        cudaGraphConditionalHandle h;
        if (cudaGraphConditionalHandleCreate(&h, graph, 0, cudaGraphCondAssignDefault) !=
            cudaSuccess) {
            cudaGetLastError();
            gates->count = 0;
            return cudaErrorNotSupported;
        }
        gates->handle[gates->count] = h;
    }
    return cudaSuccess;
}
#endif

/* Every job's threshold tasks (cuda/detect/tl_tasks.h): the first
 * thresholds' rounds, then those of the other slots, in a graph each
 * where it holds a task, else all of them. */
static cudaError_t run_thresholds(const tl_instance *in, const pt_cuda_params *p,
                                  const pt_cuda_buffers *b, int jobs, int width, int height,
                                  cudaStream_t stream)
{
    const tl_dev *d = &in->d;
    int sure = jobs * d->count, end = jobs * d->thresholds;
    if (sure >= end)
        return run_tasks(in, p, b, jobs, 0, end, width, height, stream);
    tl_gates gates;
    memset(&gates, 0, sizeof gates);
    int gated = 0;
#if CUDART_VERSION >= 12040
    gated = make_gates(in, sure, end, stream, &gates) == cudaSuccess;
#endif
    cudaError_t st = pt_tl_second(d, jobs, &gates, stream);
    if (st == cudaSuccess)
        st = run_tasks(in, p, b, jobs, 0, sure, width, height, stream);
    if (st != cudaSuccess || !gated)
        return st == cudaSuccess ? run_tasks(in, p, b, jobs, sure, end, width, height, stream)
                                 : st;
#if CUDART_VERSION >= 12040
    for (int at = sure;;) {
        for (int k = 0; st == cudaSuccess && k < gates.count; k++, at += in->batch) {
            int count = end - at < in->batch ? end - at : in->batch;
            st = gated_batch(in, p, b, jobs, at, count, width, height, gates.handle[k], stream);
        }
        if (st != cudaSuccess || at >= end)
            return st;
        st = make_gates(in, at, end, stream, &gates);
        if (st == cudaSuccess)
            st = pt_tl_gate(d, jobs, &gates, stream);
    }
#endif
    return st;
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
        st = run_thresholds(in, p, b, jobs, width, height, stream);
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
