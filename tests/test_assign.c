/* Assignment solvers: every auction back end reaches the exact solver's
 * optimal total on random integer problems; tiny hand-checked cases; bad CSVs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/assign/assign.h"
#include "omp/assign/auction_omp.h"
#include "tests/pt_test.h"

typedef pt_status (*solver_fn)(const pt_assign_problem *, pt_assign_result *, pt_error *);

static pt_status omp_two_threads(const pt_assign_problem *p, pt_assign_result *r, pt_error *e)
{
    return pt_assign_auction_omp(p, 2, r, e);
}

static pt_status omp_four_threads(const pt_assign_problem *p, pt_assign_result *r, pt_error *e)
{
    return pt_assign_auction_omp(p, 4, r, e);
}

static const struct {
    const char *name;
    solver_fn solve;
} backends[] = {{"seq", pt_assign_auction}, {"omp2", omp_two_threads}, {"omp4", omp_four_threads}};

static double solve_total(solver_fn solve, const pt_assign_problem *p, int *ok)
{
    pt_assign_result r;
    pt_error err;
    pt_error_clear(&err);
    *ok = 0;
    if (pt_assign_result_alloc(&r, p->rows, &err))
        return NAN;
    if (solve(p, &r, &err) == PT_OK && pt_assign_is_complete(p, r.col_of_row) &&
        r.total == pt_assign_total(p, r.col_of_row))
        *ok = 1;
    else if (err.what[0])
        fprintf(stderr, "solver error: %s\n", err.what);
    double total = r.total;
    pt_assign_result_free(&r);
    return total;
}

/* Every back end equals the exact total on random problems of many shapes. */
static void test_random_problems(void)
{
    int problems = 0, mismatches = 0;
    for (int k = 0; k < 240; k++) {
        int rows, cols;
        if (k < 200) {
            rows = 1 + (int)((k * 37u) % 48);
            cols = (k % 3 == 0) ? rows : 1 + (int)((k * 53u) % 48);
        } else if (k < 232) {
            rows = 64 + (k % 4) * 40;
            cols = (k % 2) ? rows : rows + 17 - (k % 5) * 13;
        } else if (k < 236) {
            rows = 256;
            cols = (k % 2) ? 256 : 300;
        } else {
            rows = 512;
            cols = (k % 2) ? 512 : 480;
        }
        pt_assign_dist dist = (k & 4) ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM;
        long range = (k % 5 == 0) ? 1001 : 0;
        pt_assign_problem p;
        pt_error err;
        if (pt_assign_random(&p, rows, cols, dist, range, 1000 + (uint64_t)k, &err)) {
            PT_CHECK(0, "generate: %s", err.what);
            continue;
        }
        p.maximize = (k & 1);
        int ok;
        double exact = solve_total(pt_assign_exact, &p, &ok);
        PT_CHECK(ok, "exact solver on problem %d (%dx%d)", k, rows, cols);
        for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
            double total = solve_total(backends[b].solve, &p, &ok);
            if (!ok || total != exact) {
                mismatches++;
                fprintf(stderr, "problem %d %dx%d %s %s: %s total %.0f, exact %.0f\n", k, rows, cols,
                        dist ? "tracking" : "uniform", p.maximize ? "max" : "min", backends[b].name, total,
                        exact);
            }
        }
        problems++;
        pt_assign_problem_free(&p);
    }
    PT_CHECK(problems == 240, "generated %d of 240 problems", problems);
    PT_CHECK(mismatches == 0, "%d back-end totals differ from the exact solver", mismatches);
}

