/* A call of frames on one device (backend_state.h): cut into chunks, each
 * chunk copied, preprocessed and searched on one stream (graphs replayed per
 * chunk shape), results harvested when the stream's buffers are needed
 * again or the call ends. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "lib/core/row_copy.h"
#include "lib/detect/half_retry.h"
#include "lib/detect/starburst_config.h"
#include "lib/params/params_auto.h"
#include "cuda/core/cuda_check.h"
#include "cuda/detect/backend_state.h"
#include "cuda/detect/chunk_plan.h"
#include "cuda/preprocess/half_frames.h"

static_assert(MAX_CHUNK <= PT_CUDA_GATHER_MAX, "a chunk gathers at most PT_CUDA_GATHER_MAX frames");

static void make_job(const cuda_state *s, int frame_in_chunk, int e, int w, int h,
                     pt_cuda_eye_job *job, int *kernel, int *dilate)
{
    int x0 = s->opt.binocular ? e * (w / 2) : 0;
    int rw = s->opt.binocular ? (e ? w - w / 2 : w / 2) : w;
    pt_auto_params autos;
    pt_resolve_auto(&s->cfg, rw, h, &autos);
    if (e == 0) {
        *kernel = autos.reflection_kernel;
        *dilate = autos.reflection_dilate;
    }
    memset(job, 0, sizeof *job); /* padding too: jobs are compared bytewise */
    job->frame = frame_in_chunk;
    job->x0 = x0;
    job->y0 = 0;
    job->w = rw;
    job->h = h;
    job->min_r = autos.min_radius;
    job->max_r = autos.max_radius;
    job->len1 = pt_auto_ray_length(&s->cfg, autos.max_radius);
    job->len2 = 2 * autos.max_radius + 4;
    job->gap = pt_auto_edge_gap(rw, h);
    job->slot = e;
    job->dark_block = (2 * autos.min_radius) / 3;
    const pt_starburst_params *sb = &s->cfg.starburst;
    if (sb->start_x >= 0 && sb->start_y >= 0) {
        job->start_mode = PT_CUDA_START_FIXED;
        job->start_x = (float)(x0 + sb->start_x);
        job->start_y = (float)(sb->start_y);
    } else {
        job->start_mode = sb->start == PT_START_DARK ? PT_CUDA_START_DARK : PT_CUDA_START_CENTRE;
        job->start_x = job->start_y = 0;
    }
}

static pt_status finish_iterations(cuda_state *s, stream_slot *slot, pt_error *err);
static pt_status launch_call(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, int submitted, int on_device, pt_error *err);

/* Frame f (w x h at full size) of the call of parity p, as kept reduced. */
static pt_image reduced_frame(const cuda_state *s, int p, int f, int w, int h)
{
    pt_image img = {w / 2, h / 2, s->half_pitch, s->halves[p] + (size_t)f * s->half_plane};
    return img;
}

/* look_ahead: the second look at a harvested chunk's wanted frames, from
 * their reduced copies, launched on s->look and left in flight (its
 * results land in look_results at its harvest: track_halves). A chunk of
 * a call waited for at once (an early look) gets an early look too. */
static pt_status look_ahead_chunk(cuda_state *s, const stream_slot *slot, pt_error *err)
{
    int p = (int)(slot->batch & 1);
    /* look_batch is this call's only when its reduced frames are kept too
     * (keep_halves_for) */
    if (!s->look || s->look_batch[p] != slot->batch || (slot->overlays && s->opt.overlay))
        return PT_OK;
    int w = slot->host_dims[0].width, h = slot->host_dims[0].height;
    pt_image heads[MAX_CHUNK];
    pt_image *list[MAX_CHUNK];
    int m = 0;
    for (int i = 0; i < slot->frames; i++) {
        int f = slot->first_frame + i;
        if (!pt_half_retry_frame_wanted(w, h, s->eyes, &slot->results[(size_t)f * s->eyes],
                                        s->look_below))
            continue;
        heads[m] = reduced_frame(s, p, f, w, h);
        list[m] = &heads[m];
        s->look_at[p][f] = slot->first_frame + m;
        m++;
    }
    if (!m)
        return PT_OK;
    int early = slot->iterations < pt_chunk_max_iterations(s->params.max_iterations);
    return launch_call(s->look, list, m, s->look_results[p] + (size_t)slot->first_frame * s->eyes,
                       NULL, !early, 1, err);
}

