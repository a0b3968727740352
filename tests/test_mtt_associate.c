/* The tracker's association: solving the gate graph's components one by one
 * gives the same total utility as the exact solve of the dense measurement x
 * prediction matrix (utility d_max - min(d_max, distance)), with every back
 * end, on crowded random scenes where clusters of many points form. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/assign/assign.h"
#include "lib/assign/mtt_associate.h"
#include "tests/pt_test.h"

static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

/* The dense optimum by the exact solver. */
static double dense_utility(const double *xy, int n, const double *pred, int k, double d_max)
{
    pt_assign_problem p;
    pt_assign_result r;
    pt_error err;
    if (pt_assign_problem_alloc(&p, n, k, &err) || pt_assign_result_alloc(&r, n, &err))
        return -1.0;
    for (int m = 0; m < n; m++)
        for (int t = 0; t < k; t++) {
            double dist = hypot(xy[2 * m] - pred[2 * t], xy[2 * m + 1] - pred[2 * t + 1]);
            p.cost[(size_t)m * k + t] = d_max - (dist < d_max ? dist : d_max);
        }
    p.maximize = 1;
    double total = pt_assign_exact(&p, &r, &err) == PT_OK ? r.total : -1.0;
    pt_assign_result_free(&r);
    pt_assign_problem_free(&p);
    return total;
}

/* track_of_meas is a matching of gated pairs whose utility sums to total. */
static int consistent(const double *xy, int n, const double *pred, int k, double d_max, const int *track_of_meas,
                      double total)
{
    char *used = calloc((size_t)k, 1);
    double sum = 0.0;
    int ok = used != NULL;
    for (int m = 0; ok && m < n; m++) {
        int t = track_of_meas[m];
        if (t < 0)
            continue;
        double dist = hypot(xy[2 * m] - pred[2 * t], xy[2 * m + 1] - pred[2 * t + 1]);
        ok = t < k && !used[t] && dist < d_max;
        if (ok)
            used[t] = 1;
        sum += d_max - dist;
    }
    free(used);
    return ok && fabs(sum - total) <= 1e-9 * (1.0 + fabs(total));
}

static void test_components_equal_dense(void)
{
    const char *solvers[] = {"exact", "seq", "omp"};
    const double d_max = 10.0;
    int scenes = 0, clustered = 0;
    for (int scene = 0; scene < 24; scene++) {
        uint64_t rng = 1000 + (uint64_t)scene;
        /* 40..270 points on a square whose side puts about 1.5 neighbours in each gate. */
        int n = 40 + 10 * scene, k = n - 5 + scene % 11;
        double side = sqrt(n * 3.14159 * d_max * d_max / 1.5);
        double *xy = malloc(sizeof(double) * 2 * (size_t)n), *pred = malloc(sizeof(double) * 2 * (size_t)k);
        int *track_of = malloc(sizeof(int) * (size_t)n);
        if (!xy || !pred || !track_of) {
            PT_CHECK(0, "out of memory");
            return;
        }
        for (int m = 0; m < 2 * n; m++)
            xy[m] = side * uniform(&rng);
        /* Predictions near most measurements, a few anywhere. */
        for (int t = 0; t < k; t++) {
            int m = t % n;
            int stray = uniform(&rng) < 0.1;
            pred[2 * t] = stray ? side * uniform(&rng) : xy[2 * m] + 6.0 * (uniform(&rng) - 0.5);
            pred[2 * t + 1] = stray ? side * uniform(&rng) : xy[2 * m + 1] + 6.0 * (uniform(&rng) - 0.5);
        }
        double dense = dense_utility(xy, n, pred, k, d_max);
        PT_CHECK(dense >= 0.0, "scene %d: dense solve", scene);
        for (size_t s = 0; s < sizeof solvers / sizeof solvers[0]; s++) {
            /* A copy of the back end with no size threshold: every cluster goes to it. */
            pt_assign_backend every = *pt_assign_backend_by_name(solvers[s]);
            every.tracker_min_entries = 0;
            pt_mtt_assoc a;
            memset(&a, 0, sizeof a);
            pt_error err;
            double total = -1.0;
            pt_status st = pt_mtt_associate(&a, xy, n, pred, k, d_max, &every, 2, track_of, &total, &err);
            PT_CHECK(st == PT_OK, "scene %d %s: %s", scene, solvers[s], st ? err.what : "");
            PT_CHECK(consistent(xy, n, pred, k, d_max, track_of, total), "scene %d %s: a matching of gated pairs",
                     scene, solvers[s]);
            /* The auctions quantise real utilities to ~2^-40 of the range: far below 1e-6 in total. */
            PT_CHECK(fabs(total - dense) <= 1e-6, "scene %d %s: components %.12f, dense %.12f", scene, solvers[s],
                     total, dense);
            if (s == 0 && a.pair_cap > 0)
                clustered += a.sub_cap >= 4; /* a cluster of at least 2 x 2 was built */
            pt_mtt_associate_free(&a);
        }
        scenes++;
        free(xy);
        free(pred);
        free(track_of);
    }
    printf("association: %d scenes, %d with clusters of 2 x 2 or more\n", scenes, clustered);
    PT_CHECK(clustered >= scenes / 2, "most scenes have real clusters (%d of %d)", clustered, scenes);
}

/* Hand-checked: two measurements, two predictions, the crossing pairing wins. */
static void test_hand_checked(void)
{
    /* m0 at (0,0), m1 at (4,0); p0 at (3,0), p1 at (-1,0): straight pairs
     * give (10-3)+(10-5) = 12, crossed (10-1)+(10-1) = 18. */
    double xy[] = {0, 0, 4, 0}, pred[] = {3, 0, -1, 0};
    int track_of[2];
    pt_mtt_assoc a;
    memset(&a, 0, sizeof a);
    pt_error err;
    double total = 0.0;
    PT_CHECK(pt_mtt_associate(&a, xy, 2, pred, 2, 10.0, pt_assign_backend_by_name("seq"), 1, track_of, &total,
                              &err) == PT_OK,
             "associate");
    PT_CHECK(track_of[0] == 1 && track_of[1] == 0 && fabs(total - 18.0) < 1e-12, "crossed pairing (%d %d, %g)",
             track_of[0], track_of[1], total);
    /* Out of the gate: no association. */
    double far[] = {100, 100};
    PT_CHECK(pt_mtt_associate(&a, far, 1, pred, 2, 10.0, pt_assign_backend_by_name("seq"), 1, track_of, &total,
                              &err) == PT_OK &&
                 track_of[0] == -1 && total == 0.0,
             "a measurement beyond d_max stays unassociated");
    pt_mtt_associate_free(&a);
}

int main(void)
{
    test_hand_checked();
    test_components_equal_dense();
    return PT_TEST_SUMMARY("mtt_associate");
}
