/* GPU auction for the linear assignment problem (see lib/assign/assign.h).
 *
 * Asynchronous bidding (Bertsekas and Castanon's asynchronous auction, as
 * omp/assign/auction.c does on threads): every object has one 64-bit word,
 * price << bidder_bits | owner + 1. A block serves one person at a time: it
 * finds the best and second-best value of the person's row against the
 * words' prices (from the person's cache of its best objects, one warp, or
 * by scanning the whole row, cuda/assign/auction_cache.cuh), and thread 0 raises
 * the best object's word with atomicMax. If the bid is above the old word the object is won and the
 * block carries on with the person it evicted (none: it takes the next
 * person of the phase from a counter); if not, the price moved on since the
 * scan and the person bids again. There are no rounds and no barriers
 * between blocks, so the long chains of evictions that end each phase run
 * side by side (a Jacobi auction spends most of its time in rounds of one or
 * two bidders, each paying a grid barrier).
 *
 * Why stale prices are safe: within a phase prices only rise. A bid computed
 * from prices read earlier is best_benefit - second_value + eps, with
 * second_value at least the true second-best value, so on winning the person
 * is within eps of its best object (eps-complementary slackness) whatever
 * the other prices became; a bid the price has overtaken fails atomicMax and
 * is recomputed. Each success raises the object's word, and words are
 * bounded, so a phase ends; the last phase at eps = 1 with benefits scaled by
 * n + 1 gives the optimum. One kernel per epsilon phase, all queued on one
 * stream: the host waits once at the end.
 *
 * A phase's last FINISH_PERSONS unassigned persons are not left to bid:
 * their chains of evictions (thousands of bids in a row at small epsilon,
 * the rest of the GPU idle) are replaced by shortest augmenting paths,
 * finish_phase in cuda/assign/auction_finish.cuh, queued after each phase's kernel. */
#include <cuda_runtime.h>

#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/assign/pt_cuda_auction.h"
#include "cuda/assign/auction_upload.h"
#include "cuda/core/pt_cuda.h"

#define FULL_MASK 0xffffffffu
/* Threads serving one person; each loads ITEMS objects per pass before using them. */
#ifndef BID_THREADS
#define BID_THREADS 1024
#endif
#ifndef ITEMS
#define ITEMS 4
#endif
/* 0: phases end by bidding alone (for comparisons). */
#ifndef PATH_FINISH
#define PATH_FINISH 1
#endif
/* A phase's unassigned persons, at most, left to shortest paths (see
 * auction_finish.cuh). On the H100 at n = 4096 uniform, 1, 2 and 4 are
 * within the run-to-run spread (kernel medians ~25-27 ms), 16 is slower
 * (50-78 ms: more path steps than the bids they save). */
#ifndef FINISH_PERSONS
#define FINISH_PERSONS 2
#endif

struct phase_args {
    const void *benefit; /* persons x n: uint16_t (times scale), int32_t or int64_t */
    long long scale;     /* of uint16_t benefits */
    int persons, n;      /* real persons; objects = persons + dummies */
    unsigned long long *words;
    int bidder_bits;
    long long eps, price_limit;
    int *next_person; /* the phase's next person nobody has taken */
    int *unassigned;  /* the phase's persons not yet on an object (bids on a free object count it down) */
    int *overflow;    /* a bid above price_limit: the solve fails */
    unsigned long long *counters; /* COUNT_*, over all phases */
    /* Each person's cache (cuda/assign/auction_cache.cuh): CACHE_SLOTS objects
     * (-1: none) and benefits, and the bound of the values of the rest. */
    int *cache_object;
    long long *cache_benefit, *cache_bound;
    long long *scan_values; /* n per block: a refill's values */
    /* The shortest-path finish (cuda/assign/auction_finish.cuh): the persons a phase
     * left to it, their count, and its scratch. */
    int *finish_list, *finish_count;
    struct deferred_row *path_deferred; /* n + 1 */
    void *path_state;                   /* NULL: in shared memory */
};

enum { COUNT_BIDS, COUNT_REFILLS, COUNT_FINISHES, COUNT_PATH_STEPS, COUNT_PATH_NS, COUNTERS };

/* A stored benefit as a scaled one: 16-bit values times scale (< 2^32) in one wide multiply. */
template <typename T> __device__ __forceinline__ long long scaled_benefit(T stored, long long scale)
{
    if constexpr (sizeof(T) == 2)
        return (long long)((unsigned long long)(unsigned)stored * (unsigned long long)(unsigned)scale);
    else
        return (long long)stored;
}

