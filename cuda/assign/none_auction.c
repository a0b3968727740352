/* The GPU auction's entry when pupiltrack is built without CUDA: an honest
 * "unavailable" (exit 3 from the CLI), never a quiet CPU fall-back. */
#include <string.h>

#include <stdio.h>

#include "cuda/assign/pt_cuda_auction.h"
#include "cuda/core/pt_cuda.h"

pt_status pt_assign_auction_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                 pt_auction_gpu_stats *stats, pt_error *err)
{
    (void)p, (void)res;
    if (stats)
        memset(stats, 0, sizeof *stats);
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}

void pt_cuda_auction_report(const pt_auction_gpu_stats *gpu, char *buf, size_t size)
{
    snprintf(buf, size,
             "cuda: prepare %.2f ms (range pass %.2f%s), upload %.2f ms, kernel %.2f ms, copy back %.2f ms, "
             "%ld phases, %ld bids (%ld scanned the row), %ld persons assigned by a shortest path (%ld steps, %.2f ms), "
             "%d x %d threads, %d-bit benefits",
             gpu->prepare_ms, gpu->range_ms, gpu->one_pass ? ": none, the upload found the range" : "",
             gpu->upload_ms, gpu->kernel_ms, gpu->copy_ms, gpu->phases, gpu->bids,
             gpu->refills, gpu->finishes, gpu->path_steps, gpu->path_ms,
             gpu->blocks, gpu->threads_per_block, gpu->benefit_bits);
}

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)threads;
    pt_auction_gpu_stats gpu;
    pt_status st = pt_assign_auction_cuda(p, res, &gpu, err);
    if (report && report_size) {
        report[0] = '\0';
        if (!st)
            pt_cuda_auction_report(&gpu, report, report_size);
    }
    return st;
}

const pt_assign_backend pt_assign_cuda = {solve_backend, pt_cuda_available, 65536};
