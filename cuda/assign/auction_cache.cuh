/* Each person's best objects, kept between bids (included by cuda/assign/auction.cu
 * after block_scan).
 *
 * A bid needs the best and the second-best value, benefit - price, of the
 * person's row. A scan of the whole row is one block for ~5,500 cycles at
 * n = 4096, and a phase ends in chains of bids one after the other, so that
 * scan was the kernel's time. Prices only rise, so a value only falls: after
 * one scan the person keeps its CACHE_SLOTS best objects (object and benefit)
 * and the next value, bound, which no other object's value can exceed from
 * then on. A bid then reads the prices of the cached objects (one warp, one
 * object a lane): when the best cached value is at least bound it is the
 * row's best, and max(second cached value, bound) is at least the row's
 * second best, so the bid is as safe as a scanned one (see auction.cu).
 * Otherwise the block scans the row and refills the cache. On uniform costs
 * of n = 4096 the first scan of each person is the only one: every later bid
 * reads the cache.
 *
 * The refill selects the CACHE_SLOTS + 1 best values of the scan by radix
 * selection over keys v1 - value (v1 the row's best): the scan writes every
 * value to the block's scratch row, so all passes see the same prices (other
 * blocks keep raising them). Stale prices are lower, values higher: the bound
 * stays an upper bound. */

#define CACHE_SLOTS 32 /* one warp */
/* bound of a person never scanned (every cached bid misses), above any value (< 2^41) */
#define CACHE_UNBUILT 0x7f7f7f7f7f7f7f7fLL
/* bound when the cache holds every object of the row (n <= CACHE_SLOTS) */
#define CACHE_ALL LLONG_MIN
#define RADIX_BITS 8
#define RADIX_BINS (1 << RADIX_BITS)

/* The warp's largest of v (in every lane) and a lane holding it. */
__device__ __forceinline__ long long warp_max_at(long long v, int &lane_at)
{
#if __CUDA_ARCH__ >= 800
    /* Two 32-bit reductions: the high words (signed), then the low words (unsigned) of the lanes with the top high word. */
    const int high = (int)(v >> 32), top_high = __reduce_max_sync(FULL_MASK, high);
    const unsigned low = high == top_high ? (unsigned)v : 0u, top_low = __reduce_max_sync(FULL_MASK, low);
    const long long top = (long long)(((unsigned long long)(unsigned)top_high << 32) | top_low);
#else
    long long top = v;
    for (int off = 16; off > 0; off >>= 1) {
        long long o = __shfl_xor_sync(FULL_MASK, top, off);
        top = o > top ? o : top;
    }
#endif
    lane_at = __ffs(__ballot_sync(FULL_MASK, v == top)) - 1;
    return top;
}

/* One lane's slot of a person's cache, and the person's bound. */
struct cache_slot {
    int person, object;
    long long benefit, bound;
};

__device__ __forceinline__ cache_slot load_slot(const phase_args &a, int person)
{
    const size_t slot = (size_t)person * CACHE_SLOTS + (threadIdx.x & 31);
    return cache_slot{person, __ldcg(a.cache_object + slot), __ldcg(a.cache_benefit + slot),
                      __ldcg(a.cache_bound + person)};
}

/* The cached bid of person: its top two from the cache, in every lane of
 * the calling warp. Returns 0 (miss) when the cache cannot vouch for the
 * best. ahead: the cache of the person this warp expected to serve, loaded
 * during the previous step (person -1: none). It is the cache of a person
 * who owned an object when it was loaded: no block could be refilling it. */
__device__ __forceinline__ int cached_top2(const phase_args &a, int person, int patch_object,
                                           unsigned long long patch_word, const cache_slot &ahead, top2 &t)
{
    const int lane = threadIdx.x & 31;
    const cache_slot c = ahead.person == person ? ahead : load_slot(a, person);
    const int j = c.object;
    const long long benefit = c.benefit, bound = c.bound;
    long long v = LLONG_MIN;
    unsigned long long w = 0;
    if (j >= 0) {
        w = __ldcg(a.words + j);
        if (j == patch_object && patch_word > w)
            w = patch_word;
        v = benefit - (long long)(w >> a.bidder_bits);
    }
    int at, second_at;
    t.v1 = warp_max_at(v, at);
    t.v2 = warp_max_at(lane == at ? LLONG_MIN : v, second_at);
    t.b1 = __shfl_sync(FULL_MASK, benefit, at);
    t.best = __shfl_sync(FULL_MASK, j, at);
    t.owner1 = (int)(__shfl_sync(FULL_MASK, w, at) & ((1ull << a.bidder_bits) - 1ull)) - 1;
    if (t.v1 < bound) /* also every never-scanned person: bound CACHE_UNBUILT */
        return 0;
    if (t.v2 < bound)
        t.v2 = bound;
    return 1;
}

