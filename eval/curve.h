/* Writing accuracy curves and summaries (pupiltrack(1), FILES: curve CSV). */
#ifndef PT_CURVE_H
#define PT_CURVE_H

#include <stdio.h>

#include "eval/metrics.h"

/* Header "config,metric,threshold,detected,total,rate" then one column per
 * swept parameter name. */
void pt_curve_write_header(FILE *out, int nparams, const char *const *param_names);
/* One row per threshold of each metric in metrics (PT_METRIC_* bits): relative
 * thresholds in percent (0, 0.5, ..., 20), pixel thresholds in px (0..20);
 * rate empty when total is 0. param_values line up with the header's names.
 * Returns 0, or -1 on a write error. */
int pt_curve_write(FILE *out, const char *config, const pt_eval *ev, int metrics,
                   int nparams, const char *const *param_values);
/* One screen for people: rates at 5 % and 10 % relative and at 5 px, false
 * positives, missing and unmatched rows with a few example names. */
void pt_eval_print_summary(FILE *out, const char *config, const pt_eval *ev);

#endif
