/* The CUDA back end: frames go to the GPU in chunks, each chunk on one of
 * several streams, so the copy of one chunk overlaps the kernels of others;
 * buffers are allocated once in create(); host memory for copies is pinned;
 * each chunk is preprocessed by one launch per stage (all its frames) and
 * searched by the Starburst pipeline (grid-wide launches per stage; for
 * --sequence, one block per frame and eye, frame after frame); preprocessing
 * and the pipeline are replayed from CUDA graphs kept per stream and chunk
 * shape (cuda/detect/stage_graph.cu); the host waits for a stream only when it
 * needs that stream's buffers again. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "lib/params/params_auto.h"
#include "lib/detect/pt_backend.h"
#include "lib/detect/ransac.h"
#include "lib/detect/starburst_config.h"
#include "cuda/detect/chunk_plan.h"
#include "cuda/core/cuda_check.h"
#include "cuda/detect/cuda_internal.h"
#include "cuda/core/pt_cuda.h"

#define DEFAULT_STREAMS 4
#define SEQUENCE_CHUNK 16       /* --sequence: frames per chunk, one kernel per frame */
#define MAX_CHUNK 64            /* frames per chunk of the throughput pipeline */
#define CHUNK_BYTES (96u << 20) /* at most this much of each image plane per stream */
/* Starburst iterations of a one-chunk call before its results are looked
 * at; the rest follow only for eyes still iterating. Most eyes converge
 * within three (synth 1280 x 1024 frames, OpenMP back end: 59 of 64 eyes,
 * 56 within two), and the launches after that, which find no active eye,
 * cost ~6.5 us per iteration on the H100; an eye that goes on costs one
 * more host round trip. Two or four gave the same latency (BENCHMARKS.md);
 * graph conditional nodes and programmatic dependent launch did not remove
 * the idle launches' cost. */
#define EARLY_ITERATIONS 3

/* Fail with a pt_error that names the call (internal failures: exit 1). */
#define CUDA_OR_FAIL(err, call)                                                          \
    do {                                                                                 \
        cudaError_t st_ = (call);                                                        \
        if (st_ != cudaSuccess)                                                          \
            return pt_error_set((err), PT_ERR_INTERNAL, "-b cuda", "%s: %s (%s:%d)", #call, \
                                cudaGetErrorString(st_), __FILE__, __LINE__);            \
    } while (0)

typedef struct {
    cudaStream_t stream;
    cudaEvent_t begin, end, copied, preprocessed, detected;
    pt_cuda_buffers dev;
    uint8_t *host_frames;          /* pinned staging for frames not already pinned, */
    size_t host_frames_bytes;      /* allocated at the first chunk that needs it */
    pt_cuda_frame_dims *host_dims; /* pinned: what dev.dims holds (uploaded_frames) */
    pt_cuda_eye_job *host_jobs;    /* pinned: what dev.jobs holds (uploaded_jobs) */
    int uploaded_frames, uploaded_jobs;
    pt_cuda_frame_dims *next_dims; /* the next chunk's, built here and uploaded when */
    pt_cuda_eye_job *next_jobs;    /* they differ from what the device holds */
    /* pinned and mapped: dev.results points here, so the kernels write the
     * results straight into host memory (no copy back to wait for) */
    pt_cuda_eye_result *host_results;
    void *detector;                   /* the tl/hough detector's instance, or NULL */
    /* preprocessing and the Starburst pipeline of a chunk, as CUDA graphs */
    pt_cuda_stage_graph graph_pre, graph_sb, graph_det; /* graph_det: tl / hough */
    pt_cuda_stage_graph graph_sb_rest; /* the Starburst iterations after an early look */
    /* The chunk in flight on this stream: where its results go, and the
     * Starburst iterations it runs before its results are looked at
     * (fewer than max_iterations: the rest follow if an eye needs them). */
    int busy, first_frame, frames, jobs, iterations;
    pt_result *results;   /* the call's results and overlays (first_frame is */
    pt_overlay *overlays; /* an index into them) */
    long batch;           /* the call it belongs to (cuda_state.batch) */
} stream_slot;

