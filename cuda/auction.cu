/* GPU auction for the linear assignment problem (see lib/assign.h).
 *
 * Jacobi bidding: in each round every unassigned person bids at once against
 * the same prices. A warp serves one person: its lanes read the person's
 * benefit row coalesced, keep the best and second-best value, and merge them
 * with shuffles. The bid is packed with the bidder into one 64-bit word,
 * price << bidder_bits | person + 1, raised on the object's word with
 * atomicMax (ties go to the higher person); there is no n x n bid matrix.
 * After a barrier each object with a bid takes its winner, evicts the
 * previous owner and sets its price. Epsilon-scaling runs on the device too:
 * the whole auction is one kernel, synchronised by __syncthreads when the
 * problem fits one block (n <= PT_AUCTION_CUDA_BLOCK_MAX) and by grid
 * barriers of a cooperative launch beyond, so the host never polls a round.
 * Once at most TAIL_BIDDERS persons are unassigned, block 0 finishes the
 * phase Gauss-Seidel style: one bid at a time, the best and second-best
 * object found by the whole block, applied at once (the long tail of a phase
 * is chains of single bids; a barrier per Jacobi round would dominate).
 *
 * Races: a person bids for one object only, and only unassigned persons bid,
 * so in the award pass object j writes owner[j], prices[j], bid_words[j],
 * object_of[winner] and object_of[previous owner] -- disjoint across objects
 * (the previous owner held j and did not bid). Bid and award passes are
 * separated by barriers; the unassigned counter is double-buffered by phase
 * parity so resetting it for the next phase cannot race with threads still
 * reading the last round's value; the loops test a stop flag written only
 * in award passes, never the overflow flag bids write. Mutable state is
 * read with __ldcg (L2) so no stale L1 line survives a grid barrier. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <limits.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/assign.h"

namespace cg = cooperative_groups;

#define FULL_MASK 0xffffffffu
#define GRID_BLOCK 1024

struct auction_args {
    const void *benefit; /* persons x n, int32_t or int64_t */
    int persons, n;      /* real persons; objects = persons + dummies */
    long long *prices;
    int *owner, *object_of;
    unsigned long long *bid_words;
    int *unassigned; /* [2]: by phase parity */
    int *overflow; /* set by a bid above price_limit (bid pass) */
    int *stop;     /* overflow as seen by the award pass: the flag the loops test */
    long long *counters; /* [0] rounds, [1] bids */
    long long eps_start;
    int bidder_bits;
    long long price_limit;
};

template <bool GRID> __device__ __forceinline__ void sync_all()
{
    if constexpr (GRID)
        cg::this_grid().sync();
    else
        __syncthreads();
}

/* Merges (v1, best, v2) with a partner lane's: best value with the lowest
 * object index, and the second-best value of the four. Symmetric, so after
 * the xor butterfly every lane holds the same result. */
__device__ __forceinline__ void merge_top2(long long &v1, int &best, long long &v2, long long o1, int ob,
                                           long long o2)
{
    if (o1 > v1 || (o1 == v1 && ob < best)) {
        v2 = v1 > o2 ? v1 : o2;
        v1 = o1;
        best = ob;
    } else {
        v2 = v2 > o1 ? v2 : o1;
    }
}

/* Next epsilon, as pt_auction_next_eps on the host. */
__device__ __forceinline__ long long next_eps(long long eps)
{
    if (eps <= 1)
        return 0;
    return eps / PT_AUCTION_EPS_FACTOR > 1 ? eps / PT_AUCTION_EPS_FACTOR : 1;
}

/* Bid pass over every unassigned person, a warp per person: warp `warp` of
 * `warps` looks at persons 32 at a time; each lane scans every 32nd object. */
