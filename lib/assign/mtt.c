/* Multi-target tracker (see mtt.h): predict, associate (lib/assign/mtt_associate.c:
 * gated components, each solved exactly, so the optimum of the full
 * measurement x track problem), update, birth and death. */
#include "lib/assign/mtt.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "lib/assign/assign.h"
#include "lib/assign/mtt_associate.h"
#include "lib/assign/mtt_dense.h"

void pt_mtt_default(pt_mtt_params *params)
{
    *params = (pt_mtt_params){.d_max = 10.0,
                              .process_noise = 0.5,
                              .measurement_noise = 1.0,
                              .init_vx = 0.0,
                              .init_vy = 0.0,
                              .init_velocity_sd = 5.0,
                              .score_initial = 5,
                              .score_hit = 2,
                              .score_miss = 1,
                              .score_max = 10,
                              .solver = &pt_assign_seq,
                              .threads = 0};
}

struct pt_tracker {
    pt_mtt_params params;
    pt_track *tracks;
    int count, capacity, next_id;
    /* Scratch, grown on demand and reused frame to frame. */
    int meas_cap, track_cap;
    double *predicted; /* (x, y) of each track after the prediction */
    int *track_of_meas, *meas_of_track;
    pt_mtt_assoc assoc;
    pt_mtt_dense dense; /* params.dense */
};

static pt_status grow(void **buf, size_t elem, long need, long *cap_inout, pt_error *err)
{
    if (need <= *cap_inout)
        return PT_OK;
    long cap = *cap_inout ? *cap_inout : 256;
    while (cap < need)
        cap *= 2;
    void *more = realloc(*buf, elem * (size_t)cap);
    if (!more)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory (%ld items)", cap);
    *buf = more;
    *cap_inout = cap;
    return PT_OK;
}

/* Grows the per-measurement and per-track scratch arrays together. */
static pt_status ensure_scratch(pt_tracker *t, int n, int tracks, pt_error *err)
{
    if (n > t->meas_cap || tracks > t->track_cap) {
        int mc = n > t->meas_cap ? n * 2 : t->meas_cap, tc = tracks > t->track_cap ? tracks * 2 : t->track_cap;
        if (mc < 64)
            mc = 64;
        if (tc < 64)
            tc = 64;
        void *pred = realloc(t->predicted, sizeof(double) * 2 * (size_t)tc);
        if (pred)
            t->predicted = pred;
        void *tom = realloc(t->track_of_meas, sizeof(int) * (size_t)mc);
        if (tom)
            t->track_of_meas = tom;
        void *mot = realloc(t->meas_of_track, sizeof(int) * (size_t)tc);
        if (mot)
            t->meas_of_track = mot;
        if (!pred || !tom || !mot)
            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for %d measurements", n);
        t->meas_cap = mc;
        t->track_cap = tc;
    }
    return PT_OK;
}

pt_status pt_tracker_create(const pt_mtt_params *params, pt_tracker **tracker, pt_error *err)
{
    *tracker = NULL;
    if (!(params->d_max > 0) || !(params->process_noise >= 0) || !(params->measurement_noise > 0) ||
        !(params->init_velocity_sd >= 0) || params->score_hit < 0 || params->score_miss < 0 ||
        params->score_initial < 0 || params->score_max < params->score_initial)
        return pt_error_set(err, PT_ERR_PARAM, "mtt",
                            "need d_max > 0, measurement noise > 0, noises >= 0, scores >= 0, "
                            "score_max >= score_initial");
    if (!params->solver || !params->solver->solve)
        return pt_error_set(err, PT_ERR_PARAM, "mtt", "no assignment solver given");
    if (params->solver->available) {
        pt_status st = params->solver->available(err);
        if (st)
            return st;
    }
    pt_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return pt_error_set(err, PT_ERR_NOMEM, "mtt", "out of memory");
    t->params = *params;
    *tracker = t;
    return PT_OK;
}

void pt_tracker_destroy(pt_tracker *t)
{
    if (!t)
        return;
    free(t->tracks);
    free(t->predicted);
    free(t->track_of_meas);
    free(t->meas_of_track);
    pt_mtt_associate_free(&t->assoc);
    pt_mtt_dense_free(&t->dense);
    free(t);
}

