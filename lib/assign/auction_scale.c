/* The integer benefit form of an assignment problem shared by the auctions:
 * one pass finds the range and the scale (pt_auction_scale), a second writes
 * any run of benefit rows (pt_auction_convert), so the GPU back end can
 * convert a chunk into a staging buffer while the previous one uploads.
 * For integer costs in 0..65535 the GPU back end needs only one pass:
 * pt_auction_convert_raw16 writes the costs as they are and their range,
 * and pt_auction_scale_range gives the scaling from that range. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "lib/assign/assign.h"

/* Problems with fewer entries are converted by one thread. */
#define PARALLEL_ENTRIES (1L << 18)

/* Scaled benefits stay below 2^40 so prices and a bidder id fit one 64-bit word. */
#define BENEFIT_LIMIT 1099511627776.0

static int team_size(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

/* The range pass has no branch and no libm call (floor() is one at -O2
 * without SSE4.1, and no -march is given): it runs over LANES independent
 * running minima, maxima and sums, which the compiler turns into SSE2
 * minpd/maxpd/addpd, several entries an instruction. */
#define LANES 16

/* Entries per block: a thread team splits the range pass by blocks. */
#define RANGE_BLOCK 16384L

/* 1.5 * 2^52: c + ROUNDER lies in [2^52, 2^53] for |c| <= 2^51, where
 * doubles are the integers, so (c + ROUNDER) - ROUNDER is an integer near c
 * (in any rounding mode) and equals c exactly when c is an integer. */
#define ROUNDER 6755399441055744.0
#define ROUNDER_RANGE 2251799813685248.0 /* 2^51 */

typedef struct {
    double lo, hi; /* least and largest cost */
    /* Sum of |c - (c + ROUNDER - ROUNDER)|: 0 when every entry is an integer,
     * NaN when one is not finite (inf - inf), else > 0 (a fraction, or an
     * entry beyond ROUNDER_RANGE that needs a closer look). */
    double off;
} range_acc;

static const range_acc range_start = {INFINITY, -INFINITY, 0.0};

/* Distance of c to the integer ROUNDER gives it; needs doubles evaluated as
 * doubles (FLT_EVAL_METHOD 0: x86-64 SSE2, AArch64); x87 keeps floor(). */
static inline double rounding_off(double c)
{
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    return fabs(((c + ROUNDER) - ROUNDER) - c);
#else
    return c - floor(c);
#endif
}

/* Entries [begin, end) of cost, merged into acc. */
static void range_block(const double *cost, long begin, long end, range_acc *acc)
{
    double lo[LANES], hi[LANES], off[LANES];
    for (int j = 0; j < LANES; j++) {
        lo[j] = acc->lo;
        hi[j] = acc->hi;
        off[j] = 0.0;
    }
    long k = begin;
    for (; k + LANES <= end; k += LANES) {
#pragma omp simd
        for (int j = 0; j < LANES; j++) {
            double c = cost[k + j];
            lo[j] = c < lo[j] ? c : lo[j];
            hi[j] = c > hi[j] ? c : hi[j];
            off[j] += rounding_off(c);
        }
    }
    for (; k < end; k++) {
        double c = cost[k];
        lo[0] = c < lo[0] ? c : lo[0];
        hi[0] = c > hi[0] ? c : hi[0];
        off[0] += rounding_off(c);
    }
    for (int j = 0; j < LANES; j++) {
        acc->lo = lo[j] < acc->lo ? lo[j] : acc->lo;
        acc->hi = hi[j] > acc->hi ? hi[j] : acc->hi;
        acc->off += off[j];
    }
}

/* Only after the range pass found one: the first entry that is not finite. */
static long first_not_finite(const double *cost, long entries)
{
    long k = 0;
    while (k < entries && isfinite(cost[k]))
        k++;
    return k;
}

/* Only when an entry lies beyond ROUNDER_RANGE: the integer test by floor(). */
static int all_integers(const double *cost, long entries)
{
    for (long k = 0; k < entries; k++)
        if (cost[k] != floor(cost[k]))
            return 0;
    return 1;
}

pt_status pt_auction_scale(const pt_assign_problem *p, int threads, pt_auction_scaling *s, pt_error *err)
{
    memset(s, 0, sizeof *s);
    if (!p->cost || p->rows <= 0 || p->cols <= 0)
        return pt_error_set(err, PT_ERR_PARAM, "", "empty assignment problem");
    long entries = (long)p->rows * p->cols;
    int team = team_size(threads);
    range_acc acc = range_start;
    /* Independent per entry: a team of threads for large problems (threads =
     * 1: the sequential baseline stays sequential). Small problems skip the
     * OpenMP runtime altogether: the tracker solves thousands a frame. */
    if (team > 1 && entries >= PARALLEL_ENTRIES) {
        long blocks = (entries + RANGE_BLOCK - 1) / RANGE_BLOCK;
        double least = INFINITY, largest = -INFINITY, off = 0.0;
        /* Dynamic: on a busy host one preempted thread does not hold up the team. */
#pragma omp parallel for num_threads(team) schedule(dynamic) reduction(min : least) reduction(max : largest) \
    reduction(+ : off)
        for (long b = 0; b < blocks; b++) {
            range_acc part = range_start;
            range_block(p->cost, b * RANGE_BLOCK, b + 1 < blocks ? (b + 1) * RANGE_BLOCK : entries, &part);
            least = part.lo < least ? part.lo : least;
            largest = part.hi > largest ? part.hi : largest;
            off += part.off;
        }
        acc = (range_acc){least, largest, off};
    } else {
        range_block(p->cost, 0, entries, &acc);
    }
    if (isnan(acc.off))
        return pt_error_set(err, PT_ERR_PARAM, "", "cost matrix entry %ld is not finite",
                            first_not_finite(p->cost, entries));
    int integer = acc.off == 0.0;
    if (!integer && (acc.lo <= -ROUNDER_RANGE || acc.hi >= ROUNDER_RANGE))
        integer = all_integers(p->cost, entries);
    return pt_auction_scale_range(p, acc.lo, acc.hi, integer, s, err);
}

pt_status pt_auction_scale_range(const pt_assign_problem *p, double least, double largest, int integer,
                                 pt_auction_scaling *s, pt_error *err)
{
    memset(s, 0, sizeof *s);
    s->transposed = p->rows > p->cols;
    s->persons = s->transposed ? p->cols : p->rows;
    s->objects = s->transposed ? p->rows : p->cols;
    double sign = p->maximize ? 1.0 : -1.0;
    /* The range of sign * cost: negating is exact. */
    double lo = sign > 0 ? least : -largest, hi = sign > 0 ? largest : -least;
    /* Scaling by (objects + 1) and ending at eps = 1 makes the result optimal
     * for integer benefits; other costs are quantised to 1/quantum first. */
    double scale = (double)s->objects + 1.0, range = hi - lo, quantum = 1.0;
    /* Costs more than DBL_MAX apart have no double range to scale. */
    if (!isfinite(range))
        return pt_error_set(err, PT_ERR_PARAM, "", "cost matrix range %g .. %g is too wide", least, largest);
    if ((!integer || range * scale > BENEFIT_LIMIT) && range > 0) {
        if (isfinite(range * scale))
            quantum = exp2(floor(log2(BENEFIT_LIMIT / (range * scale))));
        else /* the logarithms apart: a quantum of 0 would make every benefit 0 */
            quantum = exp2(floor(log2(BENEFIT_LIMIT / scale) - log2(range)));
    }
    s->sign = sign;
    s->lo = lo;
    s->quantum = quantum;
    s->scale = (int64_t)s->objects + 1;
    /* The largest entry is the one at hi: it decides the width before filling. */
    s->max_benefit = (int64_t)floor(range * quantum + 0.5) * s->scale;
    s->narrow = s->max_benefit <= INT32_MAX;
    s->compact = s->max_benefit / s->scale <= UINT16_MAX;
    /* About a quarter of the unscaled cost range: measured on uniform and
     * tracking-like problems of n = 2000..4096, this and a factor of 8 per
     * phase need 1.8x (uniform) to 3x (tracking) fewer bids than starting at
     * a eighth of the scaled range and dividing by 6. */
    int64_t start = s->max_benefit / (4 * (int64_t)s->objects);
    s->eps_start = start > 1 ? start : 1;
    return PT_OK;
}

/* The scaling's numbers in locals: stores through the output (int64_t may
 * alias s->scale) then need no reloads, and the loops vectorise. */
typedef struct {
    double sign, lo, quantum, scale;
} benefit_form;

static benefit_form form_of(const pt_auction_scaling *s)
{
    return (benefit_form){s->sign, s->lo, s->quantum, (double)s->scale};
}

/* The unscaled benefit is the floor of this value, which is at least 0.5
 * (sign * cost >= lo) and below 2^40 (range * quantum * scale is about
 * BENEFIT_LIMIT at most, scale >= 2): a truncating cast is floor() there and
 * never overflows, and the unscaled benefit times the scale is exact in a
 * double. No libm call: floor() is one at -O2 without SSE4.1. */
static inline double unscaled_real(const benefit_form *f, double cost)
{
    return (f->sign * cost - f->lo) * f->quantum + 0.5;
}

/* n benefits from consecutive costs: loops OpenMP simd vectorises (-O2's
 * cost model leaves loops of unknown length alone). */
static void run32(const benefit_form *form, const double *src, int n, int32_t *out)
{
    benefit_form f = *form;
#pragma omp simd
    for (int k = 0; k < n; k++)
        out[k] = (int32_t)((double)(int32_t)unscaled_real(&f, src[k]) * f.scale);
}

static void run64(const benefit_form *form, const double *src, int n, int64_t *out)
{
    benefit_form f = *form;
    int64_t scale = (int64_t)f.scale;
#pragma omp simd
    for (int k = 0; k < n; k++)
        out[k] = (int64_t)unscaled_real(&f, src[k]) * scale;
}

static void run16(const benefit_form *form, const double *src, int n, uint16_t *out)
{
    benefit_form f = *form;
#pragma omp simd
    for (int k = 0; k < n; k++)
        out[k] = (uint16_t)(int32_t)unscaled_real(&f, src[k]);
}

/* The three output forms of a conversion. */
typedef enum { OUT_INT64, OUT_INT32, OUT_UINT16 } out_kind;

static size_t out_width(out_kind kind)
{
    return kind == OUT_INT64 ? sizeof(int64_t) : kind == OUT_INT32 ? sizeof(int32_t) : sizeof(uint16_t);
}

static void run(out_kind kind, const benefit_form *f, const double *src, int n, void *out)
{
    if (kind == OUT_INT64)
        run64(f, src, n, out);
    else if (kind == OUT_INT32)
        run32(f, src, n, out);
    else
        run16(f, src, n, out);
}

/* Persons as the problem's rows: benefit row i of the chunk is cost row first + i. */
static void convert_row(const pt_assign_problem *p, out_kind kind, const benefit_form *f, int first, int i,
                        void *dst)
{
    run(kind, f, p->cost + (size_t)(first + i) * p->cols, p->cols,
        (char *)dst + (size_t)i * p->cols * out_width(kind));
}

/* Persons as the problem's columns: tiles of TILE_ROWS cost rows by
 * TILE_PERSONS persons, converted a cost row at a time (contiguous reads)
 * and written out transposed, TILE_ROWS adjacent entries of each benefit
 * row (rather than one entry a cost row, each a page apart). */
#define TILE_ROWS 16
#define TILE_PERSONS 64

typedef union {
    int64_t i64[TILE_ROWS * TILE_PERSONS];
    int32_t i32[TILE_ROWS * TILE_PERSONS];
    uint16_t u16[TILE_ROWS * TILE_PERSONS];
} benefit_tile;

/* Tile entry (t, i) to benefit row i0 + i, entry r + t (objects per row). */
static void tile_out(out_kind kind, const benefit_tile *tile, int rows, int persons, void *dst, int i0, int r,
                     int objects)
{
    for (int i = 0; i < persons; i++) {
        size_t at = (size_t)(i0 + i) * objects + r;
        if (kind == OUT_INT64)
            for (int t = 0; t < rows; t++)
                ((int64_t *)dst)[at + t] = tile->i64[t * TILE_PERSONS + i];
        else if (kind == OUT_INT32)
            for (int t = 0; t < rows; t++)
                ((int32_t *)dst)[at + t] = tile->i32[t * TILE_PERSONS + i];
        else
            for (int t = 0; t < rows; t++)
                ((uint16_t *)dst)[at + t] = tile->u16[t * TILE_PERSONS + i];
    }
}

/* Cost rows [r, r + TILE_ROWS) of the chunk's persons. */
static void convert_cost_rows(const pt_assign_problem *p, out_kind kind, const benefit_form *f, int first,
                              int count, int r, void *dst)
{
    int rows = p->rows - r < TILE_ROWS ? p->rows - r : TILE_ROWS;
    size_t width = out_width(kind);
    benefit_tile tile;
    for (int i0 = 0; i0 < count; i0 += TILE_PERSONS) {
        int persons = count - i0 < TILE_PERSONS ? count - i0 : TILE_PERSONS;
        for (int t = 0; t < rows; t++)
            run(kind, f, p->cost + (size_t)(r + t) * p->cols + first + i0, persons,
                (char *)&tile + (size_t)t * TILE_PERSONS * width);
        tile_out(kind, &tile, rows, persons, dst, i0, r, p->rows);
    }
}

static void convert(const pt_assign_problem *p, const pt_auction_scaling *s, out_kind kind, int first, int count,
                    void *dst, int threads)
{
    benefit_form f = form_of(s);
    int team = team_size(threads);
    int parallel = team > 1 && (long)count * s->objects >= PARALLEL_ENTRIES;
    /* Dynamic as in pt_auction_scale. */
    if (!s->transposed && parallel) {
#pragma omp parallel for num_threads(team) schedule(dynamic, 8)
        for (int i = 0; i < count; i++)
            convert_row(p, kind, &f, first, i, dst);
    } else if (!s->transposed) {
        for (int i = 0; i < count; i++)
            convert_row(p, kind, &f, first, i, dst);
    } else if (parallel) {
#pragma omp parallel for num_threads(team) schedule(dynamic)
        for (int r = 0; r < p->rows; r += TILE_ROWS)
            convert_cost_rows(p, kind, &f, first, count, r, dst);
    } else {
        for (int r = 0; r < p->rows; r += TILE_ROWS)
            convert_cost_rows(p, kind, &f, first, count, r, dst);
    }
}

int pt_auction_convert_raw16(const pt_assign_problem *p, int first, int count, uint16_t *dst, double *least,
                             double *largest)
{
    const long entries = (long)count * p->cols;
    const double *src = p->cost + (size_t)first * p->cols;
    double lo = *least, hi = *largest;
    int bad = 0;
    /* Branch-free, so it vectorises: a misfit entry is written as 0 and
     * only counted (the caller drops the rows). */
#pragma omp simd reduction(min : lo) reduction(max : hi) reduction(| : bad)
    for (long k = 0; k < entries; k++) {
        double c = src[k];
        int fits = c >= 0.0 && c <= 65535.0 && rounding_off(c) == 0.0; /* NaN fails every test */
        double v = fits ? c : 0.0;
        bad |= !fits;
        dst[k] = (uint16_t)(int32_t)v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    *least = lo;
    *largest = hi;
    return !bad;
}

void pt_auction_convert(const pt_assign_problem *p, const pt_auction_scaling *s, int first, int count,
                        void *dst, int threads)
{
    convert(p, s, s->narrow ? OUT_INT32 : OUT_INT64, first, count, dst, threads);
}

void pt_auction_convert_compact(const pt_assign_problem *p, const pt_auction_scaling *s, int first, int count,
                                uint16_t *dst, int threads)
{
    convert(p, s, OUT_UINT16, first, count, dst, threads);
}

pt_status pt_auction_benefits_make(const pt_assign_problem *p, pt_auction_benefits *b, int threads,
                                   pt_error *err)
{
    memset(b, 0, sizeof *b);
    pt_auction_scaling s;
    pt_status st = pt_auction_scale(p, threads, &s, err);
    if (st)
        return st;
    size_t entries = (size_t)s.persons * (size_t)s.objects;
    void *dst = malloc((s.narrow ? sizeof(int32_t) : sizeof(int64_t)) * entries);
    if (!dst)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %dx%d auction benefits", s.persons,
                            s.objects);
    pt_auction_convert(p, &s, 0, s.persons, dst, threads);
    if (s.narrow)
        b->benefit32 = dst;
    else
        b->benefit = dst;
    b->persons = s.persons;
    b->objects = s.objects;
    b->transposed = s.transposed;
    b->max_benefit = s.max_benefit;
    b->eps_start = s.eps_start;
    return PT_OK;
}

void pt_auction_benefits_free(pt_auction_benefits *b)
{
    free(b->benefit);
    free(b->benefit32);
    memset(b, 0, sizeof *b);
}
