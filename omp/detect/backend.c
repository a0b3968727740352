/* The OpenMP back end: frames in parallel (schedule(dynamic,1)), each frame
 * preprocessed once and then searched per eye by the selected detector. Each
 * worker owns an arena, so steady-state frames do not allocate; the RANSAC
 * sample table is made once and shared read-only. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/pupil_score.h"
#include "lib/params/params_auto.h"
#include "omp/detect/detect.h"
#include "omp/preprocess/preprocess.h"

/* A frame after preprocessing: what every eye's detector reads. */
typedef struct prepared_frame {
    pt_image smoothed;
    uint8_t *mask;
    int mask_valid;
    pt_auto_params autos[2];
    pt_roi rois[2];
    double ms;
    int failed;
} prepared_frame;

typedef struct {
    pt_config cfg;
    pt_track_options opt;
    pt_omp_detector detect;
    int threads;
    pt_arena *arenas; /* one per worker (or per frame slot in --sequence mode) */
    pt_ransac_table ransac;
    prepared_frame *slots; /* --sequence: one prepared frame per slot */
    /* --sequence: each eye's last found centre, carried across track() calls. */
    int have_previous[2];
    pt_point previous[2];
    /* bench's per-stage report: preprocessing and detection ms, summed */
    double stage_ms[2];
    long stage_frames;
} omp_state;

static pt_omp_detector detector_for(pt_algorithm alg)
{
    switch (alg) {
    case PT_ALG_STARBURST: return pt_omp_starburst;
    case PT_ALG_TL: return pt_omp_tl;
    case PT_ALG_HOUGH: return pt_omp_hough;
    default: return NULL;
    }
}

static void omp_destroy(void *state)
{
    omp_state *s = state;
    if (!s)
        return;
    for (int i = 0; s->arenas && i < s->threads; i++)
        pt_arena_free(&s->arenas[i]);
    free(s->arenas);
    free(s->slots);
    pt_ransac_table_free(&s->ransac);
    free(s);
}

static pt_status omp_create(const pt_config *cfg, const pt_track_options *opt, int width,
                            int height, void **state, pt_error *err)
{
    *state = NULL;
    pt_omp_detector detect = detector_for(opt->algorithm);
    if (!detect)
        return pt_error_set(err, PT_ERR_PARAM, "-a", "the omp back end runs one detector at a time");
    omp_state *s = calloc(1, sizeof *s);
    if (!s)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    s->cfg = *cfg;
    s->opt = *opt;
    s->detect = detect;
    s->threads = opt->threads > 0 ? opt->threads : omp_get_num_procs();
    s->arenas = calloc((size_t)s->threads, sizeof *s->arenas);
    s->slots = calloc((size_t)s->threads, sizeof *s->slots);
    if (!s->arenas || !s->slots) {
        free(s->arenas);
        free(s->slots);
        free(s);
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    }
    for (int i = 0; i < s->threads; i++)
        pt_arena_init(&s->arenas[i]);
    if (pt_ransac_table_create(&s->ransac, cfg->pre.ransac_samples,
                               cfg->pre.ransac_sample_size, PT_RANSAC_SEED, err)) {
        omp_destroy(s);
        return err->status;
    }
    /* Grow each arena to a frame's working size now rather than on the first frame. */
    size_t frame = (size_t)(width > 0 ? width : 1) * (height > 0 ? height : 1);
    for (int i = 0; i < s->threads; i++) {
        if (!pt_arena_alloc(&s->arenas[i], 8 * frame)) {
            omp_destroy(s);
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %d workspaces",
                                s->threads);
        }
        pt_arena_reset(&s->arenas[i]);
    }
    *state = s;
    return PT_OK;
}


static void frame_error(pt_result *res, int eyes, const char *binocular_labels,
                        const char *what)
{
    for (int e = 0; e < eyes; e++) {
        memset(&res[e], 0, sizeof res[e]);
        res[e].status = PT_DETECT_ERROR;
        res[e].eye = binocular_labels ? binocular_labels[e] : 0;
        snprintf(res[e].message, sizeof res[e].message, "%s", what);
    }
}