typedef struct {
    int device; /* CUDA device of every buffer and stream below */
    pt_config cfg;
    pt_track_options opt;
    pt_cuda_params params;
    const pt_cuda_detector *detector; /* NULL: Starburst */
    int width, height, eyes, chunk, nstreams, next_stream;
    int last_copy; /* slot of the chunk copied last (-1: none yet) */
    stream_slot *slots;
    uint32_t *ransac_values; /* device copy of the shared table */
    pt_cuda_previous *previous;
    long batch; /* calls so far; each chunk in flight knows its own */
    /* stage times summed over harvested chunks, ms; frames counted */
    double stage_ms[4];
    long stage_frames;
} cuda_state;

/* Integer Gaussian weights summing to 32768: the same as omp/preprocess/smooth.c. */
void pt_cuda_gaussian_weights(int size, double sigma, uint32_t *w)
{
    const int total_weight = 32768;
    int r = size / 2;
    double g[256], total = 0;
    for (int i = 0; i < size; i++) {
        double d = i - r;
        g[i] = exp(-d * d / (2 * sigma * sigma));
        total += g[i];
    }
    int sum = 0;
    for (int i = 0; i < size; i++) {
        w[i] = (uint32_t)lround((double)total_weight * g[i] / total);
        sum += (int)w[i];
    }
    w[r] = (uint32_t)((int)w[r] + total_weight - sum);
}

/* The detector that runs -a ALG after preprocessing; NULL for Starburst
 * (built in: pt_cuda_starburst_pipeline) and for detectors without a CUDA
 * version. */
static const pt_cuda_detector *cuda_detector_for(pt_algorithm alg)
{
    switch (alg) {
    case PT_ALG_TL: return &pt_cuda_detector_tl;
    case PT_ALG_HOUGH: return &pt_cuda_detector_hough;
    default: return NULL;
    }
}

static void free_slot(const pt_cuda_detector *det, stream_slot *s)
{
    if (det && s->detector)
        det->destroy(s->detector);
    pt_cuda_stage_graph_free(&s->graph_pre);
    pt_cuda_stage_graph_free(&s->graph_sb);
    pt_cuda_stage_graph_free(&s->graph_sb_rest);
    pt_cuda_stage_graph_free(&s->graph_det);
    cudaFree(s->dev.raw);
    cudaFree(s->dev.work_a);
    cudaFree(s->dev.work_b);
    cudaFree(s->dev.mask);
    cudaFree(s->dev.smoothed);
    cudaFree(s->dev.points);
    cudaFree(s->dev.scratch_idx);
    cudaFree(s->dev.cells);
    cudaFree(s->dev.dark_key);
    cudaFree(s->dev.dark_done);
    cudaFree(s->dev.dims);
    cudaFree(s->dev.jobs);
    cudaFree(s->dev.slot_points);
    cudaFree(s->dev.slot_found);
    cudaFree(s->dev.state);
    cudaFree(s->dev.partials);
    cudaFree(s->dev.partial_models);
    cudaFreeHost(s->host_frames);
    cudaFreeHost(s->host_dims);
    cudaFreeHost(s->host_jobs);
    cudaFreeHost(s->host_results);
    free(s->next_dims);
    free(s->next_jobs);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    if (s->begin)
        cudaEventDestroy(s->begin);
    if (s->end)
        cudaEventDestroy(s->end);
    if (s->copied)
        cudaEventDestroy(s->copied);
    if (s->preprocessed)
        cudaEventDestroy(s->preprocessed);
    if (s->detected)
        cudaEventDestroy(s->detected);
}

static void destroy_one(cuda_state *s)
{
    if (!s)
        return;
    cudaSetDevice(s->device);
    for (int i = 0; s->slots && i < s->nstreams; i++) {
        if (s->slots[i].stream)
            cudaStreamSynchronize(s->slots[i].stream);
        free_slot(s->detector, &s->slots[i]);
    }
    free(s->slots);
    cudaFree(s->ransac_values);
    cudaFree(s->previous);
    free(s);
}

