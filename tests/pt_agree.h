/* Shared by the CUDA agreement tests (test_cuda_*.c): synthetic frames, and
 * one pass of a back end over them, so -b cuda and -b omp see the same
 * inputs and the same preparation. */
#ifndef PT_AGREE_H
#define PT_AGREE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/detect/pt_backend.h"
#include "lib/synth/synth.h"
#include "tests/pt_test.h"

/* Counts of one comparison (or pooled over several). */
typedef struct {
    int compared, status_differs, beyond_tolerance;
    int found; /* eyes the reference found (where a test counts them) */
    double worst;
} agreement;

/* Whether two results are the same bit for bit: status, eye, fits and
 * confidence (the timing aside). */
static inline int same_result(const pt_result *a, const pt_result *b)
{
    return a->status == b->status && a->has_circle == b->has_circle &&
           a->has_ellipse == b->has_ellipse && a->eye == b->eye &&
           (!a->has_circle || (a->circle.cx == b->circle.cx && a->circle.cy == b->circle.cy &&
                               a->circle.r == b->circle.r)) &&
           (!a->has_ellipse || (a->ellipse.cx == b->ellipse.cx && a->ellipse.cy == b->ellipse.cy &&
                                a->ellipse.a == b->ellipse.a && a->ellipse.b == b->ellipse.b &&
                                a->ellipse.theta == b->ellipse.theta)) &&
           a->confidence == b->confidence;
}

/* n synthetic frames of w x h (two eyes when binocular) from seed, every
 * grey level times exposure (synth --exposure: 1 = as rendered), with the
 * failure classes `hazards` (synth --hazard; 0: none) on every frame. */
static pt_image **render_hazards(int n, int w, int h, int binocular, uint64_t seed,
                                 float exposure, unsigned hazards)
{
    pt_image **frames = calloc((size_t)n, sizeof *frames);
    pt_synth_params sp;
    pt_synth_params_default(&sp);
    sp.width = w;
    sp.height = h;
    sp.binocular = binocular;
    sp.exposure = exposure;
    sp.hazards = hazards;
    for (int i = 0; i < n; i++) {
        pt_synth_frame_truth truth;
        pt_error err;
        frames[i] = pt_image_create(w, h);
        if (pt_synth_render(&sp, pt_synth_frame_seed(seed, i), frames[i], &truth, &err))
            fprintf(stderr, "synth: %s\n", err.what);
    }
    return frames;
}

/* The same without failure classes. */
static inline pt_image **render_exposed(int n, int w, int h, int binocular, uint64_t seed,
                                        float exposure)
{
    return render_hazards(n, w, h, binocular, seed, exposure, 0);
}

/* n synthetic frames of w x h (two eyes when binocular) from seed. */
static inline pt_image **render(int n, int w, int h, int binocular, uint64_t seed)
{
    return render_exposed(n, w, h, binocular, seed, 1.0f);
}

static void free_frames(pt_image **frames, int n)
{
    for (int i = 0; i < n; i++)
        pt_image_destroy(frames[i]);
    free(frames);
}

/* Back end b over frames[0..n) into res, per_call frames per track call
 * (one state for all calls), prepared for frames of at least prepare_w x
 * prepare_h (0: the frames' size), as track prepares for the largest frame
 * seen so far. submitted: the calls go through submit and one drain at the
 * end (when the back end has them), each call's results in their own
 * place, as bench keeps batches in flight. */
static void run_backend_calls(const pt_backend *b, const pt_config *cfg,
                              const pt_track_options *opt, int prepare_w, int prepare_h,
                              pt_image **frames, int n, int per_call, int submitted,
                              pt_result *res)
{
    void *state = NULL;
    pt_error err;
    pt_error_clear(&err);
    int w = prepare_w > frames[0]->width ? prepare_w : frames[0]->width;
    int h = prepare_h > frames[0]->height ? prepare_h : frames[0]->height;
    PT_CHECK(b->create(cfg, opt, w, h, &state, &err) == PT_OK, "%s create: %s", b->name,
             err.what);
    if (!state)
        return;
    int eyes = opt->binocular ? 2 : 1;
    for (int i = 0; i < n; i += per_call) {
        int k = n - i < per_call ? n - i : per_call;
        pt_result *r = res + (size_t)i * eyes;
        if (submitted && b->submit)
            PT_CHECK(b->submit(state, frames + i, k, r, NULL, &err) == PT_OK, "%s submit: %s",
                     b->name, err.what);
        else
            PT_CHECK(b->track(state, frames + i, k, r, NULL, &err) == PT_OK, "%s track: %s",
                     b->name, err.what);
    }
    if (submitted && b->drain)
        PT_CHECK(b->drain(state, &err) == PT_OK, "%s drain: %s", b->name, err.what);
    b->destroy(state);
}

/* The same in one call. */
static inline void run_backend(const pt_backend *b, const pt_config *cfg,
                               const pt_track_options *opt, int prepare_w, int prepare_h,
                               pt_image **frames, int n, pt_result *res)
{
    run_backend_calls(b, cfg, opt, prepare_w, prepare_h, frames, n, n, 0, res);
}

#endif
