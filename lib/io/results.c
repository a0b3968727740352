#include "lib/io/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/csv.h"

#define RESULTS_MAX_ROWS 50000000 /* bad-input guard */

int pt_results_write_header(FILE *out)
{
    fputs(PT_RESULTS_HEADER "\n", out);
    return ferror(out) ? -1 : 0;
}

int pt_results_write_row(FILE *out, const char *image, const char *algorithm,
                         const char *backend, const pt_result *r)
{
    return pt_results_write_row_at(out, image, algorithm, backend, r, NAN);
}

int pt_results_write_row_at(FILE *out, const char *image, const char *algorithm,
                            const char *backend, const pt_result *r, double timestamp)
{
    pt_csv_write_field(out, image ? image : "");
    fprintf(out, ",%s,", r->eye ? (r->eye == 'L' ? "L" : r->eye == 'R' ? "R" : "?") : "");
    pt_csv_write_field(out, algorithm ? algorithm : "");
    fputc(',', out);
    pt_csv_write_field(out, backend ? backend : "");
    fprintf(out, ",%s,", pt_detect_status_name(r->status));
    int ok = r->status == PT_DETECT_OK;
    int circle = ok && r->has_circle, ellipse = ok && r->has_ellipse;
    if (circle || ellipse) {
        /* one centre column pair: the circle's when both fits are present */
        double cx = circle ? r->circle.cx : r->ellipse.cx;
        double cy = circle ? r->circle.cy : r->ellipse.cy;
        fprintf(out, "%.4f,%.4f,", cx, cy);
    } else {
        fputs(",,", out);
    }
    if (circle)
        fprintf(out, "%.4f", r->circle.r);
    fputc(',', out);
    if (ellipse)
        fprintf(out, "%.4f,%.4f,%.4f", r->ellipse.a, r->ellipse.b, r->ellipse.theta);
    else
        fputs(",,", out);
    fprintf(out, ",%.4f,%.4f,", r->confidence, r->ms);
    if (r->status != PT_DETECT_OK)
        pt_csv_write_field(out, r->message); /* why: the error, or why nothing was found */
    fputc(',', out);
    if (isfinite(timestamp))
        fprintf(out, "%.6f", timestamp);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

typedef struct {
    int image, eye, algorithm, backend, status, cx, cy, r, a, b, theta, confidence, ms,
        message, timestamp;
    int nfields;
} results_columns;

static pt_status number(pt_csv_reader *csv, int c, const char *what, double *v, int *present,
                        pt_error *err)
{
    *present = 0;
    const char *s = c >= 0 ? pt_csv_field(csv, c) : "";
    if (!s[0])
        return PT_OK;
    if (pt_csv_parse_double(s, v))
        return pt_error_set(err, PT_ERR_FORMAT, pt_csv_name(csv),
                            "line %ld: %s '%.40s' is not a finite number", pt_csv_line(csv),
                            what, s);
    *present = 1;
    return PT_OK;
}

static pt_status parse_row(pt_csv_reader *csv, const results_columns *col, pt_results_row *row,
                           pt_error *err)
{
    const char *name = pt_csv_name(csv);
    long line = pt_csv_line(csv);
    memset(row, 0, sizeof *row);
    row->line = line;
    pt_result *r = &row->result;
    const char *image = pt_csv_field(csv, col->image);
    if (!image[0])
        return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: empty image name", line);
    const char *eye = col->eye >= 0 ? pt_csv_field(csv, col->eye) : "";
    if (eye[0] && (eye[1] || (eye[0] != 'L' && eye[0] != 'R')))
        return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: eye '%.20s' is not L, R or empty",
                            line, eye);
    r->eye = eye[0];
    const char *status = pt_csv_field(csv, col->status);
    if (!strcmp(status, "ok"))
        r->status = PT_DETECT_OK;
    else if (!strcmp(status, "notfound"))
        r->status = PT_DETECT_NOTFOUND;
    else if (!strcmp(status, "error"))
        r->status = PT_DETECT_ERROR;
    else
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "line %ld: status '%.20s' is not ok, notfound or error", line, status);
    pt_status st;
    double cx = 0, cy = 0, rad = 0, a = 0, b = 0, theta = 0;
    int has_cx, has_cy, has_r, has_a, has_b, has_t, has_conf, has_ms, has_time;
    double timestamp = 0;
    if ((st = number(csv, col->cx, "cx", &cx, &has_cx, err)) ||
        (st = number(csv, col->cy, "cy", &cy, &has_cy, err)) ||
        (st = number(csv, col->r, "r", &rad, &has_r, err)) ||
        (st = number(csv, col->a, "a", &a, &has_a, err)) ||
        (st = number(csv, col->b, "b", &b, &has_b, err)) ||
        (st = number(csv, col->theta, "theta", &theta, &has_t, err)) ||
        (st = number(csv, col->confidence, "confidence", &r->confidence, &has_conf, err)) ||
        (st = number(csv, col->ms, "ms", &r->ms, &has_ms, err)) ||
        (st = number(csv, col->timestamp, "timestamp", &timestamp, &has_time, err)))
        return st;
    row->timestamp = has_time ? timestamp : NAN;
    if ((has_r || has_a) && !(has_cx && has_cy))
        return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: a shape without cx and cy",
                            line);
    if ((has_a || has_b || has_t) && !(has_a && has_b && has_t))
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "line %ld: an ellipse needs all of a, b and theta", line);
    if ((has_r && rad < 0) || (has_a && (a < 0 || b < 0)))
        return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: negative radius or semi-axis",
                            line);
    r->has_circle = has_r;
    r->has_ellipse = has_a;
    r->circle = (pt_circle){cx, cy, rad};
    r->ellipse = (pt_ellipse){cx, cy, a, b, theta};
    if (col->message >= 0)
        snprintf(r->message, sizeof r->message, "%s", pt_csv_field(csv, col->message));
    row->image = strdup(image);
    row->algorithm = strdup(col->algorithm >= 0 ? pt_csv_field(csv, col->algorithm) : "");
    row->backend = strdup(col->backend >= 0 ? pt_csv_field(csv, col->backend) : "");
    if (!row->image || !row->algorithm || !row->backend)
        return pt_error_set(err, PT_ERR_NOMEM, name, "line %ld: out of memory", line);
    return PT_OK;
}

