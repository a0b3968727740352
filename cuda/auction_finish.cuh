/* The end of an auction phase as one shortest augmenting path (included by
 * cuda/auction.cu, which defines phase_args).
 *
 * An asynchronous auction phase ends in a single chain: one person left
 * unassigned, one object left free, and each bid evicting the next bidder
 * until one lands on the free object. With small epsilon those chains run
 * for thousands of bids in a row (a price war), one block working while the
 * rest of the GPU idles; on n = 4096 uniform costs they are most of the
 * kernel's time. A Dijkstra search over the same prices finds where the
 * chain would end in at most n steps, usually far fewer, each step one row
 * scan like a bid's:
 *
 * Every assigned person i keeps epsilon-complementary slackness, so
 * pi_i = benefit(i, own) - price(own) + eps is at least i's best value. With
 * these potentials the reduced cost pi_i - benefit(i, k) + price(k) of every
 * arc is >= 0, and treating each assigned arc as cost 0 (raising its
 * benefit by at most eps) makes the state exactly complementary. The search
 * from the unassigned person (potential: its best value as scanned, an upper
 * bound) labels objects in order of distance d until it pops a free object
 * at distance D; raising the price of every popped object by D - d and
 * flipping the path keeps exact slackness for the raised benefits, hence
 * eps-slackness for the real ones: what the phase needs. Prices only rise,
 * as in the auction.
 *
 * A bidding block hands its person over only when no other block can still
 * write a word (the phase's count of unassigned persons is 1 and it holds
 * that person): it stops, and finish_phase, queued after the phase's
 * kernel, owns the words. */

/* Threads of the search's block; each loads PATH_ITEMS objects per pass before using them. */
#ifndef PATH_THREADS
#define PATH_THREADS 512
#endif
#ifndef PATH_ITEMS
#define PATH_ITEMS 8
#endif

/* Bytes of the search's state per object: dist (POPPED once popped), the
 * distance it was popped at, price, pi (long long), owner (int). In shared
 * memory when it fits, else in a.path_state. A step is one block on one SM,
 * bound by its instruction issue more than by memory (H100, n = 4096: the
 * relaxation ~2,800 cycles a step, the minimum ~1,100), hence the lean loop
 * below. */
#define PATH_STATE_BYTES (4 * sizeof(long long) + sizeof(int))
#define POPPED LLONG_MAX

/* The search's minimum: the distance, then the lowest object. */
struct path_min {
    long long d;
    int object;
};

__device__ __forceinline__ void path_min_merge(path_min &m, long long d, int object)
{
    if (d < m.d || (d == m.d && object < m.object)) {
        m.d = d;
        m.object = object;
    }
}

__device__ __forceinline__ void warp_path_min(path_min &m)
{
    for (int off = 16; off > 0; off >>= 1)
        path_min_merge(m, __shfl_xor_sync(FULL_MASK, m.d, off), __shfl_xor_sync(FULL_MASK, m.object, off));
}

/* The block's minimum; valid in thread 0. s_min holds a value per warp. */
__device__ __forceinline__ path_min block_path_min(path_min m, path_min *s_min)
{
    warp_path_min(m);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        s_min[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < PATH_THREADS / 32 ? s_min[lane] : path_min{LLONG_MAX, INT_MAX};
        warp_path_min(m);
    }
    return m;
}

template <typename T> __device__ __forceinline__ long long benefit_at(const phase_args &a, int person, int object)
{
    const T *row = benefit_row<T>(a, person);
    return row ? scaled_benefit<T>(row[object], a.scale) : 0;
}

/* After each phase kernel, one block: when the phase stopped with a person
 * left (a.finish[1] >= 0), assigns it by a shortest augmenting path from
 * a.finish[0] >= its best value at the current prices. Dynamic shared
 * memory: n * PATH_STATE_BYTES, or none when a.path_state holds the state. */