/* A person's benefit row; NULL for a dummy person (every object worth 0). */
template <typename T> __device__ __forceinline__ const T *benefit_row(const phase_args &a, int person)
{
    return person < a.persons ? static_cast<const T *>(a.benefit) + (size_t)person * a.n : NULL;
}

template <typename T> __device__ __forceinline__ long long benefit_at(const phase_args &a, int person, int object)
{
    const T *row = benefit_row<T>(a, person);
    return row ? scaled_benefit<T>(row[object], a.scale) : 0;
}

/* Best (value, object, benefit and owner of that object as read) and second-best value. */
struct top2 {
    long long v1, v2, b1;
    int best, owner1;
};

/* Merges a partner's top two: best value with the lowest object index, the
 * second-best of the four values. Symmetric, so after an xor butterfly every
 * lane holds the same result. */
__device__ __forceinline__ void merge(top2 &t, const top2 &o)
{
    if (o.v1 > t.v1 || (o.v1 == t.v1 && o.best < t.best)) {
        t.v2 = t.v1 > o.v2 ? t.v1 : o.v2;
        t.v1 = o.v1;
        t.b1 = o.b1;
        t.best = o.best;
        t.owner1 = o.owner1;
    } else {
        t.v2 = t.v2 > o.v1 ? t.v2 : o.v1;
    }
}

__device__ __forceinline__ void warp_merge(top2 &t)
{
    for (int off = 16; off > 0; off >>= 1) {
        top2 o;
        o.v1 = __shfl_xor_sync(FULL_MASK, t.v1, off);
        o.v2 = __shfl_xor_sync(FULL_MASK, t.v2, off);
        o.b1 = __shfl_xor_sync(FULL_MASK, t.b1, off);
        o.best = __shfl_xor_sync(FULL_MASK, t.best, off);
        o.owner1 = __shfl_xor_sync(FULL_MASK, t.owner1, off);
        merge(t, o);
    }
}

/* The block's top two of person's row at the current prices; valid in thread 0.
 * patch_word (for patch_object, -1: none) is a bid of this block that may not
 * have reached the words yet: the higher of it and the word read is used,
 * never above the object's true word, so the values stay safe (see top).
 * SNAPSHOT: every value also goes to values[object] (for the cache's refill). */
template <typename T, bool SNAPSHOT = false>
__device__ __forceinline__ top2 block_scan(const phase_args &a, int person, int patch_object,
                                           unsigned long long patch_word, top2 *s_warp,
                                           long long *values = NULL)
{
    const int n = a.n, bits = a.bidder_bits;
    const unsigned long long owner_mask = (1ull << bits) - 1ull;
    const T *row = benefit_row<T>(a, person);
    top2 t = {LLONG_MIN, LLONG_MIN, 0, INT_MAX, -1};
    unsigned long long word1 = 0;
    for (int base = threadIdx.x; base < n; base += BID_THREADS * ITEMS) {
        T stored[ITEMS];
        unsigned long long word[ITEMS];
        /* All loads first, so ITEMS of them are in flight at once. */
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            int j = base + k * BID_THREADS;
            stored[k] = (row && j < n) ? __ldg(row + j) : (T)0;
            word[k] = j < n ? __ldcg(a.words + j) : 0ull;
        }
#pragma unroll
        for (int k = 0; k < ITEMS; k++) {
            int j = base + k * BID_THREADS;
            unsigned long long w = (j == patch_object && patch_word > word[k]) ? patch_word : word[k];
            long long v = scaled_benefit<T>(stored[k], a.scale) - (long long)(w >> bits);
            if (SNAPSHOT && j < n)
                values[j] = v;
            if (j < n) {
                if (v > t.v1) {
                    t.v2 = t.v1;
                    t.v1 = v;
                    t.best = j;
                    word1 = w;
                } else if (v > t.v2) {
                    t.v2 = v;
                }
            }
        }
    }
    /* The best's benefit and owner from its word, once per thread. */
    t.b1 = t.v1 + (long long)(word1 >> bits);
    t.owner1 = (int)(word1 & owner_mask) - 1;
    warp_merge(t);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        s_warp[warp] = t;
    __syncthreads();
    if (warp == 0) {
        if (lane < BID_THREADS / 32)
            t = s_warp[lane];
        else
            t = top2{LLONG_MIN, LLONG_MIN, 0, INT_MAX, -1};
        warp_merge(t);
    }
    return t;
}

/* A person nobody serves yet: the one put back in spare, else the phase's next. */
__device__ __forceinline__ int take_person(const phase_args &a, int &spare)
{
    if (spare >= 0) {
        int person = spare;
        spare = -1;
        return person;
    }
    int k = atomicAdd(a.next_person, 1);
    return k < a.n ? k : -2;
}

