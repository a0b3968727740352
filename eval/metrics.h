/* Accuracy of detections against ground truth (pupiltrack(1), METRICS).
 * relative: circles e = max(|c-c_gt|, |r-r_gt|) / r_gt; ellipses
 *   e = max(|c-c_gt| / ((a_gt+b_gt)/2), |a-a_gt|/a_gt, |b-b_gt|/b_gt);
 *   curve at m = 0..20 % by 0.5 %.
 * pixel: centre error |c-c_gt| <= T px, T = 0..20.
 * A missing detection fails at every threshold; a detection where the ground
 * truth has no pupil is a false positive, counted apart; blink rows are left
 * out; results without ground truth and ground truth without results are
 * counted (the latter as failures). */
#ifndef PT_METRICS_H
#define PT_METRICS_H

#include "lib/io/gt.h"
#include "lib/detect/pt_result.h"
#include "lib/io/results.h"

#define PT_EVAL_REL_STEPS 41  /* 0, 0.5, ..., 20 % */
#define PT_EVAL_PX_STEPS 21   /* 0, 1, ..., 20 px */
#define PT_EVAL_EXAMPLES 3    /* names kept for the summary */

typedef enum { PT_SHAPE_AUTO = 0, PT_SHAPE_CIRCLE, PT_SHAPE_ELLIPSE } pt_eval_shape;

enum { PT_METRIC_RELATIVE = 1, PT_METRIC_PIXEL = 2, PT_METRIC_BOTH = 3 };

typedef struct {
    long rel_total, rel_detected[PT_EVAL_REL_STEPS];
    long px_total, px_detected[PT_EVAL_PX_STEPS];
    long frames;          /* ground-truth rows with a pupil, not blinks */
    long not_detected;    /* of those: result notfound, or ok without a shape */
    long errors;          /* of those: result status error */
    long missing;         /* of those: no result row at all (counted as failures) */
    long no_radius;       /* of those: ground truth has a centre only (pixel metric only) */
    long missing_no_pupil; /* ground-truth rows without a pupil and without a result */
    long no_pupil;        /* ground-truth rows without a pupil that have a result */
    long false_positives; /* of those: the result is ok */
    long blinks;          /* rows excluded as blinks */
    long matched;         /* result rows matched to a ground-truth row (duplicates not) */
    long unmatched;       /* result rows with no ground-truth row */
    long duplicates;      /* result rows repeating an (image, eye) already seen */
    char unmatched_examples[PT_EVAL_EXAMPLES][256];
    char missing_examples[PT_EVAL_EXAMPLES][256];
} pt_eval;

void pt_eval_init(pt_eval *ev);

double pt_metric_relative_circle(const pt_circle *found, const pt_circle *truth);
double pt_metric_relative_ellipse(const pt_ellipse *found, const pt_ellipse *truth);
double pt_metric_centre_error(double x, double y, double truth_x, double truth_y);

/* Threshold i of each curve: relative as a fraction (0.005 * i), pixel in px. */
double pt_eval_relative_threshold(int i);
double pt_eval_pixel_threshold(int i);

/* What a scored frame's result was. */
typedef enum {
    PT_EVAL_DETECTED = 0, /* status ok with a shape */
    PT_EVAL_NOTFOUND,     /* notfound, or ok without a shape */
    PT_EVAL_ERROR,        /* status error */
    PT_EVAL_MISSING       /* no result row */
} pt_eval_outcome;

/* One scored frame (a ground-truth row with a pupil, not a blink), for the
 * confidence measures (eval/confidence_eval.h) and eval --frames. */
typedef struct {
    const pt_gt_entry *truth; /* its ground-truth row */
    pt_eval_outcome outcome;
    double confidence; /* the result's confidence; meaningful when detected */
    double px_error;   /* centre error in px; INFINITY when not detected */
    double rel_error;  /* relative error; INFINITY when not detected or not scored */
    int rel_scored;    /* the truth has a size */
} pt_eval_frame;

typedef struct {
    long count;
    pt_eval_frame *frames; /* malloc'd */
} pt_eval_frames;

void pt_eval_frames_free(pt_eval_frames *f);

/* Score one ground-truth row against its result (NULL: no result row). */
void pt_eval_add(pt_eval *ev, const pt_gt_entry *truth, const pt_result *found,
                 pt_eval_shape shape);
/* Match every result row to the ground truth by (image, eye) and score all. */
pt_status pt_eval_run(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                      pt_eval *ev, pt_error *err);
/* The same, and every scored frame into frames (freed with
 * pt_eval_frames_free; empty on failure). */
pt_status pt_eval_run_frames(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                             pt_eval *ev, pt_eval_frames *frames, pt_error *err);

/* Detection rate at a relative threshold in percent (a multiple of 0.5) or a
 * pixel threshold (0..20); -1 when there is nothing to score. */
double pt_eval_rate_relative(const pt_eval *ev, double percent);
double pt_eval_rate_pixel(const pt_eval *ev, int px);

#endif
