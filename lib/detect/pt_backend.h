/* A back end is a table of functions the CLI selects with -b. */
#ifndef PT_BACKEND_H
#define PT_BACKEND_H

#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"
#include "lib/detect/pt_result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PT_MAX_DEVICES 16

/* --cuda-off: optimisations of the CUDA back end switched off one by one, so
 * that what each brings can be measured (pupiltrack(1), bench, --cuda-off);
 * the results are the same with any of them off, only the speed differs. */
enum {
    PT_CUDA_OFF_PINNED = 1, /* frames copied from pageable memory, no page-locked staging */
    PT_CUDA_OFF_MAPPED = 2, /* results copied back after each chunk instead of written
                               by the kernels into mapped host memory */
    PT_CUDA_OFF_BATCH = 4,  /* one frame per chunk (one launch per stage and frame) */
    PT_CUDA_OFF_GRAPHS = 8, /* every kernel launched from the host, no CUDA graph replay */
    PT_CUDA_OFF_ALL = 15
};

typedef struct {
    pt_algorithm algorithm;
    int ellipse;   /* --ellipse: fit ellipses (result has_ellipse) */
    int binocular; /* two eyes: left half 'L', right half 'R' */
    int threads;   /* -j; 0 = all cores */
    int sequence;  /* start each frame from the previous frame's centre */
    int overlay;   /* fill pt_overlay (for --draw) */
    int streams;   /* CUDA streams in flight; 0 = the back end's default */
    int cuda_off;  /* PT_CUDA_OFF_* bits: CUDA optimisations switched off */
    /* --devices: CUDA devices a batch is split across; ndevices 0 = the
     * current device only, -1 = every visible device. */
    int ndevices;
    int devices[PT_MAX_DEVICES];
    /* Keep each call's frames also reduced to half size (pt_image_halve)
     * where the back end holds them, for track_halves; back ends without
     * track_halves ignore it. */
    int keep_halves;
    /* 1: this state's GPU work goes ahead of other work on the device
     * (the highest stream priority): the second look, which its caller
     * waits for while another state's calls are in flight. */
    int urgent;
} pt_track_options;

struct pt_trace; /* lib/detect/pt_trace.h */

/* What the detector saw, for --draw: candidate edge points, blob border, rays. */
typedef struct {
    pt_point *points;
    int count, capacity;
    /* --draw-stages: when set, the omp back end's detectors record their
     * stages there (lib/detect/pt_trace.h); the caller owns it */
    struct pt_trace *trace;
} pt_overlay;

/* Append a point; grows the array; silently stops at 1<<20 points. */
void pt_overlay_add(pt_overlay *ov, float x, float y);
void pt_overlay_clear(pt_overlay *ov);
void pt_overlay_free(pt_overlay *ov);

typedef struct pt_backend {
    const char *name; /* "omp", "cuda" */
    /* Prepare for frames up to width x height; allocate everything here. */
    pt_status (*create)(const pt_config *cfg, const pt_track_options *opt,
                        int width, int height, void **state, pt_error *err);
    /* Track n frames. results has n*eyes entries (eyes = binocular ? 2 : 1), frame
     * major, left eye first; overlays likewise, or NULL. A frame that cannot be
     * processed gets status PT_DETECT_ERROR and a message; the call still succeeds. */
    pt_status (*track)(void *state, pt_image *const *frames, int n,
                       pt_result *results, pt_overlay *overlays, pt_error *err);
    void (*destroy)(void *state);
    /* Optional (NULL when the back end has no use for it): make these frames'
     * buffers fast to copy from (page-locked), for frames reused many times as
     * in bench; unpin before freeing them. */
    pt_status (*pin)(void *state, pt_image *const *frames, int n, pt_error *err);
    void (*unpin)(void *state, pt_image *const *frames, int n);
    /* Optional: per-stage times accumulated since create, one "stage: x ms/frame"
     * line each, for bench. */
    void (*stage_report)(void *state, char *buf, int size);
    /* Optional: track() in two halves, so that a caller keeps two batches in
     * flight (the GPU works on one while the caller prepares the next).
     * submit starts tracking frames as track() would and returns; the
     * results of a submitted batch are complete, and its frames, results and
     * overlays the caller's again, when the next submit or drain returns.
     * drain waits for the last submitted batch. A caller alternates two sets
     * of frames and results; track() may follow only a drain. */
    pt_status (*submit)(void *state, pt_image *const *frames, int n, pt_result *results,
                        pt_overlay *overlays, pt_error *err);
    pt_status (*drain)(void *state, pt_error *err);
    /* 1 when it uses pt_track_options' devices and streams (--devices,
     * --streams); elsewhere those options are ignored with a warning. */
    int gpu_options;
    /* Optional: make a read-only host region (a mapped file whose frames are
     * tracked where they lie) fast to copy from (page-locked); on failure
     * the caller goes on without. Unpin after the last call reading it. */
    pt_status (*pin_region)(void *state, const void *base, size_t bytes, pt_error *err);
    void (*unpin_region)(void *state, const void *base);
    /* Optional: mean time per frame of the copies to the device since
     * create, in ms (bench). */
    double (*upload_ms)(void *state);
    /* Optional, for the second look at half resolution (half_retry.h):
     * track frames which[0..m) of a call made on full_state with
     * keep_halves set, reduced to half size as pt_image_halve does, from
     * the copies the back end kept (no new copy of them); half_state was
     * made for half the size. `of` is that call's results array (its
     * results complete) and `frames` its frames; results and overlays have
     * m entries per eye as in track(). PT_ERR_UNAVAILABLE, with nothing
     * tracked, where that call's reduced frames are not kept (the caller
     * then reduces and tracks them itself). */
    pt_status (*track_halves)(void *half_state, void *full_state, const pt_result *of,
                              pt_image *const *frames, const int *which, int m,
                              pt_result *results, pt_overlay *overlays, pt_error *err);
    /* Optional, with keep_halves: from now on, start the second look of
     * every frame that pt_half_retry_frame_wanted (half_retry.h) picks
     * under `below` on half_state as soon as the frame's first results are
     * in, without waiting for it; track_halves of those frames (without
     * overlays) then returns its results. PT_ERR_UNAVAILABLE where the back
     * end cannot. */
    pt_status (*look_ahead)(void *full_state, void *half_state, double below, pt_error *err);
    /* 1 when track() reads the frames where they lie in host memory (no
     * copy first): readers then map in a mapped stack's pages on their own
     * threads ahead of the call (pt_reader_options.touch_in_place). */
    int frames_in_place;
} pt_backend;

extern const pt_backend pt_backend_omp;
extern const pt_backend pt_backend_cuda;

#ifdef __cplusplus
}
#endif

#endif
