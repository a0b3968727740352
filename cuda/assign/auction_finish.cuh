/* The end of an auction phase as shortest augmenting paths (included by
 * cuda/assign/auction.cu after auction_cache.cuh, which it uses).
 *
 * An asynchronous auction phase ends in chains: a few persons left
 * unassigned, as many objects free, and each bid evicting the next bidder
 * until one lands on a free object. With small epsilon those chains run for
 * thousands of bids in a row (a price war) while the rest of the GPU idles.
 * A Dijkstra search over the same prices finds where such a chain would end:
 *
 * Every assigned person i keeps epsilon-complementary slackness, so
 * pi_i = benefit(i, own) - price(own) + eps is at least i's best value. With
 * these potentials the reduced cost pi_i - benefit(i, k) + price(k) of every
 * arc is >= 0, and treating each assigned arc as cost 0 (raising its
 * benefit by at most eps) makes the state exactly complementary. The search
 * from an unassigned person (potential: any upper bound of its best value)
 * labels objects in order of distance d until it pops a free object at
 * distance D; raising the price of every popped object by D - d and flipping
 * the path keeps exact slackness for the raised benefits, hence eps-slackness
 * for the real ones: what the phase needs. Prices only rise, as in the
 * auction, so every person's cache (auction_cache.cuh) stays valid.
 *
 * The search is lazy with the caches: popping an object relaxes only its
 * owner's cached objects, and the rest of the owner's row waits as one
 * deferred entry keyed by the least distance it could give (reach - bound:
 * no uncached value exceeds bound). A deferred row is relaxed in full only
 * when its key comes up; on uniform costs that is never. A step is one warp:
 * the minimum over per-32-object segment minima, the minimum inside the
 * segment, and 32 relaxations.
 *
 * Bidding blocks hand persons over when the phase has at most
 * FINISH_PERSONS unassigned: they stop bidding for them and list them, and
 * finish_phase, queued after the phase's kernel, assigns them one search
 * after the other, owning the words.
 *
 * The same searches also solve problems with many spare objects on their
 * own, with no auction at all (run_paths, at the end of this file). */

#define PATH_INFINITY LLONG_MAX

/* The search's state: per object dist, price and the benefit of its owner
 * (long long), owner and the object it was reached from (int, -1: the
 * source); per 32 objects the least key dist << 5 | object % 32 not popped
 * (dist >= 0, far below 2^58) and a bit per popped object. In shared memory
 * when it fits (n up to ~7,000), else in a.path_state. */
__host__ __device__ static inline size_t path_state_bytes(int n)
{
    size_t segments = ((size_t)n + 31) / 32;
    return (size_t)n * (3 * sizeof(long long) + 2 * sizeof(int)) + segments * (sizeof(long long) + sizeof(unsigned));
}

struct path_state {
    long long *dist, *price, *own;
    unsigned long long *seg_key;
    int *owner, *via;
    unsigned *popped;
};

__device__ __forceinline__ path_state path_state_in(void *base, int n)
{
    const int segments = (n + 31) / 32;
    path_state s;
    s.dist = (long long *)base;
    s.price = s.dist + n;
    s.own = s.price + n;
    s.seg_key = (unsigned long long *)(s.own + n);
    s.owner = (int *)(s.seg_key + segments);
    s.via = s.owner + n;
    s.popped = (unsigned *)(s.via + n);
    return s;
}

#define NO_KEY (~0ull)

/* The rest of a row after its cached objects: relaxed when key comes up. */
struct deferred_row {
    long long key, reach;
    int person, from;
};

__device__ __forceinline__ void warp_min_at(long long &d, int &at)
{
    for (int off = 16; off > 0; off >>= 1) {
        long long od = __shfl_xor_sync(FULL_MASK, d, off);
        int oa = __shfl_xor_sync(FULL_MASK, at, off);
        if (od < d || (od == d && oa < at)) {
            d = od;
            at = oa;
        }
    }
}

