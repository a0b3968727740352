/* pupiltrack eval: accuracy curves of a results CSV against ground truth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/output_file.h"
#include "eval/confidence_eval.h"
#include "eval/curve.h"
#include "eval/frame_errors.h"
#include "eval/metrics.h"
#include "lib/detect/confidence.h"
#include "lib/io/gt.h"
#include "lib/io/results.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack eval --gt GT.csv [OPTIONS] RESULTS.csv\n"
            "Score a results CSV against ground truth; curve CSV to stdout (or -o),\n"
            "summary on stderr. Rows are matched by (image, eye): the results' image\n"
            "path (relative to the current folder) against the ground truth's image\n"
            "joined to the ground-truth file's folder.\n\n"
            "  --gt GT.csv        ground truth (required)\n"
            "  --metric M         relative, pixel or both (default both)\n"
            "  --shape S          circle, ellipse or auto (default auto: ellipses when\n"
            "                     both sides have one, else circles; an ellipse counts as\n"
            "                     a circle of radius (a+b)/2, a circle as an ellipse a=b=r)\n"
            "  --config NAME      value of the curve's config column (default: RESULTS)\n"
            "  -o FILE            curve CSV (default: stdout)\n"
            "  --frames FILE      each scored frame's outcome, centre error (px),\n"
            "                     relative error and confidence as CSV\n"
            "  --confidence-threshold C\n"
            "                     summary: the detections with confidence >= C and\n"
            "                     their share within 5 px (default %.2f)\n"
            "  --confidence-table the same for C = 0, 0.05, ..., 0.95\n\n"
            "Curve thresholds: relative in percent of the true radius, 0..20 by 0.5;\n"
            "pixel in px, 0..20. A missing or failed detection fails at every threshold;\n"
            "ground truth without a result row counts as a failure; rows with blink=1\n"
            "are left out; detections where the truth has no pupil are false positives.\n"
            "The summary gives the ROC AUC of the results' confidence for a centre\n"
            "within 5 px and for a relative error within 10 %%.\n",
            PT_CONFIDENCE_FILTER);
}

/* No result row matched: the curve would read 0 %, so it is an error with
 * the matching rule; some rows unmatched: a warning (pupiltrack-eval(1)). */
static int check_matching(const char *results_path, const char *gt_path, const pt_gt *gt,
                          const pt_results *res, const pt_eval *ev)
{
    if (ev->matched == 0 && gt->count > 0) {
        if (res->count == 0) {
            pt_cli_fail("%s: no result rows to score against %s", results_path, gt_path);
            return PT_EXIT_INPUT;
        }
        pt_cli_fail("%s: none of its %d rows matches a row of %s (e.g. '%s' against '%s'); "
                    "rows are matched by (image, eye): the result's image path, relative "
                    "to the current folder, against the truth's image joined to the "
                    "ground-truth file's folder: run eval from the folder track ran in",
                    results_path, res->count, gt_path, res->rows[0].image,
                    gt->entries[0].path);
        return PT_EXIT_INPUT;
    }
    if (ev->unmatched > 0)
        pt_cli_fail("warning: %s: %ld of %d result rows have no ground-truth row "
                    "(e.g. '%s'); they are not scored",
                    results_path, ev->unmatched, res->count, ev->unmatched_examples[0]);
    if (ev->missing > 0 && ev->matched > 0)
        pt_cli_fail("warning: %s: %ld ground-truth rows with a pupil have no result row "
                    "(e.g. '%s'); they count as failures",
                    results_path, ev->missing, ev->missing_examples[0]);
    return PT_EXIT_OK;
}

