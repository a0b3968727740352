/* The GPU auction against the exact solver: on random integer problems of
 * many sizes (a few bidding blocks up to hundreds), shapes (square, fewer or
 * more rows than columns), cost distributions (uniform, tracking-like, few
 * distinct values so ties abound, a range wide enough for 64-bit benefits),
 * minimising and maximising, the GPU total equals the exact optimum. For
 * real costs it is within the quantisation bound. Skips (passing) when no
 * usable GPU is present. PT_TEST_QUICK=1 (compute-sanitizer runs) does fewer. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "cuda/assign/pt_cuda_auction.h"
#include "tests/pt_test.h"

typedef struct {
    int problems, mismatches, failures, many_block_runs, wide_runs, compact_runs, path_runs;
} tally;

/* Solves p on the GPU and exactly; returns 0 when either fails. */
static int solve_both(const pt_assign_problem *p, double *gpu_total, double *exact_total,
                      pt_auction_gpu_stats *stats)
{
    pt_assign_result g, e;
    pt_error err;
    pt_error_clear(&err);
    if (pt_assign_result_alloc(&g, p->rows, &err) || pt_assign_result_alloc(&e, p->rows, &err))
        return 0;
    int ok = 1;
    if (pt_assign_auction_cuda(p, &g, stats, &err) != PT_OK) {
        fprintf(stderr, "cuda auction %dx%d: %s\n", p->rows, p->cols, err.what);
        ok = 0;
    } else if (!pt_assign_is_complete(p, g.col_of_row) || g.total != pt_assign_total(p, g.col_of_row)) {
        fprintf(stderr, "cuda auction %dx%d: incomplete or inconsistent assignment\n", p->rows, p->cols);
        ok = 0;
    }
    if (pt_assign_exact(p, &e, &err) != PT_OK) {
        fprintf(stderr, "exact %dx%d: %s\n", p->rows, p->cols, err.what);
        ok = 0;
    }
    *gpu_total = g.total;
    *exact_total = e.total;
    pt_assign_result_free(&g);
    pt_assign_result_free(&e);
    return ok;
}

static void check_problem(tally *t, int rows, int cols, pt_assign_dist dist, long range, int maximize,
                          uint64_t seed)
{
    pt_assign_problem p;
    pt_error err;
    if (pt_assign_random(&p, rows, cols, dist, range, seed, &err)) {
        PT_CHECK(0, "generate %dx%d: %s", rows, cols, err.what);
        return;
    }
    p.maximize = maximize;
    double gpu, exact;
    pt_auction_gpu_stats stats;
    t->problems++;
    if (!solve_both(&p, &gpu, &exact, &stats)) {
        t->failures++;
    } else if (gpu != exact) {
        t->mismatches++;
        fprintf(stderr, "%dx%d %s range %ld %s seed %llu: cuda total %.0f, exact %.0f\n", rows, cols,
                dist == PT_ASSIGN_TRACKING ? "tracking" : "uniform", range, maximize ? "max" : "min",
                (unsigned long long)seed, gpu, exact);
    }
    t->many_block_runs += stats.blocks >= 64;
    t->wide_runs += stats.benefit_bits == 64;
    t->compact_runs += stats.benefit_bits == 16;
    t->path_runs += stats.finishes > 0;
    pt_assign_problem_free(&p);
}

/* >= 200 small and medium problems: square and rectangular, both distributions. */
static void test_random_integer(int quick)
{
    tally t = {0};
    int count = quick ? 40 : 240;
    for (int k = 0; k < count; k++) {
        int rows = 1 + (int)((k * 37u) % 96), cols;
        switch (k % 3) {
        case 0: cols = rows; break;
        case 1: cols = rows + 1 + (int)((k * 11u) % 40); break; /* fewer rows than columns */
        default: cols = rows > 1 ? 1 + (int)((k * 13u) % rows) : 1; break; /* more rows */
        }
        pt_assign_dist dist = (k & 2) ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM;
        /* range 3: many equal costs (ties); 1001; default max(rows, cols). */
        long range = (k % 5 == 0) ? 3 : (k % 5 == 1) ? 1001 : 0;
        check_problem(&t, rows, cols, dist, range, k & 1, 5000 + (uint64_t)k);
    }
    printf("random small: %d problems (%d with a phase ended by a shortest path), %d mismatches, %d failures\n",
           t.problems, t.path_runs, t.mismatches, t.failures);
    PT_CHECK(t.problems == count, "generated %d of %d problems", t.problems, count);
    PT_CHECK(t.failures == 0, "%d GPU or exact solves failed", t.failures);
    PT_CHECK(t.mismatches == 0, "%d GPU totals differ from the exact optimum", t.mismatches);
    PT_CHECK(t.path_runs > 0, "some phases ended by a shortest path");
}