/* The warp's least key, in every lane. */
__device__ __forceinline__ unsigned long long warp_min_key(unsigned long long key)
{
#if __CUDA_ARCH__ >= 800
    const unsigned high = (unsigned)(key >> 32), least_high = __reduce_min_sync(FULL_MASK, high);
    const unsigned low = high == least_high ? (unsigned)key : ~0u, least_low = __reduce_min_sync(FULL_MASK, low);
    return ((unsigned long long)least_high << 32) | least_low;
#else
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long o = __shfl_xor_sync(FULL_MASK, key, off);
        key = o < key ? o : key;
    }
    return key;
#endif
}

__device__ __forceinline__ long long warp_max(long long d)
{
    for (int off = 16; off > 0; off >>= 1) {
        long long o = __shfl_xor_sync(FULL_MASK, d, off);
        d = o > d ? o : d;
    }
    return d;
}

__device__ __forceinline__ int is_popped(const path_state &s, int k) { return (s.popped[k >> 5] >> (k & 31)) & 1u; }

__device__ __forceinline__ void relax(path_state &s, int k, long long c, int from)
{
    if (c < s.dist[k]) {
        s.dist[k] = c;
        s.via[k] = from;
        atomicMin(s.seg_key + (k >> 5), ((unsigned long long)c << 5) | (unsigned)(k & 31));
    }
}

/* Relaxes person's whole row from reach (its distance + potential). */
template <typename T>
__device__ void relax_row(const phase_args &a, path_state &s, int person, long long reach, int from)
{
    const T *row = benefit_row<T>(a, person);
    const int lane = threadIdx.x & 31;
    for (int k = lane; k < a.n; k += 32)
        if (!is_popped(s, k))
            relax(s, k, reach - (row ? scaled_benefit<T>(row[k], a.scale) : 0) + s.price[k], from);
    __syncwarp();
}

/* The deferred rows and the least key among them (every lane the same). */
struct deferred_list {
    deferred_row *rows;
    int count, least_at; /* least_at -1: none left */
    long long least;
};

/* Relaxes person's cached objects from reach; the rest of its row is deferred. */
template <typename T>
__device__ __forceinline__ void relax_person(const phase_args &a, path_state &s, deferred_list &later, int person,
                                             long long reach, int from, int k, long long benefit, long long bound)
{
    if (bound == CACHE_UNBUILT) {
        relax_row<T>(a, s, person, reach, from);
        return;
    }
    if (k >= 0 && !is_popped(s, k))
        relax(s, k, reach - benefit + s.price[k], from);
    if (bound != CACHE_ALL) {
        const long long key = reach - bound;
        if ((threadIdx.x & 31) == 0)
            later.rows[later.count] = deferred_row{key, reach, person, from};
        if (key < later.least) {
            later.least = key;
            later.least_at = later.count;
        }
        later.count++;
    }
    __syncwarp();
}

/* Relaxes the deferred row with the least key in full; finds the next least. */
template <typename T> __device__ void relax_deferred(const phase_args &a, path_state &s, deferred_list &later)
{
    const int lane = threadIdx.x & 31;
    deferred_row r = later.rows[later.least_at];
    __syncwarp();
    if (lane == 0)
        later.rows[later.least_at].key = PATH_INFINITY;
    relax_row<T>(a, s, r.person, r.reach, r.from);
    long long least = PATH_INFINITY;
    int at = INT_MAX;
    for (int i = lane; i < later.count; i += 32) {
        long long key = later.rows[i].key;
        if (key < least) {
            least = key;
            at = i;
        }
    }
    warp_min_at(least, at);
    later.least = least;
    later.least_at = least == PATH_INFINITY ? -1 : at;
}