/* Wait for the chunk in flight on this slot and write its results out. */
static pt_status harvest(cuda_state *s, stream_slot *slot, pt_error *err)
{
    if (!slot->busy)
        return PT_OK;
    slot->busy = 0;
    CUDA_OR_FAIL(err, cudaStreamSynchronize(slot->stream));
    /* fewer than all iterations only after an early look (pt_chunk_iterations) */
    if (slot->iterations < pt_chunk_max_iterations(s->params.max_iterations)) {
        pt_status st = finish_iterations(s, slot, err);
        if (st)
            return st;
    }
    float chunk_ms = 0;
    CUDA_OR_FAIL(err, cudaEventElapsedTime(&chunk_ms, slot->begin, slot->end));
    double ms = slot->frames > 0 ? chunk_ms / slot->frames : 0;
    cudaEvent_t marks[5] = {slot->begin, slot->copied, slot->preprocessed, slot->detected,
                            slot->end};
    for (int k = 0; k < 4; k++) {
        float part = 0;
        CUDA_OR_FAIL(err, cudaEventElapsedTime(&part, marks[k], marks[k + 1]));
        s->stage_ms[k] += part;
    }
    s->stage_frames += slot->frames;
    for (int j = 0; j < slot->jobs; j++) {
        const pt_cuda_eye_result *r = &slot->host_results[j];
        int frame = slot->first_frame + j / s->eyes, e = j % s->eyes;
        pt_result *res = &slot->results[(size_t)frame * s->eyes + e];
        memset(res, 0, sizeof *res);
        res->status = (pt_detect_status)r->status;
        res->eye = s->opt.binocular ? "LR"[e] : 0;
        res->has_circle = r->has_circle;
        res->has_ellipse = r->has_ellipse;
        res->circle = r->circle;
        res->ellipse = r->ellipse;
        res->confidence = r->confidence;
        res->darker_core = r->darker_core;
        res->ms = ms;
        if (slot->overlays && s->opt.overlay && r->npoints > 0) {
            pt_overlay *ov = &slot->overlays[(size_t)frame * s->eyes + e];
            pt_point *pts = (pt_point *)malloc((size_t)r->npoints * sizeof *pts);
            if (pts && cudaMemcpy(pts, slot->dev.points + (size_t)j * s->params.points_per_eye,
                                  (size_t)r->npoints * sizeof *pts,
                                  cudaMemcpyDeviceToHost) == cudaSuccess)
                for (int k = 0; k < r->npoints; k++)
                    pt_overlay_add(ov, pts[k].x, pts[k].y);
            free(pts);
        }
    }
    return look_ahead_chunk(s, slot, err);
}

static int is_pinned(const void *p)
{
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return attr.type == cudaMemoryTypeHost;
}

/* What the stages of one chunk launch (buffers and parameters fixed per
 * slot; these are the shape of its graphs). */
typedef struct {
    const pt_cuda_params *p;
    const pt_cuda_buffers *dev;
    int frames, jobs, width, height, kernel, dilate;
    int from, to;                     /* Starburst: the iterations */
    const pt_cuda_detector *detector; /* tl / hough, or NULL */
    void *instance;                   /* the slot's instance of it */
} chunk_stage;

static cudaError_t enqueue_preprocess(const void *arg, cudaStream_t stream)
{
    const chunk_stage *c = (const chunk_stage *)arg;
    return pt_cuda_preprocess(c->p, c->dev, c->frames, c->width, c->height, c->kernel, c->dilate,
                              stream);
}

static cudaError_t enqueue_starburst(const void *arg, cudaStream_t stream)
{
    const chunk_stage *c = (const chunk_stage *)arg;
    cudaError_t e = pt_cuda_starburst_pipeline(c->p, c->dev, c->jobs, c->from, c->to, stream);
    return e != cudaSuccess ? e : pt_cuda_pupil_score(c->p, c->dev, c->jobs, stream);
}

/* The tl or hough detector's launches (no host synchronisation, so they
 * can be captured in a graph too). */
