/* The auction on the GPU. */
#ifndef PT_CUDA_AUCTION_H
#define PT_CUDA_AUCTION_H

#include "lib/assign/assign.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The same on the GPU (cuda/assign/auction.cu), bidding asynchronously like the
 * OpenMP auction: each block of threads serves one person at a time (one
 * warp reads the person's cache of its 32 best objects; the block scans the
 * whole row only when the cache cannot vouch for the best), raises the object's packed
 * price << bidder_bits | person + 1 word with atomicMax and carries on with
 * the person it evicted, so chains of evictions run side by side on many
 * blocks with no barrier between bids; each bid's atomic is in flight while
 * the block scans the person it should evict. One kernel per epsilon phase,
 * queued without host waits; each phase's last unassigned persons are
 * assigned by shortest augmenting paths instead of chains of bids
 * (cuda/assign/auction_finish.cuh); with 4 % or more spare objects there is no
 * auction, only those paths, one per person (no dummy persons). The costs
 * are converted by host threads into pinned staging buffers while earlier
 * ones upload; integer costs in 0..65535 with persons as rows in one pass
 * that also finds their range (pt_auction_convert_raw16), others after a
 * range pass (problems of at most
 * PT_AUCTION_PAGEABLE_ENTRIES: one pageable copy), as 16-bit unscaled
 * values when the cost range fits (scaled on the device), else 32- or
 * 64-bit benefits. PT_ERR_UNAVAILABLE
 * without a usable GPU (or when built without CUDA: cuda/assign/none_auction.c).
 * stats may be NULL. */
typedef struct {
    double prepare_ms; /* host: range pass, device and pinned staging buffers */
    double range_ms;   /* the range pass alone (part of prepare_ms; 0 with one_pass) */
    int one_pass;      /* integer costs 0..65535, persons as rows: the upload found the range, no range pass */
    double upload_ms;  /* costs converted to benefits in chunks, overlapped with their upload */
    double kernel_ms;  /* the epsilon phases (events) */
    double copy_ms;    /* the assignment back */
    long phases, bids;
    long refills;              /* bids that scanned the whole row (the rest read the person's cache) */
    long finishes, path_steps; /* persons assigned by a shortest path at a phase's end, and the steps (objects labelled) */
    double path_ms;            /* the shortest paths' time (part of kernel_ms) */
    int blocks, threads_per_block;
    int benefit_bits; /* 16 (unscaled, scaled on the device), 32 or 64 */
} pt_auction_gpu_stats;
pt_status pt_assign_auction_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                 pt_auction_gpu_stats *stats, pt_error *err);

/* The Jacobi auction with packed 32-bit bids (lib/assign/auction_jacobi.h)
 * in one thread block (cuda/assign/auction_jacobi.cu); kernel_ms (may be
 * NULL) is the solve's device time. PT_ERR_UNAVAILABLE without a GPU. */
pt_status pt_assign_auction_jacobi_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                        double *kernel_ms, pt_error *err);

/* pt_assign_cuda's report line is the stats line of pt_cuda_auction_report. */

/* The stats as one line ("cuda: prepare ... ms, ..."). */
void pt_cuda_auction_report(const pt_auction_gpu_stats *gpu, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
