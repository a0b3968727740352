/* The calls of a second-look layer over a back end (look_layer.h). */
#include "lib/detect/look_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double pt_look_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

pt_status pt_look_batch_reserve(pt_look_batch *b, int m, const char *what, pt_error *err)
{
    if (m <= b->cap)
        return PT_OK;
    int *which = realloc(b->which, (size_t)m * sizeof *which);
    if (which)
        b->which = which;
    pt_result *res = realloc(b->results, (size_t)m * b->eyes * sizeof *res);
    if (res)
        b->results = res;
    pt_overlay *ov = realloc(b->overlays, (size_t)m * b->eyes * sizeof *ov);
    if (ov)
        b->overlays = ov;
    if (!which || !res || !ov)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %s", what);
    memset(ov + (size_t)b->cap * b->eyes, 0, (size_t)(m - b->cap) * b->eyes * sizeof *ov);
    b->cap = m;
    return PT_OK;
}

int pt_look_pick(void *state, pt_look_wanted_fn wanted, pt_look_reserve_fn reserve,
                 pt_look_batch *b, pt_image *const *frames, int n, const pt_result *results,
                 pt_error *err)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        m += wanted(state, frames[i], &results[(size_t)i * b->eyes]);
    if (!m)
        return 0;
    if (reserve(state, m, err))
        return -1;
    m = 0;
    for (int i = 0; i < n; i++)
        if (wanted(state, frames[i], &results[(size_t)i * b->eyes]))
            b->which[m++] = i;
    return m;
}

void pt_look_take(pt_result *first, const pt_result *second)
{
    char eye = first->eye;
    *first = *second;
    first->eye = eye;
}

void pt_look_batch_free(pt_look_batch *b)
{
    if (b->overlays)
        for (int k = 0; k < b->cap * b->eyes; k++)
            pt_overlay_free(&b->overlays[k]);
    free(b->which);
    free(b->results);
    free(b->overlays);
    b->which = NULL;
    b->results = NULL;
    b->overlays = NULL;
    b->cap = 0;
}

/* The look at a batch whose results are complete, where it applies, timed
 * for stage_report. */
static pt_status run_look(pt_look_layer *l, pt_image *const *frames, int n, pt_result *results,
                          pt_overlay *overlays, pt_error *err)
{
    if (!l->on)
        return PT_OK;
    l->frames += n;
    double t0 = pt_look_clock_ms();
    pt_status st = l->look(l, frames, n, results, overlays, err);
    l->look_ms += pt_look_clock_ms() - t0;
    return st;
}

pt_status pt_look_track(void *state, pt_image *const *frames, int n, pt_result *results,
                        pt_overlay *overlays, pt_error *err)
{
    pt_look_layer *l = state;
    pt_status st = l->inner->track(l->full, frames, n, results, overlays, err);
    return st ? st : run_look(l, frames, n, results, overlays, err);
}

pt_status pt_look_submit(void *state, pt_image *const *frames, int n, pt_result *results,
                         pt_overlay *overlays, pt_error *err)
{
    pt_look_layer *l = state;
    if (!l->inner->submit)
        return pt_look_track(state, frames, n, results, overlays, err);
    pt_status st = l->inner->submit(l->full, frames, n, results, overlays, err);
    /* the previous batch's results are complete now; its frames still ours */
    int had = l->pending;
    l->pending = 0;
    if (!st && had)
        st = run_look(l, l->pend_frames, l->pend_n, l->pend_results, l->pend_overlays, err);
    if (st)
        return st;
    l->pending = 1;
    l->pend_frames = frames;
    l->pend_n = n;
    l->pend_results = results;
    l->pend_overlays = overlays;
    return PT_OK;
}

pt_status pt_look_drain(void *state, pt_error *err)
{
    pt_look_layer *l = state;
    pt_status st = l->inner->drain ? l->inner->drain(l->full, err) : PT_OK;
    int had = l->pending;
    l->pending = 0;
    if (!st && had)
        st = run_look(l, l->pend_frames, l->pend_n, l->pend_results, l->pend_overlays, err);
    return st;
}

pt_status pt_look_pin(void *state, pt_image *const *frames, int n, pt_error *err)
{
    pt_look_layer *l = state;
    return l->inner->pin ? l->inner->pin(l->full, frames, n, err) : PT_OK;
}

void pt_look_unpin(void *state, pt_image *const *frames, int n)
{
    pt_look_layer *l = state;
    if (l->inner->unpin)
        l->inner->unpin(l->full, frames, n);
}

pt_status pt_look_pin_region(void *state, const void *base, size_t bytes, pt_error *err)
{
    pt_look_layer *l = state;
    return l->inner->pin_region ? l->inner->pin_region(l->full, base, bytes, err) : PT_OK;
}

void pt_look_unpin_region(void *state, const void *base)
{
    pt_look_layer *l = state;
    if (l->inner->unpin_region)
        l->inner->unpin_region(l->full, base);
}

double pt_look_upload_ms(void *state)
{
    pt_look_layer *l = state;
    return l->inner->upload_ms ? l->inner->upload_ms(l->full) : 0;
}

void pt_look_stage_report(void *state, char *buf, int size)
{
    pt_look_layer *l = state;
    buf[0] = '\0';
    if (l->inner->stage_report)
        l->inner->stage_report(l->full, buf, size);
    if (!l->on)
        return;
    size_t used = strlen(buf);
    if ((int)used + 1 >= size)
        return;
    double per = l->frames ? l->look_ms / (double)l->frames : 0;
    snprintf(buf + used, (size_t)size - used,
             "  %-14s %8.4f ms/frame (%ld eyes looked at again, %ld kept)\n", l->stage, per,
             l->looked, l->kept);
}
