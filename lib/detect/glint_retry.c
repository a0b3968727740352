/* Starburst's second look with reflections refilled around the pupil, over
 * any back end (glint_retry.h). */
#include "lib/detect/glint_retry.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/look_layer.h"
#include "lib/detect/tl_retry.h"
#include "lib/params/params_auto.h"
#include "omp/preprocess/preprocess.h"

/* The ring searched for reflections: from PT_GLINT_RING_IN to
 * PT_GLINT_RING_OUT radii around the first centre; the refilled box:
 * PT_GLINT_BOX radii. */
#define PT_GLINT_RING_IN 0.5
#define PT_GLINT_RING_OUT 1.5
#define PT_GLINT_BOX 1.5
/* The refill's steps along the circles, px of arc: 2 finds the first
 * unmasked pixel to within a pixel at half the cost of 1. */
#define PT_GLINT_ARC_STEP 2

/* The sides of the square cuts the second look sees (a state of the back
 * end each, made when first needed). */
#define PT_GLINT_SIDES 12
static const int glint_sides[PT_GLINT_SIDES] = {64,  96,  128,  192,  256,  384,
                                                512, 768, 1024, 1536, 2048, 3072};

/* One eye looked at again: frame slot k of the batch, its eye, the cut's
 * side (an index of glint_sides, or -1: the whole frame) and origin in
 * the frame. */
typedef struct {
    int k, eye, side, ox, oy;
} glint_look;

typedef struct {
    pt_look_layer base;      /* first: the layer's calls (look_layer.h); base.full, over the
                                back end with its other looks, tracks every frame */
    const pt_backend *plain; /* the back end without the other looks */
    pt_config cfg;
    pt_config cut_cfg[2];    /* per eye region: its sizes given explicitly, rays from the
                                cut's centre */
    void *cuts[2][PT_GLINT_SIDES]; /* plain's states for the cuts of each eye region */
    void *whole;             /* plain's state at the frame's size */
    pt_track_options opt;    /* the frames' options, one stream */
    int width, height;
    double below, margin;
    pt_glint_mask_params mask[2]; /* per eye region */
    /* one call's second look: frame indices, results, overlays; the looks,
     * their images, and the images and looks of one state's call */
    pt_look_batch batch;
    int look_cap;
    glint_look *looks;
    pt_image **imgs;
    pt_image **call_imgs;
    int *call_looks;
    pt_result *call_res;
    pt_overlay *call_ov;
} glint_state;

int pt_glint_retry_wanted(const pt_result *first, double below)
{
    return below > 0 && first->status == PT_DETECT_OK && first->has_circle &&
           first->confidence < below;
}

int pt_glint_retry_keeps(const pt_result *first, const pt_result *second, double margin)
{
    return second->status == PT_DETECT_OK && (second->has_circle || second->has_ellipse) &&
           second->confidence > first->confidence + margin;
}

/* Half the side of pt_glint_window's square around c before it is clipped
 * to the eye region: the refilled box and the room beside it. */
static double glint_half(const pt_circle *c, const pt_glint_mask_params *mp)
{
    return PT_GLINT_BOX * c->r + mp->kernel + mp->dilate + 2;
}

void pt_glint_window(const pt_image *frame, int ex0, int ew, const pt_circle *c,
                     const pt_glint_mask_params *mp, int *x0, int *y0, int *width, int *height)
{
    double half = glint_half(c, mp);
    double lo_x = floor(c->cx - half), hi_x = ceil(c->cx + half) + 1;
    double lo_y = floor(c->cy - half), hi_y = ceil(c->cy + half) + 1;
    int ax = lo_x < ex0 ? ex0 : (int)lo_x, bx = hi_x > ex0 + ew ? ex0 + ew : (int)hi_x;
    int ay = lo_y < 0 ? 0 : (int)lo_y, by = hi_y > frame->height ? frame->height : (int)hi_y;
    *x0 = ax;
    *y0 = ay;
    *width = bx > ax ? bx - ax : 0;
    *height = by > ay ? by - ay : 0;
}