static pt_status alloc_slot(cuda_state *s, stream_slot *slot, pt_error *err)
{
    size_t plane = s->params.plane, frames = (size_t)s->chunk;
    size_t jobs = frames * s->eyes;
    size_t pts = (size_t)s->params.points_per_eye * jobs;
    CUDA_OR_FAIL(err, cudaStreamCreateWithFlags(&slot->stream, cudaStreamNonBlocking));
    CUDA_OR_FAIL(err, cudaEventCreate(&slot->begin));
    CUDA_OR_FAIL(err, cudaEventCreate(&slot->end));
    CUDA_OR_FAIL(err, cudaEventCreate(&slot->copied));
    CUDA_OR_FAIL(err, cudaEventCreate(&slot->preprocessed));
    CUDA_OR_FAIL(err, cudaEventCreate(&slot->detected));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.raw, plane * frames));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.work_a, plane * frames));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.work_b, plane * frames));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.mask, plane * frames));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.smoothed, plane * frames));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.points, pts * sizeof(pt_point)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.scratch_idx, pts * sizeof(int)));
    /* Darkest-window cells: at most (w/2) x (h/2) per eye (cell side >= 2). */
    slot->dev.cells_per_job = (size_t)(s->width / 2 + 1) * (s->height / 2 + 1);
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.cells,
                                 slot->dev.cells_per_job * jobs * sizeof(uint32_t)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dark_key, jobs * sizeof(unsigned long long)));
    CUDA_OR_FAIL(err, cudaMemset(slot->dev.dark_key, 0xff, jobs * sizeof(unsigned long long)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dark_done, jobs * sizeof(unsigned)));
    CUDA_OR_FAIL(err, cudaMemset(slot->dev.dark_done, 0, jobs * sizeof(unsigned)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dims, frames * sizeof(pt_cuda_frame_dims)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.jobs, jobs * sizeof(pt_cuda_eye_job)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.slot_points, pts * sizeof(pt_point)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.slot_found, pts));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.state, jobs * sizeof(pt_cuda_sb_state)));
    slot->dev.partials_per_job = pt_cuda_ransac_blocks(&s->params);
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.partials,
                                 jobs * slot->dev.partials_per_job * sizeof(int2)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.partial_models,
                                 jobs * slot->dev.partials_per_job * sizeof(pt_cuda_sb_model)));
    CUDA_OR_FAIL(err, cudaMallocHost((void **)&slot->host_dims, frames * sizeof(pt_cuda_frame_dims)));
    CUDA_OR_FAIL(err, cudaMallocHost((void **)&slot->host_jobs, jobs * sizeof(pt_cuda_eye_job)));
    CUDA_OR_FAIL(err, cudaHostAlloc((void **)&slot->host_results,
                                    jobs * sizeof(pt_cuda_eye_result),
                                    cudaHostAllocMapped | cudaHostAllocPortable));
    CUDA_OR_FAIL(err, cudaHostGetDevicePointer((void **)&slot->dev.results, slot->host_results, 0));
    slot->next_dims = (pt_cuda_frame_dims *)calloc(frames, sizeof *slot->next_dims);
    slot->next_jobs = (pt_cuda_eye_job *)calloc(jobs, sizeof *slot->next_jobs);
    if (!slot->next_dims || !slot->next_jobs)
        return pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "out of memory");
    if (s->detector)
        CUDA_OR_FAIL(err, s->detector->create(&s->cfg, s->opt.ellipse, &s->params, (int)jobs,
                                              s->width, s->height, &slot->detector));
    return PT_OK;
}

