/* The second look at half resolution over any back end (half_retry.h). */
#include "lib/detect/half_retry.h"
#include "lib/detect/look_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#include <string.h>

typedef struct {
    pt_look_layer base;        /* first: the layer's calls (look_layer.h); base.full
                                  is the inner back end at the frames' size */
    void *half;                /* at half size: made at create where the inner back end
                                  looks ahead, else at the first second look */
    pt_config half_cfg;        /* cfg with its pixel sizes halved */
    pt_track_options opt;
    int width, height;
    int kept;                  /* the inner back end keeps the reduced frames (track_halves) */
    double below, margin;
    /* one call's second look: frame indices, results, overlays; their halves */
    pt_look_batch batch;
    pt_image **halves;
    unsigned char *pinned;     /* halves[k] page-locked through the back end */
} retry_state;

void pt_image_halve(const pt_image *src, pt_image *dst)
{
    int w = src->width / 2, h = src->height / 2;
    for (int y = 0; y < h; y++) {
        const uint8_t *a = src->buf + (size_t)(2 * y) * src->stride;
        const uint8_t *b = a + src->stride;
        uint8_t *o = dst->buf + (size_t)y * dst->stride;
        for (int x = 0; x < w; x++)
            o[x] = (uint8_t)((a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1] + 2) >> 2);
    }
}

void pt_result_from_half(pt_result *r)
{
    if (r->has_circle) {
        r->circle.cx = 2 * r->circle.cx + 0.5;
        r->circle.cy = 2 * r->circle.cy + 0.5;
        r->circle.r *= 2;
    }
    if (r->has_ellipse) {
        r->ellipse.cx = 2 * r->ellipse.cx + 0.5;
        r->ellipse.cy = 2 * r->ellipse.cy + 0.5;
        r->ellipse.a *= 2;
        r->ellipse.b *= 2;
    }
}

int pt_half_retry_wanted(const pt_result *first, double below)
{
    return below > 0 && (first->status == PT_DETECT_NOTFOUND ||
                         (first->status == PT_DETECT_OK && first->confidence < below));
}

int pt_half_retry_keeps(const pt_result *first, const pt_result *second, double margin)
{
    if (second->status != PT_DETECT_OK || !(second->has_circle || second->has_ellipse))
        return 0;
    double r = second->has_ellipse ? (second->ellipse.a + second->ellipse.b) / 2
                                   : second->circle.r;
    if (r < 2 * PT_HALF_MIN_RADIUS)
        return 0;
    return first->status != PT_DETECT_OK || second->confidence > first->confidence + margin;
}

/* Pixel sizes given with -p, halved for the half-size frame (0 or -1: auto). */
static void halve_config(pt_config *c)
{
    if (c->pre.min_radius > 0)
        c->pre.min_radius = c->pre.min_radius / 2 > 0 ? c->pre.min_radius / 2 : 1;
    if (c->pre.max_radius > 0)
        c->pre.max_radius = c->pre.max_radius / 2 > 0 ? c->pre.max_radius / 2 : 1;
    if (c->pre.reflection_kernel > 0)
        c->pre.reflection_kernel = (c->pre.reflection_kernel / 2) | 1;
    if (c->pre.reflection_dilate > 0)
        c->pre.reflection_dilate = (c->pre.reflection_dilate / 2) | 1;
    if (c->starburst.start_x >= 0)
        c->starburst.start_x = (c->starburst.start_x - 0.5) / 2;
    if (c->starburst.start_y >= 0)
        c->starburst.start_y = (c->starburst.start_y - 0.5) / 2;
    if (c->starburst.start_x < 0 || c->starburst.start_y < 0)
        c->starburst.start_x = c->starburst.start_y = -1;
}

static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err);

