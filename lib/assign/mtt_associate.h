/* The tracker's association step on its own (lib/assign/mtt_associate.c): the
 * maximum-utility assignment of measurements to predicted track positions,
 * utility d_max - distance for pairs closer than d_max and 0 beyond, found
 * component by component of the gate graph. */
#ifndef PT_MTT_ASSOCIATE_H
#define PT_MTT_ASSOCIATE_H

#include "lib/assign/assign.h"
#include "lib/core/pt_error.h"

/* Scratch reused from call to call (zero-initialise; free with
 * pt_mtt_associate_free). */
typedef struct {
    int meas_cap, track_cap, bucket_cap;
    long pair_cap, sub_cap, sub_rows_cap;
    /* Hash grid of the predictions: bucket_start[bucket_count + 1], members by bucket. */
    int *bucket_start, *bucket_member;
    int64_t *cell_x, *cell_y;
    /* Union-find over measurements 0..n-1 and predictions n..n+k-1. */
    int *parent, *group_start;
    int *local_meas, *local_track, *comp_meas, *comp_track;
    int *pair_meas, *pair_track, *pair_grouped;
    double *pair_dist;
    pt_assign_problem sub;
    int *sub_col_of_row;
} pt_mtt_assoc;

void pt_mtt_associate_free(pt_mtt_assoc *a);

/* n measurements xy and k predictions pred, (x, y) pairs. Pairs closer than
 * d_max are found through a hash grid of d_max cells; every connected
 * component of those pairs is solved by itself (a single measurement or
 * prediction: its best pair; else exactly, by solver when the component has
 * at least solver->tracker_min_entries pairs of cells, by pt_assign_exact
 * below), which is the optimum of the dense n x k problem because pairs
 * across components are worth 0. track_of_meas[m] gets the prediction index
 * or -1 (no pair worth more than 0); *utility (may be NULL) the total. */
pt_status pt_mtt_associate(pt_mtt_assoc *a, const double *xy, int n, const double *pred, int k, double d_max,
                           const pt_assign_backend *solver, int threads, int *track_of_meas, double *utility,
                           pt_error *err);

#endif
