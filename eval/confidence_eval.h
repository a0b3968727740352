/* How well a results file's confidence column tells good detections from bad
 * ones (pupiltrack(1), METRICS: confidence). Over the scored frames (ground
 * truth with a pupil, not a blink): the ROC AUC of confidence for "centre
 * within 5 px" and for "within 10 % relative error", a frame without a
 * detection ranking below every detection; the same among detections only;
 * and, at a confidence threshold, how many detections it keeps and the share
 * of them within 5 px and within 10 %. */
#ifndef PT_CONFIDENCE_EVAL_H
#define PT_CONFIDENCE_EVAL_H

#include <stdio.h>

#include "eval/metrics.h"

#define PT_CONF_PX 5.0     /* px: the centre event */
#define PT_CONF_REL 0.10   /* relative error: the size event */
#define PT_CONF_TABLE_STEP 0.05 /* eval --confidence-table: 0, 0.05, ..., 0.95 */

typedef struct {
    long frames;               /* scored frames */
    long detected;             /* of those with a detection */
    long rel_frames;           /* scored frames whose truth has a size */
    double auc_px5, auc_rel10; /* all frames; -1 when undefined */
    double auc_px5_detections; /* detections only; -1 when undefined */
} pt_conf_summary;

typedef struct {
    double threshold;
    long kept;                    /* detections with confidence >= threshold */
    long kept_px5;                /* of those, centre within 5 px */
    long kept_rel, kept_rel10;    /* of those, with a true size; within 10 % */
} pt_conf_cut;

/* The AUCs of frames (out of memory: an error). */
pt_status pt_conf_summarise(const pt_eval_frames *frames, pt_conf_summary *s, pt_error *err);
/* The detections kept at a threshold. */
void pt_conf_cut_at(const pt_eval_frames *frames, double threshold, pt_conf_cut *cut);
/* Lines for people: the AUCs, then one line per cut. */
void pt_conf_print(FILE *out, const pt_conf_summary *s, const pt_conf_cut *cuts, int ncuts);

#endif
