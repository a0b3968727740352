/* tl's second look with thresholds near the dark level, over any back end
 * (tl_retry.h). */
#include "lib/detect/tl_retry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/half_retry.h"
#include "lib/detect/look_layer.h"

typedef struct {
    pt_look_layer base; /* first: the layer's calls (look_layer.h); base.full, over a
                           back end with its half-size look, tracks every frame */
    void *second;       /* tl_spacing=square: made at the first eye looked at again */
    pt_config second_cfg;
    pt_track_options opt;
    int width, height;
    /* one call's second look: frame indices, results, overlays; their frames */
    pt_look_batch batch;
    pt_image **frames;
} tl_retry_state;

int pt_tl_retry_wanted(const pt_result *first)
{
    return first->status == PT_DETECT_OK && first->darker_core;
}

int pt_tl_retry_keeps(const pt_result *second)
{
    return second->status == PT_DETECT_OK;
}

int pt_tl_retry_on(const pt_config *cfg, const pt_track_options *opt)
{
    return (opt->algorithm & PT_ALG_TL) && cfg->tl.dark_retry &&
           cfg->tl.range == PT_TL_RANGE_EYE && cfg->tl.spacing == PT_TL_SPACING_LINEAR &&
           !opt->sequence;
}

static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err);

static pt_status dr_create(const pt_backend *inner, const pt_config *cfg,
                           const pt_track_options *opt, int width, int height, void **state,
                           pt_error *err)
{
    *state = NULL;
    tl_retry_state *s = calloc(1, sizeof *s);
    if (!s)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    s->base.inner = inner;
    s->base.look = second_look;
    s->base.stage = "tl_dark_retry";
    s->batch.eyes = opt->binocular ? 2 : 1;
    s->opt = *opt;
    s->width = width;
    s->height = height;
    s->base.on = pt_tl_retry_on(cfg, opt);
    s->second_cfg = *cfg;
    s->second_cfg.tl.spacing = PT_TL_SPACING_SQUARE;
    /* the second state's calls hold few frames: one stream is enough */
    s->opt.streams = 1;
    pt_status st = inner->create(cfg, opt, width, height, &s->base.full, err);
    if (st) {
        free(s);
        return st;
    }
    *state = s;
    return PT_OK;
}

static void dr_destroy(void *state)
{
    tl_retry_state *s = state;
    if (!s)
        return;
    s->base.inner->destroy(s->base.full);
    if (s->second)
        s->base.inner->destroy(s->second);
    pt_look_batch_free(&s->batch);
    free(s->frames);
    free(s);
}

/* Room for m frames' second look (pt_look_reserve_fn). */
static pt_status reserve(void *state, int m, pt_error *err)
{
    tl_retry_state *s = state;
    if (m <= s->batch.cap)
        return PT_OK;
    pt_image **frames = realloc(s->frames, (size_t)m * sizeof *frames);
    if (!frames)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for tl_dark_retry");
    s->frames = frames;
    return pt_look_batch_reserve(&s->batch, m, "tl_dark_retry", err);
}

static int frame_wanted(const void *state, const pt_image *f, const pt_result *res)
{
    const tl_retry_state *s = state;
    if (!f || !f->buf)
        return 0;
    for (int e = 0; e < (s->opt.binocular ? 2 : 1); e++)
        if (pt_tl_retry_wanted(&res[e]))
            return 1;
    return 0;
}

/* The second look at frames whose first results are complete. */
static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    tl_retry_state *s = state;
    int eyes = s->opt.binocular ? 2 : 1;
    int m = pt_look_pick(s, frame_wanted, reserve, &s->batch, frames, n, results, err);
    if (m <= 0)
        return m < 0 ? err->status : PT_OK;
    pt_status st = PT_OK;
    if (!s->second)
        st = s->base.inner->create(&s->second_cfg, &s->opt, s->width, s->height, &s->second, err);
    if (st)
        return st;
    for (int k = 0; k < m; k++)
        s->frames[k] = frames[s->batch.which[k]];
    pt_overlay *second_ov = overlays ? s->batch.overlays : NULL;
    if (second_ov)
        for (int k = 0; k < m * eyes; k++)
            pt_overlay_clear(&second_ov[k]);
    st = s->base.inner->track(s->second, s->frames, m, s->batch.results, second_ov, err);
    if (st)
        return st;
    for (int k = 0; k < m; k++) {
        int i = s->batch.which[k];
        for (int e = 0; e < eyes; e++) {
            pt_result *r = &results[(size_t)i * eyes + e];
            pt_result *q = &s->batch.results[(size_t)k * eyes + e];
            if (!pt_tl_retry_wanted(r))
                continue;
            s->base.looked++;
            double ms = r->ms + q->ms; /* each look's time as its back end gives it */
            if (pt_tl_retry_keeps(q)) {
                pt_look_take(r, q);
                s->base.kept++;
                if (overlays) { /* the second look's drawing, swapped in */
                    pt_overlay tmp = overlays[(size_t)i * eyes + e];
                    overlays[(size_t)i * eyes + e] = second_ov[(size_t)k * eyes + e];
                    second_ov[(size_t)k * eyes + e] = tmp;
                }
            }
            r->ms = ms;
        }
    }
    return PT_OK;
}

static pt_status omp_dr_create(const pt_config *cfg, const pt_track_options *opt, int width,
                               int height, void **state, pt_error *err)
{
    return dr_create(&pt_backend_omp_half_retry, cfg, opt, width, height, state, err);
}

static pt_status cuda_dr_create(const pt_config *cfg, const pt_track_options *opt, int width,
                                int height, void **state, pt_error *err)
{
    return dr_create(&pt_backend_cuda_half_retry, cfg, opt, width, height, state, err);
}

const pt_backend pt_backend_omp_tl_retry = {
    .name = "omp", .create = omp_dr_create, .destroy = dr_destroy, PT_LOOK_OMP_CALLS};

const pt_backend pt_backend_cuda_tl_retry = {
    .name = "cuda", .create = cuda_dr_create, .destroy = dr_destroy, PT_LOOK_CUDA_CALLS};
