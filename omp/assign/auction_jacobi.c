/* -b omp --auction jacobi: the Jacobi auction's rounds on OpenMP threads
 * (lib/assign/auction_jacobi.c: each phase's loops run on the team). */
#include "lib/assign/auction_jacobi.h"
#include "omp/assign/auction_omp.h"

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)report, (void)report_size;
    return pt_assign_auction_jacobi(p, threads, res, err);
}

const pt_assign_backend pt_assign_omp_jacobi = {solve_backend, NULL, 4096};