static cudaError_t enqueue_detector(const void *arg, cudaStream_t stream)
{
    const chunk_stage *c = (const chunk_stage *)arg;
    cudaError_t e = c->detector->run(c->instance, c->p, c->dev, c->jobs, c->width, c->height,
                                     stream);
    return e != cudaSuccess ? e : pt_cuda_pupil_score(c->p, c->dev, c->jobs, stream);
}

/* A stage replayed from the slot's graph for its shape, or, with --cuda-off
 * graphs, launched kernel by kernel from the host. */
static cudaError_t launch_stage(const cuda_state *s, pt_cuda_stage_graph *g, const int *shape,
                                int nshape, pt_cuda_enqueue_fn enqueue, const void *arg,
                                cudaStream_t stream)
{
    if (s->opt.cuda_off & PT_CUDA_OFF_GRAPHS)
        return enqueue(arg, stream);
    return pt_cuda_stage_graph_launch(g, shape, nshape, enqueue, arg, stream);
}

/* --cuda-off mapped: the chunk's results from the device into host_results,
 * on the slot's stream (nothing to do when the kernels write mapped memory). */
static cudaError_t copy_results_back(const stream_slot *slot, int jobs)
{
    if (!slot->results_copied)
        return cudaSuccess;
    return cudaMemcpyAsync(slot->host_results, slot->dev.results, (size_t)jobs * sizeof(pt_cuda_eye_result),
                           cudaMemcpyDeviceToHost, slot->stream);
}

/* Send frames[first, first+count) (all the same size) through one stream;
 * Starburst runs its first `iterations` iterations. on_device: the frames'
 * buf are device pointers (track_halves), gathered by a kernel. */