size_t pt_glint_retry_scratch_bytes(int width, int height, const pt_glint_mask_params *mp)
{
    return (((size_t)width * height + 63) & ~(size_t)63) +
           pt_reflection_scratch_bytes(width, height, mp->kernel, mp->dilate);
}

long pt_glint_refill(const pt_image *frame, int ex0, int ew, const pt_circle *c,
                     const pt_glint_mask_params *mp, pt_image *dst, int dx0, int dy0,
                     uint8_t *mask, void *scratch)
{
    int x0, y0, w, h;
    pt_glint_window(frame, ex0, ew, c, mp, &x0, &y0, &w, &h);
    if (w <= 0 || h <= 0 || !(c->r > 0))
        return 0;
    pt_image view = {w, h, frame->stride, frame->buf + (size_t)y0 * frame->stride + x0};
    pt_reflection_mask(&view, mp->kernel, mp->threshold, mp->dilate, mask, w, scratch);
    double in = PT_GLINT_RING_IN * c->r, out = PT_GLINT_RING_OUT * c->r;
    long ring = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = x0 + x - c->cx, dy = y0 + y - c->cy, d2 = dx * dx + dy * dy;
            ring += mask[(size_t)y * w + x] && d2 >= in * in && d2 <= out * out;
        }
    if (!ring)
        return 0;
    /* the circles are walked within the refilled box, where the mask is the
     * whole frame's (beside the window's edges the opening sees less) */
    double box = PT_GLINT_BOX * c->r;
    int bx0 = (int)ceil(c->cx - box), by0 = (int)ceil(c->cy - box);
    int bx1 = (int)floor(c->cx + box) + 1, by1 = (int)floor(c->cy + box) + 1;
    bx0 = bx0 < x0 ? x0 : bx0;
    by0 = by0 < y0 ? y0 : by0;
    bx1 = bx1 > x0 + w ? x0 + w : bx1;
    by1 = by1 > y0 + h ? y0 + h : by1;
    if (bx1 <= bx0 || by1 <= by0)
        return 0;
    pt_arc_window win = {mask + (size_t)(by0 - y0) * w + (bx0 - x0), w, bx0, by0, bx1 - bx0,
                         by1 - by0};
    pt_arc_fill(frame, &win, c->cx, c->cy, box, mp->kernel + mp->dilate, PT_GLINT_ARC_STEP, dst,
                dx0, dy0);
    return ring;
}

static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err);

/* Eye region e of a frame of width w: its first column and width. */
static void eye_region(int w, int binocular, int e, int *ex0, int *ew)
{
    *ex0 = binocular && e ? w / 2 : 0;
    *ew = binocular ? (e ? w - w / 2 : w / 2) : w;
}

static pt_status gr_create(const pt_backend *inner, const pt_backend *plain,
                           const pt_config *cfg, const pt_track_options *opt, int width,
                           int height, void **state, pt_error *err)
{
    *state = NULL;
    glint_state *s = calloc(1, sizeof *s);
    if (!s)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    s->base.inner = inner;
    s->plain = plain;
    s->base.look = second_look;
    s->base.stage = "glint_retry";
    s->batch.eyes = opt->binocular ? 2 : 1;
    s->cfg = *cfg;
    s->opt = *opt;
    s->opt.streams = 1; /* the second states' calls hold few frames */
    s->width = width;
    s->height = height;
    s->below = cfg->retry.glint;
    s->margin = cfg->retry.glint_margin;
    s->base.on = s->below > 0 && !opt->sequence && (opt->algorithm & PT_ALG_STARBURST) &&
                 cfg->pre.reflection == PT_REFLECTION_INTERPOLATE;
    for (int e = 0; e < s->batch.eyes; e++) {
        int ex0, ew;
        eye_region(width, opt->binocular, e, &ex0, &ew);
        pt_auto_params autos;
        pt_resolve_auto(cfg, ew, height, &autos);
        s->mask[e].kernel = autos.reflection_kernel;
        s->mask[e].dilate = autos.reflection_dilate;
        s->mask[e].threshold = cfg->pre.reflection_threshold;
        pt_config *c = &s->cut_cfg[e];
        *c = *cfg;
        c->pre.min_radius = autos.min_radius;
        c->pre.max_radius = autos.max_radius;
        c->pre.reflection_kernel = autos.reflection_kernel;
        c->pre.reflection_dilate = autos.reflection_dilate;
        c->starburst.ray_length = autos.ray_length;
        if (c->starburst.edge_gap <= 0)
            c->starburst.edge_gap = pt_auto_edge_gap(ew, height);
        c->starburst.start = PT_START_CENTRE;
        c->starburst.start_x = c->starburst.start_y = -1;
    }
    pt_status st = inner->create(cfg, opt, width, height, &s->base.full, err);
    if (st) {
        free(s);
        return st;
    }
    *state = s;
    return PT_OK;
}