#include "cuda/assign/auction_cache.cuh"

/* One epsilon phase: blocks take persons from next_person and follow each
 * one's chain of evictions until a bid lands on a free object.
 *
 * A bid reads the person's cache (one warp, auction_cache.cuh); when the
 * cache cannot vouch for the best object, the next step scans the whole row
 * with the block and refills it.
 *
 * The bid's atomicMax is issued after the next barrier and its result read
 * after the next scan, so its round trip hides behind that scan: the block
 * scans, meanwhile, the person the bid should evict (the owner of the object
 * as read; a new person when it was free). When the bid lost, or someone
 * else took the object in between, that scan is dropped and the right person
 * scanned. Thread 0 keeps this state; a new person taken for a dropped guess
 * goes to spare and is served next.
 *
 * Once at most FINISH_PERSONS persons are unassigned, a block lists the
 * person it holds for finish_phase instead of bidding (auction_finish.cuh). */
template <typename T> __global__ void __launch_bounds__(BID_THREADS) auction_phase(phase_args a)
{
    __shared__ top2 s_warp[BID_THREADS / 32];
    __shared__ refill_shared s_refill;
    /* The next step's person, whether it needs a full scan, and the patch;
     * by step parity: a cached bid has no barrier between the block reading
     * this step's and thread 0 writing the next's. */
    __shared__ int s_person[2], s_full_scan[2], s_patch_object[2];
    __shared__ unsigned long long s_patch_word[2];
    if (__ldcg(a.overflow))
        return; /* an earlier phase failed */
    const unsigned long long owner_mask = (1ull << a.bidder_bits) - 1ull;
    /* Thread 0 only: the bid in flight and the guess being scanned. */
    int spare = -1, guess = -1, guess_new = 0, pending = 0, pend_object = -1, pend_person = -1, unassigned = 0;
    unsigned long long pend_word = 0, pend_old = 0, my_bids = 0, my_refills = 0;
    cache_slot ahead = {-1, -1, 0, 0}; /* warp 0: the next person's cache, loaded ahead */
    if (threadIdx.x == 0) {
        s_person[0] = take_person(a, spare);
        s_full_scan[0] = 0;
        s_patch_object[0] = -1;
        s_patch_word[0] = 0;
    }
    __syncthreads();
    for (int step = 0;; step ^= 1) {
        const int person = s_person[step], full_scan = s_full_scan[step], patch_object = s_patch_object[step];
        const unsigned long long patch_word = s_patch_word[step];
        if (person < 0)
            break;
        if (threadIdx.x == 0) {
            if (pending)
                pend_old = atomicMax(a.words + pend_object, pend_word);
            /* Only falls, so a stale value is still an upper bound (used after the scan). */
            unassigned = *(volatile int *)a.unassigned;
        }
        top2 t;
        int cached = 1;
        if (full_scan) {
            t = block_refill<T>(a, person, patch_object, patch_word, s_warp, s_refill);
            ahead.person = -1;
        } else if (threadIdx.x < 32) {
            cached = cached_top2(a, person, patch_object, patch_word, ahead, t);
            /* The best object's owner is the likely next person: its cache
             * loads while thread 0 places the bid (a warp-0 register). */
            ahead.person = -1;
            if (cached && t.owner1 >= 0)
                ahead = load_slot(a, t.owner1);
        }
        if (threadIdx.x == 0) {
            int next = -2, valid = 1, scan_next = 0;
            if (pending) {
                /* Won: the evicted owner is next (none: a new person); lost: the bidder again. */
                int won = pend_old < pend_word;
                int actual = won ? (int)(pend_old & owner_mask) - 1 : pend_person;
                if (won && actual < 0)
                    atomicSub(a.unassigned, 1); /* the object was free */
                int right = guess_new ? (won && actual == -1) : (actual == guess);
                pending = 0;
                if (!right) {
                    valid = 0;
                    if (guess_new)
                        spare = guess;
                    next = actual >= 0 ? actual : take_person(a, spare);
                }
            }
            if (valid && PATH_FINISH && unassigned <= FINISH_PERSONS) {
                /* Few enough left: finish_phase assigns person once this kernel is over. */
                a.finish_list[atomicAdd(a.finish_count, 1)] = person;
                next = take_person(a, spare);
            } else if (valid && !cached) {
                next = person; /* the cache cannot vouch for the best: scan the row */
                scan_next = 1;
            } else if (valid) {
                if (full_scan) {
                    my_refills++;
                    /* The refilled cache before the bid that lets another block serve this person. */
                    __threadfence();
                }
                /* With one object there is no second best: raise by eps alone. */
                long long bid = (a.n > 1 ? t.b1 - t.v2 : t.b1 - t.v1) + a.eps;
                my_bids++;
                if (bid > a.price_limit) {
                    atomicExch(a.overflow, 1);
                    next = -2;
                } else {
                    unsigned long long word =
                        ((unsigned long long)bid << a.bidder_bits) | (unsigned long long)(person + 1);
                    guess_new = t.owner1 < 0;
                    guess = guess_new ? take_person(a, spare) : t.owner1;
                    if (guess >= 0) {
                        pending = 1;
                        pend_word = word;
                        pend_object = t.best;
                        pend_person = person;
                        next = guess;
                    } else {
                        /* No one left to guess: settle the bid now. */
                        unsigned long long old = atomicMax(a.words + t.best, word);
                        int evicted = (int)(old & owner_mask) - 1;
                        if (old < word && evicted < 0)
                            atomicSub(a.unassigned, 1);
                        next = old >= word ? person : evicted >= 0 ? evicted : -2;
                    }
                }
            }
            s_person[step ^ 1] = next;
            s_full_scan[step ^ 1] = scan_next;
            s_patch_object[step ^ 1] = pending ? pend_object : -1;
            s_patch_word[step ^ 1] = pend_word;
        }
        __syncthreads();
    }
    if (threadIdx.x == 0 && my_bids)
        atomicAdd(a.counters + COUNT_BIDS, my_bids);
    if (threadIdx.x == 0 && my_refills)
        atomicAdd(a.counters + COUNT_REFILLS, my_refills);
}