/* Larger problems: hundreds of blocks bid at once, so stale prices and lost bids abound. */
static void test_large(int quick)
{
    static const int sizes[][2] = {{511, 511}, {512, 512}, {513, 513}, {512, 600}, {700, 650},
                                   {1000, 1000}, {1024, 1100}, {1500, 1200}, {1536, 1536}};
    int count = quick ? 4 : (int)(sizeof sizes / sizeof sizes[0]);
    tally t = {0};
    for (int s = 0; s < count; s++)
        for (int v = 0; v < 3; v++) {
            pt_assign_dist dist = v == 1 ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM;
            long range = v == 2 ? 7 : 0; /* v = 2: heavy ties */
            check_problem(&t, sizes[s][0], sizes[s][1], dist, range, v == 1, 7000 + (uint64_t)(10 * s + v));
        }
    printf("large: %d problems (%d on >= 64 blocks, %d with a phase ended by a shortest path), %d mismatches, "
           "%d failures\n",
           t.problems, t.many_block_runs, t.path_runs, t.mismatches, t.failures);
    PT_CHECK(t.failures == 0 && t.mismatches == 0, "large problems: %d failures, %d mismatches", t.failures,
             t.mismatches);
    PT_CHECK(t.many_block_runs > 0, "some problems ran on >= 64 bidding blocks");
    PT_CHECK(t.path_runs > 0, "some phases ended by a shortest path");
}

/* 9000 objects: the shortest-path finish keeps its state in global memory
 * (29 bytes an object is more shared memory than a block gets). Few real
 * persons keep the exact solver quick. */
static void test_path_state_in_global_memory(void)
{
    tally t = {0};
    check_problem(&t, 60, 9000, PT_ASSIGN_UNIFORM, 1000, 0, 95);
    check_problem(&t, 9000, 70, PT_ASSIGN_UNIFORM, 0, 1, 96);
    printf("9000 objects: %d problems (%d with a phase ended by a shortest path), %d mismatches, %d failures\n",
           t.problems, t.path_runs, t.mismatches, t.failures);
    PT_CHECK(t.failures == 0 && t.mismatches == 0, "9000 objects: %d failures, %d mismatches", t.failures,
             t.mismatches);
    PT_CHECK(t.path_runs > 0, "9000 objects: some phases ended by a shortest path");
}

/* Benefits of more than three staging buffers (2 MB each): the upload
 * reuses each buffer, rows of one chunk converted by several threads; in
 * both orientations (persons are the rows, or the columns). */
static void test_upload_in_many_chunks(void)
{
    tally t = {0};
    check_problem(&t, 700, 6000, PT_ASSIGN_UNIFORM, 0, 0, 97); /* 8.4 MB of 16-bit rows */
    check_problem(&t, 6000, 650, PT_ASSIGN_TRACKING, 0, 1, 98);
    PT_CHECK(t.failures == 0 && t.mismatches == 0, "many chunks: %d failures, %d mismatches", t.failures,
             t.mismatches);
    PT_CHECK(t.compact_runs == 2, "many chunks: 16-bit benefits (%d of 2)", t.compact_runs);
}

/* Problems above the pageable size (2^20 entries) with persons as rows:
 * integer costs in 0..65535 take the single pass (conversion, upload and
 * range at once); one entry outside that form, even the last, sends the
 * solve back to the range pass and the scaled upload, with the same
 * optimum; a NaN there is still rejected. */
