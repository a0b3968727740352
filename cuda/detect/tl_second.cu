/* The jobs whose second dark level is tried (lib/detect/tl_small.h), as the
 * tasks' order needs them (cuda/detect/tl_tasks.h), and the conditions of
 * the rounds of their tasks:
 *
 *   tl_second  one block: the jobs whose slots past tl_count have a
 *              threshold (pt_tl_small_threshold: a second dark level, and
 *              the eye clearly dark), listed in job order (ballots); for
 *              the others those slots' fits cleared (not found), as their
 *              tasks would have left them; then the first TL_GATES rounds'
 *              conditions
 *   tl_gate    thread per further round: its condition
 *
 * A round's condition (a CUDA graph conditional node's) is whether it holds
 * a task (pt_tl_round_runs). */
#include "cuda/core/block_rank.cuh"
#include "cuda/detect/tl_internal.h"

#define SECOND_THREADS 256
#define SECOND_WARPS (SECOND_THREADS / 32)

/* Thread k < gates.count sets round k's condition. */
static __device__ __forceinline__ void set_gates(const tl_dev &d, int jobs, const tl_gates &gates,
                                                 int seconds)
{
#if CUDART_VERSION >= 12040
    int k = threadIdx.x;
    if (k < gates.count)
        cudaGraphSetConditional(gates.handle[k],
                                pt_tl_round_runs(gates.at + k * gates.batch, jobs, d.count,
                                                 d.thresholds, seconds));
#endif
}

__global__ void __launch_bounds__(SECOND_THREADS) tl_second(tl_dev d, int jobs, tl_gates gates)
{
    __shared__ int warp_counts[SECOND_WARPS];
    int listed = 0;
    for (int base = 0; base < jobs; base += SECOND_THREADS) {
        int j = base + threadIdx.x;
        /* the slots past count are all tried or none (lib/detect/tl_small.h) */
        int tried = j < jobs && tl_threshold(d, j, d.count) >= 0;
        int total, rank = pt_block_rank(tried, warp_counts, &total);
        if (tried)
            d.second[listed + rank] = j;
        else if (j < jobs)
            for (int i = d.count; i < d.thresholds; i++) {
                tl_fit *fit = d.fits + (size_t)j * d.thresholds + i;
                fit->found = 0;
                fit->quality = 0.0;
            }
        listed += total;
    }
    if (threadIdx.x == 0)
        *d.seconds = listed;
    set_gates(d, jobs, gates, listed);
}

__global__ void __launch_bounds__(TL_GATES) tl_gate(tl_dev d, int jobs, tl_gates gates)
{
    set_gates(d, jobs, gates, *d.seconds);
}

cudaError_t pt_tl_second(const tl_dev *d, int jobs, const tl_gates *gates, cudaStream_t stream)
{
    if (jobs > 0)
        tl_second<<<1, SECOND_THREADS, 0, stream>>>(*d, jobs, *gates);
    return cudaGetLastError();
}

cudaError_t pt_tl_gate(const tl_dev *d, int jobs, const tl_gates *gates, cudaStream_t stream)
{
    if (gates->count > 0)
        tl_gate<<<1, TL_GATES, 0, stream>>>(*d, jobs, *gates);
    return cudaGetLastError();
}
