/* Exact assignment by shortest augmenting paths with dual potentials
 * (Hungarian / Jonker-Volgenant family): one Dijkstra-like search per row,
 * O(n^2 m) for n rows <= m columns. The reference the auctions are tested against. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/assign/assign.h"

/* Minimise sum cost(r, col[r]) for n <= m; cost(r, c) = sign * at(r, c) where
 * at reads the problem, possibly transposed. Index 0 is the virtual source. */
static pt_status solve_rows_le_cols(const pt_assign_problem *p, int transposed, int *col_of_row_out,
                                    pt_error *err)
{
    int n = transposed ? p->cols : p->rows, m = transposed ? p->rows : p->cols;
    double sign = p->maximize ? -1.0 : 1.0;
    size_t stride = (size_t)p->cols;
    double *u = calloc((size_t)n + 1, sizeof *u), *v = calloc((size_t)m + 1, sizeof *v);
    double *min_slack = malloc(sizeof(double) * ((size_t)m + 1));
    int *row_of_col = calloc((size_t)m + 1, sizeof(int)), *way = calloc((size_t)m + 1, sizeof(int));
    char *visited = malloc((size_t)m + 1);
    pt_status st = PT_OK;
    if (!u || !v || !min_slack || !row_of_col || !way || !visited) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the exact solver (%dx%d)", n, m);
        goto done;
    }
    for (int i = 1; i <= n; i++) {
        row_of_col[0] = i;
        int j0 = 0;
        for (int j = 0; j <= m; j++) {
            min_slack[j] = INFINITY;
            visited[j] = 0;
        }
        /* Grow a shortest-path tree from row i until it reaches a free column. */
        do {
            visited[j0] = 1;
            int i0 = row_of_col[j0], j1 = 0;
            double delta = INFINITY;
            for (int j = 1; j <= m; j++) {
                if (visited[j])
                    continue;
                double c = transposed ? p->cost[(size_t)(j - 1) * stride + (size_t)(i0 - 1)]
                                      : p->cost[(size_t)(i0 - 1) * stride + (size_t)(j - 1)];
                double slack = sign * c - u[i0] - v[j];
                if (slack < min_slack[j]) {
                    min_slack[j] = slack;
                    way[j] = j0;
                }
                if (min_slack[j] < delta) {
                    delta = min_slack[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= m; j++) {
                if (visited[j]) {
                    u[row_of_col[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_slack[j] -= delta;
                }
            }
            j0 = j1;
        } while (row_of_col[j0] != 0);
        /* Flip the augmenting path back to the source. */
        do {
            int j1 = way[j0];
            row_of_col[j0] = row_of_col[j1];
            j0 = j1;
        } while (j0);
    }
    for (int i = 0; i < n; i++)
        col_of_row_out[i] = -1;
    for (int j = 1; j <= m; j++)
        if (row_of_col[j] > 0)
            col_of_row_out[row_of_col[j] - 1] = j - 1;
done:
    free(u);
    free(v);
    free(min_slack);
    free(row_of_col);
    free(way);
    free(visited);
    return st;
}

pt_status pt_assign_exact(const pt_assign_problem *p, pt_assign_result *res, pt_error *err)
{
    if (!p->cost || p->rows <= 0 || p->cols <= 0)
        return pt_error_set(err, PT_ERR_PARAM, "", "empty assignment problem");
    for (int r = 0; r < p->rows; r++)
        res->col_of_row[r] = -1;
    if (p->rows <= p->cols) {
        pt_status st = solve_rows_le_cols(p, 0, res->col_of_row, err);
        if (st)
            return st;
    } else {
        int *row_of_col = malloc(sizeof(int) * (size_t)p->cols);
        if (!row_of_col)
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the exact solver");
        pt_status st = solve_rows_le_cols(p, 1, row_of_col, err);
        if (st) {
            free(row_of_col);
            return st;
        }
        for (int c = 0; c < p->cols; c++)
            if (row_of_col[c] >= 0)
                res->col_of_row[row_of_col[c]] = c;
        free(row_of_col);
    }
    res->total = pt_assign_total(p, res->col_of_row);
    return PT_OK;
}

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)threads, (void)report, (void)report_size;
    return pt_assign_exact(p, res, err);
}

const pt_assign_backend pt_assign_exact_solver = {solve_backend, NULL, 0};
