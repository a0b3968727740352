/* Assignment problems: allocation, the dense CSV loader, random generators
 * and checks shared by every solver. */
#include "lib/assign/assign.h"
#include "lib/core/pt_rng.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pt_status pt_assign_problem_alloc(pt_assign_problem *p, int rows, int cols, pt_error *err)
{
    memset(p, 0, sizeof *p);
    if (rows <= 0 || cols <= 0)
        return pt_error_set(err, PT_ERR_PARAM, "", "assignment problem must be at least 1x1 (got %dx%d)",
                            rows, cols);
    if ((long)rows * (long)cols > PT_ASSIGN_MAX_ENTRIES)
        return pt_error_set(err, PT_ERR_NOMEM, "", "assignment problem %dx%d exceeds %ld entries",
                            rows, cols, (long)PT_ASSIGN_MAX_ENTRIES);
    p->cost = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    if (!p->cost)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for a %dx%d cost matrix", rows, cols);
    p->rows = rows;
    p->cols = cols;
    return PT_OK;
}

void pt_assign_problem_free(pt_assign_problem *p)
{
    free(p->cost);
    memset(p, 0, sizeof *p);
}

pt_status pt_assign_result_alloc(pt_assign_result *res, int rows, pt_error *err)
{
    res->total = 0.0;
    res->col_of_row = malloc(sizeof(int) * (size_t)(rows > 0 ? rows : 1));
    if (!res->col_of_row)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for an assignment of %d rows", rows);
    for (int r = 0; r < rows; r++)
        res->col_of_row[r] = -1;
    return PT_OK;
}

void pt_assign_result_free(pt_assign_result *res)
{
    free(res->col_of_row);
    res->col_of_row = NULL;
    res->total = 0.0;
}

/* Parses one CSV line into values (appending); returns the cell count or -1
 * with a reason. */
static long parse_row(char *line, double **values, long *count, long *capacity, const char **why,
                      long *bad_cell)
{
    long cells = 0;
    char *s = line;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s) {
            *bad_cell = cells + 1;
            *why = (*s == ',' || *s == '\0') ? "empty cell" : "not a number";
            return -1;
        }
        if (!isfinite(v) || errno == ERANGE) {
            *bad_cell = cells + 1;
            *why = "NaN or infinite value";
            return -1;
        }
        s = end;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != ',' && *s != '\0') {
            *bad_cell = cells + 1;
            *why = "not a number";
            return -1;
        }
        if (*count == *capacity) {
            long grown = *capacity ? *capacity * 2 : 1024;
            if (grown > PT_ASSIGN_MAX_ENTRIES)
                grown = PT_ASSIGN_MAX_ENTRIES;
            if (*count >= grown) {
                *why = "matrix too large";
                *bad_cell = cells + 1;
                return -1;
            }
            double *more = realloc(*values, sizeof(double) * (size_t)grown);
            if (!more) {
                *why = "out of memory";
                *bad_cell = cells + 1;
                return -1;
            }
            *values = more;
            *capacity = grown;
        }
        (*values)[(*count)++] = v;
        cells++;
        if (*s == '\0')
            return cells;
        s++; /* past the comma */
    }
}

static int is_blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t')
            return 0;
    return 1;
}