static int prepare(const omp_state *s, const pt_image *frame, pt_arena *arena,
                   prepared_frame *p, pt_error *err)
{
    double t0 = omp_get_wtime();
    int eyes = s->opt.binocular ? 2 : 1;
    int w = frame->width, h = frame->height;
    for (int e = 0; e < eyes; e++) {
        int x0 = s->opt.binocular ? e * (w / 2) : 0;
        int rw = s->opt.binocular ? (e ? w - w / 2 : w / 2) : w;
        pt_roi roi = {x0, 0, rw, h};
        p->rois[e] = roi;
        pt_resolve_auto(&s->cfg, rw, h, &p->autos[e]);
    }
    p->smoothed.width = w;
    p->smoothed.height = h;
    p->smoothed.stride = (w + 63) & ~63;
    p->smoothed.buf = pt_arena_alloc(arena, (size_t)p->smoothed.stride * h);
    p->mask = pt_arena_alloc(arena, (size_t)p->smoothed.stride * h);
    if (!p->smoothed.buf || !p->mask) {
        pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the preprocessed frame");
        return 1;
    }
    /* One preprocessing for the whole frame; eyes share its (left-eye) kernel sizes. */
    if (pt_preprocess(frame, &s->cfg.pre, p->autos[0].reflection_kernel,
                      p->autos[0].reflection_dilate, &p->smoothed, p->mask, &p->mask_valid,
                      arena, err))
        return 1;
    p->ms = (omp_get_wtime() - t0) * 1e3;
    return 0;
}

static pt_point start_point(const omp_state *s, const pt_image *smoothed, const pt_roi *roi,
                            const pt_auto_params *autos, int have_prev, pt_point prev,
                            pt_arena *arena)
{
    const pt_starburst_params *sb = &s->cfg.starburst;
    if (have_prev)
        return prev;
    if (sb->start_x >= 0 && sb->start_y >= 0) {
        pt_point p = {(float)(roi->x0 + sb->start_x), (float)(roi->y0 + sb->start_y)};
        return p;
    }
    if (sb->start == PT_START_DARK && s->opt.algorithm == PT_ALG_STARBURST)
        return pt_darkest_point(smoothed, roi->x0, roi->y0, roi->width, roi->height,
                                autos->min_radius, arena);
    pt_point c = {(float)(roi->x0 + (roi->width - 1) / 2.0),
                  (float)(roi->y0 + (roi->height - 1) / 2.0)};
    return c;
}

/* Detect every eye of a prepared frame; prev/have_prev are read and, in
 * --sequence mode, updated. */
static void detect_eyes(omp_state *s, const pt_image *frame, prepared_frame *p,
                        pt_arena *arena, pt_result *res, pt_overlay *ovs,
                        int *have_prev, pt_point *prev)
{
    double t0 = omp_get_wtime();
    int eyes = s->opt.binocular ? 2 : 1;
    for (int e = 0; e < eyes; e++) {
        pt_eye_input in;
        in.raw = frame;
        in.smoothed = &p->smoothed;
        in.reflection_mask = p->mask_valid ? p->mask : NULL;
        in.roi = p->rois[e];
        in.min_radius = p->autos[e].min_radius;
        in.max_radius = p->autos[e].max_radius;
        in.ransac = &s->ransac;
        in.start = start_point(s, &p->smoothed, &in.roi, &p->autos[e],
                               s->opt.sequence && have_prev[e], prev[e], arena);
        pt_overlay *ov = s->opt.overlay && ovs ? &ovs[e] : NULL;
        pt_overlay_clear(ov);
        memset(&res[e], 0, sizeof res[e]);
        pt_error err;
        pt_error_clear(&err);
        if (s->detect(&in, &s->cfg, &s->opt, arena, &res[e], ov, &err)) {
            memset(&res[e], 0, sizeof res[e]);
            res[e].status = PT_DETECT_ERROR;
            pt_error_format(&err, res[e].message, sizeof res[e].message);
        }
        res[e].eye = s->opt.binocular ? "LR"[e] : 0;
        /* the reported confidence: lib/detect/pupil_score.h */
        res[e].confidence = pt_pupil_confidence(&p->smoothed, res[e].status == PT_DETECT_OK,
                                                res[e].has_circle, res[e].has_ellipse,
                                                &res[e].circle, &res[e].ellipse);
        /* Only a found pupil seeds the next frame; otherwise it starts afresh. */
        have_prev[e] = res[e].status == PT_DETECT_OK;
        prev[e].x = (float)res[e].circle.cx;
        prev[e].y = (float)res[e].circle.cy;
    }
    double detect_ms = (omp_get_wtime() - t0) * 1e3, ms = p->ms + detect_ms;
    for (int e = 0; e < eyes; e++)
        res[e].ms = ms;
#pragma omp atomic
    s->stage_ms[0] += p->ms;
#pragma omp atomic
    s->stage_ms[1] += detect_ms;
#pragma omp atomic
    s->stage_frames += 1;
}

