/* A second look over any back end: the calls of a layer that tracks every
 * frame with an inner back end, then looks again at some of a batch's eyes
 * once that batch's results are complete (lib/detect/half_retry.h,
 * lib/detect/tl_retry.h). A layer's state begins with a pt_look_layer; the
 * functions below take that state as the pt_backend table's functions do,
 * so a layer's table points at them. */
#ifndef PT_LOOK_LAYER_H
#define PT_LOOK_LAYER_H

#include "lib/detect/pt_backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The second look at frames[0..n) whose results are complete (called only
 * where the look applies: pt_look_layer.on). */
typedef pt_status (*pt_look_fn)(void *state, pt_image *const *frames, int n,
                                pt_result *results, pt_overlay *overlays, pt_error *err);

typedef struct {
    const pt_backend *inner;
    void *full;     /* the inner back end's state that tracks every frame */
    pt_look_fn look;
    /* a submitted batch whose second look waits until its results are complete */
    int pending;
    pt_image *const *pend_frames;
    int pend_n;
    pt_result *pend_results;
    pt_overlay *pend_overlays;
    /* for stage_report: the look's name, whether it applies, its time and
     * the frames of all calls, the eyes looked at again and those kept */
    const char *stage;
    int on;
    double look_ms;
    long frames, looked, kept;
} pt_look_layer;

/* One call's second look: the frames looked at again (indices into the
 * call), their results and drawings (eyes per frame each), room for cap. */
typedef struct {
    int cap, eyes;
    int *which;
    pt_result *results;
    pt_overlay *overlays;
} pt_look_batch;

/* Room for m frames (new drawings empty); PT_ERR_NOMEM naming `what`. */
pt_status pt_look_batch_reserve(pt_look_batch *b, int m, const char *what, pt_error *err);
void pt_look_batch_free(pt_look_batch *b);

/* Whether frame f, whose eyes' first results are res, is looked at again. */
typedef int (*pt_look_wanted_fn)(const void *state, const pt_image *f, const pt_result *res);
/* Room for m frames' second look in a layer's state (its batch and its own
 * arrays). */
typedef pt_status (*pt_look_reserve_fn)(void *state, int m, pt_error *err);

/* The frames of a call looked at again: those of frames[0..n) (results:
 * eyes a frame, as track() gives them) that wanted picks, their indices in
 * b->which after reserve made room for them. Returns their number (0: none,
 * nothing reserved), or -1 with err set. */
int pt_look_pick(void *state, pt_look_wanted_fn wanted, pt_look_reserve_fn reserve,
                 pt_look_batch *b, pt_image *const *frames, int n, const pt_result *results,
                 pt_error *err);

/* An eye's first result replaced by its second look's, its eye kept. */
void pt_look_take(pt_result *first, const pt_result *second);

/* pt_backend's calls over a state that begins with a pt_look_layer: track
 * and submit/drain track with the inner back end, then look (submit: at the
 * previous batch, whose results the inner submit completed); the others go
 * to the inner back end's state. */
pt_status pt_look_track(void *state, pt_image *const *frames, int n, pt_result *results,
                        pt_overlay *overlays, pt_error *err);
pt_status pt_look_submit(void *state, pt_image *const *frames, int n, pt_result *results,
                         pt_overlay *overlays, pt_error *err);
pt_status pt_look_drain(void *state, pt_error *err);
pt_status pt_look_pin(void *state, pt_image *const *frames, int n, pt_error *err);
void pt_look_unpin(void *state, pt_image *const *frames, int n);
pt_status pt_look_pin_region(void *state, const void *base, size_t bytes, pt_error *err);
void pt_look_unpin_region(void *state, const void *base);
double pt_look_upload_ms(void *state);
/* The inner back end's stages, then the look's time per frame of all
 * frames, with the eyes looked at again and kept (where the look applies). */
void pt_look_stage_report(void *state, char *buf, int size);

/* The entries of a layer's pt_backend table besides its name, create and
 * destroy: over the OpenMP back end (frames read where they lie) and over
 * the CUDA back end (pinning, pipelined calls, GPU options). */
#define PT_LOOK_OMP_CALLS                                                                   \
    .track = pt_look_track, .stage_report = pt_look_stage_report, .frames_in_place = 1
#define PT_LOOK_CUDA_CALLS                                                                  \
    .track = pt_look_track, .pin = pt_look_pin, .unpin = pt_look_unpin,                     \
    .stage_report = pt_look_stage_report, .submit = pt_look_submit, .drain = pt_look_drain, \
    .gpu_options = 1, .pin_region = pt_look_pin_region,                                    \
    .unpin_region = pt_look_unpin_region, .upload_ms = pt_look_upload_ms

#ifdef __cplusplus
}
#endif

#endif