const pt_track *pt_tracker_tracks(const pt_tracker *t, int *count)
{
    *count = t->count;
    return t->tracks;
}

static void predict(pt_track *tr, double accel_var)
{
    tr->x += tr->vx;
    tr->y += tr->vy;
    /* P = F P F' + Q, F = [1 1; 0 1], Q = accel_var * [1/4 1/2; 1/2 1]. */
    tr->p00 += 2.0 * tr->p01 + tr->p11 + 0.25 * accel_var;
    tr->p01 += tr->p11 + 0.5 * accel_var;
    tr->p11 += accel_var;
}

static void update(pt_track *tr, double zx, double zy, double meas_var)
{
    double s = tr->p00 + meas_var, k0 = tr->p00 / s, k1 = tr->p01 / s;
    double rx = zx - tr->x, ry = zy - tr->y;
    tr->x += k0 * rx;
    tr->y += k0 * ry;
    tr->vx += k1 * rx;
    tr->vy += k1 * ry;
    double p00 = tr->p00, p01 = tr->p01;
    tr->p00 = (1.0 - k0) * p00;
    tr->p01 = (1.0 - k0) * p01;
    tr->p11 -= k1 * p01;
}

/* Gaps up to this long are predicted frame by frame (the same arithmetic as
 * pt_tracker_step); longer ones in closed form. */
#define GAP_STEPWISE 1024

/* g predictions at once: F^g = [1 g; 0 1] and the noise summed over the
 * gap, sum_{k<g} F^k Q F^k' = accel_var * [g/4 + g(g-1)/2 + (g-1)g(2g-1)/6,
 * g^2/2; g^2/2, g]. */
static void predict_gap(pt_track *tr, double g, double accel_var)
{
    tr->x += g * tr->vx;
    tr->y += g * tr->vy;
    double p00 = tr->p00, p01 = tr->p01, p11 = tr->p11;
    tr->p00 = p00 + 2.0 * g * p01 + g * g * p11 +
              accel_var * (g / 4.0 + g * (g - 1.0) / 2.0 + (g - 1.0) * g * (2.0 * g - 1.0) / 6.0);
    tr->p01 = p01 + g * p11 + accel_var * g * g / 2.0;
    tr->p11 = p11 + accel_var * g;
}

pt_status pt_tracker_skip(pt_tracker *t, long frames)
{
    const pt_mtt_params *q = &t->params;
    if (frames <= 0)
        return PT_OK;
    double accel_var = q->process_noise * q->process_noise;
    int kept = 0;
    for (int k = 0; k < t->count; k++) {
        pt_track *tr = &t->tracks[k];
        /* a miss per frame: the track dies in the gap once its score drops below 0 */
        if ((double)tr->score - (double)q->score_miss * (double)frames < 0)
            continue;
        tr->score -= (int)(q->score_miss * frames);
        if (frames <= GAP_STEPWISE)
            for (long f = 0; f < frames; f++)
                predict(tr, accel_var);
        else
            predict_gap(tr, (double)frames, accel_var);
        t->tracks[kept++] = *tr;
    }
    t->count = kept;
    return PT_OK;
}

