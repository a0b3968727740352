/* Reports of a sweep: curve and summary rows from each configuration's results. */
#include "eval/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval/curve.h"

#define TIMING_TAG "# sweep: "

int pt_sweep_timing_write(FILE *out, const pt_sweep_timing *t)
{
    fprintf(out, TIMING_TAG "frames=%ld track_s=%.6f\n", t->frames, t->track_s);
    return ferror(out) ? -1 : 0;
}

/* Largest frame count a timing may hold: sums of many stay far from LONG_MAX. */
#define TIMING_MAX_FRAMES 1000000000000000L

static int timing_sane(const pt_sweep_timing *t)
{
    return t->frames >= 0 && t->frames <= TIMING_MAX_FRAMES && isfinite(t->track_s) &&
           t->track_s >= 0 && t->track_s < 1e12;
}

pt_status pt_sweep_timing_read(const char *results_path, pt_sweep_timing *t, pt_error *err)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(results_path, "rb");
    if (!f)
        return pt_error_set(err, PT_ERR_IO, results_path, "cannot open the results file");
    /* The trailer is the last line: read the file's tail only. */
    char tail[512];
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = size > (long)sizeof tail - 1 ? size - (long)sizeof tail + 1 : 0;
    size_t n = 0;
    if (size >= 0 && fseek(f, from, SEEK_SET) == 0)
        n = fread(tail, 1, sizeof tail - 1, f);
    fclose(f);
    tail[n] = '\0';
    char *line = NULL;
    for (char *p = strstr(tail, TIMING_TAG); p; p = strstr(p + 1, TIMING_TAG))
        if (p == tail || p[-1] == '\n')
            line = p;
    if (line && (sscanf(line + strlen(TIMING_TAG), "frames=%ld track_s=%lf", &t->frames,
                        &t->track_s) != 2 ||
                 !timing_sane(t)))
        memset(t, 0, sizeof *t);
    return PT_OK;
}

int pt_sweep_checkpoint_write(FILE *out, const pt_sweep_checkpoint *c)
{
    fprintf(out, "files=%d bytes=%ld frames=%ld track_s=%.6f\n", c->files, c->bytes,
            c->timing.frames, c->timing.track_s);
    return ferror(out) ? -1 : 0;
}

pt_status pt_sweep_checkpoint_parse(const char *text, size_t size, pt_sweep_checkpoint *c,
                                    pt_error *err)
{
    char line[256];
    size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, text, n);
    line[n] = '\0';
    memset(c, 0, sizeof *c);
    int used = 0;
    if (sscanf(line, "files=%d bytes=%ld frames=%ld track_s=%lf%n", &c->files, &c->bytes,
               &c->timing.frames, &c->timing.track_s, &used) != 4 ||
        (line[used] != '\0' && line[used] != '\n') || c->files < 0 || c->bytes <= 0 ||
        !timing_sane(&c->timing)) {
        memset(c, 0, sizeof *c);
        return pt_error_set(err, PT_ERR_FORMAT, "", "not a sweep checkpoint line");
    }
    return PT_OK;
}

static void write_axes_header(FILE *out, const pt_sweep_grid *g)
{
    for (int a = 0; a < g->naxes; a++)
        fprintf(out, ",%s", g->axes[a].key);
}

void pt_sweep_report_header(const pt_sweep_report *rep)
{
    const char *names[PT_SWEEP_MAX_AXES];
    for (int a = 0; a < rep->grid->naxes; a++)
        names[a] = rep->grid->axes[a].key;
    pt_curve_write_header(rep->curve, rep->grid->naxes, names);
    fputs("config", rep->summary);
    write_axes_header(rep->summary, rep->grid);
    fputs(",frames,notfound,errors,false_positives,rate_rel5,rate_rel10,rate_px5,mean_ms,fps\n",
          rep->summary);
}

static void write_rate(FILE *out, double rate)
{
    if (rate >= 0)
        fprintf(out, ",%.6f", rate);
    else
        fputc(',', out);
}

pt_status pt_sweep_report_config(const pt_sweep_report *rep, long index,
                                 const char *results_path, long *error_rows, pt_error *err)
{
    pt_results res;
    if (pt_results_load(results_path, &res, err))
        return err->status;
    pt_sweep_timing timing;
    pt_eval ev;
    if (pt_sweep_timing_read(results_path, &timing, err) ||
        pt_eval_run(rep->gt, &res, rep->shape, &ev, err)) {
        pt_results_free(&res);
        return err->status;
    }
    double ms_sum = 0;
    long ms_count = 0;
    for (int i = 0; i < res.count; i++) {
        if (res.rows[i].result.status == PT_DETECT_ERROR) {
            ++*error_rows;
        } else {
            ms_sum += res.rows[i].result.ms;
            ms_count++;
        }
    }
    pt_results_free(&res);

    char label[1024];
    const char *values[PT_SWEEP_MAX_AXES];
    pt_sweep_config_label(rep->grid, index, label, sizeof label);
    pt_sweep_config_values(rep->grid, index, values);
    if (pt_curve_write(rep->curve, label, &ev, PT_METRIC_BOTH, rep->grid->naxes, values))
        return pt_error_set(err, PT_ERR_IO, "curve.csv", "write error");

    FILE *out = rep->summary;
    fputs(label, out);
    for (int a = 0; a < rep->grid->naxes; a++)
        fprintf(out, ",%s", values[a]);
    fprintf(out, ",%ld,%ld,%ld,%ld", ev.frames, ev.not_detected, ev.errors, ev.false_positives);
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
    if (ferror(out))
        return pt_error_set(err, PT_ERR_IO, "summary.csv", "write error");
    return PT_OK;
}