static pt_status create_one(const pt_config *cfg, const pt_track_options *opt, int width,
                            int height, int device, cuda_state **state, pt_error *err)
{
    *state = NULL;
    CUDA_OR_FAIL(err, cudaSetDevice(device));
    const pt_cuda_detector *detector = cuda_detector_for(opt->algorithm);
    if (opt->algorithm != PT_ALG_STARBURST && !detector)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "the CUDA back end has no '%s' detector; it runs on -b omp",
                            pt_algorithm_name(opt->algorithm));

    if (opt->algorithm == PT_ALG_TL && cfg->tl.border != PT_TL_BORDER_PIXELS)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "tl_border=contour runs on -b omp only");
    if (opt->ellipse && cfg->pre.ransac_sample_size < 5)
        return pt_error_set(err, PT_ERR_PARAM, "-p", "--ellipse needs ransac_sample_size >= 5");
    cuda_state *s = (cuda_state *)calloc(1, sizeof *s);
    if (!s)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    s->device = device;
    s->cfg = *cfg;
    s->opt = *opt;
    s->detector = detector;
    s->width = width > 0 ? width : 1;
    s->height = height > 0 ? height : 1;
    s->eyes = opt->binocular ? 2 : 1;
    s->last_copy = -1;
    /* --sequence runs frames in order on one stream, one frame per chunk step. */
    s->nstreams = opt->sequence ? 1 : (opt->streams > 0 ? opt->streams : DEFAULT_STREAMS);
    pt_cuda_params *p = &s->params;
    p->pitch = (s->width + 127) & ~127;
    p->plane = (size_t)p->pitch * s->height;
    /* Larger chunks spread each launch over more of the GPU; keep the
     * planes of a chunk within CHUNK_BYTES. */
    size_t fit = CHUNK_BYTES / p->plane;
    s->chunk = opt->sequence ? SEQUENCE_CHUNK : (int)(fit < 1 ? 1 : fit > MAX_CHUNK ? MAX_CHUNK : fit);
    p->reflection = cfg->pre.reflection;
    p->reflection_threshold = cfg->pre.reflection_threshold;
    p->smooth = cfg->pre.smooth;
    p->smooth_size = cfg->pre.smooth_size | 1;
    pt_cuda_gaussian_weights(p->smooth_size, cfg->pre.smooth_sigma > 0 ? cfg->pre.smooth_sigma : 1e-6,
                     p->gauss_weights);
    p->rays = cfg->starburst.rays > 0 ? cfg->starburst.rays : 1;
    p->rays2 = cfg->starburst.stage2_rays > 0 ? cfg->starburst.stage2_rays : 0;
    p->threshold = cfg->starburst.edge_threshold;
    p->spread = cfg->starburst.stage2_spread * 3.14159265358979323846 / 180.0;
    p->max_iterations = cfg->starburst.max_iterations;
    p->converge_px = cfg->starburst.converge_px;
    p->ellipse = opt->ellipse;
    p->sequence = opt->sequence;
    p->inlier = cfg->pre.ransac_inlier;
    p->points_per_eye = p->rays * (1 + p->rays2);
    pt_sb_config_resolve(cfg, &p->sb);
    pt_sb_config_mode(&p->sb, opt->ellipse);
    *state = s;

    pt_ransac_table table;
    if (pt_ransac_table_create(&table, cfg->pre.ransac_samples, cfg->pre.ransac_sample_size,
                               PT_RANSAC_SEED, err)) {
        destroy_one(s);
        *state = NULL;
        return err->status;
    }
    size_t table_bytes = (size_t)table.samples * table.sample_size * sizeof(uint32_t);
    cudaError_t st = cudaMalloc((void **)&s->ransac_values, table_bytes);
    if (st == cudaSuccess)
        st = cudaMemcpy(s->ransac_values, table.values, table_bytes, cudaMemcpyHostToDevice);
    p->ransac_values = s->ransac_values;
    p->ransac_rows = cfg->pre.ransac_samples < table.samples ? cfg->pre.ransac_samples
                                                             : table.samples;
    p->sample_size = table.sample_size;
    pt_ransac_table_free(&table);
    if (st == cudaSuccess)
        st = cudaMalloc((void **)&s->previous, 2 * sizeof(pt_cuda_previous));
    if (st == cudaSuccess)
        st = cudaMemset(s->previous, 0, 2 * sizeof(pt_cuda_previous));
    s->slots = (stream_slot *)calloc((size_t)s->nstreams, sizeof *s->slots);
    if (st != cudaSuccess || !s->slots) {
        destroy_one(s);
        *state = NULL;
        return pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "cannot allocate GPU buffers: %s",
                            cudaGetErrorString(st));
    }
    for (int i = 0; i < s->nstreams; i++)
        if (alloc_slot(s, &s->slots[i], err)) {
            int oom = strstr(err->what, "out of memory") != NULL;
            int nstreams = s->nstreams;
            destroy_one(s);
            *state = NULL;
            size_t free_bytes = 0, total_bytes = 0;
            /* Each stream holds a chunk of frames and the detector's buffers:
             * say so, with what the device has, instead of the failing call. */
            if (oom && cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
                return pt_error_set(err, PT_ERR_NOMEM, "-b cuda",
                                    "not enough GPU memory for %d stream%s of %s at %dx%d "
                                    "(device %d: %.1f of %.1f GB free); try fewer --streams",
                                    nstreams, nstreams == 1 ? "" : "s",
                                    pt_algorithm_name(opt->algorithm), width, height, device,
                                    free_bytes / 1e9, total_bytes / 1e9);
            return err->status;
        }
    return PT_OK;
}

