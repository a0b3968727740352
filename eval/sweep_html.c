/* report.html of a sweep: curves as inline SVG, the summary table, the
 * worst frames of the best configuration (pupiltrack-sweep(1), REPORT). */
#include "eval/sweep_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/csv.h"
#include "lib/core/output_file.h"

/* A CSV file held as text cells. */
typedef struct {
    int ncols, nrows;
    char **header; /* ncols */
    char **cells;  /* nrows x ncols, row-major; a short row's missing cells are "" */
} table;

static void table_free(table *t)
{
    for (int c = 0; c < t->ncols; c++)
        free(t->header[c]);
    for (long i = 0; i < (long)t->nrows * t->ncols; i++)
        free(t->cells[i]);
    free(t->header);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static pt_status table_load(const char *path, table *t, pt_error *err)
{
    memset(t, 0, sizeof *t);
    pt_csv_reader *r;
    if (pt_csv_open(path, &r, err))
        return err->status;
    int n, cap = 0;
    pt_status st = pt_csv_next(r, &n, err);
    if (!st && n == 0)
        st = pt_error_set(err, PT_ERR_FORMAT, path, "empty file, header expected");
    if (!st) {
        t->ncols = n;
        t->header = calloc((size_t)n, sizeof *t->header);
        for (int c = 0; t->header && c < n; c++)
            t->header[c] = dup_text(pt_csv_field(r, c));
        if (!t->header)
            st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    }
    while (!st && !(st = pt_csv_next(r, &n, err)) && n > 0) {
        if (t->nrows == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(t->cells, (size_t)cap * t->ncols * sizeof *grown);
            if (!grown) {
                st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
                break;
            }
            t->cells = grown;
        }
        char **row = t->cells + (size_t)t->nrows * t->ncols;
        for (int c = 0; c < t->ncols; c++)
            row[c] = dup_text(c < n ? pt_csv_field(r, c) : "");
        t->nrows++;
        for (int c = 0; c < t->ncols; c++)
            if (!row[c])
                st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    }
    pt_csv_close(r);
    if (st)
        table_free(t);
    return st;
}

static int column(const table *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (t->header[c] && !strcmp(t->header[c], name))
            return c;
    return -1;
}

static const char *cell(const table *t, int row, int col)
{
    const char *s = col >= 0 ? t->cells[(size_t)row * t->ncols + col] : NULL;
    return s ? s : "";
}

/* A cell as a number; -1 when empty or not a number. */
static double number(const table *t, int row, int col)
{
    double v;
    const char *s = cell(t, row, col);
    return *s && pt_csv_parse_double(s, &v) == 0 ? v : -1.0;
}

/* Is row a better than row b: rate at 10 %, then 5 %, then fps. */
static int better(const table *t, int a, int b)
{
    static const char *const keys[] = {"rate_rel10", "rate_rel5", "fps"};
    for (int k = 0; k < 3; k++) {
        int c = column(t, keys[k]);
        double va = number(t, a, c), vb = number(t, b, c);
        if (va != vb)
            return va > vb;
    }
    return 0;
}

static void folder_file(char *buf, size_t size, const char *outdir, const char *file)
{
    snprintf(buf, size, "%s/%s", outdir, file);
}

pt_status pt_sweep_html_best(const char *outdir, long *best, pt_error *err)
{
    char path[4200];
    folder_file(path, sizeof path, outdir, "summary.csv");
    table t;
    if (table_load(path, &t, err))
        return err->status;
    *best = 0;
    for (int i = 1; i < t.nrows; i++)
        if (better(&t, i, (int)*best))
            *best = i;
    pt_status st = t.nrows ? PT_OK : pt_error_set(err, PT_ERR_FORMAT, path, "no configurations");
    table_free(&t);
    return st;
}

int pt_sweep_html_worst(const pt_gt *gt, const pt_results *res, pt_eval_shape shape,
                        pt_sweep_html_frame *out, int max)
{
    int n = 0;
    for (int i = 0; i < res->count; i++) {
        const pt_results_row *row = &res->rows[i];
        const pt_gt_entry *truth = pt_gt_find(gt, row->image, row->result.eye);
        if (!truth)
            continue;
        /* One frame's evaluation: its bucket on each curve is the first
         * threshold it meets (pt_eval_add's rule, so ranks match the curves). */
        pt_eval ev;
        pt_eval_init(&ev);
        pt_eval_add(&ev, truth, &row->result, shape);
        if (ev.frames == 0)
            continue;
        int rel = PT_EVAL_REL_STEPS, px = PT_EVAL_PX_STEPS;
        while (rel > 0 && ev.rel_detected[rel - 1])
            rel--;
        while (px > 0 && ev.px_detected[px - 1])
            px--;
        pt_sweep_html_frame f;
        memset(&f, 0, sizeof f);
        snprintf(f.image, sizeof f.image, "%s", row->image);
        f.eye = row->result.eye;
        f.error = ev.errors > 0;
        int failed = ev.errors || ev.not_detected;
        f.rank = (failed ? 2 * PT_EVAL_REL_STEPS : ev.rel_total ? rel : 0) * 64 + px;
        if (ev.errors)
            snprintf(f.what, sizeof f.what, "error");
        else if (ev.not_detected)
            snprintf(f.what, sizeof f.what, "not detected");
        else if (!ev.rel_total && px == PT_EVAL_PX_STEPS)
            snprintf(f.what, sizeof f.what, "centre error beyond 20 px");
        else if (!ev.rel_total)
            snprintf(f.what, sizeof f.what, "centre error <= %g px", pt_eval_pixel_threshold(px));
        else if (rel == PT_EVAL_REL_STEPS)
            snprintf(f.what, sizeof f.what, "relative error beyond 20 %%");
        else
            snprintf(f.what, sizeof f.what, "relative error <= %g %%",
                     100.0 * pt_eval_relative_threshold(rel));
        /* insertion into the worst-first list, keeping the first of equals */
        int at = n;
        while (at > 0 && out[at - 1].rank < f.rank)
            at--;
        if (at >= max)
            continue;
        if (n < max)
            n++;
        memmove(out + at + 1, out + at, (size_t)(n - 1 - at) * sizeof *out);
        out[at] = f;
    }
    return n;
}

/* ---- writing ---------------------------------------------------------- */

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* A relative URL: every byte but letters, digits, "-._~/" percent-encoded. */
static void put_url(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-._~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define PALETTE ((int)(sizeof palette / sizeof palette[0]))

/* Curve points of each configuration, in the summary's row order. */
typedef struct {
    double rel[PT_EVAL_REL_STEPS], px[PT_EVAL_PX_STEPS];
    int has_rel, has_px;
} curves;

static void read_curves(const table *curve, const table *summary, curves *cv)
{
    int cc = column(curve, "config"), cm = column(curve, "metric");
    int ct = column(curve, "threshold"), cr = column(curve, "rate");
    int sc = column(summary, "config");
    int last = 0;
    for (int i = 0; i < curve->nrows; i++) {
        const char *label = cell(curve, i, cc);
        /* rows come grouped by configuration, in the summary's order */
        int k = last;
        if (strcmp(cell(summary, k, sc), label))
            for (k = 0; k < summary->nrows && strcmp(cell(summary, k, sc), label); k++)
                ;
        if (k >= summary->nrows)
            continue;
        last = k;
        double x = number(curve, i, ct), y = number(curve, i, cr);
        if (x < 0 || y < 0)
            continue;
        if (!strcmp(cell(curve, i, cm), "relative")) {
            int s = (int)lround(x / 0.5);
            if (s >= 0 && s < PT_EVAL_REL_STEPS) {
                cv[k].rel[s] = y;
                cv[k].has_rel = 1;
            }
        } else if (!strcmp(cell(curve, i, cm), "pixel")) {
            int s = (int)lround(x);
            if (s >= 0 && s < PT_EVAL_PX_STEPS) {
                cv[k].px[s] = y;
                cv[k].has_px = 1;
            }
        }
    }
}

/* One chart: x 0..20 (relative % or px), y 0..100 % of frames. */
static void write_chart(FILE *f, const char *title, const char *xlabel, int pixel,
                        const curves *cv, const int *drawn, int ndrawn, int best)
{
    const int W = 520, H = 340, L = 56, R = 14, T = 30, B = 46;
    const double pw = W - L - R, ph = H - T - B;
    fprintf(f, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
               "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            W, H, W, H);
    fputs("<title>", f);
    put_escaped(f, title);
    fputs("</title>\n", f);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"14\">", L);
    put_escaped(f, title);
    fputs("</text>\n", f);
    for (int g = 0; g <= 4; g++) {
        double y = T + ph - ph * g / 4.0, x = L + pw * g / 4.0;
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%d</text>\n",
                L, y, L + pw, y, L - 6, y + 4, 25 * g);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n",
                x, T, x, T + ph, x, T + ph + 16, 5 * g);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", L + pw / 2,
            H - 8);
    put_escaped(f, xlabel);
    fprintf(f, "</text>\n<text x=\"14\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 14 %.1f)\">frames within (%%)</text>\n",
            T + ph / 2, T + ph / 2);
    /* the best last, on top */
    for (int pass = 0; pass < 2; pass++)
        for (int d = 0; d < ndrawn; d++) {
            int k = drawn[d];
            if ((k == best) != pass || !(pixel ? cv[k].has_px : cv[k].has_rel))
                continue;
            int steps = pixel ? PT_EVAL_PX_STEPS : PT_EVAL_REL_STEPS;
            const double *y = pixel ? cv[k].px : cv[k].rel;
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"",
                    k == best ? "#000" : palette[d % PALETTE], k == best ? "3" : "1.5");
            for (int s = 0; s < steps; s++)
                fprintf(f, "%s%.1f,%.1f", s ? " " : "", L + pw * s / (steps - 1.0),
                        T + ph - ph * (y[s] > 1 ? 1 : y[s]));
            fputs("\"/>\n", f);
        }
    fputs("</svg>\n", f);
}