pt_status pt_tracker_step(pt_tracker *t, const double *xy, int n, int *track_of, pt_error *err)
{
    const pt_mtt_params *q = &t->params;
    double accel_var = q->process_noise * q->process_noise, meas_var = q->measurement_noise * q->measurement_noise;
    for (int m = 0; m < 2 * n; m++)
        if (!isfinite(xy[m]) || fabs(xy[m]) > 1e12)
            return pt_error_set(err, PT_ERR_PARAM, "", "measurement %d is not a finite coordinate", m / 2);
    pt_status st = ensure_scratch(t, n, t->count + n, err);
    if (st)
        return st;
    for (int k = 0; k < t->count; k++) {
        predict(&t->tracks[k], accel_var);
        t->predicted[2 * k] = t->tracks[k].x;
        t->predicted[2 * k + 1] = t->tracks[k].y;
        t->meas_of_track[k] = -1;
    }
    if (q->dense)
        st = pt_mtt_associate_dense(&t->dense, xy, n, t->predicted, t->count, q->d_max, q->solver, q->threads,
                                    t->track_of_meas, err);
    else
        st = pt_mtt_associate(&t->assoc, xy, n, t->predicted, t->count, q->d_max, q->solver, q->threads,
                              t->track_of_meas, NULL, err);
    if (st)
        return st;
    for (int m = 0; m < n; m++)
        if (t->track_of_meas[m] >= 0)
            t->meas_of_track[t->track_of_meas[m]] = m;
    /* Update or penalise every track, then drop those whose score fell below 0. */
    for (int k = 0; k < t->count; k++) {
        pt_track *tr = &t->tracks[k];
        int m = t->meas_of_track[k];
        if (m >= 0) {
            update(tr, xy[2 * m], xy[2 * m + 1], meas_var);
            tr->score = tr->score + q->score_hit > q->score_max ? q->score_max : tr->score + q->score_hit;
            track_of[m] = tr->id;
        } else {
            tr->score -= q->score_miss;
        }
    }
    int kept = 0;
    for (int k = 0; k < t->count; k++)
        if (t->tracks[k].score >= 0)
            t->tracks[kept++] = t->tracks[k];
    t->count = kept;
    long cap = t->capacity;
    if ((st = grow((void **)&t->tracks, sizeof(pt_track), (long)t->count + n, &cap, err)))
        return st;
    t->capacity = (int)cap;
    for (int m = 0; m < n; m++) {
        if (t->track_of_meas[m] >= 0)
            continue;
        pt_track *tr = &t->tracks[t->count++];
        *tr = (pt_track){.id = t->next_id++,
                         .score = q->score_initial,
                         .x = xy[2 * m],
                         .y = xy[2 * m + 1],
                         .vx = q->init_vx,
                         .vy = q->init_vy,
                         .p00 = meas_var,
                         .p01 = 0.0,
                         .p11 = q->init_velocity_sd * q->init_velocity_sd};
        track_of[m] = tr->id;
    }
    return PT_OK;
}

pt_status pt_mtt_run(const pt_mtt_params *params, const pt_measurement_set *set, int *tracks,
                     double *ms_per_frame, pt_error *err)
{
    return pt_mtt_run_timed(params, set, tracks, ms_per_frame, NULL, err);
}

pt_status pt_mtt_run_timed(const pt_mtt_params *params, const pt_measurement_set *set, int *tracks,
                           double *ms_per_frame, double *frame_ms, pt_error *err)
{
    *ms_per_frame = 0.0;
    if (set->count == 0)
        return PT_OK;
    pt_tracker *t;
    pt_status st = pt_tracker_create(params, &t, err);
    if (st)
        return st;
    int largest = 0;
    for (long a = 0, b; a < set->count; a = b) {
        for (b = a; b < set->count && set->items[b].frame == set->items[a].frame; b++)
            ;
        largest = b - a > largest ? (int)(b - a) : largest;
    }
    double *xy = malloc(sizeof(double) * 2 * (size_t)largest);
    if (!xy) {
        pt_tracker_destroy(t);
        return pt_error_set(err, PT_ERR_NOMEM, "mtt", "out of memory");
    }
    long first = set->items[0].frame, last = set->items[set->count - 1].frame;
    double start = omp_get_wtime();
    long frame = first; /* the next frame to track */
    for (long at = 0; at < set->count && !st;) {
        /* frames without measurements up to the next one with some: one skip */
        long next = set->items[at].frame;
        pt_tracker_skip(t, next - frame);
        for (long g = frame; frame_ms && g < next; g++)
            frame_ms[g - first] = -1.0;
        long b = at;
        for (; b < set->count && set->items[b].frame == next; b++) {
            xy[2 * (b - at)] = set->items[b].x;
            xy[2 * (b - at) + 1] = set->items[b].y;
        }
        double step_start = omp_get_wtime();
        st = pt_tracker_step(t, xy, (int)(b - at), tracks + at, err);
        if (frame_ms)
            frame_ms[next - first] = 1000.0 * (omp_get_wtime() - step_start);
        at = b;
        frame = next + 1;
    }
    *ms_per_frame = 1000.0 * (omp_get_wtime() - start) / (double)(last - first + 1);
    free(xy);
    pt_tracker_destroy(t);
    return st;
}