/* Costs up to 2^30 need 64-bit benefits (after scaling by n + 1). */
static void test_wide_costs(void)
{
    int mismatches = 0;
    for (int k = 0; k < 6; k++) {
        int rows = 150 + 40 * k, cols = rows + (k % 3 - 1) * 30;
        pt_assign_problem p;
        pt_error err;
        pt_auction_benefits b;
        pt_assign_random(&p, rows, cols, PT_ASSIGN_UNIFORM, 1L << 30, 300 + (uint64_t)k, &err);
        p.maximize = k & 1;
        PT_CHECK(pt_auction_benefits_make(&p, &b, 1, &err) == PT_OK && b.benefit && !b.benefit32,
                 "range 2^30 uses 64-bit benefits");
        pt_auction_benefits_free(&b);
        int ok;
        double exact = solve_total(pt_assign_exact, &p, &ok);
        for (size_t s = 0; s < sizeof backends / sizeof backends[0]; s++)
            if (solve_total(backends[s].solve, &p, &ok) != exact || !ok) {
                mismatches++;
                fprintf(stderr, "wide %dx%d %s differs from exact\n", rows, cols, backends[s].name);
            }
        pt_assign_problem_free(&p);
    }
    PT_CHECK(mismatches == 0, "%d wide-cost totals differ from the exact solver", mismatches);
}

/* The benefits converted by a thread team equal those of one thread, for
 * problems large enough to be split (32- and 64-bit, tall and wide), and a
 * non-finite entry is named by its first index either way. */
static void test_parallel_conversion(void)
{
    const int shapes[3][2] = {{700, 700}, {900, 620}, {610, 800}};
    for (int k = 0; k < 3; k++) {
        pt_assign_problem p;
        pt_error err;
        pt_assign_random(&p, shapes[k][0], shapes[k][1], PT_ASSIGN_UNIFORM,
                         k == 2 ? 1L << 30 : 1000, 40 + (uint64_t)k, &err);
        p.maximize = k & 1;
        pt_auction_benefits one, team;
        PT_CHECK(pt_auction_benefits_make(&p, &one, 1, &err) == PT_OK, "one thread");
        PT_CHECK(pt_auction_benefits_make(&p, &team, 0, &err) == PT_OK, "thread team");
        size_t entries = (size_t)one.persons * one.objects;
        int same = one.persons == team.persons && one.objects == team.objects &&
                   one.transposed == team.transposed && one.max_benefit == team.max_benefit &&
                   one.eps_start == team.eps_start && !one.benefit32 == !team.benefit32;
        if (same)
            same = one.benefit32 ? !memcmp(one.benefit32, team.benefit32, entries * sizeof(int32_t))
                                 : !memcmp(one.benefit, team.benefit, entries * sizeof(int64_t));
        PT_CHECK(same, "%dx%d: thread team's benefits differ", shapes[k][0], shapes[k][1]);
        pt_auction_benefits_free(&one);
        pt_auction_benefits_free(&team);
        p.cost[123457] = NAN;
        p.cost[400000] = INFINITY;
        PT_CHECK(pt_auction_benefits_make(&p, &team, 0, &err) == PT_ERR_PARAM &&
                     strstr(err.what, "entry 123457 "),
                 "first non-finite entry named (%s)", err.what);
        pt_assign_problem_free(&p);
    }
}

/* 3x3 whose optimum needs every row off its row minimum; brute force by hand. */
static void test_hand_checked(void)
{
    double cost3[] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    pt_assign_problem p = {3, 3, cost3, 0};
    /* Min: (0,1)=1 + (1,0)=2 + (2,2)=2 = 5. Max: (0,0)=4 + (1,2)=5 + (2,1)=2 = 11. */
    solver_fn all[] = {pt_assign_exact, pt_assign_auction, omp_two_threads};
    for (int s = 0; s < 3; s++) {
        int ok;
        p.maximize = 0;
        PT_CHECK(solve_total(all[s], &p, &ok) == 5.0 && ok, "3x3 min total 5 (solver %d)", s);
        p.maximize = 1;
        PT_CHECK(solve_total(all[s], &p, &ok) == 11.0 && ok, "3x3 max total 11 (solver %d)", s);
    }
    /* 2x3: rows pick distinct columns; min = 1 + 2 = 3 using columns 2 and 0. */
    double cost23[] = {5, 9, 1, 2, 4, 1};
    pt_assign_problem q = {2, 3, cost23, 0};
    /* 3x2 is its transpose: the same optimum with one row left out. */
    double cost32[] = {5, 2, 9, 4, 1, 1};
    pt_assign_problem t = {3, 2, cost32, 0};
    for (int s = 0; s < 3; s++) {
        int ok;
        PT_CHECK(solve_total(all[s], &q, &ok) == 3.0 && ok, "2x3 min total 3 (solver %d)", s);
        PT_CHECK(solve_total(all[s], &t, &ok) == 3.0 && ok, "3x2 min total 3 (solver %d)", s);
    }
    /* Non-integer costs are quantised finely enough for a clear optimum. */
    double costf[] = {0.25, 0.5, 0.75, 0.1};
    pt_assign_problem f = {2, 2, costf, 0};
    int ok;
    PT_CHECK(fabs(solve_total(pt_assign_auction, &f, &ok) - 0.35) < 1e-12 && ok, "real 2x2 min 0.35");
    double one = 7;
    pt_assign_problem single = {1, 1, &one, 1};
    PT_CHECK(solve_total(omp_two_threads, &single, &ok) == 7.0 && ok, "1x1 problem");
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    fclose(f);
    return 1;
}