/* The curves drawn: the PT_SWEEP_HTML_MAX_CURVES best rows (best first). */
static int pick_drawn(const table *summary, int *drawn)
{
    int n = 0;
    for (int i = 0; i < summary->nrows; i++) {
        int at = n;
        while (at > 0 && better(summary, i, drawn[at - 1]))
            at--;
        if (at >= PT_SWEEP_HTML_MAX_CURVES)
            continue;
        if (n < PT_SWEEP_HTML_MAX_CURVES)
            n++;
        memmove(drawn + at + 1, drawn + at, (size_t)(n - 1 - at) * sizeof *drawn);
        drawn[at] = i;
    }
    return n;
}

static void write_page(FILE *f, const char *outdir, const table *summary, const curves *cv,
                       long best, const pt_sweep_html_frame *worst, int nworst,
                       const char *manifest)
{
    int *drawn = malloc((size_t)PT_SWEEP_HTML_MAX_CURVES * sizeof *drawn);
    int ndrawn = drawn ? pick_drawn(summary, drawn) : 0;
    int sc = column(summary, "config");
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>pupiltrack sweep: ", f);
    put_escaped(f, outdir);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
          "table{border-collapse:collapse;font-size:13px}\n"
          "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
          "td:first-child,th:first-child{text-align:left}\n"
          "tr.best{font-weight:bold;background:#fff3c4}\n"
          ".swatch{display:inline-block;width:1.6em;height:0.5em;margin-right:0.4em}\n"
          "figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}\n"
          "figure img{max-width:420px;border:1px solid #ccc}\n"
          "figcaption{font-size:12px;max-width:420px;word-break:break-all}\n"
          "</style>\n</head>\n<body>\n<h1>pupiltrack sweep</h1>\n<p>Folder <code>", f);
    put_escaped(f, outdir);
    fprintf(f, "</code>: %d configurations (curve.csv, summary.csv). The best, by the share "
               "of frames within 10 %% relative error, then 5 %%, then fps, is <b>",
            summary->nrows);
    put_escaped(f, cell(summary, (int)best, sc));
    fputs("</b> (black, thick).</p>\n", f);
    if (summary->nrows > ndrawn)
        fprintf(f, "<p>The curves of the %d best configurations are drawn.</p>\n", ndrawn);
    fputs("<h2>Accuracy</h2>\n<div>\n", f);
    write_chart(f, "relative error: max(centre, radius error) / true radius",
                "threshold (% of the true radius)", 0, cv, drawn, ndrawn, (int)best);
    write_chart(f, "pixel error: centre distance", "threshold (px)", 1, cv, drawn, ndrawn,
                (int)best);
    fputs("</div>\n<h2>Summary</h2>\n<table>\n<tr><th>curve</th>", f);
    for (int c = 0; c < summary->ncols; c++) {
        fputs("<th>", f);
        put_escaped(f, summary->header[c]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int i = 0; i < summary->nrows; i++) {
        int d = 0;
        while (d < ndrawn && drawn[d] != i)
            d++;
        fprintf(f, "<tr%s><td>", i == best ? " class=\"best\"" : "");
        if (d < ndrawn)
            fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>",
                    i == best ? "#000" : palette[d % PALETTE]);
        fputs("</td>", f);
        for (int c = 0; c < summary->ncols; c++) {
            fputs("<td>", f);
            put_escaped(f, cell(summary, i, c));
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n<h2>Worst frames of the best configuration</h2>\n", f);
    if (nworst == 0)
        fputs("<p>No frame with a pupil to show.</p>\n", f);
    else
        fputs("<p>Red: the detection; green: the points it fitted; blue: the ground "
              "truth (as <code>pupiltrack track --draw</code> draws them).</p>\n",
              f);
    for (int i = 0; i < nworst; i++) {
        fputs("<figure>", f);
        if (worst[i].png[0]) {
            fputs("<img src=\"", f);
            put_url(f, worst[i].png);
            fputs("\" alt=\"", f);
            put_escaped(f, worst[i].image);
            fputs("\">", f);
        }
        fputs("<figcaption>", f);
        put_escaped(f, worst[i].image);
        if (worst[i].eye)
            fprintf(f, " (eye %c)", worst[i].eye);
        fputs(": ", f);
        put_escaped(f, worst[i].what);
        fputs("</figcaption></figure>\n", f);
    }
    if (manifest) {
        fputs("<h2>What was swept</h2>\n<details><summary>sweep.txt</summary><pre>", f);
        put_escaped(f, manifest);
        fputs("</pre></details>\n", f);
    }
    fputs("</body>\n</html>\n", f);
    free(drawn);
}

/* OUTDIR/sweep.txt, or NULL (the page then leaves it out). */
static char *read_manifest(const char *outdir)
{
    char path[4200];
    folder_file(path, sizeof path, outdir, "sweep.txt");
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap + 1);
    if (text)
        n = fread(text, 1, cap, f);
    fclose(f);
    if (text)
        text[n] = '\0';
    return text;
}

