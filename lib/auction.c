/* Sequential (Gauss-Seidel) auction with epsilon-scaling, and the integer
 * benefit form of a problem shared with the parallel auctions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "assign.h"

/* Problems with fewer entries are converted by one thread. */
#define PARALLEL_ENTRIES (1L << 18)

/* Scaled benefits stay below 2^40 so prices and a bidder id fit one 64-bit word. */
#define BENEFIT_LIMIT 1099511627776.0

pt_status pt_auction_benefits_make(const pt_assign_problem *p, pt_auction_benefits *b, int threads,
                                   pt_error *err)
{
    memset(b, 0, sizeof *b);
    if (!p->cost || p->rows <= 0 || p->cols <= 0)
        return pt_error_set(err, PT_ERR_PARAM, "", "empty assignment problem");
    int transposed = p->rows > p->cols;
    int persons = transposed ? p->cols : p->rows, objects = transposed ? p->rows : p->cols;
    double sign = p->maximize ? 1.0 : -1.0, lo = INFINITY, hi = -INFINITY;
    long entries = (long)p->rows * p->cols;
    int integer = 1, team = threads > 0 ? threads : omp_get_max_threads();
    long first_bad = entries; /* the first entry that is not finite */
    /* Both passes are independent per entry: a team of threads for large
     * problems (threads = 1: the sequential baseline stays sequential). */
#pragma omp parallel for num_threads(team) if (team > 1 && entries >= PARALLEL_ENTRIES) \
    reduction(min : lo, first_bad) reduction(max : hi) reduction(& : integer)
    for (long k = 0; k < entries; k++) {
        double v = sign * p->cost[k];
        if (!isfinite(v)) {
            first_bad = k < first_bad ? k : first_bad;
            continue;
        }
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        integer &= v == floor(v);
    }
    if (first_bad < entries)
        return pt_error_set(err, PT_ERR_PARAM, "", "cost matrix entry %ld is not finite", first_bad);
    /* Scaling by (objects + 1) and ending at eps = 1 makes the result optimal
     * for integer benefits; other costs are quantised to 1/quantum first. */
    double scale = (double)objects + 1.0, range = hi - lo, quantum = 1.0;
    if (!integer || range * scale > BENEFIT_LIMIT)
        quantum = range > 0 ? exp2(floor(log2(BENEFIT_LIMIT / (range * scale)))) : 1.0;
    /* The largest entry is the one at hi: it decides the width before filling. */
    int64_t top = (int64_t)floor(range * quantum + 0.5) * (int64_t)(objects + 1);
    int narrow = top <= INT32_MAX;
    if (narrow)
        b->benefit32 = malloc(sizeof(int32_t) * (size_t)entries);
    else
        b->benefit = malloc(sizeof(int64_t) * (size_t)entries);
    if (!b->benefit && !b->benefit32)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %dx%d auction benefits", persons,
                            objects);
    b->persons = persons;
    b->objects = objects;
    b->transposed = transposed;
#pragma omp parallel for num_threads(team) if (team > 1 && entries >= PARALLEL_ENTRIES) \
    schedule(static)
    for (int r = 0; r < p->rows; r++)
        for (int c = 0; c < p->cols; c++) {
            double v = floor((sign * p->cost[(size_t)r * p->cols + c] - lo) * quantum + 0.5);
            int64_t scaled = (int64_t)v * (int64_t)(objects + 1);
            size_t at = transposed ? (size_t)c * objects + r : (size_t)r * objects + c;
            if (narrow)
                b->benefit32[at] = (int32_t)scaled;
            else
                b->benefit[at] = scaled;
        }
    b->max_benefit = top;
    /* About a quarter of the unscaled cost range: measured on uniform and
     * tracking-like problems of n = 2000..4096, this and a factor of 8 per
     * phase need 1.8x (uniform) to 3x (tracking) fewer bids than starting at
     * a eighth of the scaled range and dividing by 6. */
    int64_t start = top / (4 * (int64_t)objects);
    b->eps_start = start > 1 ? start : 1;
    return PT_OK;
}

void pt_auction_benefits_free(pt_auction_benefits *b)
{
    free(b->benefit);
    free(b->benefit32);
    memset(b, 0, sizeof *b);
}

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
