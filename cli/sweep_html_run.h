/* sweep's report.html (pupiltrack-sweep(1), REPORT): the best configuration
 * run again on its worst frames to draw them as --draw does, then the page
 * (eval/sweep_html.h). */
#ifndef PT_CLI_SWEEP_HTML_RUN_H
#define PT_CLI_SWEEP_HTML_RUN_H

#include "eval/sweep_run.h"

/* OUTDIR/report/NAME.png and OUTDIR/report.html of a finished sweep. Returns 0,
 * or an exit status after one line naming the file and the reason. */
int pt_sweep_report_html(const pt_sweep_job *sw);

#endif