static void free_row(pt_results_row *row)
{
    free(row->image);
    free(row->algorithm);
    free(row->backend);
}

void pt_results_free(pt_results *res)
{
    if (!res)
        return;
    for (int i = 0; i < res->count; i++)
        free_row(&res->rows[i]);
    free(res->rows);
    res->rows = NULL;
    res->count = 0;
}

static pt_status parse_all(pt_csv_reader *csv, pt_results *res, pt_error *err)
{
    const char *name = pt_csv_name(csv);
    int n;
    pt_status st = pt_csv_next(csv, &n, err);
    if (st)
        return st;
    if (n == 0)
        return pt_error_set(err, PT_ERR_FORMAT, name, "empty file: a header line is required");
    results_columns col = {
        pt_csv_column(csv, n, "image"),  pt_csv_column(csv, n, "eye"),
        pt_csv_column(csv, n, "algorithm"), pt_csv_column(csv, n, "backend"),
        pt_csv_column(csv, n, "status"), pt_csv_column(csv, n, "cx"),
        pt_csv_column(csv, n, "cy"),     pt_csv_column(csv, n, "r"),
        pt_csv_column(csv, n, "a"),      pt_csv_column(csv, n, "b"),
        pt_csv_column(csv, n, "theta"),  pt_csv_column(csv, n, "confidence"),
        pt_csv_column(csv, n, "ms"),     pt_csv_column(csv, n, "message"),
        pt_csv_column(csv, n, "timestamp"), n};
    if (col.image < 0 || col.status < 0)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "line %ld: header must name at least the columns image and status",
                            pt_csv_line(csv));
    int cap = 0;
    for (;;) {
        if ((st = pt_csv_next(csv, &n, err)))
            return st;
        if (n == 0)
            return PT_OK;
        if (n != col.nfields)
            return pt_error_set(err, PT_ERR_FORMAT, name, "line %ld: %d fields, but the header has %d",
                                pt_csv_line(csv), n, col.nfields);
        if (res->count == cap) {
            if (cap >= RESULTS_MAX_ROWS)
                return pt_error_set(err, PT_ERR_NOMEM, name, "more than %d rows",
                                    RESULTS_MAX_ROWS);
            int ncap = cap ? cap * 2 : 64;
            pt_results_row *p = realloc(res->rows, (size_t)ncap * sizeof *p);
            if (!p)
                return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory");
            res->rows = p;
            cap = ncap;
        }
        pt_results_row *row = &res->rows[res->count];
        if ((st = parse_row(csv, &col, row, err))) {
            free_row(row);
            return st;
        }
        res->count++;
    }
}

static pt_status load_from(pt_csv_reader *csv, pt_results *res, pt_error *err)
{
    res->count = 0;
    res->rows = NULL;
    pt_status st = parse_all(csv, res, err);
    pt_csv_close(csv);
    if (st)
        pt_results_free(res);
    return st;
}

pt_status pt_results_load(const char *path, pt_results *res, pt_error *err)
{
    res->count = 0;
    res->rows = NULL;
    pt_csv_reader *csv;
    pt_status st = pt_csv_open(path, &csv, err);
    return st ? st : load_from(csv, res, err);
}

pt_status pt_results_load_memory(const char *data, size_t size, const char *name,
                                 pt_results *res, pt_error *err)
{
    res->count = 0;
    res->rows = NULL;
    pt_csv_reader *csv;
    pt_status st = pt_csv_open_memory(data, size, name, &csv, err);
    return st ? st : load_from(csv, res, err);
}