#include "cuda/assign/auction_finish.cuh"

/* Before each phase: every object loses its owner but keeps its price. */
__global__ void release_owners(unsigned long long *words, int n, unsigned long long owner_mask, int *next_person,
                               int *unassigned, int *finish_count)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n)
        words[j] &= ~owner_mask;
    if (j == 0) {
        *next_person = 0;
        *unassigned = n;
        *finish_count = 0;
    }
}

/* After the last phase: each person's object from the owners (-1 where none). */
__global__ void collect_owners(const unsigned long long *words, int n, unsigned long long owner_mask,
                               int *object_of)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        int owner = (int)(words[j] & owner_mask) - 1;
        if (owner >= 0)
            object_of[owner] = j;
    }
}

static int bits_for(uint64_t value)
{
    int bits = 1;
    while (bits < 63 && (value >> bits))
        bits++;
    return bits;
}

static long long next_eps(long long eps) { return (long long)pt_auction_next_eps((int64_t)eps); }

/* Device buffers of one solve; freed together. */
typedef struct {
    void *benefit;
    unsigned long long *words, *counters;
    int *object_of, *flags; /* flags: next_person, overflow, unassigned */
    void *cache;            /* the persons' caches: benefits, bounds, objects */
    long long *scan_values; /* n per block */
    void *path;             /* the finish's deferred rows (n + 1), list (n) and count */
    void *path_state;       /* its state when shared memory is too small, else NULL */
    cudaEvent_t start, uploaded, solved;
    cudaStream_t stream; /* blocking: ordered after the legacy stream's memsets */
    pt_auction_staging staging;
} device_state;

