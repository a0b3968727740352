/* Frames without measurements: pt_tracker_skip(g) leaves the tracker as g
 * empty pt_tracker_step calls would (scores, deaths, predictions), exactly
 * for short gaps and to rounding for long ones (closed form), and pt_mtt_run
 * crosses a gap of a billion frames in one skip (pupiltrack-mtt, the
 * tracker). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/assign/mtt.h"
#include "tests/pt_test.h"

/* Two trackers fed the same moving objects for a few frames. */
static void make_pair(const pt_mtt_params *mp, pt_tracker **a, pt_tracker **b)
{
    pt_error err;
    pt_tracker_create(mp, a, &err);
    pt_tracker_create(mp, b, &err);
    for (int f = 0; f < 6; f++) {
        double xy[6] = {3.0 * f, 1.0, 100.0 - 2.0 * f, 40.0 + f, 50.0, 50.0 - 1.5 * f};
        int ids[3];
        pt_tracker_step(*a, xy, 3, ids, &err);
        pt_tracker_step(*b, xy, 3, ids, &err);
    }
}

static double rel(double x, double y)
{
    double scale = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    return scale > 0 ? fabs(x - y) / scale : 0.0;
}

/* 1 when the live tracks agree: ids and scores exactly, the rest within tol
 * (relative; 0: bit for bit). */
static int same_tracks(const pt_tracker *a, const pt_tracker *b, double tol)
{
    int na, nb;
    const pt_track *ta = pt_tracker_tracks(a, &na), *tb = pt_tracker_tracks(b, &nb);
    if (na != nb)
        return 0;
    for (int k = 0; k < na; k++) {
        const pt_track *x = &ta[k], *y = &tb[k];
        if (x->id != y->id || x->score != y->score)
            return 0;
        double fx[7] = {x->x, x->y, x->vx, x->vy, x->p00, x->p01, x->p11};
        double fy[7] = {y->x, y->y, y->vx, y->vy, y->p00, y->p01, y->p11};
        for (int i = 0; i < 7; i++)
            if (tol == 0 ? memcmp(&fx[i], &fy[i], sizeof fx[i]) != 0 : rel(fx[i], fy[i]) > tol)
                return 0;
    }
    return 1;
}

static void test_skip_equals_steps(void)
{
    pt_mtt_params mp;
    pt_mtt_default(&mp);
    pt_error err;
    /* default scores: tracks die within the gap after score + 1 misses */
    for (int g = 0; g <= 14; g++) {
        pt_tracker *a, *b;
        make_pair(&mp, &a, &b);
        for (int f = 0; f < g; f++)
            pt_tracker_step(a, NULL, 0, NULL, &err);
        pt_tracker_skip(b, g);
        int count;
        pt_tracker_tracks(b, &count);
        PT_CHECK(same_tracks(a, b, 0), "default scores, gap %d: skip differs from empty steps", g);
        if (g == 14)
            PT_CHECK(count == 0, "every track dead after 14 misses, %d left", count);
        pt_tracker_destroy(a);
        pt_tracker_destroy(b);
    }
    /* no misses counted: tracks live through any gap */
    mp.score_miss = 0;
    static const int gaps[] = {1, 7, 1024, 1025, 5000};
    for (size_t k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
        pt_tracker *a, *b;
        make_pair(&mp, &a, &b);
        for (int f = 0; f < gaps[k]; f++)
            pt_tracker_step(a, NULL, 0, NULL, &err);
        pt_tracker_skip(b, gaps[k]);
        PT_CHECK(same_tracks(a, b, gaps[k] <= 1024 ? 0 : 1e-9),
                 "score_miss 0, gap %d: skip differs from empty steps", gaps[k]);
        pt_tracker_destroy(a);
        pt_tracker_destroy(b);
    }
}

/* Measurements at frames 0 and 1e9: one skip, and the second measurement
 * starts a new track (the first died in the gap). */
static void test_run_over_long_gap(void)
{
    pt_mtt_params mp;
    pt_mtt_default(&mp);
    pt_measurement_set set;
    memset(&set, 0, sizeof set);
    pt_error err;
    pt_measurement_add(&set, 0, 10.0, 10.0, -1, &err);
    pt_measurement_add(&set, 0, 50.0, 50.0, -1, &err);
    pt_measurement_add(&set, 1000000000, 10.0, 10.0, -1, &err);
    int tracks[3];
    double ms;
    PT_CHECK(pt_mtt_run(&mp, &set, tracks, &ms, &err) == PT_OK, "run: %s", err.what);
    PT_CHECK(tracks[0] != tracks[1] && tracks[2] != tracks[0] && tracks[2] != tracks[1],
             "a new track after the gap: %d %d %d", tracks[0], tracks[1], tracks[2]);
    pt_measurement_set_free(&set);
}

int main(void)
{
    test_skip_equals_steps();
    test_run_over_long_gap();
    return PT_TEST_SUMMARY("mtt_gap");
}