template <typename T>
__device__ __forceinline__ void bid_pass(const auction_args &a, long long eps, int warp, int warps, int lane,
                                         long long &my_bids)
{
    const int n = a.n, persons = a.persons;
    const T *benefit = static_cast<const T *>(a.benefit);
    for (int base = warp * 32; base < n; base += warps * 32) {
        int i = base + lane;
        unsigned pending = __ballot_sync(FULL_MASK, i < n && __ldcg(a.object_of + i) < 0);
        while (pending) {
            int person = base + __ffs(pending) - 1;
            pending &= pending - 1;
            long long v1 = LLONG_MIN, v2 = LLONG_MIN;
            int best = INT_MAX;
            if (person < persons) {
                const T *row = benefit + (size_t)person * n;
                for (int j = lane; j < n; j += 32) {
                    long long v = (long long)__ldg(row + j) - __ldcg(a.prices + j);
                    if (v > v1) {
                        v2 = v1;
                        v1 = v;
                        best = j;
                    } else if (v > v2) {
                        v2 = v;
                    }
                }
            } else {
                /* A dummy person values every object at 0. */
                for (int j = lane; j < n; j += 32) {
                    long long v = -__ldcg(a.prices + j);
                    if (v > v1) {
                        v2 = v1;
                        v1 = v;
                        best = j;
                    } else if (v > v2) {
                        v2 = v;
                    }
                }
            }
            for (int off = 16; off > 0; off >>= 1) {
                long long o1 = __shfl_xor_sync(FULL_MASK, v1, off);
                long long o2 = __shfl_xor_sync(FULL_MASK, v2, off);
                int ob = __shfl_xor_sync(FULL_MASK, best, off);
                merge_top2(v1, best, v2, o1, ob, o2);
            }
            if (lane == 0) {
                long long bid = __ldcg(a.prices + best) + (n > 1 ? v1 - v2 : 0) + eps;
                if (bid > a.price_limit)
                    atomicExch(a.overflow, 1);
                else
                    atomicMax(a.bid_words + best,
                              ((unsigned long long)bid << a.bidder_bits) | (unsigned long long)(person + 1));
                my_bids++;
            }
        }
    }
}

/* Award pass: every object with a bid goes to its highest bidder. */
__device__ __forceinline__ void award_pass(const auction_args &a, int *unassigned, int first, int stride)
{
    const unsigned long long bidder_mask = (1ull << a.bidder_bits) - 1ull;
    /* overflow is written during bid passes, so loops must not test it: a
     * thread late to the test could leave while others bid. stop is written
     * here only, and tested only between an award pass and the next bid pass. */
    if (first == 0 && __ldcg(a.overflow))
        *a.stop = 1;
    for (int j = first; j < a.n; j += stride) {
        unsigned long long word = __ldcg(a.bid_words + j);
        if (!word)
            continue;
        int person = (int)(word & bidder_mask) - 1;
        int previous = __ldcg(a.owner + j);
        if (previous >= 0)
            a.object_of[previous] = -1;
        else
            atomicSub(unassigned, 1);
        a.owner[j] = person;
        a.object_of[person] = j;
        a.prices[j] = (long long)(word >> a.bidder_bits);
        a.bid_words[j] = 0ull;
    }
}

/* A phase's last few bidders (at most this many) are served by block 0
 * alone, Gauss-Seidel: one bid at a time, found by the whole block and
 * applied at once. The tail of a phase is long chains of single bids
 * (n = 4096 uniform: ~20 000 Jacobi rounds, all but ~120 of them with <= 64
 * bidders), where a barrier per round and one warp's latency-bound scan of a
 * whole row would dominate. */
#define TAIL_BIDDERS 64
#define MAX_WARPS 32

/* Block-wide best and second-best value of person; the result is valid in thread 0. */
template <typename T>
__device__ __forceinline__ void block_scan(const auction_args &a, int person, long long &v1, int &best,
                                           long long &v2, long long *s_v1, long long *s_v2, int *s_best)
{
    const int n = a.n, lane = threadIdx.x & 31, wid = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    const T *row = person < a.persons ? static_cast<const T *>(a.benefit) + (size_t)person * n : NULL;
    v1 = LLONG_MIN;
    v2 = LLONG_MIN;
    best = INT_MAX;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        long long v = (row ? (long long)__ldg(row + j) : 0ll) - __ldcg(a.prices + j);
        if (v > v1) {
            v2 = v1;
            v1 = v;
            best = j;
        } else if (v > v2) {
            v2 = v;
        }
    }
    for (int off = 16; off > 0; off >>= 1)
        merge_top2(v1, best, v2, __shfl_xor_sync(FULL_MASK, v1, off), __shfl_xor_sync(FULL_MASK, best, off),
                   __shfl_xor_sync(FULL_MASK, v2, off));
    if (lane == 0) {
        s_v1[wid] = v1;
        s_v2[wid] = v2;
        s_best[wid] = best;
    }
    __syncthreads();
    if (wid == 0) {
        v1 = lane < nwarps ? s_v1[lane] : LLONG_MIN;
        v2 = lane < nwarps ? s_v2[lane] : LLONG_MIN;
        best = lane < nwarps ? s_best[lane] : INT_MAX;
        for (int off = 16; off > 0; off >>= 1)
            merge_top2(v1, best, v2, __shfl_xor_sync(FULL_MASK, v1, off),
                       __shfl_xor_sync(FULL_MASK, best, off), __shfl_xor_sync(FULL_MASK, v2, off));
    }
}