static void device_free(device_state *d)
{
    pt_auction_staging_free(&d->staging);
    cudaFree(d->benefit);
    cudaFree(d->words);
    cudaFree(d->counters);
    cudaFree(d->cache);
    cudaFree(d->scan_values);
    cudaFree(d->path);
    cudaFree(d->path_state);
    cudaFree(d->object_of);
    cudaFree(d->flags);
    if (d->stream)
        cudaStreamDestroy(d->stream);
    if (d->start)
        cudaEventDestroy(d->start);
    if (d->uploaded)
        cudaEventDestroy(d->uploaded);
    if (d->solved)
        cudaEventDestroy(d->solved);
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

/* The pinned staging buffers, allocated on a thread of their own. */
typedef struct {
    pt_auction_staging *staging;
    size_t row_bytes, matrix_bytes; /* of 64-bit benefits: the scaling is not known yet */
    int device;
    cudaError_t result;
} staging_job;

static void *allocate_staging(void *arg)
{
    staging_job *job = (staging_job *)arg;
    job->result = cudaSetDevice(job->device);
    if (job->result == cudaSuccess)
        job->result = pt_auction_staging_alloc(job->staging, job->row_bytes, job->matrix_bytes);
    return NULL;
}

/* Starts the pinning on a thread of its own (returns 1: join it), or pins here (0). */
static int start_staging(staging_job *job, pthread_t *thread)
{
    if (pthread_create(thread, NULL, allocate_staging, job) == 0)
        return 1;
    allocate_staging(job);
    return 0;
}

/* The single-pass upload when every cost is an integer in 0..65535 and the
 * persons are the rows (through one pageable buffer, or the pinned staging
 * buffers): *raw 1 and s filled, the benefits queued on d->stream. Else *raw 0 and d->benefit freed again (the caller takes the
 * range pass and the scaled upload). */
static cudaError_t upload_raw(const pt_assign_problem *p, device_state *d, int pageable, pt_auction_scaling *s,
                              int *raw)
{
    const size_t entries = (size_t)p->rows * (size_t)p->cols;
    double least = 0.0, largest = 0.0;
    int fits = 0;
    *raw = 0;
    cudaError_t e = cudaMalloc(&d->benefit, sizeof(uint16_t) * entries);
    if (e == cudaSuccess)
        e = pageable ? pt_auction_upload_raw16_pageable(p, d->benefit, d->stream, &least, &largest, &fits)
                     : pt_auction_upload_raw16(p, d->benefit, &d->staging, d->stream, &least, &largest, &fits);
    if (e != cudaSuccess)
        return e;
    pt_error ignored;
    pt_error_clear(&ignored);
    if (fits && pt_auction_scale_range(p, least, largest, 1, s, &ignored) == PT_OK && s->compact &&
        s->quantum == 1.0 && !s->transposed) {
        *raw = 1;
        return pt_auction_raw_to_unscaled((uint16_t *)d->benefit, entries, p->maximize,
                                          (unsigned)(p->maximize ? least : largest), d->stream);
    }
    /* Copies of the first chunks may still be in flight from the staging buffers. */
    e = cudaStreamSynchronize(d->stream);
    cudaFree(d->benefit);
    d->benefit = NULL;
    return e;
}

/* Blocks for a phase: as many as stay resident (more only queue), at most one per person. */
template <typename T> static cudaError_t phase_blocks(int device, int n, int *blocks)
{
    int sms = 0, per_sm = 0;
    cudaError_t e;
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess ||
        (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, auction_phase<T>, BID_THREADS, 0)) !=
            cudaSuccess)
        return e;
    int resident = sms * (per_sm > 0 ? per_sm : 1);
    *blocks = n < resident ? n : resident;
    return cudaSuccess;
}

/* Dynamic shared memory of finish_phase: its state when that fits, else 0. */
template <typename T> static cudaError_t path_shared_bytes(int device, int n, size_t *bytes)
{
    int optin = 0;
    cudaFuncAttributes attr;
    size_t want = path_state_bytes(n);
    cudaError_t e;
    *bytes = 0;
    if ((e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device)) != cudaSuccess ||
        (e = cudaFuncGetAttributes(&attr, finish_phase<T>)) != cudaSuccess)
        return e;
    if (want + attr.sharedSizeBytes > (size_t)optin)
        return cudaSuccess;
    if ((e = cudaFuncSetAttribute(finish_phase<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)want)) !=
        cudaSuccess)
        return e;
    *bytes = want;
    return cudaSuccess;
}

/* Queues every epsilon phase; with PATHS_MIN_SPARE_PERCENT spare objects or
 * more, the shortest-path solve instead (run_paths). */
template <typename T>
static cudaError_t run_phases(phase_args *args, long long eps_start, int blocks, size_t path_bytes,
                              cudaStream_t stream, long *phases)
{
    *phases = 0;
    if ((long)args->n * 100 >= (long)args->persons * (100 + PATHS_MIN_SPARE_PERCENT))
        return run_paths<T>(args, blocks, path_bytes, stream);
    const unsigned long long owner_mask = (1ull << args->bidder_bits) - 1ull;
    const int n = args->n, grid = (n + 255) / 256;
    for (long long eps = eps_start; eps > 0; eps = next_eps(eps)) {
        release_owners<<<grid, 256, 0, stream>>>(args->words, n, owner_mask, args->next_person,
                                                 args->unassigned, args->finish_count);
        args->eps = eps;
        auction_phase<T><<<blocks, BID_THREADS, 0, stream>>>(*args);
        finish_phase<T><<<1, 32, path_bytes, stream>>>(*args);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
        (*phases)++;
    }
    return cudaSuccess;
}

/* A CUDA device, and every kernel of the solve loaded now (CUDA loads
 * modules lazily, at first launch), so a warm-up call on any problem
 * leaves module loading out of later solves. */