static void test_single_pass_upload(void)
{
    const double misfits[4] = {0.0, 70000.0, -3.0, 2.5};
    for (int m = 0; m < 4; m++) {
        pt_assign_problem p;
        pt_error err;
        if (pt_assign_random(&p, 1030, 1040, m & 1 ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM, 65536, 70 + (uint64_t)m,
                             &err)) {
            PT_CHECK(0, "generate: %s", err.what);
            return;
        }
        p.maximize = m & 1;
        long last = (long)p.rows * p.cols - 1;
        if (m)
            p.cost[last] = misfits[m];
        double gpu, exact;
        pt_auction_gpu_stats stats;
        int ok = solve_both(&p, &gpu, &exact, &stats);
        /* 2.5: real costs, within the quantisation bound (as test_real_costs). */
        double lo = p.cost[0], hi = p.cost[0];
        for (long k = 1; k <= last; k++) {
            lo = p.cost[k] < lo ? p.cost[k] : lo;
            hi = p.cost[k] > hi ? p.cost[k] : hi;
        }
        double bound = m == 3 ? p.rows * (hi - lo) * (p.cols + 1) / 549755813888.0 + 1e-9 : 0.0;
        PT_CHECK(ok && fabs(gpu - exact) <= bound && stats.one_pass == (m == 0),
                 "last entry %g: cuda %.6f, exact %.6f, single pass %d", misfits[m], gpu, exact, stats.one_pass);
        p.cost[last] = NAN;
        pt_assign_result r;
        pt_assign_result_alloc(&r, p.rows, &err);
        PT_CHECK(pt_assign_auction_cuda(&p, &r, NULL, &err) == PT_ERR_PARAM, "a NaN in the last entry is rejected");
        pt_assign_result_free(&r);
        pt_assign_problem_free(&p);
    }
}

/* One side at least 4 % longer than the other: no auction phases, one
 * shortest path per person from an empty assignment (no dummy persons), the
 * exact optimum in both orientations, with ties (range 3) and one person.
 * Below 4 % (the last two shapes) the auction with dummies, also exact. */
static void test_paths_only(void)
{
    const int shapes[10][2] = {{100, 500}, {500, 100}, {1, 50},     {30, 200},    {260, 1040},
                               {2000, 400}, {1000, 1040}, {1360, 1300}, {1000, 1030}, {1300, 1340}};
    for (int k = 0; k < 10; k++) {
        pt_assign_problem p;
        pt_error err;
        if (pt_assign_random(&p, shapes[k][0], shapes[k][1], k & 1 ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM,
                             k == 3 ? 3 : 0, 40 + (uint64_t)k, &err)) {
            PT_CHECK(0, "generate: %s", err.what);
            return;
        }
        p.maximize = k & 1;
        double gpu, exact;
        pt_auction_gpu_stats stats;
        int ok = solve_both(&p, &gpu, &exact, &stats);
        int persons = p.rows < p.cols ? p.rows : p.cols, paths = k < 8;
        PT_CHECK(ok && gpu == exact && (stats.phases == 0) == paths && (stats.finishes == persons || !paths),
                 "%dx%d by %s: cuda %.0f, exact %.0f, %ld phases, %ld paths", p.rows, p.cols,
                 paths ? "shortest paths" : "the auction", gpu, exact, stats.phases, stats.finishes);
        pt_assign_problem_free(&p);
    }
}

/* Costs up to 2^30: benefits scaled by n + 1 need 64 bits. */
static void test_wide_costs(void)
{
    tally t = {0};
    check_problem(&t, 300, 300, PT_ASSIGN_UNIFORM, 1L << 30, 0, 91);
    check_problem(&t, 600, 640, PT_ASSIGN_UNIFORM, 1L << 30, 1, 92);
    PT_CHECK(t.failures == 0 && t.mismatches == 0, "wide costs: %d failures, %d mismatches", t.failures,
             t.mismatches);
    PT_CHECK(t.wide_runs == 2, "64-bit benefits used (%d of 2)", t.wide_runs);
}

/* Each benefit width on the device: 16-bit unscaled rows (range below 2^16),
 * 32-bit scaled (range 100 000) and 64-bit (test_wide_costs). */