/* Block 0 finishes the phase: collects the <= TAIL_BIDDERS unassigned
 * persons on a shared stack, then bids for the top one at a time; an
 * evicted owner takes the winner's place on the stack. */
template <typename T>
__device__ void tail_gauss_seidel(const auction_args &a, long long eps, int *unassigned, long long &my_bids)
{
    __shared__ int stack[TAIL_BIDDERS];
    __shared__ int top;
    __shared__ long long s_v1[MAX_WARPS], s_v2[MAX_WARPS];
    __shared__ int s_best[MAX_WARPS];
    if (threadIdx.x == 0)
        top = 0;
    __syncthreads();
    for (int i = threadIdx.x; i < a.n; i += blockDim.x)
        if (__ldcg(a.object_of + i) < 0) {
            int at = atomicAdd(&top, 1);
            if (at < TAIL_BIDDERS) /* always: at most TAIL_BIDDERS are unassigned here */
                stack[at] = i;
        }
    __syncthreads();
    if (threadIdx.x == 0 && top > TAIL_BIDDERS)
        top = TAIL_BIDDERS;
    __syncthreads();
    while (top > 0) {
        int person = stack[top - 1];
        long long v1, v2;
        int best;
        block_scan<T>(a, person, v1, best, v2, s_v1, s_v2, s_best);
        if (threadIdx.x == 0) {
            long long bid = __ldcg(a.prices + best) + (a.n > 1 ? v1 - v2 : 0) + eps;
            my_bids++;
            if (bid > a.price_limit) {
                *a.overflow = 1;
                *a.stop = 1;
                top = 0;
            } else {
                int previous = __ldcg(a.owner + best);
                a.owner[best] = person;
                a.object_of[person] = best;
                a.prices[best] = bid;
                if (previous >= 0) {
                    a.object_of[previous] = -1;
                    stack[top - 1] = previous;
                } else {
                    top--;
                    atomicSub(unassigned, 1);
                }
            }
        }
        __syncthreads(); /* the bid is applied and top updated before anyone reads them */
    }
}

template <typename T, bool GRID> __global__ void __launch_bounds__(1024) auction_kernel(auction_args a)
{
    const int n = a.n;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x, nthreads = gridDim.x * blockDim.x;
    const int lane = threadIdx.x & 31, warp = tid >> 5, warps = nthreads >> 5;
    long long my_bids = 0, rounds = 0;
    int phase = 0;
    for (long long eps = a.eps_start; eps > 0; eps = next_eps(eps), phase++) {
        int *unassigned = a.unassigned + (phase & 1);
        /* Each phase restarts the assignment but keeps the prices. */
        for (int j = tid; j < n; j += nthreads) {
            a.owner[j] = -1;
            a.object_of[j] = -1;
            a.bid_words[j] = 0ull;
        }
        if (tid == 0)
            *unassigned = n;
        sync_all<GRID>();
        /* Every thread reads the counter between the award pass's barrier and
         * the next bid pass's, where nobody writes it; it only falls within a
         * phase, so a late reader during block 0's tail still sees <= the tail. */
        while (__ldcg(unassigned) > TAIL_BIDDERS && !__ldcg(a.stop)) {
            bid_pass<T>(a, eps, warp, warps, lane, my_bids);
            sync_all<GRID>();
            award_pass(a, unassigned, tid, nthreads);
            sync_all<GRID>();
            rounds++;
        }
        if (blockIdx.x == 0 && !__ldcg(a.stop))
            tail_gauss_seidel<T>(a, eps, unassigned, my_bids);
        sync_all<GRID>();
        if (__ldcg(a.stop))
            break;
    }
    if (my_bids)
        atomicAdd((unsigned long long *)a.counters + 1, (unsigned long long)my_bids);
    if (tid == 0)
        a.counters[0] = rounds;
}

