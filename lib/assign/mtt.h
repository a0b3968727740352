/* Multi-target tracker: a constant-velocity Kalman filter per track, the
 * auction assigning measurements to track predictions with the utility
 * d_max - min(d_max, distance), track scores for birth and death, and the
 * identity metrics (split objects, merged tracks, ID switches, MOTA, IDF1). */
#ifndef PT_MTT_H
#define PT_MTT_H

#include "lib/assign/assign.h"
#include "lib/assign/particles.h"
#include "lib/core/pt_error.h"

typedef struct {
    double d_max;             /* gate, px: farther pairs have utility 0 and never associate */
    double process_noise;     /* acceleration sd, px/frame^2 */
    double measurement_noise; /* position sd, px */
    double init_vx, init_vy;  /* velocity of a new track, px/frame */
    double init_velocity_sd;  /* its uncertainty, px/frame */
    int score_initial, score_hit, score_miss, score_max; /* a track dies below 0 */
    /* Assignment solver (default pt_assign_seq); gated clusters below its
     * tracker_min_entries are solved by the exact solver. */
    const pt_assign_backend *solver;
    int threads; /* for omp; 0 = all cores */
    /* 1: each frame's whole measurements x tracks matrix goes to solver, as
     * Maier et al. associate (lib/assign/mtt_dense.h), instead of the gated
     * components; 0 (default): the components. */
    int dense;
} pt_mtt_params;

void pt_mtt_default(pt_mtt_params *params);

typedef struct {
    int id, score;
    double x, y, vx, vy;
    double p00, p01, p11; /* per-axis (position, velocity) covariance, shared by x and y */
} pt_track;

typedef struct pt_tracker pt_tracker; /* opaque: tracks plus reusable scratch */

pt_status pt_tracker_create(const pt_mtt_params *params, pt_tracker **tracker, pt_error *err);
void pt_tracker_destroy(pt_tracker *tracker);
/* One frame: predict, associate, update, start and delete tracks. xy holds n
 * (x, y) pairs; track_of gets each measurement's track id. */
pt_status pt_tracker_step(pt_tracker *tracker, const double *xy, int n, int *track_of, pt_error *err);
/* frames frames without measurements, as many pt_tracker_step calls with n
 * = 0 would be (misses, predictions, deaths), in time independent of their
 * number: long gaps are predicted in closed form. */
pt_status pt_tracker_skip(pt_tracker *tracker, long frames);
/* Live tracks after the last step. */
const pt_track *pt_tracker_tracks(const pt_tracker *tracker, int *count);

/* Runs the tracker over a whole stream (frames in order, gaps are frames
 * without measurements); tracks gets set->count ids. */
pt_status pt_mtt_run(const pt_mtt_params *params, const pt_measurement_set *set, int *tracks,
                     double *ms_per_frame, pt_error *err);
/* The same, and frame_ms (may be NULL; last - first + 1 entries, frames
 * first..last of the set) gets each frame's milliseconds: the tracker step
 * (prediction, association, update) of a frame with measurements, -1 for a
 * frame without. */
pt_status pt_mtt_run_timed(const pt_mtt_params *params, const pt_measurement_set *set, int *tracks,
                           double *ms_per_frame, double *frame_ms, pt_error *err);

/* Every measurement carries one true id and one track, so misses and false
 * positives are 0 and MOTA = 1 - id_switches / measurements; IDF1 =
 * IDTP / measurements with IDTP from the best one-to-one id-track matching. */
typedef struct {
    long measurements;
    int objects, tracks;
    int objects_split;  /* objects whose measurements landed on more than one track */
    int tracks_merged;  /* tracks holding more than one object */
    long id_switches;   /* changes of an object's track between its consecutive measurements */
    long idtp;
    double mota, idf1;
} pt_mtt_metrics;

pt_status pt_mtt_metrics_compute(const int *frame, const int *true_id, const int *track, long n,
                                 pt_mtt_metrics *metrics, pt_error *err);

#endif
