/* The dense association (mtt --dense, lib/assign/mtt_dense.h): on crowded
 * random scenes, every solver (seq, omp and exact; the Jacobi auction on seq
 * and omp) returns a matching of gated pairs with the same, optimal total
 * of the integer utilities round(10 (d_max - distance)); and a tracker run
 * with --dense follows a clean conveyor belt as the gated one does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/assign/auction_jacobi.h"
#include "lib/assign/mtt.h"
#include "lib/assign/mtt_dense.h"
#include "tests/pt_test.h"

static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

static double unit_utility(const double *xy, int m, const double *pred, int t, double d_max)
{
    double dist = hypot(xy[2 * m] - pred[2 * t], xy[2 * m + 1] - pred[2 * t + 1]);
    return dist < d_max ? floor(PT_MTT_DENSE_UNITS * (d_max - dist) + 0.5) : 0.0;
}

/* Total of a matching; -1 when it is not one (a track twice, a pair worth 0). */
static double matching_total(const double *xy, int n, const double *pred, int k, double d_max, const int *track_of)
{
    char *used = calloc((size_t)k, 1);
    double sum = 0.0;
    for (int m = 0; m < n && sum >= 0; m++) {
        int t = track_of[m];
        if (t < 0)
            continue;
        double u = unit_utility(xy, m, pred, t, d_max);
        if (t >= k || used[t] || !(u > 0))
            sum = -1.0;
        else {
            used[t] = 1;
            sum += u;
        }
    }
    free(used);
    return sum;
}

static void scenes(void)
{
    const double d_max = 10.0;
    const pt_assign_backend *solvers[] = {&pt_assign_exact_solver, &pt_assign_seq, pt_assign_backend_by_name("omp"),
                                          &pt_assign_seq_jacobi, &pt_assign_omp_jacobi};
    const char *names[] = {"exact", "seq", "omp", "seq jacobi", "omp jacobi"};
    uint64_t rng = 7;
    for (int scene = 0; scene < 12; scene++) {
        int n = 20 + scene * 15, k = n + (scene % 3) * 7 - 7;
        double side = 8.0 * sqrt((double)n); /* crowded: clusters of many points */
        double *xy = malloc(sizeof(double) * 2 * (size_t)n), *pred = malloc(sizeof(double) * 2 * (size_t)k);
        int *track_of = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < 2 * n; i++)
            xy[i] = side * uniform(&rng);
        for (int t = 0; t < k; t++) {
            int m = t % n;
            pred[2 * t] = xy[2 * m] + 6.0 * (uniform(&rng) - 0.5);
            pred[2 * t + 1] = xy[2 * m + 1] + 6.0 * (uniform(&rng) - 0.5);
        }
        double reference = -1.0;
        for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++) {
            pt_mtt_dense d = {0};
            pt_error err;
            pt_status st = pt_mtt_associate_dense(&d, xy, n, pred, k, d_max, solvers[s], 2, track_of, &err);
            PT_CHECK(st == PT_OK, "scene %d, %s: %s", scene, names[s], err.what);
            double total = st == PT_OK ? matching_total(xy, n, pred, k, d_max, track_of) : -2.0;
            PT_CHECK(total >= 0, "scene %d, %s: not a matching of gated pairs", scene, names[s]);
            if (s == 0)
                reference = total;
            else
                PT_CHECK(total == reference, "scene %d (%dx%d), %s: total %g, exact %g", scene, n, k, names[s], total,
                         reference);
            pt_mtt_dense_free(&d);
        }
        free(xy);
        free(pred);
        free(track_of);
    }
}

/* A clean belt: --dense (default auction and Jacobi) tracks every object as one track. */
static void belt(void)
{
    pt_particles_params pp;
    pt_particles_default(&pp);
    pp.objects = 60;
    pp.frames = 40;
    pp.seed = 3;
    pt_measurement_set set;
    pt_error err;
    PT_CHECK(pt_particles_generate(&pp, &set, &err) == PT_OK, "particles: %s", err.what);
    int *tracks = malloc(sizeof(int) * (size_t)set.count), *frame = malloc(sizeof(int) * (size_t)set.count),
        *id = malloc(sizeof(int) * (size_t)set.count);
    for (long i = 0; i < set.count; i++) {
        frame[i] = set.items[i].frame;
        id[i] = set.items[i].id;
    }
    const pt_assign_backend *solvers[] = {&pt_assign_seq, &pt_assign_seq_jacobi};
    for (int s = 0; s < 2; s++) {
        pt_mtt_params mp;
        pt_mtt_default(&mp);
        mp.dense = 1;
        mp.solver = solvers[s];
        int nframes = set.items[set.count - 1].frame - set.items[0].frame + 1;
        double ms = 0.0, *frame_ms = malloc(sizeof(double) * (size_t)nframes);
        PT_CHECK(pt_mtt_run_timed(&mp, &set, tracks, &ms, frame_ms, &err) == PT_OK, "dense run: %s", err.what);
        pt_mtt_metrics m;
        PT_CHECK(pt_mtt_metrics_compute(frame, id, tracks, set.count, &m, &err) == PT_OK, "metrics: %s", err.what);
        PT_CHECK(m.id_switches == 0 && m.objects_split == 0 && m.tracks_merged == 0,
                 "dense belt (%s): %ld switches, %d split, %d merged", s ? "jacobi" : "default", m.id_switches,
                 m.objects_split, m.tracks_merged);
        int timed = 0;
        for (int f = 0; f < nframes; f++)
            timed += frame_ms[f] >= 0.0;
        PT_CHECK(timed == nframes, "frame times: %d of %d frames timed", timed, nframes);
        free(frame_ms);
    }
    free(tracks);
    free(frame);
    free(id);
    pt_measurement_set_free(&set);
}

int main(void)
{
    scenes();
    belt();
    return PT_TEST_SUMMARY("mtt_dense");
}
