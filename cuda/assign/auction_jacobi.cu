/* The Jacobi auction with packed 32-bit bids on the GPU (see
 * lib/assign/auction_jacobi.h): one thread block runs every round, its
 * threads synchronised inside the block between the bidding and the
 * assignment phase, as the auction of Maier et al. does; a warp bids for
 * one unassigned person at a time (its lanes scan the row for the best and
 * second-best value) and places the packed word with one atomicMax. Prices
 * and bids stay in shared memory (n <= 4096: 32 KB). */
#include <cuda_runtime.h>

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/assign/pt_cuda_auction.h"
#include "lib/assign/auction_jacobi.h"

#define JACOBI_THREADS 1024
#define JACOBI_WARPS (JACOBI_THREADS / 32)

/* Best object and the offered value of one person, as pt_auction_bid: the
 * lanes keep their own best and second best, then the warp merges them
 * (ties to the lower object index, as the sequential scan keeps the first). */
static __device__ int warp_bid(const int32_t *row, const int *prices, int n, int eps,
                               long long *value)
{
    const int lane = threadIdx.x & 31;
    long long v1 = LLONG_MIN, v2 = LLONG_MIN;
    int best = n;
    for (int j = lane; j < n; j += 32) {
        long long v = (row ? (long long)row[j] : 0) - prices[j];
        if (v > v1) {
            v2 = v1;
            v1 = v;
            best = j;
        } else if (v > v2) {
            v2 = v;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        long long o1 = __shfl_down_sync(0xffffffffu, v1, off);
        long long o2 = __shfl_down_sync(0xffffffffu, v2, off);
        int ob = __shfl_down_sync(0xffffffffu, best, off);
        if (o1 > v1 || (o1 == v1 && ob < best)) {
            v2 = v1 > o2 ? v1 : o2;
            v1 = o1;
            best = ob;
        } else {
            v2 = v2 > o1 ? v2 : o1;
        }
    }
    best = __shfl_sync(0xffffffffu, best, 0);
    v1 = __shfl_sync(0xffffffffu, v1, 0);
    v2 = __shfl_sync(0xffffffffu, v2, 0);
    *value = (long long)prices[best] + (n > 1 ? v1 - v2 : 0) + eps;
    return best;
}

static __global__ void __launch_bounds__(JACOBI_THREADS)
    jacobi_auction(const int32_t *benefit, int persons, int n, long long eps_start, int *owner,
                   int *object_of, int *failed)
{
    extern __shared__ int shared[];
    int *prices = shared;
    unsigned int *bids = (unsigned int *)(shared + n);
    __shared__ int bidders, overflow;
    const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
    for (int j = threadIdx.x; j < n; j += JACOBI_THREADS) {
        prices[j] = 0;
        bids[j] = 0;
    }
    for (long long eps = eps_start; eps > 0;
         eps = eps <= 1 ? 0 : (eps / PT_AUCTION_EPS_FACTOR > 1 ? eps / PT_AUCTION_EPS_FACTOR : 1)) {
        for (int j = threadIdx.x; j < n; j += JACOBI_THREADS)
            owner[j] = object_of[j] = -1;
        __syncthreads();
        for (;;) {
            if (threadIdx.x == 0)
                bidders = overflow = 0;
            __syncthreads();
            /* bidding phase */
            for (int person = warp; person < n; person += JACOBI_WARPS) {
                if (object_of[person] >= 0)
                    continue;
                long long value;
                const int32_t *row = person < persons ? benefit + (size_t)person * n : NULL;
                int object = warp_bid(row, prices, n, (int)eps, &value);
                if (lane == 0) {
                    if (value > PT_JACOBI_MAX_VALUE) {
                        overflow = 1;
                    } else {
                        atomicMax(&bids[object],
                                  (unsigned int)value << PT_JACOBI_INDEX_BITS | (unsigned int)person);
                        atomicAdd(&bidders, 1);
                    }
                }
            }
            __syncthreads();
            const int round_bidders = bidders, round_overflow = overflow;
            if (round_overflow) {
                if (threadIdx.x == 0)
                    *failed = 1;
                return;
            }
            if (!round_bidders)
                break;
            /* assignment phase */
            for (int j = threadIdx.x; j < n; j += JACOBI_THREADS) {
                unsigned int word = bids[j];
                if (!word)
                    continue;
                int person = (int)(word & ((1u << PT_JACOBI_INDEX_BITS) - 1));
                if (owner[j] >= 0)
                    object_of[owner[j]] = -1;
                owner[j] = person;
                object_of[person] = j;
                prices[j] = (int)(word >> PT_JACOBI_INDEX_BITS);
                bids[j] = 0;
            }
            __syncthreads();
        }
        __syncthreads();
    }
}

#define CUDA_OR(call, what)                                                                     \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            st = pt_error_set(err, e_ == cudaErrorMemoryAllocation ? PT_ERR_NOMEM : PT_ERR_UNAVAILABLE, \
                              "-b cuda", "--auction jacobi: %s: %s", what, cudaGetErrorString(e_)); \
            goto done;                                                                          \
        }                                                                                       \
    } while (0)

