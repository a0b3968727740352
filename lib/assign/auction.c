/* Sequential (Gauss-Seidel) auction with epsilon-scaling (the benefit form
 * it bids on is lib/assign/auction_scale.c's). */
#include <stdlib.h>
#include <string.h>

#include "lib/assign/assign.h"

int64_t pt_auction_next_eps(int64_t eps)
{
    if (eps <= 1)
        return 0;
    return eps / PT_AUCTION_EPS_FACTOR > 1 ? eps / PT_AUCTION_EPS_FACTOR : 1;
}

/* Best and second-best of row[j] - prices[j] (row NULL: a dummy person,
 * every object worth 0); TYPE is the benefit width. */
#define SCAN_ROW(TYPE, row, prices, n, best, v1, v2)                                               \
    for (int j = 0; j < (n); j++) {                                                                \
        int64_t v = ((row) ? (int64_t)((const TYPE *)(row))[j] : 0) - (prices)[j];                 \
        if (v > (v2)) {                                                                            \
            if (v > (v1)) {                                                                        \
                (v2) = (v1);                                                                       \
                (v1) = v;                                                                          \
                (best) = j;                                                                        \
            } else {                                                                               \
                (v2) = v;                                                                          \
            }                                                                                      \
        }                                                                                          \
    }

int pt_auction_bid(const pt_auction_benefits *b, const int64_t *prices, int person, int64_t eps,
                   int64_t *bid_price)
{
    int n = b->objects, best = 0;
    int64_t v1 = INT64_MIN, v2 = INT64_MIN;
    int real = person < b->persons;
    if (b->benefit32) {
        const int32_t *row = real ? b->benefit32 + (size_t)person * n : NULL;
        SCAN_ROW(int32_t, row, prices, n, best, v1, v2)
    } else {
        const int64_t *row = real ? b->benefit + (size_t)person * n : NULL;
        SCAN_ROW(int64_t, row, prices, n, best, v1, v2)
    }
    /* With one object there is no second best: raise by eps alone. */
    *bid_price = prices[best] + (n > 1 ? v1 - v2 : 0) + eps;
    return best;
}

void pt_auction_result_fill(const pt_assign_problem *p, const pt_auction_benefits *b,
                            const int *object_of_person, pt_assign_result *res)
{
    for (int r = 0; r < p->rows; r++)
        res->col_of_row[r] = -1;
    for (int i = 0; i < b->persons; i++) {
        int j = object_of_person[i];
        if (j < 0)
            continue;
        if (b->transposed)
            res->col_of_row[j] = i;
        else
            res->col_of_row[i] = j;
    }
    res->total = pt_assign_total(p, res->col_of_row);
}

pt_status pt_assign_auction(const pt_assign_problem *p, pt_assign_result *res, pt_error *err)
{
    pt_auction_benefits b;
    pt_status st = pt_auction_benefits_make(p, &b, 1, err);
    if (st)
        return st;
    int n = b.objects; /* persons padded with dummies to a square problem */
    if (pt_auction_prefers_paths(b.persons, b.objects)) {
        int *paths_of = malloc(sizeof(int) * (size_t)b.persons);
        st = paths_of ? pt_auction_paths(&b, 1, paths_of, err)
                      : pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the path solve");
        if (st == PT_OK)
            pt_auction_result_fill(p, &b, paths_of, res);
        free(paths_of);
        pt_auction_benefits_free(&b);
        return st;
    }
    int64_t *prices = calloc((size_t)n, sizeof *prices);
    int *owner = malloc(sizeof(int) * (size_t)n), *object_of = malloc(sizeof(int) * (size_t)n);
    int *unassigned = malloc(sizeof(int) * (size_t)n);
    if (!prices || !owner || !object_of || !unassigned) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the auction (n = %d)", n);
        goto done;
    }
    for (int64_t eps = b.eps_start; eps > 0; eps = pt_auction_next_eps(eps)) {
        /* Each phase restarts the assignment but keeps the prices. */
        for (int k = 0; k < n; k++) {
            owner[k] = -1;
            object_of[k] = -1;
            unassigned[k] = n - 1 - k;
        }
        int pending = n;
        while (pending > 0) {
            int person = unassigned[--pending];
            int64_t bid;
            int j = pt_auction_bid(&b, prices, person, eps, &bid);
            prices[j] = bid;
            if (owner[j] >= 0) {
                object_of[owner[j]] = -1;
                unassigned[pending++] = owner[j];
            }
            owner[j] = person;
            object_of[person] = j;
        }
    }
    pt_auction_result_fill(p, &b, object_of, res);
done:
    free(prices);
    free(owner);
    free(object_of);
    free(unassigned);
    pt_auction_benefits_free(&b);
    return st;
}

static pt_status solve_backend(const pt_assign_problem *p, int threads, pt_assign_result *res,
                               char *report, size_t report_size, pt_error *err)
{
    (void)threads, (void)report, (void)report_size;
    return pt_assign_auction(p, res, err);
}

const pt_assign_backend pt_assign_seq = {solve_backend, NULL, 0};
