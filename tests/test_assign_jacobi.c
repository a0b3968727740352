/* The Jacobi auction with packed 32-bit bids (lib/assign/auction_jacobi.h):
 * optimal on integer problems of every shape, the same assignment on any
 * number of threads (and on the GPU when one is usable), and problems the
 * bid word cannot hold refused with a reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/assign/pt_cuda_auction.h"
#include "cuda/core/pt_cuda.h"
#include "lib/assign/auction_jacobi.h"
#include "tests/pt_test.h"

typedef struct {
    int ok;
    double total;
    int *cols;
} solved;

static solved solve(const pt_assign_problem *p, int how)
{
    solved s = {0, NAN, calloc((size_t)p->rows, sizeof(int))};
    pt_assign_result r;
    pt_error err;
    pt_error_clear(&err);
    if (pt_assign_result_alloc(&r, p->rows, &err))
        return s;
    pt_status st = how == 0   ? pt_assign_exact(p, &r, &err)
                   : how < 0 ? pt_assign_auction_jacobi_cuda(p, &r, NULL, &err)
                             : pt_assign_auction_jacobi(p, how, &r, &err);
    if (!st && pt_assign_is_complete(p, r.col_of_row)) {
        s.ok = 1;
        s.total = r.total;
        memcpy(s.cols, r.col_of_row, sizeof(int) * (size_t)p->rows);
    } else if (st) {
        fprintf(stderr, "solver %d: %s\n", how, err.what);
    }
    pt_assign_result_free(&r);
    return s;
}

/* Optimal totals, and one thread, four threads (and the GPU) agree on the
 * assignment itself: the highest packed word wins whatever the order. */
static void test_random(int gpu)
{
    int problems = 0, wrong = 0, differ = 0, gpu_differ = 0;
    for (int k = 0; k < 60; k++) {
        int rows = 1 + (k * 37) % 90, cols = k % 3 ? 1 + (k * 53) % 90 : rows;
        pt_assign_problem p;
        pt_error err;
        if (pt_assign_random(&p, rows, cols, k % 2 ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM,
                             k % 4 ? 40 : 7, 1000 + (uint64_t)k, &err))
            continue;
        p.maximize = k % 5 == 0;
        solved exact = solve(&p, 0), one = solve(&p, 1), four = solve(&p, 4);
        problems++;
        wrong += !one.ok || !four.ok || one.total != exact.total || four.total != exact.total;
        differ += one.ok && four.ok && memcmp(one.cols, four.cols, sizeof(int) * (size_t)rows);
        if (gpu) {
            solved dev = solve(&p, -1);
            gpu_differ += !dev.ok || memcmp(one.cols, dev.cols, sizeof(int) * (size_t)rows);
            free(dev.cols);
        }
        free(exact.cols);
        free(one.cols);
        free(four.cols);
        pt_assign_problem_free(&p);
    }
    PT_CHECK(problems == 60, "%d of 60 random problems made", problems);
    PT_CHECK(wrong == 0, "%d Jacobi totals differ from the exact solver's", wrong);
    PT_CHECK(differ == 0, "%d assignments differ between 1 and 4 threads", differ);
    if (gpu)
        PT_CHECK(gpu_differ == 0, "%d GPU assignments differ from the CPU's", gpu_differ);
}

/* Beyond the word: more than 4096 persons, or benefits that leave prices no
 * room in 20 bits. */
static void test_limits(void)
{
    pt_assign_problem p;
    pt_error err;
    pt_assign_result r;
    PT_CHECK(!pt_assign_random(&p, 2, 5000, PT_ASSIGN_UNIFORM, 10, 1, &err), "5000-column problem");
    pt_assign_result_alloc(&r, p.rows, &err);
    PT_CHECK(pt_assign_auction_jacobi(&p, 1, &r, &err) == PT_ERR_PARAM && strstr(err.what, "4096"),
             "n > 4096 refused naming the limit: '%s'", err.what);
    pt_assign_result_free(&r);
    pt_assign_problem_free(&p);
    PT_CHECK(!pt_assign_random(&p, 600, 600, PT_ASSIGN_UNIFORM, 100000, 2, &err), "wide costs");
    pt_assign_result_alloc(&r, p.rows, &err);
    PT_CHECK(pt_assign_auction_jacobi(&p, 1, &r, &err) == PT_ERR_PARAM && strstr(err.what, "bits"),
             "benefits beyond the bid word refused: '%s'", err.what);
    pt_assign_result_free(&r);
    pt_assign_problem_free(&p);
}

/* A hand-checked 3 x 3: the minimum is 5 (0,1) (1,0) (2,2). */
static void test_small(void)
{
    double cost[9] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    pt_assign_problem p = {3, 3, cost, 0};
    solved s = solve(&p, 1);
    PT_CHECK(s.ok && s.total == 5.0, "3x3 minimum 5, got %g", s.total);
    free(s.cols);
}

int main(void)
{
    pt_error err;
    int gpu = pt_cuda_available(&err) == PT_OK;
    if (!gpu)
        printf("SKIP: the GPU comparison: %s\n", err.what);
    test_small();
    test_random(gpu);
    test_limits();
    return PT_TEST_SUMMARY("assign_jacobi");
}
