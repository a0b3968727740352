/* The CUDA back end: frames go to the GPU in chunks, each chunk on one of
 * several streams, so the copy of one chunk overlaps the kernels of others;
 * buffers are allocated once in create(); host memory for copies is pinned;
 * each chunk is preprocessed by one launch per stage (all its frames) and
 * searched by the Starburst pipeline (grid-wide launches per stage; for
 * --sequence, chunks of one frame whose detection waits for the previous
 * frame's); preprocessing
 * and the pipeline are replayed from CUDA graphs kept per stream and chunk
 * shape (cuda/detect/stage_graph.cu); the host waits for a stream only when it
 * needs that stream's buffers again. For the second look at half resolution
 * (lib/detect/half_retry.h) each chunk's frames are also reduced on the GPU
 * from the copy already there, and a harvested chunk's unsure eyes are
 * looked at again on a half-size state at once (track_halves, look_ahead). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "cuda/core/pt_cuda.h"
#include "cuda/detect/backend_state.h"

/* --devices: one cuda_state per device; a batch is split into contiguous
 * parts, one per device, tracked at the same time by one host thread each. */
typedef struct {
    int count;
    cuda_state *dev[PT_MAX_DEVICES];
} cuda_multi;

static pt_status cuda_pin(void *state, pt_image *const *frames, int n, pt_error *err)
{
    const cuda_multi *m = (const cuda_multi *)state;
    if (m->dev[0]->opt.cuda_off & PT_CUDA_OFF_PINNED) /* --cuda-off pinned: pageable frames */
        return PT_OK;
    /* Portable: page-locked for every device of a --devices split. */
    for (int i = 0; i < n; i++)
        CUDA_OR_FAIL(err, cudaHostRegister(frames[i]->buf,
                                           (size_t)frames[i]->stride * frames[i]->height,
                                           cudaHostRegisterPortable));
    return PT_OK;
}

static void cuda_unpin(void *state, pt_image *const *frames, int n)
{
    const cuda_multi *m = (const cuda_multi *)state;
    if (m->dev[0]->opt.cuda_off & PT_CUDA_OFF_PINNED)
        return;
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

static void cuda_destroy(void *state)
{
    cuda_multi *m = (cuda_multi *)state;
    if (!m)
        return;
    for (int d = 0; d < m->count; d++)
        pt_cuda_state_destroy(m->dev[d]);
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
    /* the reduced frames are kept for one device's calls only */
    pt_track_options one = *opt;
    if (count > 1)
        one.keep_halves = 0;
    for (int d = 0; d < count; d++) {
        if (pt_cuda_state_create(cfg, &one, width, height, ids[d], &m->dev[d], err)) {
            cuda_destroy(m);
            return err->status;
        }
        m->count++;
    }
    *state = m;
    return PT_OK;
}

/* A call on one device: pt_cuda_state_track or pt_cuda_state_submit. */
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
        return pt_cuda_state_track(m->dev[0], frames, n, results, overlays, err);
    return split_over_devices(m, n < m->count ? n : m->count, pt_cuda_state_track, frames, n, results,
                              overlays, err);
}

static pt_status cuda_submit(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    cuda_multi *m = (cuda_multi *)state;
    if (m->count == 1)
        return pt_cuda_state_submit(m->dev[0], frames, n, results, overlays, err);
    /* every device takes part (maybe with no frames), so that each one
     * harvests its share of the previous call */
    return split_over_devices(m, m->count, pt_cuda_state_submit, frames, n, results, overlays, err);
}

static pt_status cuda_drain(void *state, pt_error *err)
{
    cuda_multi *m = (cuda_multi *)state;
    pt_status st = PT_OK;
    for (int d = 0; d < m->count; d++) {
        CUDA_OR_FAIL(err, cudaSetDevice(m->dev[d]->device));
        pt_status ds = pt_cuda_state_harvest_before(m->dev[d], LONG_MAX, err);
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

/* A mapped file's frames are copied from where they lie: read-only
 * registration (the mapping is not writable), portable for a --devices split. */
static pt_status cuda_pin_region(void *state, const void *base, size_t bytes, pt_error *err)
{
    const cuda_multi *m = (const cuda_multi *)state;
    if (m->dev[0]->opt.cuda_off & PT_CUDA_OFF_PINNED) /* --cuda-off pinned: pageable frames */
        return PT_OK;
    CUDA_OR_FAIL(err, cudaHostRegister((void *)base, bytes,
                                       cudaHostRegisterPortable | cudaHostRegisterReadOnly));
    return PT_OK;
}

static void cuda_unpin_region(void *state, const void *base)
{
    const cuda_multi *m = (const cuda_multi *)state;
    if (m->dev[0]->opt.cuda_off & PT_CUDA_OFF_PINNED)
        return;
    cudaHostUnregister((void *)base);
}

/* The second look's two states: one device each, the same one. */
static int one_device_pair(const cuda_multi *full, const cuda_multi *half)
{
    return half->count == 1 && full->count == 1 && half->dev[0]->device == full->dev[0]->device;
}

static pt_status cuda_track_halves(void *half_state, void *full_state, const pt_result *of,
                                   pt_image *const *frames, const int *which, int m,
                                   pt_result *results, pt_overlay *overlays, pt_error *err)
{
    cuda_multi *half = (cuda_multi *)half_state;
    const cuda_multi *full = (const cuda_multi *)full_state;
    if (!one_device_pair(full, half))
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "reduced frames are kept on one device only");
    return pt_cuda_state_track_halves(half->dev[0], full->dev[0], of, frames, which, m, results,
                                      overlays, err);
}

static pt_status cuda_look_ahead(void *full_state, void *half_state, double below,
                                 pt_error *err)
{
    cuda_multi *full = (cuda_multi *)full_state;
    cuda_multi *half = (cuda_multi *)half_state;
    if (!one_device_pair(full, half) || !full->dev[0]->opt.keep_halves ||
        full->dev[0]->opt.sequence)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "the second look is started ahead on one device only");
    full->dev[0]->look = half->dev[0];
    full->dev[0]->look_below = below;
    return PT_OK;
}

static double cuda_upload_ms(void *state)
{
    const cuda_state *s = ((const cuda_multi *)state)->dev[0];
    return s->stage_frames ? s->stage_ms[0] / s->stage_frames : 0.0;
}

extern "C" const pt_backend pt_backend_cuda = {
    "cuda",     cuda_create, cuda_track,        cuda_destroy, cuda_pin,
    cuda_unpin, cuda_stage_report, cuda_submit, cuda_drain, 1,
    cuda_pin_region, cuda_unpin_region, cuda_upload_ms, cuda_track_halves, cuda_look_ahead};