/* Loader: good matrices parse; each kind of bad file names its line. */
static void test_csv(void)
{
    char dir[] = "/tmp/pt-assign-XXXXXX";
    if (!mkdtemp(dir)) {
        PT_CHECK(0, "mkdtemp");
        return;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/m.csv", dir);
    pt_assign_problem p;
    pt_error err;
    write_file(path, "1, 2,3\r\n4,5.5,-6\n\n");
    PT_CHECK(pt_assign_load_csv(path, &p, &err) == PT_OK && p.rows == 2 && p.cols == 3 &&
                 p.cost[4] == 5.5 && p.cost[5] == -6,
             "good CSV parses as 2x3");
    pt_assign_problem_free(&p);
    static const struct {
        const char *text, *expect;
    } bad[] = {
        {"1,2\n3,x\n", "line 2, cell 2: not a number"},
        {"1,2,3\n4,5\n", "line 2: ragged row"},
        {"1,nan\n", "line 1, cell 2: NaN"},
        {"inf,1\n", "line 1, cell 1: NaN or infinite"},
        {"1,,2\n", "line 1, cell 2: empty cell"},
        {"", "empty file"},
        {"1,2\n\n3,4\n", "line 2: empty line"},
        {"1,2 3\n", "line 1, cell 2: not a number"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_file(path, bad[k].text);
        pt_status st = pt_assign_load_csv(path, &p, &err);
        PT_CHECK(st == PT_ERR_FORMAT && strstr(err.what, bad[k].expect) && !strcmp(err.file, path),
                 "bad CSV %zu: got '%s', want '%s'", k, err.what, bad[k].expect);
    }
    snprintf(path, sizeof path, "%s/missing.csv", dir);
    PT_CHECK(pt_assign_load_csv(path, &p, &err) == PT_ERR_IO, "missing file is an I/O error");
    snprintf(path, sizeof path, "%s/m.csv", dir);
    unlink(path);
    rmdir(dir);
}

/* The generator is deterministic in its seed. */
static void test_generator(void)
{
    pt_assign_problem a, b, c;
    pt_error err;
    pt_assign_random(&a, 20, 30, PT_ASSIGN_TRACKING, 0, 7, &err);
    pt_assign_random(&b, 20, 30, PT_ASSIGN_TRACKING, 0, 7, &err);
    pt_assign_random(&c, 20, 30, PT_ASSIGN_TRACKING, 0, 8, &err);
    PT_CHECK(!memcmp(a.cost, b.cost, sizeof(double) * 600), "same seed, same problem");
    PT_CHECK(memcmp(a.cost, c.cost, sizeof(double) * 600), "other seed, other problem");
    PT_CHECK(pt_assign_is_integer(&a), "tracking costs are integers");
    pt_assign_problem_free(&a);
    pt_assign_problem_free(&b);
    pt_assign_problem_free(&c);
}

/* Benefit rows converted a chunk at a time (as the GPU back end stages them)
 * equal the whole conversion: 32- and 64-bit, persons as rows or as columns. */
static void test_chunked_conversion(void)
{
    const int shapes[4][2] = {{300, 310}, {330, 250}, {260, 300}, {310, 240}};
    for (int k = 0; k < 4; k++) {
        pt_assign_problem p;
        pt_error err;
        pt_assign_random(&p, shapes[k][0], shapes[k][1], PT_ASSIGN_UNIFORM, k >= 2 ? 1L << 30 : 500,
                         60 + (uint64_t)k, &err);
        p.maximize = k & 1;
        pt_auction_benefits whole;
        pt_auction_scaling s;
        PT_CHECK(pt_auction_benefits_make(&p, &whole, 1, &err) == PT_OK && pt_auction_scale(&p, 0, &s, &err) == PT_OK,
                 "benefits and scaling");
        size_t width = s.narrow ? sizeof(int32_t) : sizeof(int64_t), row = width * (size_t)s.objects;
        char *chunks = malloc(row * (size_t)s.persons);
        /* Uneven chunks: 1, 2, 3, ... rows, the last one cut short. */
        for (int first = 0, count = 1; chunks && first < s.persons; first += count, count++) {
            int rows = s.persons - first < count ? s.persons - first : count;
            pt_auction_convert(&p, &s, first, rows, chunks + (size_t)first * row, 0);
        }
        const void *expect = s.narrow ? (const void *)whole.benefit32 : (const void *)whole.benefit;
        PT_CHECK(chunks && expect && s.narrow == (whole.benefit32 != NULL) && s.transposed == (k % 2 == 1) &&
                     !memcmp(chunks, expect, row * (size_t)s.persons),
                 "%dx%d: chunked conversion equals the whole", shapes[k][0], shapes[k][1]);
        /* Unscaled 16-bit rows times the scale are the same benefits. */
        PT_CHECK(s.compact == (k < 2), "%dx%d: 16-bit rows exactly when the range fits", shapes[k][0], shapes[k][1]);
        uint16_t *compact = s.compact ? malloc(sizeof(uint16_t) * (size_t)s.persons * s.objects) : NULL;
        int same = compact != NULL;
        for (int first = 0, count = 1; compact && first < s.persons; first += count, count++) {
            int rows = s.persons - first < count ? s.persons - first : count;
            pt_auction_convert_compact(&p, &s, first, rows, compact + (size_t)first * s.objects, 0);
        }
        for (size_t e = 0; same && e < (size_t)s.persons * s.objects; e++)
            same = (int64_t)compact[e] * s.scale == (int64_t)whole.benefit32[e];
        PT_CHECK(!s.compact || same, "%dx%d: 16-bit rows times the scale equal the benefits", shapes[k][0],
                 shapes[k][1]);
        free(compact);
        free(chunks);
        pt_auction_benefits_free(&whole);
        pt_assign_problem_free(&p);
    }
}

/* The range pass's integer test and its non-finite flag at their edges:
 * integers beyond 2^51 (checked entry by entry), half-integers just above
 * 2^51, a subnormal fraction, and the first non-finite entry of a problem
 * too small for a thread team, in the pass's tail. */
static void test_scaling_edges(void)
{
    double cost[35];
    pt_assign_problem p = {5, 7, cost, 0};
    pt_auction_scaling s;
    pt_error err;
    for (int mode = 0; mode < 4; mode++) {
        for (int k = 0; k < 35; k++) {
            double huge = 4503599627370496.0 + (k * 7919) % 35; /* 2^52 + 0..34 */
            cost[k] = mode == 0 ? huge : mode == 1 ? -huge : 2251799813685248.0 + ((k * 13) % 35) / 2.0;
            if (mode == 3)
                cost[k] = (k * 29) % 35;
        }
        if (mode == 3)
            cost[20] = 4.9406564584124654e-324;
        for (int maximize = 0; maximize < 2; maximize++) {
            p.maximize = maximize;
            PT_CHECK(pt_auction_scale(&p, 1, &s, &err) == PT_OK, "mode %d: scaled", mode);
            /* Integers of range 34 keep quantum 1; fractions get a finer one. */
            PT_CHECK(mode < 2 ? s.quantum == 1.0 && s.max_benefit == 34 * s.scale : s.quantum > 1.0,
                     "mode %d max %d: quantum %g", mode, maximize, s.quantum);
        }
    }
    for (int k = 0; k < 35; k++)
        cost[k] = k;
    cost[33] = NAN;
    cost[34] = INFINITY;
    PT_CHECK(pt_auction_scale(&p, 1, &s, &err) == PT_ERR_PARAM && strstr(err.what, "entry 33 "),
             "first non-finite entry of a small problem named (%s)", err.what);
    cost[33] = 3;
    cost[2] = -INFINITY;
    PT_CHECK(pt_auction_scale(&p, 1, &s, &err) == PT_ERR_PARAM && strstr(err.what, "entry 2 "),
             "an infinite entry named (%s)", err.what);
}

/* Costs whose range times (objects + 1) overflows a double still get a
 * quantum (not 0, which made every benefit 0 and any assignment "optimal");
 * costs more than DBL_MAX apart are refused. */
static void test_huge_ranges(void)
{
    double cost[9] = {1e308, -1e307, 0, -1e307, 1e308, 5, 3, 2, 1};
    pt_assign_problem p = {3, 3, cost, 0};
    int ok;
    double exact = solve_total(pt_assign_exact, &p, &ok);
    PT_CHECK(ok && exact == -2e307, "exact solver on huge costs (%g)", exact);
    for (size_t s = 0; s < sizeof backends / sizeof backends[0]; s++)
        PT_CHECK(solve_total(backends[s].solve, &p, &ok) == exact && ok, "%s on a range near DBL_MAX",
                 backends[s].name);
    cost[1] = -1.7e308;
    pt_auction_scaling scaling;
    pt_error err;
    PT_CHECK(pt_auction_scale(&p, 1, &scaling, &err) == PT_ERR_PARAM && strstr(err.what, "too wide"),
             "a range beyond DBL_MAX refused (%s)", err.what);
}

/* Every converted benefit equals its definition, floor((sign * cost - lo) *
 * quantum + 0.5) * scale, computed here with floor(): integer and fractional
 * costs, negative ones, 16-, 32- and 64-bit forms, persons as rows or as
 * columns, one thread and a team. */
static void test_conversion_definition(void)
{
    const int shapes[4][2] = {{37, 530}, {530, 37}, {600, 610}, {640, 590}};
    int bad = 0, forms[3] = {0, 0, 0};
    for (int k = 0; k < 16; k++) {
        const int *shape = shapes[k % 4];
        pt_assign_problem p;
        pt_error err;
        pt_assign_random(&p, shape[0], shape[1], k % 3 ? PT_ASSIGN_UNIFORM : PT_ASSIGN_TRACKING,
                         k % 8 < 3 ? 5000 : k % 8 < 6 ? 200000 : 1L << 30, 500 + (uint64_t)k, &err);
        long entries = (long)p.rows * p.cols;
        for (long e = 0; e < entries; e++)
            p.cost[e] = k % 4 == 1 ? p.cost[e] / 7.0 - 300.0 : k % 4 == 2 ? -p.cost[e] : p.cost[e];
        p.maximize = (k / 2) & 1;
        pt_auction_scaling s;
        PT_CHECK(pt_auction_scale(&p, k & 1 ? 0 : 1, &s, &err) == PT_OK, "problem %d scaled", k);
        size_t n = (size_t)s.persons * s.objects;
        int64_t *wide = malloc(sizeof(int64_t) * n);
        uint16_t *compact = malloc(sizeof(uint16_t) * n);
        if (!wide || !compact) {
            PT_CHECK(0, "out of memory");
            break;
        }
        pt_auction_convert(&p, &s, 0, s.persons, wide, k & 1 ? 0 : 1);
        if (s.compact)
            pt_auction_convert_compact(&p, &s, 0, s.persons, compact, k & 1 ? 0 : 1);
        forms[s.compact ? 0 : s.narrow ? 1 : 2]++;
        for (int i = 0; i < s.persons; i++)
            for (int j = 0; j < s.objects; j++) {
                double cost = s.transposed ? p.cost[(size_t)j * p.cols + i] : p.cost[(size_t)i * p.cols + j];
                int64_t unscaled = (int64_t)floor((s.sign * cost - s.lo) * s.quantum + 0.5);
                size_t at = (size_t)i * s.objects + j;
                int64_t got = s.narrow ? ((const int32_t *)wide)[at] : wide[at];
                bad += got != unscaled * s.scale || (s.compact && compact[at] != unscaled);
            }
        free(wide);
        free(compact);
        pt_assign_problem_free(&p);
    }
    PT_CHECK(bad == 0, "%d benefits differ from floor((sign * cost - lo) * quantum + 0.5) * scale", bad);
    PT_CHECK(forms[0] && forms[1] && forms[2], "16-bit (%d), 32-bit (%d) and 64-bit (%d) forms all checked",
             forms[0], forms[1], forms[2]);
}

/* The GPU upload's single pass: raw 16-bit costs and their range, the same
 * scaling as the range pass, and the entries that must send it back to the
 * two-pass form. */
static void test_raw_costs(void)
{
    for (int k = 0; k < 4; k++) {
        pt_assign_problem p;
        pt_error err;
        pt_assign_random(&p, 200 + 10 * k, 230, k & 2 ? PT_ASSIGN_TRACKING : PT_ASSIGN_UNIFORM, 65536, 90 + (uint64_t)k,
                         &err);
        p.maximize = k & 1;
        size_t entries = (size_t)p.rows * p.cols;
        uint16_t *raw = malloc(sizeof(uint16_t) * entries);
        double least = INFINITY, largest = -INFINITY, lo = INFINITY, hi = -INFINITY;
        int fits = 1, same = raw != NULL;
        /* In uneven runs of rows, as the upload's units come. */
        for (int first = 0, count = 1; raw && first < p.rows; first += count, count++) {
            int rows = p.rows - first < count ? p.rows - first : count;
            fits &= pt_auction_convert_raw16(&p, first, rows, raw + (size_t)first * p.cols, &least, &largest);
        }
        for (size_t e = 0; same && e < entries; e++) {
            same = raw[e] == (uint16_t)p.cost[e];
            lo = p.cost[e] < lo ? p.cost[e] : lo;
            hi = p.cost[e] > hi ? p.cost[e] : hi;
        }
        pt_auction_scaling a, b;
        PT_CHECK(fits && same && least == lo && largest == hi, "problem %d: raw costs and their range", k);
        PT_CHECK(pt_auction_scale(&p, 1, &a, &err) == PT_OK &&
                     pt_auction_scale_range(&p, least, largest, 1, &b, &err) == PT_OK && !memcmp(&a, &b, sizeof a),
                 "problem %d: the range gives the range pass's scaling", k);
        const double misfits[5] = {1.5, -1.0, 65536.0, NAN, INFINITY};
        for (int m = 0; m < 5; m++) {
            double keep = p.cost[entries - 3];
            p.cost[entries - 3] = misfits[m];
            least = INFINITY;
            largest = -INFINITY;
            PT_CHECK(raw && !pt_auction_convert_raw16(&p, 0, p.rows, raw, &least, &largest),
                     "problem %d: %g does not fit the raw form", k, misfits[m]);
            p.cost[entries - 3] = keep;
        }
        free(raw);
        pt_assign_problem_free(&p);
    }
}

int main(void)
{
    test_hand_checked();
    test_csv();
    test_generator();
    test_random_problems();
    test_wide_costs();
    test_parallel_conversion();
    test_chunked_conversion();
    test_scaling_edges();
    test_huge_ranges();
    test_conversion_definition();
    test_raw_costs();
    return PT_TEST_SUMMARY("assign");
}