static pt_status retry_create(const pt_backend *inner, const pt_config *cfg,
                              const pt_track_options *opt, int width, int height,
                              void **state, pt_error *err)
{
    *state = NULL;
    retry_state *s = calloc(1, sizeof *s);
    if (!s)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    s->base.inner = inner;
    s->base.look = second_look;
    s->base.stage = "half_retry";
    s->batch.eyes = opt->binocular ? 2 : 1;
    s->opt = *opt;
    s->opt.keep_halves = 0; /* the half-size state's own calls, */
    s->opt.urgent = 1;      /* waited for while the next batch is in flight */
    s->width = width;
    s->height = height;
    s->below = cfg->retry.below;
    s->margin = cfg->retry.margin;
    int eye_width = opt->binocular ? width / 2 : width;
    s->base.on = s->below > 0 && !opt->sequence &&
                 (opt->algorithm & (PT_ALG_STARBURST | PT_ALG_TL)) &&
                 eye_width / 2 >= PT_HALF_MIN_SIDE && height / 2 >= PT_HALF_MIN_SIDE;
    /* A back end that holds the frames elsewhere (the GPU) reduces them
     * there, from the copy it made, instead of copying reduced ones. */
    s->kept = s->base.on && inner->track_halves != NULL;
    pt_track_options full_opt = *opt;
    full_opt.keep_halves = s->kept;
    pt_status st = inner->create(cfg, &full_opt, width, height, &s->base.full, err);
    if (st) {
        free(s);
        return st;
    }
    s->half_cfg = *cfg;
    halve_config(&s->half_cfg);
    /* Such a back end can also start each look as soon as the frame's
     * first results are in, while it goes on with the rest of the call;
     * the half-size state is then made now. Where it cannot, the looks
     * are made when the call's results are complete. */
    if (s->kept && inner->look_ahead) {
        pt_error ignored; /* without room for it now, it is made when needed */
        pt_error_clear(&ignored);
        if (inner->create(&s->half_cfg, &s->opt, width / 2, height / 2, &s->half, &ignored) ==
            PT_OK)
            inner->look_ahead(s->base.full, s->half, s->below, &ignored);
        else
            s->half = NULL;
    }
    *state = s;
    return PT_OK;
}

/* Free reduced frame k (unpinned first). */
static void drop_half(retry_state *s, int k)
{
    if (s->pinned[k] && s->base.inner->unpin)
        s->base.inner->unpin(s->half, &s->halves[k], 1);
    pt_image_destroy(s->halves[k]);
    s->halves[k] = NULL;
    s->pinned[k] = 0;
}

/* Reduced frame k at w x h: made once and kept, page-locked where the back
 * end copies frames to a device (its copies then go straight from it); a
 * frame that cannot be page-locked is copied as any other. */
static pt_status make_half(retry_state *s, int k, int w, int h, pt_error *err)
{
    pt_image *img = s->halves[k];
    if (img && img->width == w && img->height == h)
        return PT_OK;
    drop_half(s, k);
    img = s->halves[k] = pt_image_create(w, h);
    if (!img)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for half_retry");
    pt_error ignored;
    pt_error_clear(&ignored);
    const pt_backend *inner = s->base.inner;
    s->pinned[k] = inner->pin && inner->pin(s->half, &s->halves[k], 1, &ignored) == PT_OK;
    return PT_OK;
}

static void retry_destroy(void *state)
{
    retry_state *s = state;
    if (!s)
        return;
    for (int k = 0; k < s->batch.cap; k++)
        drop_half(s, k);
    s->base.inner->destroy(s->base.full);
    if (s->half)
        s->base.inner->destroy(s->half);
    pt_look_batch_free(&s->batch);
    free(s->halves);
    free(s->pinned);
    free(s);
}

/* Room for m frames' second look (pt_look_reserve_fn). */
static pt_status reserve(void *state, int m, pt_error *err)
{
    retry_state *s = state;
    int cap = s->batch.cap;
    if (m <= cap)
        return PT_OK;
    pt_image **halves = realloc(s->halves, (size_t)m * sizeof *halves);
    if (halves)
        s->halves = halves;
    unsigned char *pinned = realloc(s->pinned, (size_t)m);
    if (pinned)
        s->pinned = pinned;
    if (!halves || !pinned)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for half_retry");
    for (int k = cap; k < m; k++) {
        halves[k] = NULL;
        pinned[k] = 0;
    }
    return pt_look_batch_reserve(&s->batch, m, "half_retry", err);
}

/* Replace an eye's drawing by the second look's, scaled to the frame. */
static void take_overlay(pt_overlay *dst, const pt_overlay *src)
{
    pt_overlay_clear(dst);
    for (int p = 0; p < src->count; p++)
        pt_overlay_add(dst, 2 * src->points[p].x + 0.5f, 2 * src->points[p].y + 0.5f);
}