static pt_status launch_chunk(cuda_state *s, stream_slot *slot, pt_image *const *frames,
                              int first, int count, int iterations, pt_result *results,
                              pt_overlay *overlays, int on_device, pt_error *err)
{
    const pt_cuda_params *p = &s->params;
    int w = frames[first]->width, h = frames[first]->height;
    int kernel = 1, dilate = 1;
    for (int i = 0; i < count; i++) {
        slot->next_dims[i].width = w;
        slot->next_dims[i].height = h;
        for (int e = 0; e < s->eyes; e++)
            make_job(s, i, e, w, h, &slot->next_jobs[i * s->eyes + e], &kernel, &dilate);
    }
    int jobs = count * s->eyes;
    CUDA_OR_FAIL(err, cudaEventRecord(slot->begin, slot->stream));
    /* Copies go in launch order, one chunk after the other: chunks copied
     * side by side on several streams share the link and all arrive late
     * (four 84 MB chunks finish together after ~7 ms), while in order the
     * first chunk's kernels start after its own copy. */
    int index = (int)(slot - s->slots);
    if (s->last_copy >= 0 && s->last_copy != index)
        CUDA_OR_FAIL(err, cudaStreamWaitEvent(slot->stream, s->slots[s->last_copy].copied, 0));
    /* Frames already in pinned memory go straight to the GPU; others are
     * packed into the pinned staging buffer first, in parallel. */
    /* --cuda-off pinned: straight from pageable memory (the driver stages
     * each copy itself and the host waits for it). */
    int pinned = 1, pageable = (s->opt.cuda_off & PT_CUDA_OFF_PINNED) != 0;
    for (int i = 0; i < count && pinned && !pageable && !on_device; i++)
        pinned = is_pinned(frames[first + i]->buf);
    if (on_device) {
        pt_cuda_frame_sources src;
        for (int i = 0; i < count; i++)
            src.frame[i] = frames[first + i]->buf;
        CUDA_OR_FAIL(err, pt_cuda_gather_frames(&src, count, frames[first]->stride, w, h,
                                                slot->dev.raw, p->pitch, p->plane,
                                                slot->stream));
    } else if (!pinned) {
        /* Staging as large as this chunk (bench's pinned frames need none;
         * track's calls of 32 frames use chunks of 8): pinning the largest
         * chunk for every stream took a good part of track's start-up. */
        size_t need = (size_t)count * p->plane;
        if (need > slot->host_frames_bytes) {
            cudaFreeHost(slot->host_frames); /* the stream was harvested: no copy reads it */
            slot->host_frames = NULL;
            slot->host_frames_bytes = 0;
            CUDA_OR_FAIL(err, cudaMallocHost((void **)&slot->host_frames, need));
            slot->host_frames_bytes = need;
        }
        /* Non-temporal stores (lib/core/row_copy.h): the staged frames are
         * read by the copy engine, not by this host's cores. */
#pragma omp parallel for schedule(static)
        for (int i = 0; i < count; i++) {
            const pt_image *f = frames[first + i];
            pt_copy_rows_streaming(slot->host_frames + (size_t)i * p->plane, p->pitch, f->buf,
                                   f->stride, (size_t)w, (size_t)h);
        }
        /* One copy over the staged frames: frame i starts plane bytes after
         * frame i-1 on both sides, so the rows in between (when the frames
         * are smaller than the back end was prepared for) go along. */
        size_t rows = (size_t)(count - 1) * (p->plane / p->pitch) + (size_t)h;
        if (count > 1) /* one run of bytes, as for pinned frames below */
            CUDA_OR_FAIL(err, cudaMemcpyAsync(slot->dev.raw, slot->host_frames,
                                              (rows - 1) * p->pitch + (size_t)w,
                                              cudaMemcpyHostToDevice, slot->stream));
        else
            CUDA_OR_FAIL(err, cudaMemcpy2DAsync(slot->dev.raw, p->pitch, slot->host_frames,
                                                p->pitch, (size_t)w, rows,
                                                cudaMemcpyHostToDevice, slot->stream));
    } else {
        for (int i = 0; i < count; i++) {
            const pt_image *f = frames[first + i];
            uint8_t *dst = slot->dev.raw + (size_t)i * p->plane;
            /* Rows as far apart as on the device go as one run of bytes in a
             * chunk of several frames: H100, 1280x1024, 26.2-26.5k against
             * 25.9-26.0k frames/s at batch 256 and 32.5k against 31.5k at
             * 1024 (four rounds alternated in one call). A single frame keeps
             * the 2D copy: the 1D one made its latency 0.297-0.306 against
             * 0.292-0.293 ms in the same rounds. */
            if (count > 1 && f->stride == p->pitch)
                CUDA_OR_FAIL(err, cudaMemcpyAsync(dst, f->buf, (size_t)(h - 1) * p->pitch + w,
                                                  cudaMemcpyHostToDevice, slot->stream));
            else
                CUDA_OR_FAIL(err, cudaMemcpy2DAsync(dst, p->pitch, f->buf, f->stride, (size_t)w,
                                                    (size_t)h, cudaMemcpyHostToDevice,
                                                    slot->stream));
        }
    }
    /* The frame sizes and jobs go up only when they differ from the slot's
     * last ones (never, from one call of the same frames to the next): each
     * small copy is a few microseconds of a one-frame call. */
    if (count != slot->uploaded_frames || jobs != slot->uploaded_jobs ||
        memcmp(slot->next_dims, slot->host_dims, count * sizeof *slot->host_dims) ||
        memcmp(slot->next_jobs, slot->host_jobs, jobs * sizeof *slot->host_jobs)) {
        memcpy(slot->host_dims, slot->next_dims, count * sizeof *slot->host_dims);
        memcpy(slot->host_jobs, slot->next_jobs, jobs * sizeof *slot->host_jobs);
        if (on_device) { /* no copy that would queue behind other calls' frames */
            CUDA_OR_FAIL(err, pt_cuda_fetch_mapped(slot->dev.dims, slot->mapped_dims,
                                                   count * sizeof(pt_cuda_frame_dims),
                                                   slot->stream));
            CUDA_OR_FAIL(err, pt_cuda_fetch_mapped(slot->dev.jobs, slot->mapped_jobs,
                                                   jobs * sizeof(pt_cuda_eye_job),
                                                   slot->stream));
        } else {
            CUDA_OR_FAIL(err, cudaMemcpyAsync(slot->dev.dims, slot->host_dims,
                                              count * sizeof(pt_cuda_frame_dims),
                                              cudaMemcpyHostToDevice, slot->stream));
            CUDA_OR_FAIL(err, cudaMemcpyAsync(slot->dev.jobs, slot->host_jobs,
                                              jobs * sizeof(pt_cuda_eye_job),
                                              cudaMemcpyHostToDevice, slot->stream));
        }
        slot->uploaded_frames = count;
        slot->uploaded_jobs = jobs;
    }
    CUDA_OR_FAIL(err, cudaEventRecord(slot->copied, slot->stream));
    s->last_copy = index;
    /* keep_halves: the chunk's frames reduced to half size into the call's
     * buffer, from the copy just made (after the copied mark, so the next
     * chunk's copy does not wait for it) */
    uint8_t *halves = s->halves[s->batch & 1];
    if (s->opt.keep_halves && halves && s->halves_batch[s->batch & 1] == s->batch)
        CUDA_OR_FAIL(err, pt_cuda_halve_frames(slot->dev.raw, p->pitch, p->plane, count, w, h,
                                               halves + (size_t)first * s->half_plane,
                                               s->half_pitch, s->half_plane, slot->stream));
    chunk_stage stage = {p,      &slot->dev, count, jobs,        w,
                         h,      kernel,     dilate, 0,          iterations,
                         s->detector, slot->detector};
    const int shape[8] = {count, jobs, w, h, kernel, dilate, 0, iterations};
    CUDA_OR_FAIL(err, launch_stage(s, &slot->graph_pre, shape, 6, enqueue_preprocess, &stage,
                                   slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->preprocessed, slot->stream));
    /* --sequence: Starburst starts from the previous frame's centres, so a
     * frame's detection waits for the previous frame's. */
    if (s->opt.sequence && s->last_detect >= 0 && s->last_detect != index)
        CUDA_OR_FAIL(err,
                     cudaStreamWaitEvent(slot->stream, s->slots[s->last_detect].detected, 0));
    if (s->detector)
        CUDA_OR_FAIL(err, launch_stage(s, &slot->graph_det, shape, 6, enqueue_detector, &stage,
                                       slot->stream));
    else
        CUDA_OR_FAIL(err, launch_stage(s, &slot->graph_sb, shape, 8, enqueue_starburst, &stage,
                                       slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->detected, slot->stream));
    s->last_detect = index;
    CUDA_OR_FAIL(err, copy_results_back(slot, jobs));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->end, slot->stream));
    slot->busy = 1;
    slot->first_frame = first;
    slot->frames = count;
    slot->jobs = jobs;
    slot->iterations = iterations;
    slot->results = results;
    slot->overlays = overlays;
    slot->batch = s->batch;
    return PT_OK;
}