extern "C" pt_status pt_assign_auction_jacobi_cuda(const pt_assign_problem *p,
                                                   pt_assign_result *res, double *kernel_ms,
                                                   pt_error *err)
{
    pt_auction_benefits b;
    pt_status st = pt_auction_jacobi_benefits(p, &b, err);
    if (st)
        return st;
    const int n = b.objects;
    int32_t *d_benefit = NULL;
    int *d_owner = NULL, *d_failed = NULL, failed = 0;
    int *object_of = (int *)malloc(sizeof(int) * (size_t)n);
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    if (!object_of) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the auction (n = %d)", n);
        goto done;
    }
    CUDA_OR(cudaMalloc((void **)&d_benefit, sizeof(int32_t) * (size_t)b.persons * (size_t)n), "allocate");
    CUDA_OR(cudaMalloc((void **)&d_owner, sizeof(int) * (2 * (size_t)n + 1)), "allocate");
    d_failed = d_owner + 2 * (size_t)n;
    CUDA_OR(cudaMemcpy(d_benefit, b.benefit32, sizeof(int32_t) * (size_t)b.persons * (size_t)n,
                       cudaMemcpyHostToDevice), "upload");
    CUDA_OR(cudaMemset(d_failed, 0, sizeof(int)), "upload");
    CUDA_OR(cudaEventCreate(&start), "event");
    CUDA_OR(cudaEventCreate(&stop), "event");
    CUDA_OR(cudaEventRecord(start), "event");
    jacobi_auction<<<1, JACOBI_THREADS, 2 * sizeof(int) * (size_t)n>>>(
        d_benefit, b.persons, n, (long long)b.eps_start, d_owner, d_owner + n, d_failed);
    CUDA_OR(cudaGetLastError(), "launch");
    CUDA_OR(cudaEventRecord(stop), "event");
    CUDA_OR(cudaEventSynchronize(stop), "solve");
    CUDA_OR(cudaEventElapsedTime(&ms, start, stop), "event");
    CUDA_OR(cudaMemcpy(object_of, d_owner + n, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost), "copy back");
    CUDA_OR(cudaMemcpy(&failed, d_failed, sizeof(int), cudaMemcpyDeviceToHost), "copy back");
    if (failed) {
        st = pt_error_set(err, PT_ERR_PARAM, "",
                          "--auction jacobi: a price passed the bid word's %d bits (n = %d)",
                          PT_JACOBI_VALUE_BITS, n);
        goto done;
    }
    if (kernel_ms)
        *kernel_ms = ms;
    pt_auction_result_fill(p, &b, object_of, res);
done:
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(d_benefit);
    cudaFree(d_owner);
    free(object_of);
    pt_auction_benefits_free(&b);
    return st;
}