/* One search from source; returns its pops, 0 when no free object is reachable. */
template <typename T>
__device__ long search_path(const phase_args &a, path_state &s, deferred_row *deferred, int source)
{
    const int n = a.n, segments = (n + 31) / 32, lane = threadIdx.x & 31;
    for (int k = lane; k < n; k += 32) {
        s.dist[k] = PATH_INFINITY;
        s.via[k] = -1;
    }
    for (int g = lane; g < segments; g += 32) {
        s.seg_key[g] = NO_KEY;
        s.popped[g] = 0u; /* objects past n are never relaxed, so never popped */
    }
    __syncwarp();
    deferred_list later = {deferred, 0, -1, PATH_INFINITY};
    {
        /* The source's potential: an upper bound of its best value. */
        const long long bound = __ldcg(a.cache_bound + source);
        const int k = __ldcg(a.cache_object + (size_t)source * CACHE_SLOTS + lane);
        const long long benefit = __ldcg(a.cache_benefit + (size_t)source * CACHE_SLOTS + lane);
        long long best = LLONG_MIN;
        if (bound == CACHE_UNBUILT) {
            const T *row = benefit_row<T>(a, source);
            for (int j = lane; j < n; j += 32) {
                long long v = (row ? scaled_benefit<T>(row[j], a.scale) : 0) - s.price[j];
                best = v > best ? v : best;
            }
        } else if (k >= 0) {
            best = benefit - s.price[k];
        }
        best = warp_max(best);
        relax_person<T>(a, s, later, source, best > bound || bound == CACHE_UNBUILT ? best : bound, -1, k, benefit,
                        bound);
    }
    long pops = 0;
    for (;;) {
        unsigned long long key = NO_KEY;
        int g = -1;
        for (int h = lane; h < segments; h += 32) {
            unsigned long long e = s.seg_key[h];
            if (e < key) {
                key = e;
                g = h;
            }
        }
        const unsigned long long least = warp_min_key(key);
        g = __shfl_sync(FULL_MASK, g, __ffs(__ballot_sync(FULL_MASK, key == least)) - 1);
        const long long first = least == NO_KEY ? PATH_INFINITY : (long long)(least >> 5);
        if (later.least_at >= 0 && later.least <= first) {
            /* A deferred row could reach closer than any labelled object: relax it in full. */
            relax_deferred<T>(a, s, later);
            continue;
        }
        if (least == NO_KEY)
            return 0;
        const int object = g * 32 + (int)(least & 31);
        /* The owner's cache first: its loads (L2) are in flight while the
         * segment's next least key is found. */
        const int owner = s.owner[object];
        const size_t slot = (size_t)(owner < 0 ? 0 : owner) * CACHE_SLOTS + lane;
        const int cached = __ldcg(a.cache_object + slot);
        const long long benefit = __ldcg(a.cache_benefit + slot), bound = __ldcg(a.cache_bound + (owner < 0 ? 0 : owner));
        const long long reach = first + s.own[object] - s.price[object] + a.eps; /* own value + eps */
        /* The segment's next least key. */
        const int k = g * 32 + lane;
        const unsigned long long mine =
            (k < n && k != object && !is_popped(s, k)) ? ((unsigned long long)s.dist[k] << 5) | (unsigned)lane : NO_KEY;
        const unsigned long long rest = warp_min_key(mine);
        pops++;
        __syncwarp(); /* every lane has read the segment */
        if (lane == 0) {
            s.popped[g] |= 1u << (object & 31);
            s.seg_key[g] = rest;
        }
        __syncwarp(); /* object popped before any relaxation */
        if (owner < 0) {
            /* A free object at distance first. Flip the path: each object on
             * it goes to the owner of the object it was reached from (not yet
             * overwritten), the first to the source. */
            if (lane == 0) {
                int j = object;
                for (;;) {
                    int back = s.via[j];
                    int to = back < 0 ? source : s.owner[back];
                    s.owner[j] = to;
                    s.own[j] = benefit_at<T>(a, to, j);
                    if (back < 0)
                        break;
                    j = back;
                }
            }
            __syncwarp();
            /* Raise the popped objects' prices by first - their dist, and write their words. */
            for (int h = lane; h < segments; h += 32) {
                unsigned popped = s.popped[h];
                while (popped) {
                    int j = h * 32 + __ffs(popped) - 1;
                    popped &= popped - 1;
                    long long p = s.price[j] + (first - s.dist[j]);
                    if (p > a.price_limit)
                        atomicExch(a.overflow, 1);
                    s.price[j] = p;
                    a.words[j] = ((unsigned long long)p << a.bidder_bits) | (unsigned long long)(s.owner[j] + 1);
                }
            }
            __syncwarp();
            return pops;
        }
        relax_person<T>(a, s, later, owner, reach, object, cached, benefit, bound);
    }
}