pt_status pt_sweep_html_write(const char *outdir, long best, const pt_sweep_html_frame *worst,
                              int nworst, pt_error *err)
{
    char path[4200];
    table summary, curve;
    folder_file(path, sizeof path, outdir, "summary.csv");
    if (table_load(path, &summary, err))
        return err->status;
    folder_file(path, sizeof path, outdir, "curve.csv");
    if (table_load(path, &curve, err)) {
        table_free(&summary);
        return err->status;
    }
    pt_status st = PT_OK;
    curves *cv = calloc((size_t)summary.nrows + 1, sizeof *cv);
    char *manifest = read_manifest(outdir);
    folder_file(path, sizeof path, outdir, "report.html");
    pt_output out;
    memset(&out, 0, sizeof out);
    if (!cv)
        st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    else if (best < 0 || best >= summary.nrows)
        st = pt_error_set(err, PT_ERR_INTERNAL, path, "no configuration %ld", best);
    else if (!(st = pt_output_open(&out, path, 0, err))) {
        read_curves(&curve, &summary, cv);
        write_page(out.fp, outdir, &summary, cv, best, worst, nworst, manifest);
        st = pt_output_close(&out, err);
    }
    free(manifest);
    free(cv);
    table_free(&summary);
    table_free(&curve);
    return st;
}