template <typename T> __global__ void __launch_bounds__(PATH_THREADS) finish_phase(phase_args a)
{
    extern __shared__ long long s_state[];
    __shared__ path_min s_min[PATH_THREADS / 32];
    __shared__ long long s_dist, s_pi;
    __shared__ int s_object, s_owner;
    const int source = (int)a.finish[1];
    if (source < 0 || __ldcg(a.overflow))
        return;
    const int n = a.n, bits = a.bidder_bits;
    const unsigned long long owner_mask = (1ull << bits) - 1ull;
    long long *dist = a.path_state ? a.path_state : s_state, *popped_at = dist + n, *price = popped_at + n,
              *pi = price + n;
    int *owner = (int *)(pi + n), *via = a.path_via;
    unsigned long long started = 0;
    if (threadIdx.x == 0) {
        s_pi = a.finish[0];
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(started));
    }
    __syncthreads();
    /* Labels from the source. Each thread keeps the objects j = threadIdx.x
     * + k * PATH_THREADS: only it touches their dist, popped_at and price. */
    path_min m = {LLONG_MAX, INT_MAX};
    for (int j = threadIdx.x; j < n; j += PATH_THREADS) {
        unsigned long long w = a.words[j];
        long long p = (long long)(w >> bits), d = s_pi - benefit_at<T>(a, source, j) + p;
        int o = (int)(w & owner_mask) - 1;
        dist[j] = d;
        price[j] = p;
        /* The owner's potential, used when j is popped. */
        pi[j] = o >= 0 ? benefit_at<T>(a, o, j) - p + a.eps : 0;
        owner[j] = o;
        via[j] = -1;
        path_min_merge(m, d, j);
    }
    long steps = 0;
    for (;;) {
        m = block_path_min(m, s_min);
        if (threadIdx.x == 0) {
            steps++;
            s_dist = m.d;
            s_object = m.object;
            s_owner = owner[m.object];
            s_pi = pi[m.object];
        }
        __syncthreads();
        const long long at = s_dist, pi_owner = s_pi;
        const int from = s_object, person = s_owner;
        if (person < 0)
            break; /* a free object: the path ends here at distance at */
        /* Relax from the popped object's owner; the next minimum at once. */
        m = path_min{LLONG_MAX, INT_MAX};
        const T *row = benefit_row<T>(a, person);
        const long long reach = at + pi_owner; /* + price - benefit: the distance through person */
        for (int base = threadIdx.x; base < n; base += PATH_THREADS * PATH_ITEMS) {
            /* All loads first, so PATH_ITEMS of them are in flight at once. */
            T b[PATH_ITEMS];
            long long d[PATH_ITEMS], p[PATH_ITEMS];
#pragma unroll
            for (int k = 0; k < PATH_ITEMS; k++) {
                int j = base + k * PATH_THREADS;
                b[k] = (row && j < n) ? __ldg(row + j) : (T)0;
                d[k] = j < n ? dist[j] : POPPED;
                p[k] = j < n ? price[j] : 0;
            }
#pragma unroll
            for (int k = 0; k < PATH_ITEMS; k++) {
                int j = base + k * PATH_THREADS;
                if (j == from) {
                    popped_at[j] = d[k];
                    dist[j] = POPPED;
                    continue;
                }
                if (d[k] == POPPED)
                    continue;
                long long c = reach - scaled_benefit<T>(b[k], a.scale) + p[k];
                if (c < d[k]) {
                    d[k] = c;
                    dist[j] = c;
                    via[j] = from;
                }
                /* j rises with k: strict < keeps the lowest object of a tie. */
                if (d[k] < m.d) {
                    m.d = d[k];
                    m.object = j;
                }
            }
        }
        /* s_dist and the rest are rewritten after the next minimum's barrier. */
    }
    /* Raise the popped objects' prices by the path's length - their distance. */
    const long long end = s_dist;
    const int free_object = s_object;
    for (int j = threadIdx.x; j < n; j += PATH_THREADS)
        if (dist[j] == POPPED) {
            long long p = price[j] + (end - popped_at[j]);
            if (p > a.price_limit)
                atomicExch(a.overflow, 1);
            a.words[j] = ((unsigned long long)p << bits) | (unsigned long long)(owner[j] + 1);
        }
    __syncthreads();
    /* Flip the path: each object on it goes to the owner of the object it
     * was reached from (owner[] still holds the owners before the flip), the
     * first to the source. */
    if (threadIdx.x == 0) {
        int object = free_object;
        for (;;) {
            int back = via[object];
            int to = back < 0 ? source : owner[back];
            a.words[object] = (a.words[object] & ~owner_mask) | (unsigned long long)(to + 1);
            if (back < 0)
                break;
            object = back;
        }
        atomicAdd(a.counters + COUNT_FINISHES, 1ull);
        atomicAdd(a.counters + COUNT_PATH_STEPS, (unsigned long long)steps);
        unsigned long long ended;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ended));
        atomicAdd(a.counters + COUNT_PATH_NS, ended - started);
    }
}