static pt_status load_kernels(pt_error *err)
{
    if (pt_cuda_available(err))
        return err->status;
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, auction_phase<uint16_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, auction_phase<int32_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, auction_phase<int64_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, finish_phase<uint16_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, finish_phase<int32_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, finish_phase<int64_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, release_owners) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, collect_owners) != cudaSuccess ||
        pt_auction_upload_load() != cudaSuccess ||
        cudaFuncGetAttributes(&attr, build_caches<uint16_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, build_caches<int32_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, build_caches<int64_t>) != cudaSuccess ||
        cudaFuncGetAttributes(&attr, list_persons) != cudaSuccess) {
        cudaError_t e = cudaGetLastError();
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "cannot load the auction kernels: %s",
                            cudaGetErrorString(e));
    }
    return PT_OK;
}

/* The problem's scaling, and for integer costs in 0..65535 with persons as
 * rows the upload too (one pass that finds the range: *raw = 1, its time in
 * *raw_ms); otherwise a range pass, with the staging buffers pinned beside
 * it on their own thread when the problem is too large for a pageable copy.
 * On failure everything on d is freed. */
static pt_status scale_problem(const pt_assign_problem *p, device_state *d, staging_job *job,
                               pt_auction_scaling *s, int *raw, double *raw_ms,
                               pt_auction_gpu_stats *stats, pt_error *err)
{
    const long entries = (long)p->rows * p->cols;
    const int pageable = entries <= PT_AUCTION_PAGEABLE_ENTRIES, try_raw = p->rows <= p->cols,
              raw_pageable = try_raw && entries <= PT_AUCTION_RAW_PAGEABLE_ENTRIES;
    int beside = 0;
    pthread_t pinning;
    if (!pageable && !raw_pageable)
        beside = start_staging(job, &pinning);
    *raw = 0;
    *raw_ms = 0.0;
    if (try_raw) {
        if (beside)
            pthread_join(pinning, NULL);
        beside = 0;
        double raw_start = omp_get_wtime();
        cudaError_t e = job->result;
        if (e == cudaSuccess)
            e = cudaStreamCreate(&d->stream);
        if (e == cudaSuccess)
            e = upload_raw(p, d, raw_pageable, s, raw);
        if (e != cudaSuccess) {
            device_free(d);
            return pt_error_set(err, e == cudaErrorMemoryAllocation ? PT_ERR_NOMEM : PT_ERR_UNAVAILABLE, "-b cuda",
                                "auction: upload: %s", cudaGetErrorString(e));
        }
        *raw_ms = 1000.0 * (omp_get_wtime() - raw_start);
        stats->one_pass = *raw;
    }
    if (*raw)
        return PT_OK;
    if (!pageable && raw_pageable) /* the single pass did not fit: pinned staging after all */
        beside = start_staging(job, &pinning);
    double range_start = omp_get_wtime();
    pt_status st = pt_auction_scale(p, 0, s, err);
    if (beside)
        pthread_join(pinning, NULL);
    if (st) {
        device_free(d);
        return st;
    }
    stats->range_ms = 1000.0 * (omp_get_wtime() - range_start);
    return PT_OK;
}

#define CUDA_RETURN(call)                  \
    do {                                   \
        cudaError_t e_ = (call);           \
        if (e_ != cudaSuccess)             \
            return e_;                     \
    } while (0)

/* Device buffers of an n-object solve, set to their starting values. */
static cudaError_t allocate_solve(device_state *d, const pt_auction_scaling *s, int raw, int n,
                                  size_t width, const staging_job *job)
{
    if (!d->stream)
        CUDA_RETURN(cudaStreamCreate(&d->stream));
    CUDA_RETURN(cudaEventCreate(&d->start));
    CUDA_RETURN(cudaEventCreate(&d->uploaded));
    CUDA_RETURN(cudaEventCreate(&d->solved));
    if (!raw)
        CUDA_RETURN(cudaMalloc(&d->benefit, width * (size_t)s->persons * (size_t)n));
    CUDA_RETURN(cudaMalloc((void **)&d->words, sizeof(unsigned long long) * (size_t)n));
    CUDA_RETURN(cudaMalloc((void **)&d->counters, sizeof(unsigned long long) * COUNTERS));
    CUDA_RETURN(cudaMalloc((void **)&d->object_of, sizeof(int) * (size_t)n));
    CUDA_RETURN(cudaMalloc((void **)&d->flags, sizeof(int) * 3));
    const size_t slots = (size_t)n * CACHE_SLOTS;
    CUDA_RETURN(cudaMalloc(&d->cache, (sizeof(long long) + sizeof(int)) * slots + sizeof(long long) * (size_t)n));
    CUDA_RETURN(cudaMalloc(&d->path, sizeof(deferred_row) * ((size_t)n + 1) + sizeof(int) * ((size_t)n + 1)));
    CUDA_RETURN(job->result);
    CUDA_RETURN(cudaMemset(d->words, 0, sizeof(unsigned long long) * (size_t)n)); /* prices start at 0 */
    CUDA_RETURN(cudaMemset(d->counters, 0, sizeof(unsigned long long) * COUNTERS));
    CUDA_RETURN(cudaMemset(d->object_of, 0xff, sizeof(int) * (size_t)n));
    /* No person scanned yet: bounds CACHE_UNBUILT (every byte 0x7f), objects -1. */
    CUDA_RETURN(cudaMemset(d->cache, 0x7f, (sizeof(long long) + sizeof(int)) * slots + sizeof(long long) * (size_t)n));
    CUDA_RETURN(cudaMemset((char *)d->cache + (sizeof(long long) * (slots + (size_t)n)), 0xff, sizeof(int) * slots));
    return cudaMemset(d->flags, 0, sizeof(int) * 3);
}