int pt_half_retry_frame_wanted(int width, int height, int eyes, const pt_result *first,
                               double below)
{
    if (width / (2 * eyes) < PT_HALF_MIN_SIDE || height / 2 < PT_HALF_MIN_SIDE)
        return 0;
    for (int e = 0; e < eyes; e++)
        if (pt_half_retry_wanted(&first[e], below))
            return 1;
    return 0;
}

static int frame_wanted(const void *state, const pt_image *f, const pt_result *res)
{
    const retry_state *s = state;
    return f && f->buf &&
           pt_half_retry_frame_wanted(f->width, f->height, s->opt.binocular ? 2 : 1, res,
                                      s->below);
}

/* The second look at frames whose first results are complete. */
static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    retry_state *s = state;
    int eyes = s->opt.binocular ? 2 : 1;
    int m = pt_look_pick(s, frame_wanted, reserve, &s->batch, frames, n, results, err);
    if (m <= 0)
        return m < 0 ? err->status : PT_OK;
    pt_status st = PT_OK;
    if (!s->half)
        st = s->base.inner->create(&s->half_cfg, &s->opt, s->width / 2, s->height / 2,
                                   &s->half, err);
    if (st)
        return st;
    pt_overlay *half_ov = overlays ? s->batch.overlays : NULL;
    st = PT_ERR_UNAVAILABLE;
    if (s->kept) {
        pt_error kept_err;
        pt_error_clear(&kept_err);
        st = s->base.inner->track_halves(s->half, s->base.full, results, frames, s->batch.which, m,
                                         s->batch.results, half_ov, &kept_err);
        if (st && st != PT_ERR_UNAVAILABLE) {
            *err = kept_err;
            return st;
        }
    }
    if (st) { /* reduced here and tracked as any frames */
        for (int k = 0; k < m; k++) {
            const pt_image *f = frames[s->batch.which[k]];
            st = make_half(s, k, f->width / 2, f->height / 2, err);
            if (st)
                return st;
        }
        int threads = s->opt.threads > 0 ? s->opt.threads : omp_get_max_threads();
#pragma omp parallel for num_threads(threads) schedule(static) if (m > 1)
        for (int k = 0; k < m; k++)
            pt_image_halve(frames[s->batch.which[k]], s->halves[k]);
        st = s->base.inner->track(s->half, s->halves, m, s->batch.results, half_ov, err);
        if (st)
            return st;
    }
    for (int k = 0; k < m; k++) {
        int i = s->batch.which[k];
        for (int e = 0; e < eyes; e++) {
            pt_result *r = &results[(size_t)i * eyes + e];
            pt_result *q = &s->batch.results[(size_t)k * eyes + e];
            if (!pt_half_retry_wanted(r, s->below))
                continue;
            s->base.looked++;
            pt_result_from_half(q);
            double ms = r->ms + q->ms; /* each look's time as its back end gives it */
            if (pt_half_retry_keeps(r, q, s->margin)) {
                pt_look_take(r, q);
                s->base.kept++;
                if (overlays)
                    take_overlay(&overlays[(size_t)i * eyes + e],
                                 &s->batch.overlays[(size_t)k * eyes + e]);
            }
            r->ms = ms;
        }
    }
    return PT_OK;
}

static pt_status omp_retry_create(const pt_config *cfg, const pt_track_options *opt, int width,
                                  int height, void **state, pt_error *err)
{
    return retry_create(&pt_backend_omp, cfg, opt, width, height, state, err);
}

static pt_status cuda_retry_create(const pt_config *cfg, const pt_track_options *opt,
                                   int width, int height, void **state, pt_error *err)
{
    return retry_create(&pt_backend_cuda, cfg, opt, width, height, state, err);
}

const pt_backend pt_backend_omp_half_retry = {
    .name = "omp", .create = omp_retry_create, .destroy = retry_destroy, PT_LOOK_OMP_CALLS};

const pt_backend pt_backend_cuda_half_retry = {
    .name = "cuda", .create = cuda_retry_create, .destroy = retry_destroy, PT_LOOK_CUDA_CALLS};
