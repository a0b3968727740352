/* Setting up and tearing down the CUDA back end's state on one device
 * (backend_state.h): streams, device buffers, pinned staging, the RANSAC
 * table, the tl / hough detector instances. Everything is allocated here,
 * once, so that tracking allocates nothing. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "lib/detect/ransac.h"
#include "lib/detect/starburst_config.h"
#include "lib/params/params_auto.h"
#include "cuda/core/cuda_check.h"
#include "cuda/detect/backend_state.h"
#include "cuda/detect/chunk_plan.h"

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
    cudaFree(s->dev.normals);
    cudaFree(s->dev.scratch_idx);
    cudaFree(s->dev.dark_key);
    cudaFree(s->dev.dark_done);
    cudaFree(s->dev.iterations_done);
    cudaFree(s->dev.dims);
    cudaFree(s->dev.jobs);
    cudaFree(s->dev.slot_points);
    cudaFree(s->dev.slot_found);
    cudaFree(s->dev.slot_normals);
    cudaFree(s->dev.state);
    cudaFree(s->dev.partials);
    cudaFree(s->dev.partial_models);
    cudaFreeHost(s->host_frames);
    cudaFreeHost(s->host_dims);
    cudaFreeHost(s->host_jobs);
    cudaFreeHost(s->host_results);
    if (s->results_copied)
        cudaFree(s->dev.results);
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

void pt_cuda_state_destroy(cuda_state *s)
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
    cudaFree(s->halves[0]);
    cudaFree(s->halves[1]);
    for (int p = 0; p < 2; p++) {
        free(s->look_results[p]);
        free(s->look_at[p]);
    }
    cudaFree(s->ransac_values);
    cudaFree(s->previous);
    free(s);
}

static pt_status alloc_slot(cuda_state *s, stream_slot *slot, pt_error *err)
{
    size_t plane = s->params.plane, frames = (size_t)s->chunk;
    size_t jobs = frames * s->eyes;
    size_t pts = (size_t)s->params.points_per_eye * jobs;
    int least = 0, greatest = 0;
    CUDA_OR_FAIL(err, cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_OR_FAIL(err, cudaStreamCreateWithPriority(&slot->stream, cudaStreamNonBlocking,
                                                   s->opt.urgent ? greatest : least));
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
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.normals, pts * sizeof(pt_point)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.scratch_idx, pts * sizeof(int)));
    slot->dev.previous = s->params.sequence ? s->previous : NULL;
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dark_key, jobs * sizeof(unsigned long long)));
    CUDA_OR_FAIL(err, cudaMemset(slot->dev.dark_key, 0xff, jobs * sizeof(unsigned long long)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dark_done, jobs * sizeof(unsigned)));
    CUDA_OR_FAIL(err, cudaMemset(slot->dev.dark_done, 0, jobs * sizeof(unsigned)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.iterations_done, sizeof(int)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.dims, frames * sizeof(pt_cuda_frame_dims)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.jobs, jobs * sizeof(pt_cuda_eye_job)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.slot_points, pts * sizeof(pt_point)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.slot_found, pts));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.slot_normals, pts * sizeof(pt_point)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.state, jobs * sizeof(pt_cuda_sb_state)));
    slot->dev.partials_per_job = pt_cuda_ransac_blocks(&s->params);
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.partials,
                                 jobs * slot->dev.partials_per_job * sizeof(int2)));
    CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.partial_models,
                                 jobs * slot->dev.partials_per_job * sizeof(pt_cuda_sb_model)));
    CUDA_OR_FAIL(err, cudaHostAlloc((void **)&slot->host_dims, frames * sizeof(pt_cuda_frame_dims),
                                    cudaHostAllocMapped | cudaHostAllocPortable));
    CUDA_OR_FAIL(err, cudaHostAlloc((void **)&slot->host_jobs, jobs * sizeof(pt_cuda_eye_job),
                                    cudaHostAllocMapped | cudaHostAllocPortable));
    CUDA_OR_FAIL(err, cudaHostGetDevicePointer((void **)&slot->mapped_dims, slot->host_dims, 0));
    CUDA_OR_FAIL(err, cudaHostGetDevicePointer((void **)&slot->mapped_jobs, slot->host_jobs, 0));
    if (s->opt.cuda_off & PT_CUDA_OFF_MAPPED) {
        /* --cuda-off mapped: the kernels write device memory, copied back per chunk */
        CUDA_OR_FAIL(err, cudaMallocHost((void **)&slot->host_results,
                                         jobs * sizeof(pt_cuda_eye_result)));
        CUDA_OR_FAIL(err, cudaMalloc((void **)&slot->dev.results, jobs * sizeof(pt_cuda_eye_result)));
        slot->results_copied = 1;
    } else {
        CUDA_OR_FAIL(err, cudaHostAlloc((void **)&slot->host_results,
                                        jobs * sizeof(pt_cuda_eye_result),
                                        cudaHostAllocMapped | cudaHostAllocPortable));
        CUDA_OR_FAIL(err, cudaHostGetDevicePointer((void **)&slot->dev.results, slot->host_results, 0));
    }
    slot->next_dims = (pt_cuda_frame_dims *)calloc(frames, sizeof *slot->next_dims);
    slot->next_jobs = (pt_cuda_eye_job *)calloc(jobs, sizeof *slot->next_jobs);
    if (!slot->next_dims || !slot->next_jobs)
        return pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "out of memory");
    if (s->detector)
        CUDA_OR_FAIL(err, s->detector->create(&s->cfg, s->opt.ellipse, &s->params, (int)jobs,
                                              s->width, s->height, &slot->detector));
    return PT_OK;
}

pt_status pt_cuda_state_create(const pt_config *cfg, const pt_track_options *opt, int width,
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
    s->last_detect = -1;
    /* --sequence: chunks of one frame whose detection waits for the previous
     * frame's (launch_chunk), while copies and preprocessing overlap. */
    s->nstreams = opt->streams > 0 ? opt->streams : DEFAULT_STREAMS;
    pt_cuda_params *p = &s->params;
    p->pitch = (s->width + 127) & ~127;
    p->plane = (size_t)p->pitch * s->height;
    s->half_pitch = (s->width / 2 + 15) & ~15;
    s->half_plane = (size_t)s->half_pitch * (s->height / 2);
    /* Larger chunks spread each launch over more of the GPU; keep the
     * planes of a chunk within CHUNK_BYTES. */
    size_t fit = CHUNK_BYTES / p->plane;
    s->chunk = opt->sequence ? SEQUENCE_CHUNK : (int)(fit < 1 ? 1 : fit > MAX_CHUNK ? MAX_CHUNK : fit);
    if (opt->cuda_off & PT_CUDA_OFF_BATCH) /* --cuda-off batch: a launch per stage and frame */
        s->chunk = 1;
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
        pt_cuda_state_destroy(s);
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
        pt_cuda_state_destroy(s);
        *state = NULL;
        return pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "cannot allocate GPU buffers: %s",
                            cudaGetErrorString(st));
    }
    for (int i = 0; i < s->nstreams; i++)
        if (alloc_slot(s, &s->slots[i], err)) {
            int oom = strstr(err->what, "out of memory") != NULL;
            int nstreams = s->nstreams;
            pt_cuda_state_destroy(s);
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
