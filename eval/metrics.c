#include "eval/metrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Errors equal to a threshold up to rounding count as within it. */
#define EVAL_TOLERANCE 1e-9

void pt_eval_init(pt_eval *ev) { memset(ev, 0, sizeof *ev); }

double pt_metric_centre_error(double x, double y, double truth_x, double truth_y)
{
    return hypot(x - truth_x, y - truth_y);
}

double pt_metric_relative_circle(const pt_circle *found, const pt_circle *truth)
{
    double centre = pt_metric_centre_error(found->cx, found->cy, truth->cx, truth->cy);
    double radius = fabs(found->r - truth->r);
    return (centre > radius ? centre : radius) / truth->r;
}

double pt_metric_relative_ellipse(const pt_ellipse *found, const pt_ellipse *truth)
{
    double centre = pt_metric_centre_error(found->cx, found->cy, truth->cx, truth->cy) /
                    ((truth->a + truth->b) / 2);
    double a = fabs(found->a - truth->a) / truth->a;
    double b = fabs(found->b - truth->b) / truth->b;
    double e = centre > a ? centre : a;
    return e > b ? e : b;
}

double pt_eval_relative_threshold(int i) { return 0.005 * i; }
double pt_eval_pixel_threshold(int i) { return (double)i; }

static void remember(char examples[][256], long count, const char *name, char eye)
{
    if (count > PT_EVAL_EXAMPLES)
        return;
    if (eye)
        snprintf(examples[count - 1], 256, "%s eye %c", name, eye);
    else
        snprintf(examples[count - 1], 256, "%s", name);
}

/* Shapes as circles: a circle as given, an ellipse as its mean radius. */
static int as_circle(int has_circle, int has_ellipse, const pt_circle *c, const pt_ellipse *e,
                     pt_circle *out)
{
    if (has_circle)
        *out = *c;
    else if (has_ellipse)
        *out = (pt_circle){e->cx, e->cy, (e->a + e->b) / 2};
    return has_circle || has_ellipse;
}

static int as_ellipse(int has_circle, int has_ellipse, const pt_circle *c, const pt_ellipse *e,
                      pt_ellipse *out)
{
    if (has_ellipse)
        *out = *e;
    else if (has_circle)
        *out = (pt_ellipse){c->cx, c->cy, c->r, c->r, 0};
    return has_circle || has_ellipse;
}

/* Relative error of a found shape, or INFINITY; *scored = 0 when the truth has no size. */
static double relative_error(const pt_gt_entry *t, const pt_result *f, pt_eval_shape shape,
                             int *scored)
{
    *scored = t->has_circle || t->has_ellipse;
    if (!*scored || !f || f->status != PT_DETECT_OK)
        return INFINITY;
    int use_ellipse = shape == PT_SHAPE_ELLIPSE ||
                      (shape == PT_SHAPE_AUTO && t->has_ellipse && f->has_ellipse);
    if (use_ellipse) {
        pt_ellipse te = {0, 0, 1, 1, 0}, fe = te;
        as_ellipse(t->has_circle, t->has_ellipse, &t->circle, &t->ellipse, &te);
        if (!as_ellipse(f->has_circle, f->has_ellipse, &f->circle, &f->ellipse, &fe))
            return INFINITY;
        return pt_metric_relative_ellipse(&fe, &te);
    }
    pt_circle tc = {0, 0, 1}, fc = tc;
    as_circle(t->has_circle, t->has_ellipse, &t->circle, &t->ellipse, &tc);
    if (!as_circle(f->has_circle, f->has_ellipse, &f->circle, &f->ellipse, &fc))
        return INFINITY;
    return pt_metric_relative_circle(&fc, &tc);
}

static double pixel_error(const pt_gt_entry *t, const pt_result *f)
{
    if (!f || f->status != PT_DETECT_OK || !(f->has_circle || f->has_ellipse))
        return INFINITY;
    double x = f->has_circle ? f->circle.cx : f->ellipse.cx;
    double y = f->has_circle ? f->circle.cy : f->ellipse.cy;
    return pt_metric_centre_error(x, y, t->cx, t->cy);
}

void pt_eval_frames_free(pt_eval_frames *f)
{
    free(f->frames);
    f->frames = NULL;
    f->count = 0;
}

/* pt_eval_add; frame (when not NULL) receives the scored frame. Returns 1
 * when the row was a scored frame. */
