/* Linear assignment problems: a dense cost (or utility) matrix, its solution,
 * loaders and generators, and the solvers (exact, sequential auction, OpenMP
 * auction). Plain row-major doubles so a GPU back end can reuse the types. */
#ifndef PT_ASSIGN_H
#define PT_ASSIGN_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/pt_error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int rows, cols;
    double *cost; /* rows*cols, row-major: cost[r*cols + c] */
    int maximize; /* 1: maximise the total utility; 0: minimise the total cost */
} pt_assign_problem;

/* min(rows, cols) pairs are assigned: every row when rows <= cols, else every
 * column (the other rows get -1). */
typedef struct {
    int *col_of_row; /* rows entries; -1 = unassigned */
    double total;    /* sum of cost over the assigned pairs */
} pt_assign_result;

typedef enum {
    PT_ASSIGN_UNIFORM,  /* integer costs uniform in 0..range-1 */
    PT_ASSIGN_TRACKING  /* integer-rounded distances between points and their noisy moved copies */
} pt_assign_dist;

/* Largest matrix the loaders and generators accept (entries). */
#define PT_ASSIGN_MAX_ENTRIES (1L << 28)

pt_status pt_assign_problem_alloc(pt_assign_problem *p, int rows, int cols, pt_error *err);
void pt_assign_problem_free(pt_assign_problem *p);
pt_status pt_assign_result_alloc(pt_assign_result *res, int rows, pt_error *err);
void pt_assign_result_free(pt_assign_result *res);

/* Dense CSV: one matrix row per line, comma-separated numbers, no header.
 * Non-numeric or empty cells, ragged rows, NaN/inf and empty files fail
 * with PT_ERR_FORMAT naming the file and line. maximize is left 0. */
pt_status pt_assign_load_csv(const char *path, pt_assign_problem *p, pt_error *err);

/* Seeded, deterministic random problem. range: uniform costs are 0..range-1
 * (range <= 0 means max(rows, cols)); tracking costs are distances in pixels
 * rounded to integers (range unused). */
pt_status pt_assign_random(pt_assign_problem *p, int rows, int cols, pt_assign_dist dist,
                           long range, uint64_t seed, pt_error *err);

/* Sum of the costs of the assigned pairs. */
double pt_assign_total(const pt_assign_problem *p, const int *col_of_row);
/* 1 when every cost is an integer (the auction is then exactly optimal). */
int pt_assign_is_integer(const pt_assign_problem *p);
/* Checks that col_of_row is a valid complete assignment for p's shape. */
int pt_assign_is_complete(const pt_assign_problem *p, const int *col_of_row);

/* Exact shortest-augmenting-path solver (Jonker-Volgenant style), O(n^2 m). */
pt_status pt_assign_exact(const pt_assign_problem *p, pt_assign_result *res, pt_error *err);

/* Auction with epsilon-scaling. Integer costs are scaled by (n+1), n the
 * larger side, and the last phase runs at epsilon = 1, so the result is
 * optimal. Other costs are first quantised to a binary fraction that keeps
 * the scaled range below 2^40, so the total is optimal for the quantised
 * costs (within rows * 2^-k of the true optimum). */
pt_status pt_assign_auction(const pt_assign_problem *p, pt_assign_result *res, pt_error *err);
/* A solver the -b option of assign and mtt selects (pupiltrack-assign(1)):
 * the sequential auction and the exact solver here, the OpenMP and CUDA
 * auctions beside their code (omp/assign, cuda/assign). */
typedef struct {
    /* report (may be NULL): the caller passes it empty; a solver with
     * statistics of its own writes them there as one line. */
    pt_status (*solve)(const pt_assign_problem *p, int threads, pt_assign_result *res,
                       char *report, size_t report_size, pt_error *err);
    /* NULL: always usable; else PT_OK or PT_ERR_UNAVAILABLE with the reason. */
    pt_status (*available)(pt_error *err);
    /* The tracker solves gated clusters smaller than this (entries) with the
     * exact solver: below it a launch or a thread team costs more than the solve. */
    long tracker_min_entries;
} pt_assign_backend;

extern const pt_assign_backend pt_assign_seq;          /* pt_assign_auction */
extern const pt_assign_backend pt_assign_exact_solver; /* pt_assign_exact */
extern const pt_assign_backend pt_assign_omp;  /* omp/assign/auction.c */
extern const pt_assign_backend pt_assign_cuda; /* cuda/assign/auction_table.c */