static void test_benefit_widths(void)
{
    tally t = {0};
    check_problem(&t, 400, 400, PT_ASSIGN_UNIFORM, 65536, 0, 81);
    check_problem(&t, 500, 470, PT_ASSIGN_UNIFORM, 65536, 1, 82);
    int compact = t.compact_runs;
    check_problem(&t, 400, 400, PT_ASSIGN_UNIFORM, 100000, 0, 83);
    check_problem(&t, 470, 500, PT_ASSIGN_UNIFORM, 100000, 1, 84);
    PT_CHECK(t.failures == 0 && t.mismatches == 0, "widths: %d failures, %d mismatches", t.failures, t.mismatches);
    PT_CHECK(compact == 2 && t.compact_runs == 2 && t.wide_runs == 0,
             "range 2^16 in 16 bits, 100 000 in 32 bits (%d, %d 16-bit runs; %d 64-bit)", compact, t.compact_runs,
             t.wide_runs);
}

/* Real costs: within the quantisation bound of the exact optimum. */
static void test_real_costs(void)
{
    int n = 200;
    pt_assign_problem p;
    pt_error err;
    PT_CHECK(pt_assign_problem_alloc(&p, n, n, &err) == PT_OK, "alloc");
    uint64_t s = 12345;
    for (long k = 0; k < (long)n * n; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p.cost[k] = (double)(s >> 11) / 9007199254740992.0 * 100.0;
    }
    double gpu, exact;
    pt_auction_gpu_stats stats;
    int ok = solve_both(&p, &gpu, &exact, &stats);
    /* Costs quantised to at least (range * (n+1)) / 2^39 per entry. */
    double bound = n * 100.0 * (n + 1) / 549755813888.0 + 1e-9;
    PT_CHECK(ok && fabs(gpu - exact) <= bound, "real costs: cuda %.9f, exact %.9f (bound %.3g)", gpu, exact,
             bound);
    pt_assign_problem_free(&p);
}

/* Hand-checked cases, as in test_assign.c. */
static void test_hand_checked(void)
{
    pt_error err;
    double cost3[] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    pt_assign_problem p = {3, 3, cost3, 0};
    pt_assign_result r;
    pt_assign_result_alloc(&r, 3, &err);
    PT_CHECK(pt_assign_auction_cuda(&p, &r, NULL, &err) == PT_OK && r.total == 5.0, "3x3 min 5 (%g)", r.total);
    p.maximize = 1;
    PT_CHECK(pt_assign_auction_cuda(&p, &r, NULL, &err) == PT_OK && r.total == 11.0, "3x3 max 11 (%g)", r.total);
    double cost32[] = {5, 2, 9, 4, 1, 1};
    pt_assign_problem t = {3, 2, cost32, 0};
    PT_CHECK(pt_assign_auction_cuda(&t, &r, NULL, &err) == PT_OK && r.total == 3.0 &&
                 pt_assign_is_complete(&t, r.col_of_row),
             "3x2 min 3 (%g)", r.total);
    double one = 7;
    pt_assign_problem single = {1, 1, &one, 0};
    PT_CHECK(pt_assign_auction_cuda(&single, &r, NULL, &err) == PT_OK && r.total == 7.0 && r.col_of_row[0] == 0,
             "1x1");
    double all_equal[16] = {0};
    pt_assign_problem flat = {4, 4, all_equal, 0};
    PT_CHECK(pt_assign_auction_cuda(&flat, &r, NULL, &err) == PT_OK && pt_assign_is_complete(&flat, r.col_of_row),
             "all-equal costs: a complete assignment");
    pt_assign_result_free(&r);
    double nan_cost[] = {1, NAN, 2, 3};
    pt_assign_problem bad = {2, 2, nan_cost, 0};
    pt_assign_result_alloc(&r, 2, &err);
    PT_CHECK(pt_assign_auction_cuda(&bad, &r, NULL, &err) == PT_ERR_PARAM, "NaN cost rejected");
    pt_assign_result_free(&r);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA auction tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_auction");
    }
    int quick = getenv("PT_TEST_QUICK") != NULL;
    test_hand_checked();
    test_random_integer(quick);
    test_wide_costs();
    test_path_state_in_global_memory();
    test_upload_in_many_chunks();
    test_single_pass_upload();
    test_paths_only();
    test_benefit_widths();
    test_real_costs();
    test_large(quick);
    return PT_TEST_SUMMARY("cuda_auction");
}