/* The kernels' arguments over d's buffers (allocate_solve). */
static void phase_args_for(phase_args *args, const device_state *d, const pt_auction_scaling *s,
                           int n, int bidder_bits)
{
    const size_t slots = (size_t)n * CACHE_SLOTS;
    args->benefit = d->benefit;
    args->scale = (long long)s->scale;
    args->persons = s->persons;
    args->n = n;
    args->words = d->words;
    args->bidder_bits = bidder_bits;
    args->eps = s->eps_start;
    args->price_limit = (long long)(((uint64_t)1 << (63 - bidder_bits)) - 1);
    args->next_person = d->flags;
    args->overflow = d->flags + 1;
    args->unassigned = d->flags + 2;
    args->counters = d->counters;
    args->cache_benefit = (long long *)d->cache;
    args->cache_bound = args->cache_benefit + slots;
    args->cache_object = (int *)(args->cache_bound + n);
    args->path_deferred = (deferred_row *)d->path;
    args->finish_list = (int *)(args->path_deferred + n + 1);
    args->finish_count = args->finish_list + n;
}

/* The epsilon phases, timed by events (kernel_ms), in the benefit width
 * the scaling chose. */
static cudaError_t solve_phases(device_state *d, phase_args *args, const pt_auction_scaling *s,
                                int device, int n, pt_auction_gpu_stats *stats)
{
    int blocks = 0;
    CUDA_RETURN(s->compact  ? phase_blocks<uint16_t>(device, n, &blocks)
                : s->narrow ? phase_blocks<int32_t>(device, n, &blocks)
                            : phase_blocks<int64_t>(device, n, &blocks));
    size_t path_bytes = 0;
    CUDA_RETURN(s->compact  ? path_shared_bytes<uint16_t>(device, n, &path_bytes)
                : s->narrow ? path_shared_bytes<int32_t>(device, n, &path_bytes)
                            : path_shared_bytes<int64_t>(device, n, &path_bytes));
    if (!path_bytes)
        CUDA_RETURN(cudaMalloc(&d->path_state, path_state_bytes(n)));
    args->path_state = d->path_state;
    CUDA_RETURN(cudaMalloc((void **)&d->scan_values, sizeof(long long) * (size_t)n * (size_t)blocks));
    args->scan_values = d->scan_values;
    CUDA_RETURN(cudaEventRecord(d->start, d->stream));
    CUDA_RETURN(s->compact  ? run_phases<uint16_t>(args, s->eps_start, blocks, path_bytes, d->stream, &stats->phases)
                : s->narrow ? run_phases<int32_t>(args, s->eps_start, blocks, path_bytes, d->stream, &stats->phases)
                            : run_phases<int64_t>(args, s->eps_start, blocks, path_bytes, d->stream, &stats->phases));
    CUDA_RETURN(cudaEventRecord(d->solved, d->stream));
    CUDA_RETURN(cudaEventSynchronize(d->solved));
    CUDA_RETURN(cudaGetLastError());
    float kernel_ms = 0.0f;
    CUDA_RETURN(cudaEventElapsedTime(&kernel_ms, d->start, d->solved));
    stats->kernel_ms = kernel_ms;
    stats->blocks = blocks;
    stats->threads_per_block = BID_THREADS;
    return cudaSuccess;
}

