/* Lopsided assignment problems (4 % or more spare objects) are solved by
 * shortest augmenting paths on the auction's benefits, without dummy
 * persons: seq and omp reach the exact total, in either orientation, for
 * minimising and maximising, and the parallel scan of a search step gives
 * the same assignment as the sequential one (pupiltrack-assign(1)). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/assign/assign.h"
#include "omp/assign/auction_omp.h"
#include "tests/pt_test.h"

static double total_of(const pt_assign_problem *p, int backend, int *ok)
{
    pt_assign_result r;
    pt_error err;
    pt_error_clear(&err);
    *ok = 0;
    if (pt_assign_result_alloc(&r, p->rows, &err))
        return NAN;
    pt_status st = backend == 0   ? pt_assign_exact(p, &r, &err)
                   : backend == 1 ? pt_assign_auction(p, &r, &err)
                                  : pt_assign_auction_omp(p, 2, &r, &err);
    *ok = st == PT_OK && pt_assign_is_complete(p, r.col_of_row);
    if (st != PT_OK)
        fprintf(stderr, "solver error: %s\n", err.what);
    double total = r.total;
    pt_assign_result_free(&r);
    return total;
}

static void test_choice(void)
{
    PT_CHECK(pt_auction_prefers_paths(1, 100000), "1 x 100000 takes the paths");
    PT_CHECK(pt_auction_prefers_paths(100, 104), "4 %% spare takes the paths");
    PT_CHECK(!pt_auction_prefers_paths(100, 103), "3 %% spare keeps the auction");
    PT_CHECK(!pt_auction_prefers_paths(500, 500), "square keeps the auction");
}

static void test_totals(void)
{
    static const struct {
        int rows, cols;
        pt_assign_dist dist;
        long range;
    } shapes[] = {
        {1, 10000, PT_ASSIGN_UNIFORM, 0},    {1, 5, PT_ASSIGN_UNIFORM, 3},
        {3, 400, PT_ASSIGN_UNIFORM, 2},      {40, 900, PT_ASSIGN_UNIFORM, 0},
        {60, 2000, PT_ASSIGN_TRACKING, 0},   {2000, 60, PT_ASSIGN_TRACKING, 0},
        {100, 104, PT_ASSIGN_UNIFORM, 5},    {250, 300, PT_ASSIGN_UNIFORM, 1000000},
        {300, 250, PT_ASSIGN_UNIFORM, 7},    {120, 130, PT_ASSIGN_TRACKING, 0},
    };
    int problems = 0, wrong = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int maximize = 0; maximize < 2; maximize++) {
            pt_assign_problem p;
            pt_error err;
            if (pt_assign_random(&p, shapes[k].rows, shapes[k].cols, shapes[k].dist, shapes[k].range,
                                 17 + k, &err)) {
                PT_CHECK(0, "generator: %s", err.what);
                continue;
            }
            p.maximize = maximize;
            int ok0, ok1, ok2;
            double exact = total_of(&p, 0, &ok0), seq = total_of(&p, 1, &ok1),
                   omp = total_of(&p, 2, &ok2);
            problems++;
            if (!ok0 || !ok1 || !ok2 || seq != exact || omp != exact) {
                wrong++;
                fprintf(stderr, "%dx%d %s: exact %g seq %g omp %g\n", p.rows, p.cols,
                        maximize ? "max" : "min", exact, seq, omp);
            }
            pt_assign_problem_free(&p);
        }
    PT_CHECK(wrong == 0, "%d of %d lopsided problems off the exact total", wrong, problems);
}

/* Non-integer costs: optimal for the quantised benefits, so within rows *
 * the quantum of the exact total. */
static void test_fractional(void)
{
    pt_assign_problem p;
    pt_error err;
    if (pt_assign_problem_alloc(&p, 7, 300, &err)) {
        PT_CHECK(0, "alloc: %s", err.what);
        return;
    }
    for (long k = 0; k < 7L * 300; k++)
        p.cost[k] = fmod((double)k * 0.6180339887, 1.0) * 3.5;
    int ok0, ok1;
    double exact = total_of(&p, 0, &ok0), seq = total_of(&p, 1, &ok1);
    PT_CHECK(ok0 && ok1 && fabs(seq - exact) < 1e-6, "fractional costs: seq %.9f exact %.9f", seq, exact);
    pt_assign_problem_free(&p);
}

/* Wide enough for each search step's scan to run on a team: the same
 * assignment as one thread, optimal. */
static void test_parallel_scan(void)
{
    pt_assign_problem p;
    pt_error err;
    if (pt_assign_random(&p, 12, 40000, PT_ASSIGN_UNIFORM, 3, 5, &err)) {
        PT_CHECK(0, "generator: %s", err.what);
        return;
    }
    pt_auction_benefits b;
    if (pt_auction_benefits_make(&p, &b, 1, &err)) {
        PT_CHECK(0, "benefits: %s", err.what);
        pt_assign_problem_free(&p);
        return;
    }
    int one[12], team[12];
    PT_CHECK(pt_auction_paths(&b, 1, one, &err) == PT_OK, "paths, 1 thread: %s", err.what);
    PT_CHECK(pt_auction_paths(&b, 3, team, &err) == PT_OK, "paths, 3 threads: %s", err.what);
    PT_CHECK(memcmp(one, team, sizeof one) == 0, "the team's scan picks the same objects");
    pt_assign_result r;
    pt_assign_result_alloc(&r, p.rows, &err);
    pt_auction_result_fill(&p, &b, team, &r);
    int ok;
    double exact = total_of(&p, 0, &ok);
    PT_CHECK(pt_assign_is_complete(&p, r.col_of_row) && r.total == exact, "team total %g, exact %g",
             r.total, exact);
    pt_assign_result_free(&r);
    pt_auction_benefits_free(&b);
    pt_assign_problem_free(&p);
}

int main(void)
{
    test_choice();
    test_totals();
    test_fractional();
    test_parallel_scan();
    return PT_TEST_SUMMARY("auction_paths");
}