static int bits_for(uint64_t value)
{
    int bits = 1;
    while (bits < 63 && (value >> bits))
        bits++;
    return bits;
}

/* Device buffers of one solve; freed together. */
typedef struct {
    void *benefit;
    long long *prices, *counters;
    int *owner, *object_of, *flags; /* flags: unassigned[2], overflow, stop */
    unsigned long long *bid_words;
    cudaEvent_t start, stop;
} device_state;

static void device_free(device_state *d)
{
    cudaFree(d->benefit);
    cudaFree(d->prices);
    cudaFree(d->counters);
    cudaFree(d->owner);
    cudaFree(d->object_of);
    cudaFree(d->flags);
    cudaFree(d->bid_words);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->stop)
        cudaEventDestroy(d->stop);
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            st = pt_error_set(err, e_ == cudaErrorMemoryAllocation ? PT_ERR_NOMEM : PT_ERR_UNAVAILABLE, \
                              "-b cuda", "auction: %s: %s", #call, cudaGetErrorString(e_));        \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

/* Launches the kernel for benefit type T; block mode or cooperative grid. */
template <typename T>
static cudaError_t launch(auction_args *args, int grid_mode, int *blocks_out, int *threads_out)
{
    if (!grid_mode) {
        int threads = ((args->n + 31) / 32) * 32;
        threads = threads < 64 ? 64 : threads > 1024 ? 1024 : threads;
        *blocks_out = 1;
        *threads_out = threads;
        auction_kernel<T, false><<<1, threads>>>(*args);
        return cudaGetLastError();
    }
    int device = 0, sms = 0, per_sm = 0, coop = 0;
    cudaError_t e;
    if ((e = cudaGetDevice(&device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
        (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, auction_kernel<T, true>, GRID_BLOCK, 0)) !=
            cudaSuccess)
        return e;
    if (!coop || per_sm < 1)
        return cudaErrorCooperativeLaunchTooLarge;
    /* One warp per person at most; more blocks only slow the grid barriers. */
    int wanted = (args->n + GRID_BLOCK / 32 - 1) / (GRID_BLOCK / 32);
    int blocks = per_sm * sms < wanted ? per_sm * sms : wanted;
    *blocks_out = blocks;
    *threads_out = GRID_BLOCK;
    void *params[] = {args};
    return cudaLaunchCooperativeKernel((const void *)auction_kernel<T, true>, dim3(blocks), dim3(GRID_BLOCK),
                                       params, 0, 0);
}

extern "C" pt_status pt_assign_auction_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                             pt_auction_gpu_stats *stats, pt_error *err)
{
    pt_auction_gpu_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    int count = 0;
    cudaError_t probe = cudaGetDeviceCount(&count);
    if (probe != cudaSuccess || count < 1)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no usable CUDA GPU: %s",
                            probe != cudaSuccess ? cudaGetErrorString(probe) : "none found");
    /* Load every kernel variant now (CUDA loads modules lazily, at first
     * launch), so a warm-up call on any problem leaves module loading out of
     * later solves. */
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, auction_kernel<int32_t, false>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, auction_kernel<int32_t, true>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, auction_kernel<int64_t, false>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, auction_kernel<int64_t, true>) != cudaSuccess) {
        cudaError_t e = cudaGetLastError();
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "cannot load the auction kernels: %s",
                            cudaGetErrorString(e));
    }
    double prepare_start = omp_get_wtime();
    pt_auction_benefits b;
    pt_status st = pt_auction_benefits_make(p, &b, 0, err);
    if (st)
        return st;
    int n = b.objects, bidder_bits = bits_for((uint64_t)n + 1);
    size_t entries = (size_t)b.persons * (size_t)n;
    int narrow = b.benefit32 != NULL; /* half the bytes per bid scan */
    int *object_of = (int *)malloc(sizeof(int) * (size_t)n);
    device_state d;
    memset(&d, 0, sizeof d);
    if (!object_of) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the GPU auction (n = %d)", n);
        goto done;
    }
    {
        size_t bytes = entries * (narrow ? sizeof(int32_t) : sizeof(int64_t));
        TRY(cudaEventCreate(&d.start));
        TRY(cudaEventCreate(&d.stop));
        TRY(cudaMalloc(&d.benefit, bytes));
        TRY(cudaMalloc((void **)&d.prices, sizeof(long long) * (size_t)n));
        TRY(cudaMalloc((void **)&d.counters, sizeof(long long) * 2));
        TRY(cudaMalloc((void **)&d.owner, sizeof(int) * (size_t)n));
        TRY(cudaMalloc((void **)&d.object_of, sizeof(int) * (size_t)n));
        TRY(cudaMalloc((void **)&d.flags, sizeof(int) * 4));
        TRY(cudaMalloc((void **)&d.bid_words, sizeof(unsigned long long) * (size_t)n));
        TRY(cudaMemset(d.prices, 0, sizeof(long long) * (size_t)n));
        TRY(cudaMemset(d.counters, 0, sizeof(long long) * 2));
        TRY(cudaMemset(d.flags, 0, sizeof(int) * 4));
        stats->prepare_ms = 1000.0 * (omp_get_wtime() - prepare_start);
        cudaEvent_t copy_start = d.start;
        TRY(cudaEventRecord(copy_start));
        TRY(cudaMemcpy(d.benefit, narrow ? (const void *)b.benefit32 : (const void *)b.benefit, bytes,
                       cudaMemcpyHostToDevice));
        TRY(cudaEventRecord(d.stop));
        TRY(cudaEventSynchronize(d.stop));
        float copy_ms = 0.0f;
        TRY(cudaEventElapsedTime(&copy_ms, d.start, d.stop));
        stats->copy_ms = copy_ms;

        auction_args args;
        args.benefit = d.benefit;
        args.persons = b.persons;
        args.n = n;
        args.prices = d.prices;
        args.owner = d.owner;
        args.object_of = d.object_of;
        args.bid_words = d.bid_words;
        args.unassigned = d.flags;
        args.overflow = d.flags + 2;
        args.stop = d.flags + 3;
        args.counters = d.counters;
        args.eps_start = b.eps_start;
        args.bidder_bits = bidder_bits;
        args.price_limit = (long long)(((uint64_t)1 << (63 - bidder_bits)) - 1);
        int grid_mode = n > PT_AUCTION_CUDA_BLOCK_MAX;
        TRY(cudaEventRecord(d.start));
        TRY(narrow ? launch<int32_t>(&args, grid_mode, &stats->blocks, &stats->threads_per_block)
                   : launch<int64_t>(&args, grid_mode, &stats->blocks, &stats->threads_per_block));
        TRY(cudaEventRecord(d.stop));
        TRY(cudaEventSynchronize(d.stop));
        TRY(cudaGetLastError());
        float kernel_ms = 0.0f;
        TRY(cudaEventElapsedTime(&kernel_ms, d.start, d.stop));
        stats->kernel_ms = kernel_ms;
        stats->grid_sync = grid_mode;
        stats->narrow = narrow;

        int overflow = 0;
        long long counters[2] = {0, 0};
        TRY(cudaEventRecord(d.start));
        TRY(cudaMemcpy(object_of, d.object_of, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(&overflow, d.flags + 2, sizeof(int), cudaMemcpyDeviceToHost));
        TRY(cudaMemcpy(counters, d.counters, sizeof counters, cudaMemcpyDeviceToHost));
        TRY(cudaEventRecord(d.stop));
        TRY(cudaEventSynchronize(d.stop));
        TRY(cudaEventElapsedTime(&copy_ms, d.start, d.stop));
        stats->copy_ms += copy_ms;
        stats->rounds = (long)counters[0];
        stats->bids = (long)counters[1];
        if (overflow) {
            st = pt_error_set(err, PT_ERR_PARAM, "",
                              "auction prices exceed the packed 64-bit bid word (n = %d); use -b seq or exact", n);
            goto done;
        }
        for (int i = 0; i < b.persons; i++)
            if (object_of[i] < 0 || object_of[i] >= n) {
                st = pt_error_set(err, PT_ERR_INTERNAL, "-b cuda", "GPU auction left person %d unassigned", i);
                goto done;
            }
        pt_auction_result_fill(p, &b, object_of, res);
    }
done:
    device_free(&d);
    free(object_of);
    pt_auction_benefits_free(&b);
    return st;
}
