/* Jacobi auction on OpenMP threads: every unassigned person bids at once
 * against the same prices; each object keeps its highest bid in one 64-bit
 * word (price << bidder_bits | bidder + 1) raised with a compare-and-swap max,
 * so no n x n bid matrix is needed. Epsilon-scaling as in lib/auction.c. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/assign.h"

/* Atomic max on a packed bid word; higher price wins, ties go to the higher bidder. */
static void bid_word_max(uint64_t *word, uint64_t bid)
{
    uint64_t seen = __atomic_load_n(word, __ATOMIC_RELAXED);
    while (bid > seen &&
           !__atomic_compare_exchange_n(word, &seen, bid, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Bidders below this count finish sequentially (see the loop). */
#ifndef SEQUENTIAL_TAIL
#define SEQUENTIAL_TAIL 32
#endif

static int bits_for(uint64_t value)
{
    int bits = 1;
    while (bits < 63 && (value >> bits))
        bits++;
    return bits;
}

pt_status pt_assign_auction_omp(const pt_assign_problem *p, int threads, pt_assign_result *res,
                                pt_error *err)
{
    pt_auction_benefits b;
    pt_status st = pt_auction_benefits_make(p, &b, err);
    if (st)
        return st;
    int n = b.objects;
    int bidder_bits = bits_for((uint64_t)n + 1);
    uint64_t bidder_mask = ((uint64_t)1 << bidder_bits) - 1;
    int64_t price_limit = (int64_t)(((uint64_t)1 << (63 - bidder_bits)) - 1);
    int64_t *prices = calloc((size_t)n, sizeof *prices);
    uint64_t *bid_words = calloc((size_t)n, sizeof *bid_words);
    int *owner = malloc(sizeof(int) * (size_t)n), *object_of = malloc(sizeof(int) * (size_t)n);
    int *bidders = malloc(sizeof(int) * (size_t)n), *next_bidders = malloc(sizeof(int) * (size_t)n);
    int *bid_object = malloc(sizeof(int) * (size_t)n), *outcome = malloc(sizeof(int) * (size_t)n);
    if (!prices || !bid_words || !owner || !object_of || !bidders || !next_bidders || !bid_object ||
        !outcome) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the auction (n = %d)", n);
        goto done;
    }
    if (threads <= 0)
        threads = omp_get_max_threads();
    /* Below ~64 objects per thread the round barriers cost more than the bids. */
    if (threads > n / 64)
        threads = n / 64 > 1 ? n / 64 : 1;
    int overflow = 0;
    for (int64_t eps = b.eps_start; eps > 0 && !overflow; eps = pt_auction_next_eps(eps)) {
        for (int k = 0; k < n; k++) {
            owner[k] = -1;
            object_of[k] = -1;
            bidders[k] = k;
        }
        int pending = n;
        /* pending changes only inside the single below, so every thread sees one value. */
#pragma omp parallel num_threads(threads)
        while (pending >= SEQUENTIAL_TAIL) {
#pragma omp for schedule(dynamic, 8)
            for (int k = 0; k < pending; k++) {
                int64_t bid;
                int j = pt_auction_bid(&b, prices, bidders[k], eps, &bid);
                bid_object[k] = j;
                if (bid > price_limit) {
                    __atomic_store_n(&overflow, 1, __ATOMIC_RELAXED);
                    continue;
                }
                bid_word_max(&bid_words[j], ((uint64_t)bid << bidder_bits) | (uint64_t)(bidders[k] + 1));
            }
            /* The barrier above ends the bidding: now each object's word holds its winner. */
#pragma omp for schedule(static)
            for (int k = 0; k < pending; k++) {
                int person = bidders[k], j = bid_object[k];
                uint64_t word = __atomic_load_n(&bid_words[j], __ATOMIC_RELAXED);
                if ((word & bidder_mask) != (uint64_t)person + 1) {
                    outcome[k] = -2; /* outbid: bids again next round */
                    continue;
                }
                prices[j] = (int64_t)(word >> bidder_bits);
                outcome[k] = owner[j]; /* evicted person or -1 */
                if (owner[j] >= 0)
                    object_of[owner[j]] = -1;
                owner[j] = person;
                object_of[person] = j;
                /* Losers reading 0 afterwards still see that they lost. */
                __atomic_store_n(&bid_words[j], 0, __ATOMIC_RELAXED);
            }
#pragma omp single
            {
                int next = 0;
                for (int k = 0; k < pending; k++) {
                    if (outcome[k] == -2)
                        next_bidders[next++] = bidders[k];
                    else if (outcome[k] >= 0)
                        next_bidders[next++] = outcome[k];
                }
                int *swap = bidders;
                bidders = next_bidders;
                next_bidders = swap;
                pending = __atomic_load_n(&overflow, __ATOMIC_RELAXED) ? 0 : next;
            }
        }
        /* A few bidders left: finish Gauss-Seidel on one thread rather than pay
         * three barriers per round of one or two bids. */
        while (pending > 0 && !overflow) {
            int person = bidders[--pending];
            int64_t bid;
            int j = pt_auction_bid(&b, prices, person, eps, &bid);
            if (bid > price_limit) {
                overflow = 1;
                break;
            }
            prices[j] = bid;
            if (owner[j] >= 0) {
                object_of[owner[j]] = -1;
                bidders[pending++] = owner[j];
            }
            owner[j] = person;
            object_of[person] = j;
        }
    }
    if (overflow)
        st = pt_error_set(err, PT_ERR_PARAM, "",
                          "auction prices exceed the packed 64-bit bid word (n = %d); use -b seq or exact",
                          n);
    else
        pt_auction_result_fill(p, &b, object_of, res);
done:
    free(prices);
    free(bid_words);
    free(owner);
    free(object_of);
    free(bidders);
    free(next_bidders);
    free(bid_object);
    free(outcome);
    pt_auction_benefits_free(&b);
    return st;
}