/* After a chunk's early look (slot->iterations below all): when an
 * eye is still iterating, the remaining iterations and the results again,
 * on the slot's stream, and wait for them. The state carries over, so the
 * results are those of one run of every iteration; iterations after all
 * eyes converged find no active eye and change nothing. */
static pt_status finish_iterations(cuda_state *s, stream_slot *slot, pt_error *err)
{
    const pt_cuda_params *p = &s->params;
    int iterating = 0;
    for (int j = 0; j < slot->jobs && !iterating; j++)
        iterating = slot->host_results[j].iterating;
    if (!iterating)
        return PT_OK;
    chunk_stage stage = {p, &slot->dev, slot->frames, slot->jobs, 0, 0, 0, 0,
                         slot->iterations, pt_chunk_max_iterations(p->max_iterations), NULL,
                         NULL};
    const int shape[3] = {slot->jobs, stage.from, stage.to};
    CUDA_OR_FAIL(err, launch_stage(s, &slot->graph_sb_rest, shape, 3, enqueue_starburst, &stage,
                                   slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->detected, slot->stream));
    CUDA_OR_FAIL(err, copy_results_back(slot, slot->jobs));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->end, slot->stream));
    CUDA_OR_FAIL(err, cudaStreamSynchronize(slot->stream));
    return PT_OK;
}

static void frame_error(const cuda_state *s, pt_result *results, int frame, const char *what)
{
    for (int e = 0; e < s->eyes; e++) {
        pt_result *res = &results[(size_t)frame * s->eyes + e];
        memset(res, 0, sizeof *res);
        res->status = PT_DETECT_ERROR;
        res->eye = s->opt.binocular ? "LR"[e] : 0;
        snprintf(res->message, sizeof res->message, "%s", what);
    }
}

/* keep_halves: room for this call's n reduced frames in the buffer of its
 * batch's parity. That buffer last served the call two before, whose
 * chunks are harvested and whose second look is over (pt_backend: the
 * results of a call are the caller's once the next call returns). Where
 * the device or the host has no room for them, the call keeps none:
 * track_halves refuses it and the caller reduces its frames itself. */