/* Shared by the auction back ends: the problem as integer benefits to
 * maximise, persons <= objects (transposed when rows > cols). Persons
 * beyond `persons` up to `objects` are implicit dummies with benefit 0. */
typedef struct {
    int persons, objects; /* real persons, objects (objects >= persons) */
    int transposed;       /* persons are the problem's columns */
    /* persons*objects, row-major, min entry 0: benefit32 when max_benefit
     * fits 32 bits (half the memory traffic per bid), else benefit; the other is NULL. */
    int64_t *benefit;
    int32_t *benefit32;
    int64_t max_benefit;  /* largest entry */
    int64_t eps_start;    /* first epsilon of the scaling (>= 1) */
} pt_auction_benefits;

/* How costs become integer benefits (lib/assign/auction_scale.c): benefit =
 * round((sign * cost - lo) * quantum) * scale, scale = objects + 1. */
typedef struct {
    int persons, objects, transposed; /* as in pt_auction_benefits */
    double sign, lo, quantum;
    int64_t scale, max_benefit, eps_start;
    int narrow;  /* max_benefit fits int32_t */
    int compact; /* the unscaled values round((sign * cost - lo) * quantum) fit uint16_t */
} pt_auction_scaling;

/* One pass over the costs: range, integrality, finiteness (PT_ERR_PARAM
 * naming the first entry that is not finite) and the scaling. threads: the
 * team for large problems (0 = all cores, 1 = this thread). */
pt_status pt_auction_scale(const pt_assign_problem *p, int threads, pt_auction_scaling *s, pt_error *err);
/* The same from the costs' least and largest entry and whether all are
 * integers (known without pt_auction_scale's pass). */
pt_status pt_auction_scale_range(const pt_assign_problem *p, double least, double largest, int integer,
                                 pt_auction_scaling *s, pt_error *err);
/* Cost rows [first, first + count) as they are, as uint16_t, when every
 * entry is an integer in 0..65535, with their least and largest entry
 * merged into *least and *largest: 1. Else 0 (dst holds nothing usable).
 * One pass that both converts and finds the range, for the GPU upload. */
int pt_auction_convert_raw16(const pt_assign_problem *p, int first, int count, uint16_t *dst, double *least,
                             double *largest);
/* Benefit rows of persons [first, first + count) into dst (count * objects
 * entries, int32_t when s->narrow, else int64_t). */
void pt_auction_convert(const pt_assign_problem *p, const pt_auction_scaling *s, int first, int count,
                        void *dst, int threads);
/* The same rows unscaled, as uint16_t (only when s->compact): a quarter of
 * the 64-bit bytes, so the GPU keeps a 4096 x 4096 matrix in its L2 cache. */
void pt_auction_convert_compact(const pt_assign_problem *p, const pt_auction_scaling *s, int first, int count,
                                uint16_t *dst, int threads);

/* Both steps into a new buffer; threads as for pt_auction_scale. */
pt_status pt_auction_benefits_make(const pt_assign_problem *p, pt_auction_benefits *b, int threads,
                                   pt_error *err);
void pt_auction_benefits_free(pt_auction_benefits *b);
/* Epsilon is divided by this after each phase (the GPU kernel uses it too). */
#define PT_AUCTION_EPS_FACTOR 8
/* Next epsilon of the scaling schedule; returns 0 after the epsilon = 1 phase. */
int64_t pt_auction_next_eps(int64_t eps);
/* One bid of person (dummies included): the best object for it at these
 * prices and the price it offers (best - second best value + eps). */
int pt_auction_bid(const pt_auction_benefits *b, const int64_t *prices, int person, int64_t eps,
                   int64_t *bid_price);
/* Problems with at least this many percent more objects than persons are
 * solved by shortest augmenting paths instead of the auction, on every back
 * end (the dummy persons' price war costs seconds there). */
#define PT_AUCTION_PATHS_MIN_SPARE_PERCENT 4
int pt_auction_prefers_paths(int persons, int objects);
/* Successive shortest augmenting paths on b from an empty assignment, no
 * dummy persons (lib/assign/auction_paths.c): an optimal object_of_person
 * (persons entries) for the benefits. threads: the team for each search
 * step's scan of the objects (0 = all cores, 1 = this thread). */
pt_status pt_auction_paths(const pt_auction_benefits *b, int threads, int *object_of_person, pt_error *err);
/* Fill res from object_of_person (objects indices, dummies ignored). */
void pt_auction_result_fill(const pt_assign_problem *p, const pt_auction_benefits *b,
                            const int *object_of_person, pt_assign_result *res);

#ifdef __cplusplus
}
#endif

#endif