static int add_row(pt_eval *ev, const pt_gt_entry *truth, const pt_result *found,
                   pt_eval_shape shape, pt_eval_frame *frame)
{
    if (truth->blink) {
        ev->blinks++;
        return 0;
    }
    if (!truth->has_pupil) {
        if (found) {
            ev->no_pupil++;
            ev->false_positives += found->status == PT_DETECT_OK;
        } else {
            ev->missing_no_pupil++;
        }
        return 0;
    }
    ev->frames++;
    pt_eval_outcome outcome = !found                             ? PT_EVAL_MISSING
                              : found->status == PT_DETECT_ERROR ? PT_EVAL_ERROR
                              : found->status != PT_DETECT_OK ||
                                      !(found->has_circle || found->has_ellipse)
                                  ? PT_EVAL_NOTFOUND
                                  : PT_EVAL_DETECTED;
    if (outcome == PT_EVAL_MISSING) {
        ev->missing++;
        remember(ev->missing_examples, ev->missing, truth->image, truth->eye);
    } else if (outcome == PT_EVAL_ERROR) {
        ev->errors++;
    } else if (outcome == PT_EVAL_NOTFOUND) {
        ev->not_detected++;
    }
    int scored;
    double rel = relative_error(truth, found, shape, &scored);
    if (scored) {
        ev->rel_total++;
        for (int i = 0; i < PT_EVAL_REL_STEPS; i++)
            ev->rel_detected[i] += rel <= pt_eval_relative_threshold(i) + EVAL_TOLERANCE;
    } else {
        ev->no_radius++;
    }
    double px = pixel_error(truth, found);
    ev->px_total++;
    for (int i = 0; i < PT_EVAL_PX_STEPS; i++)
        ev->px_detected[i] += px <= pt_eval_pixel_threshold(i) + EVAL_TOLERANCE;
    if (frame) {
        frame->truth = truth;
        frame->outcome = outcome;
        frame->confidence = found ? found->confidence : 0.0;
        frame->px_error = px;
        frame->rel_error = rel;
        frame->rel_scored = scored;
    }
    return 1;
}

void pt_eval_add(pt_eval *ev, const pt_gt_entry *truth, const pt_result *found,
                 pt_eval_shape shape)
{
    add_row(ev, truth, found, shape, NULL);
}

pt_status pt_eval_run(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                      pt_eval *ev, pt_error *err)
{
    return pt_eval_run_frames(gt, res, shape, ev, NULL, err);
}

pt_status pt_eval_run_frames(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                             pt_eval *ev, pt_eval_frames *frames, pt_error *err)
{
    pt_eval_init(ev);
    pt_eval_frame *list = NULL;
    if (frames) {
        frames->count = 0;
        frames->frames = NULL;
        /* at most one scored frame per ground-truth row */
        list = malloc(((size_t)gt->count + 1) * sizeof *list);
        if (!list)
            return pt_error_set(err, PT_ERR_NOMEM, gt->source, "out of memory");
    }
    unsigned char *seen = calloc((size_t)gt->count + 1, 1);
    if (!seen) {
        free(list);
        return pt_error_set(err, PT_ERR_NOMEM, gt->source, "out of memory");
    }
    long n = 0;
    for (int i = 0; i < res->count; i++) {
        const pt_results_row *row = &res->rows[i];
        const pt_gt_entry *truth = pt_gt_find(gt, row->image, row->result.eye);
        if (!truth) {
            ev->unmatched++;
            remember(ev->unmatched_examples, ev->unmatched, row->image, row->result.eye);
            continue;
        }
        size_t k = (size_t)(truth - gt->entries);
        if (seen[k]) {
            ev->duplicates++;
            continue;
        }
        seen[k] = 1;
        ev->matched++;
        n += add_row(ev, truth, &row->result, shape, list ? &list[n] : NULL);
    }
    for (int k = 0; k < gt->count; k++)
        if (!seen[k])
            n += add_row(ev, &gt->entries[k], NULL, shape, list ? &list[n] : NULL);
    free(seen);
    if (frames) {
        frames->frames = list;
        frames->count = n;
    }
    return PT_OK;
}

double pt_eval_rate_relative(const pt_eval *ev, double percent)
{
    int i = (int)lround(percent * 2);
    if (ev->rel_total == 0 || i < 0 || i >= PT_EVAL_REL_STEPS)
        return -1;
    return (double)ev->rel_detected[i] / (double)ev->rel_total;
}

double pt_eval_rate_pixel(const pt_eval *ev, int px)
{
    if (ev->px_total == 0 || px < 0 || px >= PT_EVAL_PX_STEPS)
        return -1;
    return (double)ev->px_detected[px] / (double)ev->px_total;
}