static pt_status keep_halves_for(cuda_state *s, int n, const pt_result *results, pt_error *err)
{
    if (!s->opt.keep_halves || s->opt.sequence)
        return PT_OK;
    int p = (int)(s->batch & 1);
    s->halves_of[p] = NULL;
    if (n > s->halves_cap[p]) {
        cudaFree(s->halves[p]);
        s->halves[p] = NULL;
        s->halves_cap[p] = 0;
        if (cudaMalloc((void **)&s->halves[p], (size_t)n * s->half_plane) != cudaSuccess) {
            cudaGetLastError(); /* clears the failure: nothing else is affected */
            s->halves[p] = NULL;
            return PT_OK;
        }
        s->halves_cap[p] = n;
    }
    if (s->look) {
        /* the looks of the call two before are over (track_halves
         * harvested them); none may still write into its results */
        pt_status st = pt_cuda_state_harvest_before(s->look, LONG_MAX, err);
        if (st)
            return st;
        s->look_batch[p] = -1; /* no look started ahead for this call (yet) */
        if (n > s->look_cap[p]) {
            free(s->look_results[p]);
            free(s->look_at[p]);
            s->look_results[p] = (pt_result *)malloc((size_t)n * s->eyes * sizeof(pt_result));
            s->look_at[p] = (int *)malloc((size_t)n * sizeof(int));
            s->look_cap[p] = s->look_results[p] && s->look_at[p] ? n : 0;
        }
        if (s->look_cap[p] >= n) {
            for (int i = 0; i < n; i++)
                s->look_at[p][i] = -1;
            s->look_batch[p] = s->batch;
        }
    }
    s->halves_of[p] = results;
    s->halves_n[p] = n;
    s->halves_batch[p] = s->batch;
    return PT_OK;
}

/* Launch the chunks of one call, on the streams from s->next_stream on;
 * a stream still holding an earlier chunk is harvested first. Returns
 * with the last chunks in flight. */
static pt_status launch_call(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, int submitted, int on_device, pt_error *err)
{
    s->batch++;
    pt_status kept = keep_halves_for(s, n, results, err);
    if (kept)
        return kept;
    const pt_chunk_plan plan = {s->chunk, s->nstreams, s->opt.sequence, s->params.max_iterations,
                                s->detector ? 0 : EARLY_ITERATIONS, submitted};
    if (overlays)
        for (int i = 0; i < n * s->eyes; i++)
            pt_overlay_clear(&overlays[i]);
    int i = 0;
    pt_status st = PT_OK;
    while (i < n && !st) {
        const pt_image *f = frames[i];
        if (!f || !f->buf || f->width < 1 || f->height < 1 || f->width > s->width ||
            f->height > s->height || (s->opt.binocular && f->width < 2)) {
            frame_error(s, results, i, f && f->buf && f->width > 0 && f->height > 0
                                           ? "frame larger than the back end was prepared for"
                                           : "empty or invalid frame");
            i++;
            continue;
        }
        /* A chunk: up to pt_chunk_limit consecutive usable frames of the
         * same size (smaller at the call's ends: cuda/detect/chunk_plan.c). */
        /* Frames on the device have no copy to overlap: as few chunks as
         * possible, so that a second look of up to a chunk is one chain of
         * launches with an early look. */
        int limit = on_device ? s->chunk : pt_chunk_limit(&plan, n, i);
        int count = 1;
        while (count < limit && i + count < n && frames[i + count] &&
               frames[i + count]->buf && frames[i + count]->width == f->width &&
               frames[i + count]->height == f->height)
            count++;
        /* A call of one chunk is waited for at once, so Starburst's results
         * are looked at after EARLY_ITERATIONS iterations and the rest run
         * only when an eye is still iterating (finish_iterations). */
        int iterations = pt_chunk_iterations(&plan, n, i, count);
        stream_slot *slot = &s->slots[s->next_stream];
        s->next_stream = (s->next_stream + 1) % s->nstreams;
        st = harvest(s, slot, err);
        if (!st)
            st = launch_chunk(s, slot, frames, i, count, iterations, results, overlays,
                              on_device, err);
        i += count;
    }
    return st;
}

/* Harvest every stream whose chunk belongs to a call before `batch`
 * (LONG_MAX: every stream); the first failure is returned. The caller has
 * made s->device current (pt_cuda_state_track, pt_cuda_state_submit, cuda_drain). */
