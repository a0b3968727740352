/* The GPU auction's entry when pupiltrack is built without CUDA: an honest
 * "unavailable" (exit 3 from the CLI), never a quiet CPU fall-back. */
#include <string.h>

#include "cuda/assign/pt_cuda_auction.h"

pt_status pt_assign_auction_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                 pt_auction_gpu_stats *stats, pt_error *err)
{
    (void)p, (void)res;
    if (stats)
        memset(stats, 0, sizeof *stats);
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}

pt_status pt_assign_auction_jacobi_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                        double *kernel_ms, pt_error *err)
{
    (void)p, (void)res, (void)kernel_ms;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}