static int frame_usable(const pt_image *f)
{
    return f && f->buf && f->width > 0 && f->height > 0 && f->stride >= f->width;
}

static pt_status omp_track(void *state, pt_image *const *frames, int n, pt_result *results,
                           pt_overlay *overlays, pt_error *err)
{
    omp_state *s = state;
    int eyes = s->opt.binocular ? 2 : 1;
    const char *labels = s->opt.binocular ? "LR" : NULL;
    (void)err; /* per-frame failures go into the results */

    if (!s->opt.sequence) {
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1)
        for (int i = 0; i < n; i++) {
            pt_arena *arena = &s->arenas[omp_get_thread_num()];
            pt_result *res = &results[(size_t)i * eyes];
            pt_overlay *ovs = overlays ? &overlays[(size_t)i * eyes] : NULL;
            pt_arena_reset(arena);
            if (!frame_usable(frames[i]) || (s->opt.binocular && frames[i]->width < 2)) {
                frame_error(res, eyes, labels, "empty or invalid frame");
                continue;
            }
            prepared_frame p;
            pt_error ferr;
            pt_error_clear(&ferr);
            if (prepare(s, frames[i], arena, &p, &ferr)) {
                char msg[600];
                frame_error(res, eyes, labels, pt_error_format(&ferr, msg, sizeof msg));
                continue;
            }
            int have_prev[2] = {0, 0};
            pt_point prev[2] = {{0, 0}, {0, 0}};
            detect_eyes(s, frames[i], &p, arena, res, ovs, have_prev, prev);
        }
        return PT_OK;
    }

    /* --sequence: frames depend on their predecessor, so detection runs in frame
     * order; preprocessing (the bulk of the time) still runs a chunk of frames
     * in parallel, one arena per slot. Results do not depend on -j. */
    prepared_frame *slots = s->slots;
    for (int base = 0; base < n; base += s->threads) {
        int count = n - base < s->threads ? n - base : s->threads;
#pragma omp parallel for num_threads(s->threads) schedule(dynamic, 1)
        for (int k = 0; k < count; k++) {
            int i = base + k;
            pt_arena_reset(&s->arenas[k]);
            slots[k].failed = 1;
            if (!frame_usable(frames[i]) || (s->opt.binocular && frames[i]->width < 2)) {
                frame_error(&results[(size_t)i * eyes], eyes, labels, "empty or invalid frame");
                continue;
            }
            pt_error ferr;
            pt_error_clear(&ferr);
            if (prepare(s, frames[i], &s->arenas[k], &slots[k], &ferr)) {
                char msg[600];
                frame_error(&results[(size_t)i * eyes], eyes, labels,
                            pt_error_format(&ferr, msg, sizeof msg));
                continue;
            }
            slots[k].failed = 0;
        }
        for (int k = 0; k < count; k++) {
            int i = base + k;
            if (slots[k].failed)
                continue;
            detect_eyes(s, frames[i], &slots[k], &s->arenas[k], &results[(size_t)i * eyes],
                        overlays ? &overlays[(size_t)i * eyes] : NULL, s->have_previous,
                        s->previous);
        }
    }
    return PT_OK;
}

/* Stage times are per frame on one thread; with -j N they run N at a time. */
static void omp_stage_report(void *state, char *buf, int size)
{
    const omp_state *s = state;
    double n = s->stage_frames ? (double)s->stage_frames : 1.0;
    snprintf(buf, (size_t)size, "  %-14s %8.4f ms/frame\n  %-14s %8.4f ms/frame\n",
             "preprocess", s->stage_ms[0] / n, pt_algorithm_name(s->opt.algorithm),
             s->stage_ms[1] / n);
}

const pt_backend pt_backend_omp = {.name = "omp",
                                   .frames_in_place = 1,
                                   .create = omp_create,
                                   .track = omp_track,
                                   .destroy = omp_destroy,
                                   .stage_report = omp_stage_report};