pt_status pt_cuda_state_harvest_before(cuda_state *s, long batch, pt_error *err)
{
    pt_status st = PT_OK;
    for (int k = 0; k < s->nstreams; k++)
        if (s->slots[k].batch < batch) {
            pt_status hs = harvest(s, &s->slots[k], err);
            if (!st)
                st = hs;
        }
    return st;
}

/* A call waited for: frames from the host, or (on_device) from device
 * memory. */
static pt_status track_waited(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                              pt_overlay *overlays, int on_device, pt_error *err)
{
    CUDA_OR_FAIL(err, cudaSetDevice(s->device));
    pt_status st = pt_cuda_state_harvest_before(s, LONG_MAX, err); /* a submitted call not drained */
    /* Every call starts on the first stream (the last call harvested them
     * all): a call of one chunk then finds its stream's graphs, buffers and
     * uploaded jobs as it left them, and waits for no other stream's copy. */
    s->next_stream = 0;
    if (!st)
        st = launch_call(s, frames, n, results, overlays, 0, on_device, err);
    pt_status hs = pt_cuda_state_harvest_before(s, LONG_MAX, err);
    return st ? st : hs;
}

pt_status pt_cuda_state_track(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                           pt_overlay *overlays, pt_error *err)
{
    return track_waited(s, frames, n, results, overlays, 0, err);
}

/* A submitted call goes on from the stream after the last one used, so
 * its first copies queue behind the previous call's while that call's last
 * chunks compute; before returning it harvests the previous call's chunks
 * (its own stay in flight). */
pt_status pt_cuda_state_submit(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                            pt_overlay *overlays, pt_error *err)
{
    CUDA_OR_FAIL(err, cudaSetDevice(s->device));
    pt_status st = launch_call(s, frames, n, results, overlays, 1, 0, err);
    pt_status hs = pt_cuda_state_harvest_before(s, s->batch, err);
    return st ? st : hs;
}

pt_status pt_cuda_state_track_halves(cuda_state *half, const cuda_state *full,
                                     const pt_result *of, pt_image *const *frames,
                                     const int *which, int m, pt_result *results,
                                     pt_overlay *overlays, pt_error *err)
{
    int p = -1;
    for (int k = 0; k < 2; k++)
        if (full->halves[k] && full->halves_of[k] == of &&
            (p < 0 || full->halves_batch[k] > full->halves_batch[p]))
            p = k;
    for (int k = 0; k < m && p >= 0; k++) {
        const pt_image *f =
            which[k] >= 0 && which[k] < full->halves_n[p] ? frames[which[k]] : NULL;
        if (!f || !f->buf || f->width > full->width || f->height > full->height)
            p = -1;
    }
    if (p < 0)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "the reduced frames of that call are not kept");
    /* looked at ahead (look_ahead_chunk): the results, once harvested */
    int ahead = full->look == half && !overlays && full->look_batch[p] == full->halves_batch[p];
    for (int k = 0; k < m && ahead; k++)
        ahead = full->look_at[p][which[k]] >= 0;
    if (ahead) {
        if (cudaSetDevice(half->device) != cudaSuccess)
            return pt_error_set(err, PT_ERR_INTERNAL, "-b cuda", "cannot select device %d",
                                half->device);
        pt_status st = pt_cuda_state_harvest_before(half, LONG_MAX, err);
        for (int k = 0; k < m && !st; k++)
            memcpy(results + (size_t)k * full->eyes,
                   full->look_results[p] + (size_t)full->look_at[p][which[k]] * full->eyes,
                   (size_t)full->eyes * sizeof *results);
        return st;
    }
    pt_image *heads = (pt_image *)malloc((size_t)m * sizeof *heads);
    pt_image **list = (pt_image **)malloc((size_t)m * sizeof *list);
    if (!heads || !list) {
        free(heads);
        free(list);
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for half_retry");
    }
    for (int k = 0; k < m; k++) {
        heads[k] = reduced_frame(full, p, which[k], frames[which[k]]->width,
                                 frames[which[k]]->height);
        list[k] = &heads[k];
    }
    pt_status st = track_waited(half, list, m, results, overlays, 1, err);
    free(heads);
    free(list);
    return st;
}