/* Resolve one eye's job exactly as the OpenMP back end does. */
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
    return PT_OK;
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
    return pt_cuda_starburst_pipeline(c->p, c->dev, c->jobs, c->from, c->to, stream);
}

/* The tl or hough detector's launches (no host synchronisation, so they
 * can be captured in a graph too). */
static cudaError_t enqueue_detector(const void *arg, cudaStream_t stream)
{
    const chunk_stage *c = (const chunk_stage *)arg;
    return c->detector->run(c->instance, c->p, c->dev, c->jobs, c->width, c->height, stream);
}

/* Send frames[first, first+count) (all the same size) through one stream;
 * Starburst runs its first `iterations` iterations. */
static pt_status launch_chunk(cuda_state *s, stream_slot *slot, pt_image *const *frames,
                              int first, int count, int iterations, pt_result *results,
                              pt_overlay *overlays, pt_error *err)
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
    int pinned = 1;
    for (int i = 0; i < count && pinned; i++)
        pinned = is_pinned(frames[first + i]->buf);
    if (!pinned) {
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
#pragma omp parallel for schedule(static)
        for (int i = 0; i < count; i++) {
            const pt_image *f = frames[first + i];
            uint8_t *dst = slot->host_frames + (size_t)i * p->plane;
            for (int y = 0; y < h; y++)
                memcpy(dst + (size_t)y * p->pitch, f->buf + (size_t)y * f->stride, (size_t)w);
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
        CUDA_OR_FAIL(err, cudaMemcpyAsync(slot->dev.dims, slot->host_dims,
                                          count * sizeof(pt_cuda_frame_dims),
                                          cudaMemcpyHostToDevice, slot->stream));
        CUDA_OR_FAIL(err, cudaMemcpyAsync(slot->dev.jobs, slot->host_jobs,
                                          jobs * sizeof(pt_cuda_eye_job), cudaMemcpyHostToDevice,
                                          slot->stream));
        slot->uploaded_frames = count;
        slot->uploaded_jobs = jobs;
    }
    CUDA_OR_FAIL(err, cudaEventRecord(slot->copied, slot->stream));
    s->last_copy = index;
    chunk_stage stage = {p,      &slot->dev, count, jobs,        w,
                         h,      kernel,     dilate, 0,          iterations,
                         s->detector, slot->detector};
    const int shape[8] = {count, jobs, w, h, kernel, dilate, 0, iterations};
    CUDA_OR_FAIL(err, pt_cuda_stage_graph_launch(&slot->graph_pre, shape, 6, enqueue_preprocess,
                                                 &stage, slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->preprocessed, slot->stream));
    if (s->detector)
        CUDA_OR_FAIL(err, pt_cuda_stage_graph_launch(&slot->graph_det, shape, 6, enqueue_detector,
                                                     &stage, slot->stream));
    else if (s->opt.sequence)
        CUDA_OR_FAIL(err, pt_cuda_starburst(p, &slot->dev, jobs, s->previous, slot->stream));
    else
        CUDA_OR_FAIL(err, pt_cuda_stage_graph_launch(&slot->graph_sb, shape, 8, enqueue_starburst,
                                                     &stage, slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->detected, slot->stream));
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
    CUDA_OR_FAIL(err, pt_cuda_stage_graph_launch(&slot->graph_sb_rest, shape, 3,
                                                 enqueue_starburst, &stage, slot->stream));
    CUDA_OR_FAIL(err, cudaEventRecord(slot->detected, slot->stream));
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

/* Launch the chunks of one call, on the streams from s->next_stream on;
 * a stream still holding an earlier chunk is harvested first. Returns
 * with the last chunks in flight. */
static pt_status launch_call(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, int submitted, pt_error *err)
{
    s->batch++;
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
        int limit = pt_chunk_limit(&plan, n, i);
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
            st = launch_chunk(s, slot, frames, i, count, iterations, results, overlays, err);
        i += count;
    }
    return st;
}

