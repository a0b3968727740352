/* The assignment solvers as a table, so `assign -b` and the tracker select
 * one by name and never test for CUDA themselves. */
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/assign/assign.h"

static pt_status solve_seq(const pt_assign_problem *p, int threads, pt_assign_result *res, pt_error *err)
{
    (void)threads;
    return pt_assign_auction(p, res, err);
}

static pt_status solve_omp(const pt_assign_problem *p, int threads, pt_assign_result *res, pt_error *err)
{
    return pt_assign_auction_omp(p, threads, res, err);
}

static pt_status solve_cuda(const pt_assign_problem *p, int threads, pt_assign_result *res, pt_error *err)
{
    (void)threads;
    return pt_assign_auction_cuda(p, res, NULL, err);
}

static pt_status solve_exact(const pt_assign_problem *p, int threads, pt_assign_result *res,
                             pt_error *err)
{
    (void)threads;
    return pt_assign_exact(p, res, err);
}

static const pt_assign_backend backends[] = {
    {"seq", solve_seq, NULL, 0},
    {"omp", solve_omp, NULL, 4096},
    {"cuda", solve_cuda, pt_cuda_available, 65536},
    {"exact", solve_exact, NULL, 0},
};

const pt_assign_backend *pt_assign_backend_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
        if (!strcmp(backends[i].name, name))
            return &backends[i];
    return NULL;
}

const char *pt_assign_backend_names(void) { return "seq|omp|cuda|exact"; }