static void gr_destroy(void *state)
{
    glint_state *s = state;
    if (!s)
        return;
    s->base.inner->destroy(s->base.full);
    for (int e = 0; e < 2; e++)
        for (int j = 0; j < PT_GLINT_SIDES; j++)
            if (s->cuts[e][j])
                s->plain->destroy(s->cuts[e][j]);
    if (s->whole)
        s->plain->destroy(s->whole);
    for (int i = 0; i < s->look_cap; i++)
        pt_image_destroy(s->imgs[i]);
    for (int i = 0; i < s->look_cap * 2; i++) /* call_ov: two eyes a look */
        pt_overlay_free(&s->call_ov[i]);
    pt_look_batch_free(&s->batch);
    free(s->looks);
    free(s->imgs);
    free(s->call_imgs);
    free(s->call_looks);
    free(s->call_res);
    free(s->call_ov);
    free(s);
}

/* Room for m frames' second look, m x eyes looks (pt_look_reserve_fn). */
static pt_status reserve(void *state, int m, pt_error *err)
{
    glint_state *s = state;
    int want = m * s->batch.eyes, cap = s->look_cap;
    if (want > cap) {
        glint_look *looks = realloc(s->looks, (size_t)want * sizeof *looks);
        if (looks)
            s->looks = looks;
        pt_image **imgs = realloc(s->imgs, (size_t)want * sizeof *imgs);
        if (imgs)
            s->imgs = imgs;
        pt_image **call_imgs = realloc(s->call_imgs, (size_t)want * sizeof *call_imgs);
        if (call_imgs)
            s->call_imgs = call_imgs;
        int *call_looks = realloc(s->call_looks, (size_t)want * sizeof *call_looks);
        if (call_looks)
            s->call_looks = call_looks;
        pt_result *call_res = realloc(s->call_res, (size_t)want * 2 * sizeof *call_res);
        if (call_res)
            s->call_res = call_res;
        pt_overlay *call_ov = realloc(s->call_ov, (size_t)want * 2 * sizeof *call_ov);
        if (call_ov)
            s->call_ov = call_ov;
        if (!looks || !imgs || !call_imgs || !call_looks || !call_res || !call_ov)
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for glint_retry");
        for (int i = cap; i < want; i++)
            imgs[i] = NULL;
        memset(call_ov + (size_t)cap * 2, 0, (size_t)(want - cap) * 2 * sizeof *call_ov);
        s->look_cap = want;
    }
    return pt_look_batch_reserve(&s->batch, m, "glint_retry", err);
}

static int frame_wanted(const void *state, const pt_image *f, const pt_result *res)
{
    const glint_state *s = state;
    if (!f || !f->buf)
        return 0;
    for (int e = 0; e < s->batch.eyes; e++)
        if (pt_glint_retry_wanted(&res[e], s->below))
            return 1;
    return 0;
}

/* Look l's image: the cut (or the whole frame) with the reflections near
 * its first pupil c refilled. Returns 1 when some were, 0 when none lie in
 * the ring (no look), -1 when out of memory. */
