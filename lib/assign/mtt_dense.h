/* The tracker's association as Maier et al. solve it ("Real-time
 * multitarget tracking for sensor-based sorting", J. Real-Time Image
 * Processing, 2018; mtt --dense in pupiltrack-assign(1)): one dense
 * measurements x predictions utility matrix per frame, no gating into
 * components, solved by the chosen auction. Utilities are integers in
 * tenths of a pixel, round(10 (d_max - distance)) for pairs closer than
 * d_max and 0 beyond, so the Jacobi auction's 20-bit bid values hold them
 * and every solver returns an optimum of the same integer problem. */
#ifndef PT_MTT_DENSE_H
#define PT_MTT_DENSE_H

#include "lib/assign/assign.h"
#include "lib/core/pt_error.h"

/* Utility units per pixel of the dense matrix. */
#define PT_MTT_DENSE_UNITS 10.0

/* Reusable scratch (zero-initialise; free with pt_mtt_dense_free). */
typedef struct {
    pt_assign_problem problem;
    long capacity; /* entries of problem.cost */
    int *col_of_row;
    int rows_capacity;
} pt_mtt_dense;

void pt_mtt_dense_free(pt_mtt_dense *d);

/* n measurements xy and k predictions pred, (x, y) pairs: the n x k
 * problem above solved by solver on threads; track_of_meas[m] gets the
 * prediction index, or -1 where the measurement's pair is worth 0 (it starts
 * a track). */
pt_status pt_mtt_associate_dense(pt_mtt_dense *d, const double *xy, int n, const double *pred, int k,
                                 double d_max, const pt_assign_backend *solver, int threads,
                                 int *track_of_meas, pt_error *err);

#endif
