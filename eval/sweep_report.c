/* Reports of a sweep: curve and summary rows from each configuration's results. */
#include "eval/sweep_report.h"

#include <stdlib.h>
#include <string.h>

#include "eval/curve.h"

void pt_sweep_timing_write(FILE *out, const pt_sweep_timing *t)
{
    fprintf(out, PT_SWEEP_TIMING_TAG "frames=%ld track_s=%.6f\n", t->frames, t->track_s);
}

/* Bounds of a timing line: merge sums the parts' counts and times, which
 * must stay far from overflowing (and finite). */
#define TIMING_MAX_FRAMES 1000000000000000L
#define TIMING_MAX_SECONDS 1e12

int pt_sweep_timing_parse(const char *text, size_t len, pt_sweep_timing *t)
{
    memset(t, 0, sizeof *t);
    if (len == 0 || text[len - 1] != '\n')
        return 0;
    size_t start = len - 1;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    /* text need not end in a NUL (sscanf would scan past it): the last line
     * is copied into a bounded, terminated buffer first. */
    char line[256];
    size_t n = len - start;
    if (n >= sizeof line)
        return 0;
    memcpy(line, text + start, n);
    line[n] = '\0';
    size_t tag = strlen(PT_SWEEP_TIMING_TAG);
    if (n <= tag || strncmp(line, PT_SWEEP_TIMING_TAG, tag))
        return 0;
    char end;
    if (sscanf(line + tag, "frames=%ld track_s=%lf%c", &t->frames, &t->track_s, &end) != 3 ||
        end != '\n' || t->frames < 0 || t->frames > TIMING_MAX_FRAMES ||
        !(t->track_s >= 0 && t->track_s < TIMING_MAX_SECONDS)) {
        memset(t, 0, sizeof *t);
        return 0;
    }
    return 1;
}

pt_status pt_sweep_results_parse(const char *text, size_t len, const char *name,
                                 pt_results *res, pt_sweep_timing *t, pt_error *err)
{
    if (pt_results_load_memory(text, len, name, res, err))
        return err->status;
    if (!pt_sweep_timing_parse(text, len, t)) {
        pt_results_free(res);
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "incomplete: the last line is not '" PT_SWEEP_TIMING_TAG
                            "frames=N track_s=S'");
    }
    return PT_OK;
}

pt_status pt_sweep_report_open(pt_sweep_report *rep, const char *outdir,
                               const pt_sweep_grid *grid, const pt_gt *gt,
                               pt_eval_shape shape, pt_error *err)
{
    memset(rep, 0, sizeof *rep);
    rep->grid = grid;
    rep->gt = gt;
    rep->shape = shape;
    char path[4200];
    snprintf(path, sizeof path, "%s/curve.csv", outdir);
    if (pt_output_open(&rep->curve, path, PT_OUTPUT_SYNC, err))
        return err->status;
    snprintf(path, sizeof path, "%s/summary.csv", outdir);
    if (pt_output_open(&rep->summary, path, PT_OUTPUT_SYNC, err)) {
        pt_output_discard(&rep->curve);
        return err->status;
    }
    const char *names[PT_SWEEP_MAX_AXES];
    for (int a = 0; a < grid->naxes; a++)
        names[a] = grid->axes[a].key;
    pt_curve_write_header(rep->curve.fp, grid->naxes, names);
    fputs("config", rep->summary.fp);
    for (int a = 0; a < grid->naxes; a++)
        fprintf(rep->summary.fp, ",%s", grid->axes[a].key);
    fputs(",frames,notfound,errors,false_positives,rate_rel5,rate_rel10,rate_px5,mean_ms,fps\n",
          rep->summary.fp);
    return PT_OK;
}

static void write_rate(FILE *out, double rate)
{
    if (rate >= 0)
        fprintf(out, ",%.6f", rate);
    else
        fputc(',', out);
}

pt_status pt_sweep_report_add(pt_sweep_report *rep, long index, const char *text, size_t len,
                              const char *name, pt_error *err)
{
    pt_results res;
    pt_sweep_timing timing;
    pt_eval ev;
    if (pt_sweep_results_parse(text, len, name, &res, &timing, err))
        return err->status;
    if (pt_eval_run(rep->gt, &res, rep->shape, &ev, err)) {
        pt_results_free(&res);
        return err->status;
    }
    double ms_sum = 0;
    long ms_count = 0, errors = 0;
    for (int i = 0; i < res.count; i++) {
        if (res.rows[i].result.status == PT_DETECT_ERROR) {
            errors++;
        } else {
            ms_sum += res.rows[i].result.ms;
            ms_count++;
        }
    }
    pt_results_free(&res);
    rep->error_rows += errors;

    char label[1024];
    const char *values[PT_SWEEP_MAX_AXES];
    pt_sweep_config_label(rep->grid, index, label, sizeof label);
    pt_sweep_config_values(rep->grid, index, values);
    pt_curve_write(rep->curve.fp, label, &ev, PT_METRIC_BOTH, rep->grid->naxes, values);

    FILE *out = rep->summary.fp;
    fputs(label, out);
    for (int a = 0; a < rep->grid->naxes; a++)
        fprintf(out, ",%s", values[a]);
    /* errors: every status=error row, as the sweep reports on stderr */
    fprintf(out, ",%ld,%ld,%ld,%ld", ev.frames, ev.not_detected, errors, ev.false_positives);
    write_rate(out, pt_eval_rate_relative(&ev, 5));
    write_rate(out, pt_eval_rate_relative(&ev, 10));
    write_rate(out, pt_eval_rate_pixel(&ev, 5));
    if (ms_count)
        fprintf(out, ",%.4f", ms_sum / (double)ms_count);
    else
        fputc(',', out);
    if (timing.frames > 0 && timing.track_s > 0)
        fprintf(out, ",%.1f\n", (double)timing.frames / timing.track_s);
    else
        fputs(",\n", out);
    if (pt_output_check(&rep->curve, err) || pt_output_check(&rep->summary, err))
        return err->status;
    return PT_OK;
}

pt_status pt_sweep_report_close(pt_sweep_report *rep, pt_error *err)
{
    if (pt_output_close(&rep->curve, err)) {
        pt_output_discard(&rep->summary);
        return err->status;
    }
    return pt_output_close(&rep->summary, err);
}

void pt_sweep_report_discard(pt_sweep_report *rep)
{
    pt_output_discard(&rep->curve);
    pt_output_discard(&rep->summary);
}