/* Shared memory of a refill. */
struct refill_shared {
    unsigned hist[RADIX_BINS];
    unsigned long long span, prefix; /* largest key; the selected key's digits so far */
    long long v1;
    int rank, below, equal; /* rank of the selected key among those with its digits so far */
};

/* The block's key histogram: the bin of the selected rank, in every thread. */
__device__ __forceinline__ void radix_digit(refill_shared &s, int shift)
{
    __syncthreads(); /* hist complete */
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x, per = RADIX_BINS / 32;
        unsigned own = 0;
        for (int b = 0; b < per; b++)
            own += s.hist[lane * per + b];
        unsigned incl = own;
        for (int off = 1; off < 32; off <<= 1) {
            unsigned o = __shfl_up_sync(FULL_MASK, incl, off);
            if (lane >= off)
                incl += o;
        }
        const unsigned rank = (unsigned)s.rank;
        unsigned hit = __ballot_sync(FULL_MASK, incl >= rank);
        __syncwarp(); /* every lane has read s.rank */
        if (lane == __ffs(hit) - 1) {
            unsigned before = incl - own;
            int b = lane * per;
            while (before + s.hist[b] < rank)
                before += s.hist[b++];
            s.prefix |= (unsigned long long)b << shift;
            s.rank = (int)(rank - before);
        }
    }
    __syncthreads();
}

/* A full scan of person's row that also refills its cache; the top two are
 * valid in thread 0. values: this block's scratch row of n. */
template <typename T>
__device__ top2 block_refill(const phase_args &a, int person, int patch_object, unsigned long long patch_word,
                             top2 *s_warp, refill_shared &s)
{
    const int n = a.n;
    long long *values = a.scan_values + (size_t)blockIdx.x * n;
    top2 t = block_scan<T, true>(a, person, patch_object, patch_word, s_warp, values);
    const T *row = benefit_row<T>(a, person);
    const size_t first = (size_t)person * CACHE_SLOTS;
    if (threadIdx.x == 0) {
        s.v1 = t.v1;
        s.span = 0;
        s.prefix = 0;
        s.rank = CACHE_SLOTS + 1;
        s.below = 0;
        s.equal = 0;
    }
    __syncthreads(); /* also: the values are written */
    if (n <= CACHE_SLOTS) {
        if (threadIdx.x < CACHE_SLOTS) {
            const int j = threadIdx.x;
            a.cache_object[first + j] = j < n ? j : -1;
            a.cache_benefit[first + j] = (j < n && row) ? scaled_benefit<T>(row[j], a.scale) : 0;
        }
        if (threadIdx.x == 0)
            a.cache_bound[person] = CACHE_ALL;
        __syncthreads();
        return t;
    }
    const long long v1 = s.v1;
    unsigned long long span = 0;
    for (int j = threadIdx.x; j < n; j += BID_THREADS) {
        unsigned long long key = (unsigned long long)(v1 - values[j]);
        span = key > span ? key : span;
    }
    atomicMax(&s.span, span);
    __syncthreads();
    int shift = 64 - RADIX_BITS;
    while (shift > 0 && (s.span >> shift) == 0)
        shift -= RADIX_BITS;
    for (; shift >= 0; shift -= RADIX_BITS) {
        for (int b = threadIdx.x; b < RADIX_BINS; b += BID_THREADS)
            s.hist[b] = 0;
        __syncthreads();
        const unsigned long long high = shift + RADIX_BITS >= 64 ? 0ull : ~0ull << (shift + RADIX_BITS);
        const unsigned long long prefix = s.prefix;
        for (int j = threadIdx.x; j < n; j += BID_THREADS) {
            unsigned long long key = (unsigned long long)(v1 - values[j]);
            if ((key & high) == prefix)
                atomicAdd(&s.hist[(key >> shift) & (RADIX_BINS - 1)], 1u);
        }
        radix_digit(s, shift);
    }
    /* The selected key: CACHE_SLOTS + 1 - rank keys are below it. */
    const unsigned long long selected = s.prefix;
    const int below = CACHE_SLOTS + 1 - s.rank;
    for (int j = threadIdx.x; j < n; j += BID_THREADS) {
        unsigned long long key = (unsigned long long)(v1 - values[j]);
        int slot = -1;
        if (key < selected)
            slot = atomicAdd(&s.below, 1);
        else if (key == selected)
            slot = below + atomicAdd(&s.equal, 1);
        if (slot >= 0 && slot < CACHE_SLOTS) {
            a.cache_object[first + slot] = j;
            a.cache_benefit[first + slot] = row ? scaled_benefit<T>(row[j], a.scale) : 0;
        }
    }
    if (threadIdx.x == 0)
        a.cache_bound[person] = v1 - (long long)selected;
    __syncthreads(); /* s is reused by the next refill */
    return t;
}