/* Harvest every stream whose chunk belongs to a call before `batch`
 * (LONG_MAX: every stream); the first failure is returned. The caller has
 * made s->device current (track_one, submit_one, cuda_drain). */
static pt_status harvest_before(cuda_state *s, long batch, pt_error *err)
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

static pt_status track_one(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                           pt_overlay *overlays, pt_error *err)
{
    CUDA_OR_FAIL(err, cudaSetDevice(s->device));
    pt_status st = harvest_before(s, LONG_MAX, err); /* a submitted call not drained */
    /* Every call starts on the first stream (the last call harvested them
     * all): a call of one chunk then finds its stream's graphs, buffers and
     * uploaded jobs as it left them, and waits for no other stream's copy. */
    s->next_stream = 0;
    if (!st)
        st = launch_call(s, frames, n, results, overlays, 0, err);
    pt_status hs = harvest_before(s, LONG_MAX, err);
    return st ? st : hs;
}

/* A submitted call goes on from the stream after the last one used, so
 * its first copies queue behind the previous call's while that call's last
 * chunks compute; before returning it harvests the previous call's chunks
 * (its own stay in flight). */
static pt_status submit_one(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                            pt_overlay *overlays, pt_error *err)
{
    CUDA_OR_FAIL(err, cudaSetDevice(s->device));
    pt_status st = launch_call(s, frames, n, results, overlays, 1, err);
    pt_status hs = harvest_before(s, s->batch, err);
    return st ? st : hs;
}

static pt_status cuda_pin(void *state, pt_image *const *frames, int n, pt_error *err)
{
    (void)state;
    /* Portable: page-locked for every device of a --devices split. */
    for (int i = 0; i < n; i++)
        CUDA_OR_FAIL(err, cudaHostRegister(frames[i]->buf,
                                           (size_t)frames[i]->stride * frames[i]->height,
                                           cudaHostRegisterPortable));
    return PT_OK;
}

static void cuda_unpin(void *state, pt_image *const *frames, int n)
{
    (void)state;
    for (int i = 0; i < n; i++)
        cudaHostUnregister(frames[i]->buf);
}

/* Stage times are chunk durations divided by the chunk's frames: with several
 * streams the chunks overlap, so the stages add up to more than the wall time. */
static void stage_report_one(const cuda_state *s, char *buf, int size)
{
    const char *names[4] = {"copy to GPU", "preprocess",
                            s->detector ? s->detector->name : "starburst", "results back"};
    int used = 0;
    buf[0] = '\0';
    for (int k = 0; k < 4 && used < size; k++)
        used += snprintf(buf + used, (size_t)(size - used), "  %-14s %8.4f ms/frame\n", names[k],
                         s->stage_frames ? s->stage_ms[k] / s->stage_frames : 0.0);
}

/* --devices: one cuda_state per device; a batch is split into contiguous
 * parts, one per device, tracked at the same time by one host thread each. */
typedef struct {
    int count;
    cuda_state *dev[PT_MAX_DEVICES];
} cuda_multi;

static void cuda_destroy(void *state)
{
    cuda_multi *m = (cuda_multi *)state;
    if (!m)
        return;
    for (int d = 0; d < m->count; d++)
        destroy_one(m->dev[d]);
    free(m);
}