/* After each phase kernel, one warp: assigns the persons the phase listed
 * (a.finish_list, a.finish_count) by shortest augmenting paths, one after
 * the other. Dynamic shared memory: path_state_bytes(n), or none when
 * a.path_state holds the state. */
template <typename T> __global__ void __launch_bounds__(32) finish_phase(phase_args a)
{
    extern __shared__ long long s_state[];
    const int count = *a.finish_count;
    if (count == 0 || __ldcg(a.overflow))
        return;
    unsigned long long started = 0;
    if (threadIdx.x == 0)
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(started));
    const int n = a.n, bits = a.bidder_bits;
    const unsigned long long owner_mask = (1ull << bits) - 1ull;
    path_state s = path_state_in(a.path_state ? (void *)a.path_state : (void *)s_state, n);
    for (int k = threadIdx.x; k < n; k += 32) {
        unsigned long long w = a.words[k];
        int owner = (int)(w & owner_mask) - 1;
        s.price[k] = (long long)(w >> bits);
        s.owner[k] = owner;
        s.own[k] = owner >= 0 ? benefit_at<T>(a, owner, k) : 0;
    }
    __syncwarp();
    long steps = 0;
    for (int i = 0; i < count; i++) {
        long pops = search_path<T>(a, s, a.path_deferred, a.finish_list[i]);
        if (pops == 0)
            break; /* cannot happen with as many objects as persons; the host finds the person unassigned */
        steps += pops;
    }
    if (threadIdx.x == 0) {
        atomicAdd(a.counters + COUNT_FINISHES, (unsigned long long)count);
        atomicAdd(a.counters + COUNT_PATH_STEPS, (unsigned long long)steps);
        unsigned long long ended;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ended));
        atomicAdd(a.counters + COUNT_PATH_NS, ended - started);
    }
}

/* Problems with at least this many percent more objects than persons skip
 * the auction: its dummy persons (rows of zeros, one per spare object) all
 * want the cheapest objects and bid each other up by epsilon for thousands
 * of rounds (650 x 6,000: a second). Successive shortest paths from an
 * empty assignment need no dummies: each person's search stops at the
 * first free object, near while many are free. Kernel ms on the H100,
 * auction / paths, uniform and tracking costs: 4000 x 4096 39 / 45 and
 * 12 / 16; 3900 x 4096 67 / 33 and 27 / 16; 3500 x 4096 75 / 20 and
 * 118 / 14; 1024 x 4096 231 / 4.0; 7800 x 8192 157 / 105; 1000 x 1024
 * 2.7 / 8.2; square 4096 23 / 107. */
#define PATHS_MIN_SPARE_PERCENT 4

/* Every person's cache at the start prices, for the shortest-path solve
 * (the auction fills caches at each person's first bid). */
template <typename T> __global__ void __launch_bounds__(BID_THREADS) build_caches(phase_args a)
{
    __shared__ top2 s_warp[BID_THREADS / 32];
    __shared__ refill_shared s_refill;
    for (int person = blockIdx.x; person < a.persons; person += gridDim.x)
        block_refill<T>(a, person, -1, 0ull, s_warp, s_refill);
}

/* The persons in order, for the shortest-path solve. */
__global__ void list_persons(int *list, int *count, int persons)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < persons)
        list[i] = i;
    if (i == 0)
        *count = persons;
}

/* Queues the shortest-path solve: one search per person at epsilon = 1,
 * which with benefits scaled by n + 1 is optimal as the auction's last
 * phase is (every assigned person within epsilon of its best; objects left
 * free keep price 0: a search ends at the first free object it pops, so it
 * never raises one). */
template <typename T>
static cudaError_t run_paths(phase_args *args, int blocks, size_t path_bytes, cudaStream_t stream)
{
    args->eps = 1;
    build_caches<T><<<blocks, BID_THREADS, 0, stream>>>(*args);
    list_persons<<<(args->persons + 255) / 256, 256, 0, stream>>>(args->finish_list, args->finish_count,
                                                                   args->persons);
    finish_phase<T><<<1, 32, path_bytes, stream>>>(*args);
    return cudaGetLastError();
}
