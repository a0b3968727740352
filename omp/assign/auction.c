/* Parallel auction on OpenMP threads, asynchronous (Gauss-Seidel-like)
 * bidding: each object's price and owner live in one 64-bit word,
 * price << bidder_bits | owner + 1, replaced by compare-and-swap only when
 * the new bid is higher, so no lock, no n x n bid matrix and no barrier per
 * round. A thread bids for the unassigned persons on its own stack; winning
 * an owned object pushes the evicted owner on the winner's stack, so chains
 * of evictions stay on one thread. Prices read during a scan may be stale,
 * but they only rise: the bid still keeps epsilon-complementary slackness
 * (the other objects only got dearer), and a bid the object's price has
 * overtaken in the meantime is recomputed. Epsilon-scaling as in lib/assign/auction.c.
 * Results are optimal but, with several threads, which of several optimal
 * assignments is found may vary from run to run. */
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "omp/assign/auction_omp.h"

static int bits_for(uint64_t value)
{
    int bits = 1;
    while (bits < 63 && (value >> bits))
        bits++;
    return bits;
}

/* Best and second-best value of row (NULL: a dummy person, every object
 * worth 0) over the packed words' prices; TYPE is the benefit width. */
#define SCAN_WORDS(TYPE, row, words, bits, n, best, v1, v2, p1)                                    \
    for (int j = 0; j < (n); j++) {                                                                \
        int64_t price = (int64_t)(__atomic_load_n(&(words)[j], __ATOMIC_RELAXED) >> (bits));      \
        int64_t v = ((row) ? (int64_t)((const TYPE *)(row))[j] : 0) - price;                       \
        if (v > (v2)) {                                                                            \
            if (v > (v1)) {                                                                        \
                (v2) = (v1);                                                                       \
                (v1) = v;                                                                          \
                (best) = j;                                                                        \
                (p1) = price;                                                                      \
            } else {                                                                               \
                (v2) = v;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }

/* The price of the best object as read is returned in *best_price. */
static int scan(const pt_auction_benefits *b, uint64_t *words, int bits, int person, int64_t *v1_out,
                int64_t *v2_out, int64_t *best_price)
{
    int n = b->objects, best = 0, real = person < b->persons;
    int64_t v1 = INT64_MIN, v2 = INT64_MIN, p1 = 0;
    if (b->benefit32) {
        const int32_t *row = real ? b->benefit32 + (size_t)person * n : NULL;
        SCAN_WORDS(int32_t, row, words, bits, n, best, v1, v2, p1)
    } else {
        const int64_t *row = real ? b->benefit + (size_t)person * n : NULL;
        SCAN_WORDS(int64_t, row, words, bits, n, best, v1, v2, p1)
    }
    *v1_out = v1;
    *v2_out = v2;
    *best_price = p1;
    return best;
}

pt_status pt_assign_auction_omp(const pt_assign_problem *p, int threads, pt_assign_result *res,
                                pt_error *err)
{
    pt_auction_benefits b;
    pt_status st = pt_auction_benefits_make(p, &b, threads, err);
    if (st)
        return st;
    int n = b.objects;
    if (pt_auction_prefers_paths(b.persons, b.objects)) {
        int *paths_of = malloc(sizeof(int) * (size_t)b.persons);
        st = paths_of ? pt_auction_paths(&b, threads, paths_of, err)
                      : pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the path solve");
        if (st == PT_OK)
            pt_auction_result_fill(p, &b, paths_of, res);
        free(paths_of);
        pt_auction_benefits_free(&b);
        return st;
    }
    int bits = bits_for((uint64_t)n + 1);
    uint64_t owner_mask = ((uint64_t)1 << bits) - 1;
    int64_t price_limit = (int64_t)(((uint64_t)1 << (63 - bits)) - 1);
    if (threads <= 0)
        threads = omp_get_max_threads();
    /* Below ~64 objects per thread the threads mostly wait for each other. */
    if (threads > n / 64)
        threads = n / 64 > 1 ? n / 64 : 1;
    uint64_t *words = calloc((size_t)n, sizeof *words);
    int *stacks = malloc(sizeof(int) * (size_t)n * (size_t)threads); /* n per thread: never overflows */
    int *object_of = malloc(sizeof(int) * (size_t)n);
    if (!words || !stacks || !object_of) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the auction (n = %d)", n);
        goto done;
    }
    int overflow = 0;
    for (int64_t eps = b.eps_start; eps > 0 && !overflow; eps = pt_auction_next_eps(eps)) {
        /* Each phase restarts the assignment but keeps the prices. */
        for (int j = 0; j < n; j++)
            words[j] &= ~owner_mask;
        int unassigned = n;
#pragma omp parallel num_threads(threads)
        {
            int t = omp_get_thread_num(), team = omp_get_num_threads(), top = 0;
            int *mine = stacks + (size_t)t * n;
            for (int i = n - 1 - t; i >= 0; i -= team)
                mine[top++] = i;
            while (__atomic_load_n(&unassigned, __ATOMIC_ACQUIRE) > 0 &&
                   !__atomic_load_n(&overflow, __ATOMIC_RELAXED)) {
                if (top == 0) {
                    /* Others still bid and their evictions stay on their stacks:
                     * give the core up rather than spin against them. */
                    sched_yield();
                    continue;
                }
                int person = mine[top - 1];
                int64_t v1, v2, price;
                int j = scan(&b, words, bits, person, &v1, &v2, &price);
                int64_t bid = price + (n > 1 ? v1 - v2 : 0) + eps;
                if (bid > price_limit) {
                    __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
                    break;
                }
                uint64_t want = ((uint64_t)bid << bits) | (uint64_t)(person + 1);
                uint64_t seen = __atomic_load_n(&words[j], __ATOMIC_RELAXED);
                while ((int64_t)(seen >> bits) < bid) {
                    if (__atomic_compare_exchange_n(&words[j], &seen, want, 0, __ATOMIC_ACQ_REL,
                                                    __ATOMIC_RELAXED)) {
                        int evicted = (int)(seen & owner_mask) - 1;
                        if (evicted >= 0)
                            mine[top - 1] = evicted;
                        else {
                            top--;
                            __atomic_fetch_sub(&unassigned, 1, __ATOMIC_ACQ_REL);
                        }
                        break;
                    }
                }
                /* Lost the race (the price overtook the bid): bid again at the new prices. */
            }
        }
    }
    if (overflow) {
        st = pt_error_set(err, PT_ERR_PARAM, "",
                          "auction prices exceed the packed 64-bit bid word (n = %d); use -b seq or exact", n);
        goto done;
    }
    for (int i = 0; i < n; i++)
        object_of[i] = -1;
    for (int j = 0; j < n; j++)
        object_of[(words[j] & owner_mask) - 1] = j;
    pt_auction_result_fill(p, &b, object_of, res);
done:
    free(words);
    free(stacks);
    free(object_of);
    pt_auction_benefits_free(&b);
    return st;
}

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)report, (void)report_size;
    return pt_assign_auction_omp(p, threads, res, err);
}

const pt_assign_backend pt_assign_omp = {solve_backend, NULL, 4096};
