/* The GPU auction as a solver table for assign and mtt (-b cuda), built
 * with or without CUDA: without it, pt_assign_auction_cuda says so
 * (cuda/assign/none_auction.c). */
#include <stdio.h>

#include "cuda/assign/pt_cuda_auction.h"
#include "cuda/core/pt_cuda.h"

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
    if (report && report_size && !st)
        pt_cuda_auction_report(&gpu, report, report_size);
    return st;
}

const pt_assign_backend pt_assign_cuda = {solve_backend, pt_cuda_available, 65536};

static pt_status solve_jacobi(const pt_assign_problem *p, int threads, pt_assign_result *res,
                              char *report, size_t report_size, pt_error *err)
{
    (void)threads;
    double kernel_ms = 0.0;
    pt_status st = pt_assign_auction_jacobi_cuda(p, res, &kernel_ms, err);
    if (report && report_size && !st)
        snprintf(report, report_size, "cuda: jacobi auction kernel %.2f ms (one block)", kernel_ms);
    return st;
}

const pt_assign_backend pt_assign_cuda_jacobi = {solve_jacobi, pt_cuda_available, 65536};