static int make_look(glint_state *s, int l, const pt_image *f, const pt_circle *c)
{
    glint_look *lk = &s->looks[l];
    int e = lk->eye, ex0, ew;
    eye_region(f->width, s->opt.binocular, e, &ex0, &ew);
    const pt_glint_mask_params *mp = &s->mask[e];
    int x0, y0, w, h;
    pt_glint_window(f, ex0, ew, c, mp, &x0, &y0, &w, &h);
    /* the smallest cut that holds the window and fits the eye region */
    double need = 2.0 * glint_half(c, mp) + 1;
    lk->side = -1;
    for (int j = 0; j < PT_GLINT_SIDES && lk->side < 0; j++)
        if (glint_sides[j] >= need && glint_sides[j] <= ew && glint_sides[j] <= f->height)
            lk->side = j;
    int cw = f->width, ch = f->height;
    lk->ox = lk->oy = 0;
    if (lk->side >= 0) {
        cw = ch = glint_sides[lk->side];
        int ox = (int)floor(c->cx + 0.5) - cw / 2, oy = (int)floor(c->cy + 0.5) - ch / 2;
        lk->ox = ox < ex0 ? ex0 : ox > ex0 + ew - cw ? ex0 + ew - cw : ox;
        lk->oy = oy < 0 ? 0 : oy > f->height - ch ? f->height - ch : oy;
    }
    pt_image *img = s->imgs[l];
    if (!img || img->width != cw || img->height != ch) {
        pt_image_destroy(img);
        img = s->imgs[l] = pt_image_create(cw, ch);
        if (!img)
            return -1;
    }
    for (int y = 0; y < ch; y++)
        memcpy(img->buf + (size_t)y * img->stride,
               f->buf + (size_t)(lk->oy + y) * f->stride + lk->ox, (size_t)cw);
    uint8_t *mask = w > 0 && h > 0 ? malloc(pt_glint_retry_scratch_bytes(w, h, mp)) : NULL;
    if (w > 0 && h > 0 && !mask)
        return -1;
    long ring = mask ? pt_glint_refill(f, ex0, ew, c, mp, img, lk->ox, lk->oy, mask,
                                       mask + (((size_t)w * h + 63) & ~(size_t)63))
                     : 0;
    free(mask);
    return ring > 0;
}

/* An eye's result and drawing from a look at a cut at (ox, oy). */
static void from_cut(pt_result *r, pt_overlay *ov, int ox, int oy)
{
    if (r->has_circle) {
        r->circle.cx += ox;
        r->circle.cy += oy;
    }
    if (r->has_ellipse) {
        r->ellipse.cx += ox;
        r->ellipse.cy += oy;
    }
    for (int p = 0; ov && p < ov->count; p++) {
        ov->points[p].x += (float)ox;
        ov->points[p].y += (float)oy;
    }
}

/* The looks of one state (cuts of eye region e and side j, or the whole
 * frame for j < 0), tracked in one call; each kept where it is more
 * confident (pt_glint_retry_keeps). */
static pt_status track_group(glint_state *s, int nl, int e, int j, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    int eyes = s->batch.eyes, count = 0;
    for (int l = 0; l < nl; l++)
        if (s->looks[l].side == j && (j < 0 || s->looks[l].eye == e)) {
            s->call_looks[count] = l;
            s->call_imgs[count++] = s->imgs[l];
        }
    if (!count)
        return PT_OK;
    void **st = j < 0 ? &s->whole : &s->cuts[e][j];
    pt_track_options opt = s->opt;
    if (j >= 0)
        opt.binocular = 0;
    int call_eyes = opt.binocular ? 2 : 1;
    if (!*st) {
        int w = j < 0 ? s->width : glint_sides[j], h = j < 0 ? s->height : glint_sides[j];
        pt_status c = s->plain->create(j < 0 ? &s->cfg : &s->cut_cfg[e], &opt, w, h, st, err);
        if (c)
            return c;
    }
    pt_overlay *ov = overlays ? s->call_ov : NULL;
    for (int i = 0; ov && i < count * call_eyes; i++)
        pt_overlay_clear(&ov[i]);
    pt_status c = s->plain->track(*st, s->call_imgs, count, s->call_res, ov, err);
    if (c)
        return c;
    for (int i = 0; i < count; i++) {
        const glint_look *lk = &s->looks[s->call_looks[i]];
        int fi = s->batch.which[lk->k], slot = i * call_eyes + (j < 0 ? lk->eye : 0);
        pt_result *r = &results[(size_t)fi * eyes + lk->eye];
        pt_result *q = &s->call_res[slot];
        pt_overlay *qo = ov ? &ov[slot] : NULL;
        from_cut(q, qo, lk->ox, lk->oy);
        s->base.looked++;
        double ms = r->ms + q->ms; /* each look's time as its back end gives it */
        if (pt_glint_retry_keeps(r, q, s->margin)) {
            pt_look_take(r, q);
            s->base.kept++;
            if (overlays) { /* the second look's drawing, swapped in */
                pt_overlay tmp = overlays[(size_t)fi * eyes + lk->eye];
                overlays[(size_t)fi * eyes + lk->eye] = *qo;
                *qo = tmp;
            }
        }
        r->ms = ms;
    }
    return PT_OK;
}

