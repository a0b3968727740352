/* report.html of a sweep (pupiltrack-sweep(1), REPORT): one self-contained
 * page beside curve.csv and summary.csv, viewable offline in any browser:
 * the accuracy curves drawn as inline SVG, the summary table with the best
 * configuration marked, and the worst frames of the best configuration as
 * images the caller drew (OUTDIR/report/). */
#ifndef PT_SWEEP_HTML_H
#define PT_SWEEP_HTML_H

#include "lib/io/gt.h"
#include "lib/io/results.h"
#include "eval/metrics.h"

#define PT_SWEEP_HTML_WORST 6      /* worst frames shown */
#define PT_SWEEP_HTML_MAX_CURVES 40 /* curves drawn: the best by rate at 10 % */

typedef struct {
    char image[1024]; /* as in the results CSV */
    char eye;         /* 0, 'L' or 'R' */
    /* what went wrong: "not detected", "error", "beyond 20 %", or the
     * relative error's bucket ("4.5 %"); then the centre error ("3 px") */
    char what[64];
    char png[256];    /* the drawing, relative to OUTDIR; "" when none */
    int rank;         /* larger is worse */
    int error;        /* the row has status=error: the frame could not be read */
} pt_sweep_html_frame;

/* The best configuration of OUTDIR/summary.csv: highest rate at 10 %
 * relative error, then at 5 %, then fps (scripts/figures.sh picks alike). */
pt_status pt_sweep_html_best(const char *outdir, long *best, pt_error *err);

/* The up to max worst frames of res against gt, worst first: errors and
 * frames without a detection, then the largest relative error (in the
 * curve's 0.5 % steps; beyond 20 % counts as one step more), then the
 * largest centre error. Frames without a pupil or marked blink are left
 * out. Returns their number; png is left empty. */
int pt_sweep_html_worst(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                        pt_sweep_html_frame *out, int max);

/* Write OUTDIR/report.html (whole or not at all) from OUTDIR/curve.csv,
 * OUTDIR/summary.csv and OUTDIR/sweep.txt, marking configuration best and
 * showing worst[0..nworst). */
pt_status pt_sweep_html_write(const char *outdir, long best, const pt_sweep_html_frame *worst,
                              int nworst, pt_error *err);

#endif