static pt_status cuda_create(const pt_config *cfg, const pt_track_options *opt, int width,
                             int height, void **state, pt_error *err)
{
    *state = NULL;
    if (pt_cuda_available(err))
        return err->status;
    int visible = 0;
    CUDA_OR_FAIL(err, cudaGetDeviceCount(&visible));
    int ids[PT_MAX_DEVICES], count = 0;
    if (opt->ndevices < 0) {
        for (int d = 0; d < visible && d < PT_MAX_DEVICES; d++)
            ids[count++] = d;
    } else if (opt->ndevices == 0) {
        CUDA_OR_FAIL(err, cudaGetDevice(&ids[0]));
        count = 1;
    } else {
        for (int k = 0; k < opt->ndevices; k++) {
            if (opt->devices[k] < 0 || opt->devices[k] >= visible)
                return pt_error_set(err, PT_ERR_UNAVAILABLE, "--devices",
                                    "no CUDA device %d (%d visible)", opt->devices[k], visible);
            ids[count++] = opt->devices[k];
        }
    }
    cuda_multi *m = (cuda_multi *)calloc(1, sizeof *m);
    if (!m)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    for (int d = 0; d < count; d++) {
        if (create_one(cfg, opt, width, height, ids[d], &m->dev[d], err)) {
            cuda_destroy(m);
            return err->status;
        }
        m->count++;
    }
    *state = m;
    return PT_OK;
}

/* A call on one device: track_one or submit_one. */
typedef pt_status (*device_call)(cuda_state *s, pt_image *const *frames, int n,
                                 pt_result *results, pt_overlay *overlays, pt_error *err);

/* frames[0..n) cut into `parts` contiguous parts, part d through call on
 * device d, all at the same time (one host thread each); the first
 * failure is returned. */
static pt_status split_over_devices(cuda_multi *m, int parts, device_call call,
                                    pt_image *const *frames, int n, pt_result *results,
                                    pt_overlay *overlays, pt_error *err)
{
    int eyes = m->dev[0]->eyes;
    pt_status status[PT_MAX_DEVICES];
    pt_error errs[PT_MAX_DEVICES];
#pragma omp parallel for num_threads(parts) schedule(static, 1)
    for (int d = 0; d < parts; d++) {
        int first = (int)((long)n * d / parts), last = (int)((long)n * (d + 1) / parts);
        pt_error_clear(&errs[d]);
        status[d] = call(m->dev[d], frames + first, last - first, results + (size_t)first * eyes,
                         overlays ? overlays + (size_t)first * eyes : NULL, &errs[d]);
    }
    for (int d = 0; d < parts; d++)
        if (status[d]) {
            *err = errs[d];
            return status[d];
        }
    return PT_OK;
}

static pt_status cuda_track(void *state, pt_image *const *frames, int n, pt_result *results,
                            pt_overlay *overlays, pt_error *err)
{
    cuda_multi *m = (cuda_multi *)state;
    if (m->count == 1 || n < 2)
        return track_one(m->dev[0], frames, n, results, overlays, err);
    return split_over_devices(m, n < m->count ? n : m->count, track_one, frames, n, results,
                              overlays, err);
}

static pt_status cuda_submit(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    cuda_multi *m = (cuda_multi *)state;
    if (m->count == 1)
        return submit_one(m->dev[0], frames, n, results, overlays, err);
    /* every device takes part (maybe with no frames), so that each one
     * harvests its share of the previous call */
    return split_over_devices(m, m->count, submit_one, frames, n, results, overlays, err);
}

static pt_status cuda_drain(void *state, pt_error *err)
{
    cuda_multi *m = (cuda_multi *)state;
    pt_status st = PT_OK;
    for (int d = 0; d < m->count; d++) {
        CUDA_OR_FAIL(err, cudaSetDevice(m->dev[d]->device));
        pt_status ds = harvest_before(m->dev[d], LONG_MAX, err);
        if (!st)
            st = ds;
    }
    return st;
}

static void cuda_stage_report(void *state, char *buf, int size)
{
    const cuda_multi *m = (const cuda_multi *)state;
    stage_report_one(m->dev[0], buf, size);
}

extern "C" const pt_backend pt_backend_cuda = {
    "cuda",     cuda_create, cuda_track,        cuda_destroy, cuda_pin,
    cuda_unpin, cuda_stage_report, cuda_submit, cuda_drain};
