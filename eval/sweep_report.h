/* What a sweep reports (pupiltrack-sweep(1)): the timing line closing each
 * results file, and curve.csv and summary.csv drawn from the results. */
#ifndef PT_SWEEP_REPORT_H
#define PT_SWEEP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "eval/metrics.h"
#include "eval/sweep.h"
#include "lib/core/output_file.h"

/* Timing of one configuration's run, kept as the last line of its results
 * file: "# sweep: frames=N track_s=S" (frames given to the back end, seconds
 * spent in its track calls). */
#define PT_SWEEP_TIMING_TAG "# sweep: "
typedef struct {
    long frames;
    double track_s;
} pt_sweep_timing;

void pt_sweep_timing_write(FILE *out, const pt_sweep_timing *t);
/* The timing line of a results file's text: 1 when its last line is one
 * (and *t is set), 0 when the text does not end with a timing line. */
int pt_sweep_timing_parse(const char *text, size_t len, pt_sweep_timing *t);
/* The rows and the timing line of a results file's text; name is for messages. */
pt_status pt_sweep_results_parse(const char *text, size_t len, const char *name,
                                 pt_results *res, pt_sweep_timing *t, pt_error *err);

/* The reports being written: each configuration's rows are added in order
 * and the files renamed into place by pt_sweep_report_close. curve.csv has
 * both metrics, one column per axis; summary.csv one row per configuration:
 * axes, frames, notfound, errors (rows with status=error), false positives,
 * rates at 5 % and 10 % relative and 5 px, mean ms per frame and fps (frames
 * / seconds in track calls). */
typedef struct {
    const pt_sweep_grid *grid;
    const pt_gt *gt;
    pt_eval_shape shape;
    pt_output curve, summary;
    long error_rows; /* status=error rows of every configuration added */
} pt_sweep_report;

pt_status pt_sweep_report_open(pt_sweep_report *rep, const char *outdir,
                               const pt_sweep_grid *grid, const pt_gt *gt,
                               pt_eval_shape shape, pt_error *err);
/* Configuration index, from the text of its results file (as written). */
pt_status pt_sweep_report_add(pt_sweep_report *rep, long index, const char *text, size_t len,
                              const char *name, pt_error *err);
pt_status pt_sweep_report_close(pt_sweep_report *rep, pt_error *err);
void pt_sweep_report_discard(pt_sweep_report *rep);

#endif