pt_status pt_assign_load_csv(const char *path, pt_assign_problem *p, pt_error *err)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "r");
    if (!f)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    char *line = NULL;
    size_t line_cap = 0;
    double *values = NULL;
    long count = 0, capacity = 0, cols = -1, rows = 0, lineno = 0, blank_at = 0;
    pt_status st = PT_OK;
    ssize_t len;
    while ((len = getline(&line, &line_cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (is_blank(line)) {
            if (!blank_at)
                blank_at = lineno;
            continue;
        }
        if (blank_at) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: empty line inside the matrix", blank_at);
            goto done;
        }
        const char *why = "";
        long bad_cell = 0;
        long cells = parse_row(line, &values, &count, &capacity, &why, &bad_cell);
        if (cells < 0) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld, cell %ld: %s", lineno, bad_cell, why);
            goto done;
        }
        if (cols < 0)
            cols = cells;
        else if (cells != cols) {
            st = pt_error_set(err, PT_ERR_FORMAT, path,
                              "line %ld: ragged row (%ld cells, the first row has %ld)", lineno, cells, cols);
            goto done;
        }
        rows++;
        if (rows > 1 << 30) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: too many rows", lineno);
            goto done;
        }
    }
    if (ferror(f)) {
        st = pt_error_set(err, PT_ERR_IO, path, "read error: %s", strerror(errno));
        goto done;
    }
    if (rows == 0) {
        st = pt_error_set(err, PT_ERR_FORMAT, path, "line 1: empty file, no matrix rows");
        goto done;
    }
    p->rows = (int)rows;
    p->cols = (int)cols;
    p->cost = values;
    p->maximize = 0;
    values = NULL;
done:
    free(values);
    free(line);
    fclose(f);
    return st;
}




pt_status pt_assign_random(pt_assign_problem *p, int rows, int cols, pt_assign_dist dist,
                           long range, uint64_t seed, pt_error *err)
{
    pt_status st = pt_assign_problem_alloc(p, rows, cols, err);
    if (st)
        return st;
    uint64_t rng = seed * 0x2545F4914F6CDD1Dull + 1;
    int n = rows > cols ? rows : cols;
    if (dist == PT_ASSIGN_UNIFORM) {
        uint64_t span = (uint64_t)(range > 0 ? range : n);
        for (long k = 0; k < (long)rows * cols; k++)
            p->cost[k] = (double)(pt_rng_next(&rng) % span);
        return PT_OK;
    }
    /* Tracking-like: n points on a field of ~20 px spacing, each moved by its
     * own velocity plus noise; the cost is the distance in tenths of a pixel
     * between "before" point r and "after" point c. */
    double field = 20.0 * sqrt((double)n);
    double *before = malloc(sizeof(double) * 4 * (size_t)n);
    if (!before) {
        pt_assign_problem_free(p);
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %d points", n);
    }
    double *after = before + 2 * (size_t)n;
    for (int k = 0; k < n; k++) {
        before[2 * k] = field * pt_rng_unit(&rng);
        before[2 * k + 1] = field * pt_rng_unit(&rng);
        double vx = 4.0 + 2.0 * pt_rng_normal(&rng), vy = 1.5 * pt_rng_normal(&rng);
        after[2 * k] = before[2 * k] + vx + 1.0 * pt_rng_normal(&rng);
        after[2 * k + 1] = before[2 * k + 1] + vy + 1.0 * pt_rng_normal(&rng);
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            double dx = before[2 * r] - after[2 * c], dy = before[2 * r + 1] - after[2 * c + 1];
            p->cost[(size_t)r * cols + c] = floor(10.0 * sqrt(dx * dx + dy * dy) + 0.5);
        }
    free(before);
    return PT_OK;
}

double pt_assign_total(const pt_assign_problem *p, const int *col_of_row)
{
    double total = 0.0;
    for (int r = 0; r < p->rows; r++)
        if (col_of_row[r] >= 0)
            total += p->cost[(size_t)r * p->cols + col_of_row[r]];
    return total;
}

int pt_assign_is_integer(const pt_assign_problem *p)
{
    for (long k = 0; k < (long)p->rows * p->cols; k++)
        if (p->cost[k] != floor(p->cost[k]))
            return 0;
    return 1;
}

int pt_assign_is_complete(const pt_assign_problem *p, const int *col_of_row)
{
    int need = p->rows < p->cols ? p->rows : p->cols, assigned = 0, ok = 1;
    char *used = calloc((size_t)p->cols, 1);
    if (!used)
        return 0;
    for (int r = 0; r < p->rows; r++) {
        int c = col_of_row[r];
        if (c < -1 || c >= p->cols) {
            ok = 0;
            break;
        }
        if (c < 0)
            continue;
        if (used[c]) {
            ok = 0;
            break;
        }
        used[c] = 1;
        assigned++;
    }
    free(used);
    return ok && assigned == need;
}
