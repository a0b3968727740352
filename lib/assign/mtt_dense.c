/* Dense per-frame association (see mtt_dense.h). */
#include "lib/assign/mtt_dense.h"

#include <math.h>
#include <stdlib.h>

void pt_mtt_dense_free(pt_mtt_dense *d)
{
    free(d->problem.cost);
    free(d->col_of_row);
    *d = (pt_mtt_dense){0};
}

pt_status pt_mtt_associate_dense(pt_mtt_dense *d, const double *xy, int n, const double *pred, int k,
                                 double d_max, const pt_assign_backend *solver, int threads,
                                 int *track_of_meas, pt_error *err)
{
    for (int m = 0; m < n; m++)
        track_of_meas[m] = -1;
    if (n == 0 || k == 0)
        return PT_OK;
    long entries = (long)n * k;
    if (entries > PT_ASSIGN_MAX_ENTRIES)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: a dense %dx%d frame is too large", n, k);
    if (entries > d->capacity) {
        double *cost = realloc(d->problem.cost, sizeof(double) * (size_t)entries);
        if (!cost)
            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for a %dx%d frame", n, k);
        d->problem.cost = cost;
        d->capacity = entries;
    }
    if (n > d->rows_capacity) {
        int *rows = realloc(d->col_of_row, sizeof(int) * (size_t)n);
        if (!rows)
            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for a %dx%d frame", n, k);
        d->col_of_row = rows;
        d->rows_capacity = n;
    }
    d->problem.rows = n;
    d->problem.cols = k;
    d->problem.maximize = 1;
    for (int m = 0; m < n; m++) {
        double *row = d->problem.cost + (size_t)m * k;
        for (int t = 0; t < k; t++) {
            double ex = xy[2 * m] - pred[2 * t], ey = xy[2 * m + 1] - pred[2 * t + 1];
            double dist = sqrt(ex * ex + ey * ey);
            row[t] = dist < d_max ? floor(PT_MTT_DENSE_UNITS * (d_max - dist) + 0.5) : 0.0;
        }
    }
    pt_assign_result r = {d->col_of_row, 0.0};
    pt_status st = solver->solve(&d->problem, threads, &r, NULL, 0, err);
    if (st)
        return st;
    for (int m = 0; m < n; m++) {
        int t = r.col_of_row[m];
        if (t >= 0 && d->problem.cost[(size_t)m * k + t] > 0.0)
            track_of_meas[m] = t;
    }
    return PT_OK;
}