/* Each object's owner and the counters back to the host (copy_ms). */
static cudaError_t read_owners(device_state *d, int n, int bidder_bits, int *object_of,
                               int *overflow, pt_auction_gpu_stats *stats)
{
    double copy_start = omp_get_wtime();
    collect_owners<<<(n + 255) / 256, 256, 0, d->stream>>>(d->words, n, (1ull << bidder_bits) - 1ull, d->object_of);
    CUDA_RETURN(cudaGetLastError());
    unsigned long long counters[COUNTERS];
    CUDA_RETURN(cudaMemcpy(object_of, d->object_of, sizeof(int) * (size_t)n, cudaMemcpyDeviceToHost));
    CUDA_RETURN(cudaMemcpy(overflow, d->flags + 1, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_RETURN(cudaMemcpy(counters, d->counters, sizeof counters, cudaMemcpyDeviceToHost));
    stats->copy_ms = 1000.0 * (omp_get_wtime() - copy_start);
    stats->bids = (long)counters[COUNT_BIDS];
    stats->refills = (long)counters[COUNT_REFILLS];
    stats->finishes = (long)counters[COUNT_FINISHES];
    stats->path_steps = (long)counters[COUNT_PATH_STEPS];
    stats->path_ms = 1e-6 * (double)counters[COUNT_PATH_NS];
    return cudaSuccess;
}

extern "C" pt_status pt_assign_auction_cuda(const pt_assign_problem *p, pt_assign_result *res,
                                             pt_auction_gpu_stats *stats, pt_error *err)
{
    pt_auction_gpu_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    pt_status st = load_kernels(err);
    if (st)
        return st;
    double prepare_start = omp_get_wtime();
    device_state d;
    memset(&d, 0, sizeof d);
    /* Pinning the staging buffers costs several ms: it runs beside the range
     * pass (or before the single pass). Small problems take a pageable copy
     * instead; the single pass, with nothing to hide the pinning behind,
     * up to a larger size. */
    staging_job job;
    int device = 0, rows = p->rows, cols = p->cols;
    cudaError_t current = cudaGetDevice(&device);
    if (current != cudaSuccess)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "auction: cudaGetDevice: %s",
                            cudaGetErrorString(current));
    job.staging = &d.staging;
    job.device = device;
    job.row_bytes = sizeof(int64_t) * (size_t)(rows > cols ? rows : cols); /* the widest benefits */
    job.matrix_bytes = job.row_bytes * (size_t)(rows < cols ? rows : cols);
    job.result = cudaSuccess;
    pt_auction_scaling s;
    int raw = 0;
    double raw_ms = 0.0;
    if ((st = scale_problem(p, &d, &job, &s, &raw, &raw_ms, stats, err)))
        return st;
    const int n = s.objects, bidder_bits = bits_for((uint64_t)n + 1);
    const size_t width = pt_auction_width(&s);
    const int pageable = (long)rows * cols <= PT_AUCTION_PAGEABLE_ENTRIES;
    /* persons + dummies = n, each stored by the object that owns it. */
    int *object_of = (int *)malloc(sizeof(int) * (size_t)n);
    if (!object_of) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the GPU auction (n = %d)", n);
        goto done;
    }
    {
        TRY(allocate_solve(&d, &s, raw, n, width, &job));
        stats->prepare_ms = 1000.0 * (omp_get_wtime() - prepare_start) - raw_ms;

        double upload_start = omp_get_wtime();
        if (!raw)
            TRY(pageable ? pt_auction_upload_pageable(p, &s, d.benefit, d.stream)
                         : pt_auction_upload(p, &s, d.benefit, &d.staging, d.stream));
        TRY(cudaEventRecord(d.uploaded, d.stream));
        TRY(cudaEventSynchronize(d.uploaded));
        stats->upload_ms = 1000.0 * (omp_get_wtime() - upload_start) + raw_ms;

        phase_args args;
        phase_args_for(&args, &d, &s, n, bidder_bits);
        TRY(solve_phases(&d, &args, &s, device, n, stats));
        stats->benefit_bits = 8 * (int)width;
        int overflow = 0;
        TRY(read_owners(&d, n, bidder_bits, object_of, &overflow, stats));
        if (overflow) {
            st = pt_error_set(err, PT_ERR_PARAM, "",
                              "auction prices exceed the packed 64-bit bid word (n = %d); use -b seq or exact", n);
            goto done;
        }
        for (int i = 0; i < s.persons; i++)
            if (object_of[i] < 0 || object_of[i] >= n) {
                st = pt_error_set(err, PT_ERR_INTERNAL, "-b cuda", "GPU auction left person %d unassigned", i);
                goto done;
            }
        pt_auction_benefits b;
        memset(&b, 0, sizeof b);
        b.persons = s.persons;
        b.objects = n;
        b.transposed = s.transposed;
        pt_auction_result_fill(p, &b, object_of, res);
    }
done:
    device_free(&d);
    free(object_of);
    return st;
}