/* The second look at frames whose first results are complete. */
static pt_status second_look(void *state, pt_image *const *frames, int n, pt_result *results,
                             pt_overlay *overlays, pt_error *err)
{
    glint_state *s = state;
    int eyes = s->batch.eyes;
    int m = pt_look_pick(s, frame_wanted, reserve, &s->batch, frames, n, results, err);
    if (m <= 0)
        return m < 0 ? err->status : PT_OK;
    int nl = 0;
    for (int k = 0; k < m; k++)
        for (int e = 0; e < eyes; e++)
            if (pt_glint_retry_wanted(&results[(size_t)s->batch.which[k] * eyes + e], s->below))
                s->looks[nl++] = (glint_look){k, e, -1, 0, 0};
    int threads = s->opt.threads > 0 ? s->opt.threads : omp_get_max_threads();
    int failed = 0;
    unsigned char *refilled = malloc((size_t)nl);
    if (!refilled)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for glint_retry");
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) if (nl > 1) reduction(| : failed)
    for (int l = 0; l < nl; l++) {
        int fi = s->batch.which[s->looks[l].k];
        int any = make_look(s, l, frames[fi], &results[(size_t)fi * eyes + s->looks[l].eye].circle);
        refilled[l] = any > 0;
        failed |= any < 0;
    }
    /* only the eyes with reflections refilled are looked at again */
    int refills = 0;
    for (int l = 0; l < nl; l++)
        if (refilled[l]) {
            glint_look lk = s->looks[l];
            pt_image *img = s->imgs[refills];
            s->imgs[refills] = s->imgs[l];
            s->imgs[l] = img;
            s->looks[refills++] = lk;
        }
    free(refilled);
    if (failed)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for glint_retry");
    pt_status st = track_group(s, refills, 0, -1, results, overlays, err);
    for (int e = 0; e < eyes && !st; e++)
        for (int j = 0; j < PT_GLINT_SIDES && !st; j++)
            st = track_group(s, refills, e, j, results, overlays, err);
    return st;
}

static pt_status omp_gr_create(const pt_config *cfg, const pt_track_options *opt, int width,
                               int height, void **state, pt_error *err)
{
    return gr_create(&pt_backend_omp_tl_retry, &pt_backend_omp, cfg, opt, width, height, state,
                     err);
}

static pt_status cuda_gr_create(const pt_config *cfg, const pt_track_options *opt, int width,
                                int height, void **state, pt_error *err)
{
    return gr_create(&pt_backend_cuda_tl_retry, &pt_backend_cuda, cfg, opt, width, height,
                     state, err);
}

const pt_backend pt_backend_omp_glint_retry = {
    .name = "omp", .create = omp_gr_create, .destroy = gr_destroy, PT_LOOK_OMP_CALLS};

const pt_backend pt_backend_cuda_glint_retry = {
    .name = "cuda", .create = cuda_gr_create, .destroy = gr_destroy, PT_LOOK_CUDA_CALLS};