int pt_cmd_eval(int argc, char **argv)
{
    const char *gt_path = NULL, *out_path = NULL, *results_path = NULL, *config = NULL;
    const char *frames_path = NULL;
    int metrics = PT_METRIC_BOTH;
    pt_eval_shape shape = PT_SHAPE_AUTO;
    double threshold = PT_CONFIDENCE_FILTER;
    int table = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        }
        int takes_value = !strcmp(a, "--gt") || !strcmp(a, "-o") || !strcmp(a, "--metric") ||
                          !strcmp(a, "--shape") || !strcmp(a, "--config") ||
                          !strcmp(a, "--confidence-threshold") || !strcmp(a, "--frames");
        if (takes_value && i + 1 >= argc) {
            pt_cli_fail("eval: option %s needs a value", a);
            return PT_EXIT_USAGE;
        }
        if (!strcmp(a, "--gt")) {
            gt_path = argv[++i];
        } else if (!strcmp(a, "-o")) {
            out_path = argv[++i];
        } else if (!strcmp(a, "--frames")) {
            frames_path = argv[++i];
        } else if (!strcmp(a, "--config")) {
            config = argv[++i];
        } else if (!strcmp(a, "--confidence-threshold")) {
            const char *v = argv[++i];
            char *end;
            threshold = strtod(v, &end);
            if (end == v || *end || !(threshold >= 0.0 && threshold <= 1.0)) {
                pt_cli_fail("eval: --confidence-threshold must be a number in [0,1], not '%s'", v);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--confidence-table")) {
            table = 1;
        } else if (!strcmp(a, "--metric")) {
            const char *m = argv[++i];
            metrics = !strcmp(m, "relative") ? PT_METRIC_RELATIVE
                      : !strcmp(m, "pixel")  ? PT_METRIC_PIXEL
                      : !strcmp(m, "both")   ? PT_METRIC_BOTH
                                             : 0;
            if (!metrics) {
                pt_cli_fail("eval: --metric must be relative, pixel or both, not '%s'", m);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--shape")) {
            const char *s = argv[++i];
            if (!strcmp(s, "circle"))
                shape = PT_SHAPE_CIRCLE;
            else if (!strcmp(s, "ellipse"))
                shape = PT_SHAPE_ELLIPSE;
            else if (!strcmp(s, "auto"))
                shape = PT_SHAPE_AUTO;
            else {
                pt_cli_fail("eval: --shape must be circle, ellipse or auto, not '%s'", s);
                return PT_EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("eval: unknown option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (results_path) {
            pt_cli_fail("eval: one results file at a time ('%s' and '%s')", results_path, a);
            return PT_EXIT_USAGE;
        } else {
            results_path = a;
        }
    }
    if (!gt_path || !results_path) {
        pt_cli_fail("eval: needs --gt GT.csv and a results CSV (try --help)");
        return PT_EXIT_USAGE;
    }
    pt_error err;
    pt_error_clear(&err);
    pt_gt gt;
    if (pt_gt_load(gt_path, &gt, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    pt_results res;
    if (pt_results_load(results_path, &res, &err)) {
        pt_cli_report(&err);
        pt_gt_free(&gt);
        return PT_EXIT_INPUT;
    }
    int rc = PT_EXIT_OK;
    pt_eval ev;
    pt_eval_frames frames = {0, NULL};
    pt_conf_summary conf;
    if (pt_eval_run_frames(&gt, &res, shape, &ev, &frames, &err) ||
        pt_conf_summarise(&frames, &conf, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    rc = check_matching(results_path, gt_path, &gt, &res, &ev);
    if (rc != PT_EXIT_OK)
        goto done;
    pt_output out;
    if (pt_output_open(&out, out_path, PT_OUTPUT_SYNC, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (!config)
        config = results_path;
    pt_curve_write_header(out.fp, 0, NULL);
    pt_curve_write(out.fp, config, &ev, metrics, 0, NULL);
    if (pt_output_close(&out, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (frames_path) {
        pt_output fo;
        if (pt_output_open(&fo, frames_path, 0, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
        pt_eval_frames_write(fo.fp, &frames); /* write errors: pt_output_close */
        if (pt_output_close(&fo, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
    }
    pt_eval_print_summary(stderr, config, &ev);
    enum { TABLE = 20 };
    pt_conf_cut cuts[TABLE + 1];
    int ncuts = 0;
    pt_conf_cut_at(&frames, threshold, &cuts[ncuts++]);
    for (int k = 0; table && k < TABLE; k++)
        pt_conf_cut_at(&frames, k * PT_CONF_TABLE_STEP, &cuts[ncuts++]);
    pt_conf_print(stderr, &conf, cuts, ncuts);
done:
    pt_eval_frames_free(&frames);
    pt_results_free(&res);
    pt_gt_free(&gt);
    return rc;
}
