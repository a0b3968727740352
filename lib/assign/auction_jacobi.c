/* The Jacobi auction with packed 32-bit bids (auction_jacobi.h). */
#include "lib/assign/auction_jacobi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

pt_status pt_auction_jacobi_benefits(const pt_assign_problem *p, pt_auction_benefits *b,
                                     pt_error *err)
{
    int n = p->rows > p->cols ? p->rows : p->cols;
    if (n > PT_JACOBI_MAX_N)
        return pt_error_set(err, PT_ERR_PARAM, "",
                            "--auction jacobi: %dx%d is beyond the packed bid word's %d persons",
                            p->rows, p->cols, PT_JACOBI_MAX_N);
    pt_status st = pt_auction_benefits_make(p, b, 1, err);
    if (st)
        return st;
    if (!b->benefit32 || b->max_benefit > PT_JACOBI_MAX_VALUE / 2) {
        long long largest = (long long)b->max_benefit;
        pt_auction_benefits_free(b);
        return pt_error_set(err, PT_ERR_PARAM, "",
                            "--auction jacobi: scaled benefits up to %lld leave no room for prices "
                            "in the bid word's %d bits (integer costs times n + 1 must stay below "
                            "2^19)",
                            largest, PT_JACOBI_VALUE_BITS);
    }
    return PT_OK;
}

/* The bid slot's maximum with word (compare-and-swap: any order of bidders
 * leaves the same word). */
static void place_bid(uint32_t *slot, uint32_t word)
{
    uint32_t seen = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while (word > seen &&
           !__atomic_compare_exchange_n(slot, &seen, word, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Rounds with fewer unassigned persons than this bid on one thread: the
 * team's start and barrier cost more than a handful of row scans. */
#define PARALLEL_BIDDERS 256

typedef struct {
    const pt_auction_benefits *b;
    int n, threads, pending; /* pending: unassigned persons */
    int64_t *prices;
    uint32_t *bids;
    int *owner, *object_of;
} jacobi_state;

/* Bidding phase: every unassigned person bids for its best object at this
 * round's prices. Returns the number of bidders (-1: a price overflowed). */
static int bidding_phase(jacobi_state *j, int64_t eps)
{
    int bidders = 0, overflow = 0;
#pragma omp parallel for schedule(dynamic, 16) num_threads(j->threads) reduction(+ : bidders, overflow) if (j->threads > 1 && j->pending >= PARALLEL_BIDDERS)
    for (int person = 0; person < j->n; person++) {
        if (j->object_of[person] >= 0)
            continue;
        int64_t value;
        int object = pt_auction_bid(j->b, j->prices, person, eps, &value);
        if (value > PT_JACOBI_MAX_VALUE) {
            overflow++;
            continue;
        }
        place_bid(&j->bids[object], (uint32_t)value << PT_JACOBI_INDEX_BITS | (uint32_t)person);
        bidders++;
    }
    return overflow ? -1 : bidders;
}

/* Assignment phase: each object with bids goes to the highest, at its value;
 * the owner it had is unassigned. Each person bid for one object, so no two
 * objects touch the same person. */
static void assignment_phase(jacobi_state *j)
{
    int newly = 0;
#pragma omp parallel for schedule(static) num_threads(j->threads) reduction(+ : newly) if (j->threads > 1 && j->pending >= PARALLEL_BIDDERS)
    for (int object = 0; object < j->n; object++) {
        uint32_t word = j->bids[object];
        if (!word)
            continue;
        int person = (int)(word & ((1u << PT_JACOBI_INDEX_BITS) - 1));
        if (j->owner[object] >= 0)
            j->object_of[j->owner[object]] = -1;
        else
            newly++;
        j->owner[object] = person;
        j->object_of[person] = object;
        j->prices[object] = (int64_t)(word >> PT_JACOBI_INDEX_BITS);
        j->bids[object] = 0;
    }
    j->pending -= newly;
}

pt_status pt_assign_auction_jacobi(const pt_assign_problem *p, int threads, pt_assign_result *res,
                                   pt_error *err)
{
    pt_auction_benefits b;
    pt_status st = pt_auction_jacobi_benefits(p, &b, err);
    if (st)
        return st;
    jacobi_state j = {&b, b.objects, threads, b.objects, NULL, NULL, NULL, NULL};
    if (j.threads <= 0)
        j.threads = omp_get_max_threads();
    j.prices = calloc((size_t)j.n, sizeof *j.prices);
    j.bids = calloc((size_t)j.n, sizeof *j.bids);
    j.owner = malloc(sizeof(int) * (size_t)j.n);
    j.object_of = malloc(sizeof(int) * (size_t)j.n);
    if (!j.prices || !j.bids || !j.owner || !j.object_of) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the auction (n = %d)", j.n);
        goto done;
    }
    for (int64_t eps = b.eps_start; eps > 0; eps = pt_auction_next_eps(eps)) {
        /* Each epsilon phase restarts the assignment and keeps the prices. */
        for (int k = 0; k < j.n; k++)
            j.owner[k] = j.object_of[k] = -1;
        j.pending = j.n;
        int bidders;
        while ((bidders = bidding_phase(&j, eps)) > 0)
            assignment_phase(&j);
        if (bidders < 0) {
            st = pt_error_set(err, PT_ERR_PARAM, "",
                              "--auction jacobi: a price passed the bid word's %d bits (n = %d)",
                              PT_JACOBI_VALUE_BITS, j.n);
            goto done;
        }
    }
    pt_auction_result_fill(p, &b, j.object_of, res);
done:
    free(j.prices);
    free(j.bids);
    free(j.owner);
    free(j.object_of);
    pt_auction_benefits_free(&b);
    return st;
}

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)threads, (void)report, (void)report_size;
    return pt_assign_auction_jacobi(p, 1, res, err);
}

const pt_assign_backend pt_assign_seq_jacobi = {solve_backend, NULL, 0};
