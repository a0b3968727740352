/* RANSAC sample table and robust circle/ellipse fits (lib/detect/ransac.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/detect/ransac.h"
#include "tests/pt_noise.h"
#include "tests/pt_test.h"

#define PI 3.14159265358979323846

static pt_test_rng rng = {0x243F6A8885A308D3ULL};

static void test_table_determinism(void)
{
    pt_ransac_table t1, t2, t3;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t1, 1000, 5, PT_RANSAC_SEED, &err) == PT_OK, "create");
    PT_CHECK(pt_ransac_table_create(&t2, 1000, 5, PT_RANSAC_SEED, &err) == PT_OK, "create again");
    PT_CHECK(pt_ransac_table_create(&t3, 1000, 5, PT_RANSAC_SEED + 1, &err) == PT_OK,
             "create other seed");
    PT_CHECK(t1.samples == 1000 && t1.sample_size == 5, "table shape");
    PT_CHECK(memcmp(t1.values, t2.values, 5000 * sizeof(uint32_t)) == 0,
             "same seed gives the same table");
    PT_CHECK(memcmp(t1.values, t3.values, 5000 * sizeof(uint32_t)) != 0,
             "another seed gives another table");
    /* pinned: xoshiro256** seeded by splitmix64(PT_RANSAC_SEED), high 32 bits;
     * checked against an independent implementation. A change here changes
     * every result of every detector. */
    const uint32_t first[8] = {0x5090810Du, 0x5ED1A2E7u, 0x6D13F573u, 0xE9AFD5D4u,
                               0x8D889B19u, 0x8B34D38Bu, 0xA46EE3E6u, 0xAD76873Cu};
    for (int k = 0; k < 8; k++)
        PT_CHECK(t1.values[k] == first[k], "value %d is 0x%08X, pinned 0x%08X", k,
                 t1.values[k], first[k]);
    /* the layout does not depend on the shape: row-major over one stream */
    pt_ransac_table t4;
    PT_CHECK(pt_ransac_table_create(&t4, 2, 4, PT_RANSAC_SEED, &err) == PT_OK, "small table");
    PT_CHECK(memcmp(t4.values, t1.values, 8 * sizeof(uint32_t)) == 0, "one stream, row-major");
    /* roughly uniform: mean of the top bit */
    int high = 0;
    for (int k = 0; k < 5000; k++)
        high += (int)(t1.values[k] >> 31);
    PT_CHECK(high > 2300 && high < 2700, "top bit set in %d of 5000", high);
    pt_ransac_table_free(&t1);
    pt_ransac_table_free(&t2);
    pt_ransac_table_free(&t3);
    pt_ransac_table_free(&t4);
    PT_CHECK(t1.values == NULL && t1.samples == 0, "free clears the table");
    pt_ransac_table_free(&t1); /* twice is harmless */
}

static void test_table_limits(void)
{
    pt_ransac_table t;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t, 0, 5, 1, &err) == PT_ERR_PARAM, "0 samples rejected");
    PT_CHECK(t.values == NULL, "no table after an error");
    PT_CHECK(pt_ransac_table_create(&t, (1 << 20) + 1, 5, 1, &err) == PT_ERR_PARAM,
             "too many samples rejected");
    PT_CHECK(pt_ransac_table_create(&t, 10, 2, 1, &err) == PT_ERR_PARAM, "sample size 2");
    PT_CHECK(strstr(err.what, "sample size") != NULL, "error names the sample size: %s", err.what);
    PT_CHECK(pt_ransac_table_create(&t, 10, 17, 1, &err) == PT_ERR_PARAM, "sample size 17");
    PT_CHECK(pt_ransac_table_create(&t, 1, 16, 1, &err) == PT_OK, "1 x 16 accepted");
    pt_ransac_table_free(&t);
    PT_CHECK(pt_ransac_table_create(&t, 1 << 20, 3, 1, &err) == PT_OK, "2^20 x 3 accepted");
    pt_ransac_table_free(&t);
}

static void test_pick(void)
{
    const int counts[] = {1, 2, 3, 7, 100, 4096, 1000000, 2147483647};
    const uint32_t values[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
    for (int ci = 0; ci < 8; ci++)
        for (int vi = 0; vi < 6; vi++) {
            int k = pt_ransac_pick(values[vi], counts[ci]);
            PT_CHECK(k >= 0 && k < counts[ci], "pick(0x%08X, %d) = %d", values[vi], counts[ci], k);
        }
    PT_CHECK(pt_ransac_pick(0u, 10) == 0, "0 picks the first");
    PT_CHECK(pt_ransac_pick(0xFFFFFFFFu, 10) == 9, "max picks the last");
    PT_CHECK(pt_ransac_pick(0x80000000u, 10) == 5, "half picks the middle");
    /* every index is reachable and about equally likely */
    int hist[7] = {0};
    for (uint32_t v = 0; v < 70000; v++)
        hist[pt_ransac_pick(v * 61357u, 7)]++;
    int lo = hist[0], hi = hist[0];
    for (int k = 1; k < 7; k++) {
        lo = hist[k] < lo ? hist[k] : lo;
        hi = hist[k] > hi ? hist[k] : hi;
    }
    PT_CHECK(lo > 9000 && hi < 11000, "pick histogram %d..%d", lo, hi);
}

static void test_sample_indices(void)
{
    const uint32_t row[6] = {0u, 0x40000000u, 0x80000000u, 0xC0000000u, 0x20000000u, 0x20000001u};
    int idx[6];
    PT_CHECK(pt_ransac_sample_indices(row, 3, 0, 100, idx) == 1, "distinct row");
    PT_CHECK(idx[0] == 0 && idx[1] == 25 && idx[2] == 50, "indices %d %d %d", idx[0], idx[1],
             idx[2]);
    PT_CHECK(pt_ransac_sample_indices(row, 3, 1, 100, idx) == 0,
             "row 1 (75, 12, 12) has a duplicate");
    PT_CHECK(pt_ransac_sample_indices(row, 3, 0, 1, idx) == 0, "one point: all duplicates");
}

/* n points, the first n_in on the circle (noise sigma), the rest uniform in a box. */
static void make_circle_data(pt_point *p, int n, int n_in, double cx, double cy, double r,
                             double sigma)
{
    for (int k = 0; k < n; k++) {
        if (k < n_in) {
            double t = 2 * PI * pt_test_uniform(&rng);
            p[k].x = (float)(cx + r * cos(t) + pt_test_gauss(&rng, sigma));
            p[k].y = (float)(cy + r * sin(t) + pt_test_gauss(&rng, sigma));
        } else {
            p[k].x = (float)(cx - 3 * r + 6 * r * pt_test_uniform(&rng));
            p[k].y = (float)(cy - 3 * r + 6 * r * pt_test_uniform(&rng));
        }
    }
    /* interleave so inliers are not all at low indices */
    for (int k = n - 1; k > 0; k--) {
        int j = (int)(pt_test_uniform(&rng) * (k + 1));
        pt_point tmp = p[k];
        p[k] = p[j];
        p[j] = tmp;
    }
}

static void test_ransac_circle_outliers(void)
{
    pt_ransac_table t;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t, 500, 3, PT_RANSAC_SEED, &err) == PT_OK, "table");
    static pt_point p[300];
    static int scratch[300];
    for (int trial = 0; trial < 10; trial++) {
        double cx = 200 + 11.3 * trial, cy = 150 - 7.1 * trial, r = 20 + 6 * trial;
        make_circle_data(p, 200, 120, cx, cy, r, 0.5);
        pt_ransac_fit fit;
        int found = pt_ransac_circle(p, 200, &t, 500, 1.5, 5, 200, scratch, &fit);
        PT_CHECK(found == 1 && fit.found == 1, "circle found (trial %d)", trial);
        double dc = hypot(fit.circle.cx - cx, fit.circle.cy - cy);
        PT_CHECK(dc < 0.3, "40%% outliers: centre off by %g (trial %d)", dc, trial);
        PT_CHECK(fabs(fit.circle.r - r) < 0.3, "40%% outliers: r off by %g", fabs(fit.circle.r - r));
        PT_CHECK(fit.votes >= 90 && fit.votes <= 200, "votes %d", fit.votes);
        PT_CHECK(fit.sample >= 0 && fit.sample < 500, "sample %d", fit.sample);
        PT_CHECK(fit.ellipse.a == fit.circle.r && fit.ellipse.b == fit.circle.r &&
                     fit.ellipse.cx == fit.circle.cx,
                 "circle result also as an ellipse");
        /* deterministic: the same call gives the same answer */
        pt_ransac_fit again;
        pt_ransac_circle(p, 200, &t, 500, 1.5, 5, 200, scratch, &again);
        PT_CHECK(again.found == fit.found && again.votes == fit.votes &&
                     again.sample == fit.sample && again.circle.cx == fit.circle.cx &&
                     again.circle.cy == fit.circle.cy && again.circle.r == fit.circle.r,
                 "repeatable");
    }
    pt_ransac_table_free(&t);
}

static void test_ransac_ellipse_outliers(void)
{
    pt_ransac_table t;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t, 2000, 5, PT_RANSAC_SEED, &err) == PT_OK, "table");
    static pt_point p[300];
    static int scratch[300];
    for (int trial = 0; trial < 8; trial++) {
        double cx = 320 + 9 * trial, cy = 240 - 5 * trial, a = 30 + 5 * trial, b = 0.7 * a;
        double th = (20 + 23 * trial) % 180;
        for (int k = 0; k < 200; k++) {
            if (k < 120) {
                double s = 2 * PI * pt_test_uniform(&rng), u = a * cos(s), v = b * sin(s);
                double c = cos(th * PI / 180), sn = sin(th * PI / 180);
                p[k].x = (float)(cx + u * c - v * sn + pt_test_gauss(&rng, 0.5));
                p[k].y = (float)(cy + u * sn + v * c + pt_test_gauss(&rng, 0.5));
            } else {
                p[k].x = (float)(cx - 2 * a + 4 * a * pt_test_uniform(&rng));
                p[k].y = (float)(cy - 2 * a + 4 * a * pt_test_uniform(&rng));
            }
        }
        pt_ransac_fit fit;
        int found = pt_ransac_ellipse(p, 200, &t, 2000, 1.5, 5, 300, scratch, &fit);
        PT_CHECK(found == 1, "ellipse found (trial %d)", trial);
        double dc = hypot(fit.ellipse.cx - cx, fit.ellipse.cy - cy);
        PT_CHECK(dc < 0.3, "40%% outliers: ellipse centre off by %g (trial %d)", dc, trial);
        PT_CHECK(fabs(fit.ellipse.a - a) < 0.5 && fabs(fit.ellipse.b - b) < 0.5,
                 "axes %g %g vs %g %g", fit.ellipse.a, fit.ellipse.b, a, b);
        double dth = fmod(fabs(fit.ellipse.theta - th), 180.0);
        dth = dth > 90 ? 180 - dth : dth;
        PT_CHECK(dth < 2.0, "theta %g vs %g", fit.ellipse.theta, th);
        PT_CHECK(fit.circle.cx == fit.ellipse.cx &&
                     fabs(fit.circle.r - 0.5 * (fit.ellipse.a + fit.ellipse.b)) < 1e-12,
                 "ellipse result also as a circle");
    }
    pt_ransac_table_free(&t);
}

/* Exact circle points: every clean sample has all votes, so the first usable
 * row wins (ties go to the lowest s); a radius range excluding the circle
 * finds nothing. */
static void test_ransac_rules(void)
{
    pt_ransac_table t;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t, 50, 3, PT_RANSAC_SEED, &err) == PT_OK, "table");
    pt_point p[40];
    int scratch[40];
    for (int k = 0; k < 40; k++) {
        p[k].x = (float)(64 + 16 * cos(2 * PI * k / 40));
        p[k].y = (float)(64 + 16 * sin(2 * PI * k / 40));
    }
    int first_ok = -1, idx[3];
    for (int s = 0; s < 50 && first_ok < 0; s++)
        if (pt_ransac_sample_indices(t.values, 3, s, 40, idx))
            first_ok = s;
    pt_ransac_fit fit;
    PT_CHECK(pt_ransac_circle(p, 40, &t, 50, 0.5, 5, 100, scratch, &fit), "found");
    PT_CHECK(fit.sample == first_ok, "ties go to the lowest row: %d vs %d", fit.sample, first_ok);
    PT_CHECK(fit.votes == 40, "all points vote: %d", fit.votes);
    PT_CHECK(!pt_ransac_circle(p, 40, &t, 50, 0.5, 17, 100, scratch, &fit) && !fit.found,
             "radius below min_r rejected");
    PT_CHECK(!pt_ransac_circle(p, 40, &t, 50, 0.5, 1, 15, scratch, &fit) && fit.sample == -1,
             "radius above max_r rejected");
    PT_CHECK(!pt_ransac_circle(p, 40, &t, 0, 0.5, 1, 100, scratch, &fit), "0 samples used");
    PT_CHECK(pt_ransac_circle(p, 40, &t, 1000000, 0.5, 5, 100, scratch, &fit),
             "samples_used clamped to the table");
    PT_CHECK(!pt_ransac_circle(p, 2, &t, 50, 0.5, 1, 100, scratch, &fit), "fewer points than a sample");
    PT_CHECK(!pt_ransac_ellipse(p, 40, &t, 50, 0.5, 1, 100, scratch, &fit),
             "ellipse needs sample size >= 5");
    pt_ransac_table_free(&t);

    /* the ellipse with a 5-point table on the same points: a circle, a == b */
    PT_CHECK(pt_ransac_table_create(&t, 200, 5, PT_RANSAC_SEED, &err) == PT_OK, "table 5");
    PT_CHECK(pt_ransac_ellipse(p, 40, &t, 200, 0.5, 5, 100, scratch, &fit), "ellipse found");
    PT_CHECK_NEAR(fit.ellipse.a, 16, 1e-4, "ellipse a");
    PT_CHECK_NEAR(fit.ellipse.b, 16, 1e-4, "ellipse b");
    PT_CHECK(fit.votes == 40, "ellipse votes %d", fit.votes);
    pt_ransac_table_free(&t);
}

/* The vote counts stop early when a sample cannot beat the best so far, and
 * ellipse votes skip clearly distant points with a bound: the results must
 * equal the header's semantics counted in full. Reference: the plain loop
 * (every vote counted by distance), on point sets with outliers, clutter
 * and near-ties. */
static int reference_best(const pt_point *p, int n, const pt_ransac_table *t, int rows,
                          double inlier, double min_r, double max_r, int ellipse)
{
    /* sized beyond the sample: the fits' lane loops (lib/detect/fit.h) start
     * at index 32 for n > 32, which GCC's bounds warning cannot rule out */
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE + PT_FIT_LANES], best_votes = -1, best_s = -1;
    for (int s = 0; s < rows; s++) {
        if (!pt_ransac_sample_indices(t->values, t->sample_size, s, n, idx))
            continue;
        pt_circle c = {0, 0, 0};
        pt_ellipse e = {0, 0, 0, 0, 0};
        if (ellipse ? !pt_fit_ellipse(p, idx, t->sample_size, &e) ||
                          !pt_ransac_ellipse_in_range(&e, min_r, max_r)
                    : !pt_fit_circle(p, idx, t->sample_size, &c) ||
                          !pt_ransac_circle_in_range(&c, min_r, max_r))
            continue;
        int votes = 0;
        for (int k = 0; k < n; k++)
            votes += (ellipse ? pt_ellipse_distance(&e, p[k].x, p[k].y)
                              : pt_circle_distance(&c, p[k].x, p[k].y)) <= inlier;
        if (votes > best_votes) {
            best_votes = votes;
            best_s = s;
        }
    }
    return best_s;
}

static void test_ransac_pruned_equals_full(void)
{
    pt_ransac_table t;
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&t, 300, 5, PT_RANSAC_SEED, &err) == PT_OK, "table");
    static pt_point p[400];
    static int scratch[400];
    int differ = 0, cases = 0;
    for (int trial = 0; trial < 24; trial++) {
        int n = 40 + 15 * trial;
        double cx = 200 + 3 * trial, cy = 150 - 2 * trial, a = 20 + 2 * trial;
        double b = a * (0.6 + 0.015 * trial), th = 17.0 * trial * PI / 180.0;
        double share = 0.3 + 0.025 * trial; /* points on the outline */
        for (int k = 0; k < n; k++) {
            if (k < share * n) {
                double s = 2 * PI * pt_test_uniform(&rng), u = a * cos(s), v = b * sin(s);
                p[k].x = (float)(cx + u * cos(th) - v * sin(th) + pt_test_gauss(&rng, 0.7));
                p[k].y = (float)(cy + u * sin(th) + v * cos(th) + pt_test_gauss(&rng, 0.7));
            } else {
                p[k].x = (float)(cx - 2 * a + 4 * a * pt_test_uniform(&rng));
                p[k].y = (float)(cy - 2 * a + 4 * a * pt_test_uniform(&rng));
            }
        }
        for (int ellipse = 0; ellipse < 2; ellipse++) {
            double inlier = trial % 3 == 0 ? 0.5 : (trial % 3 == 1 ? 1.5 : 4.0);
            pt_ransac_fit fit;
            int found = ellipse ? pt_ransac_ellipse(p, n, &t, 300, inlier, 3, 400, scratch, &fit)
                                : pt_ransac_circle(p, n, &t, 300, inlier, 3, 400, scratch, &fit);
            int want = reference_best(p, n, &t, 300, inlier, 3, 400, ellipse);
            cases++;
            differ += (found ? fit.sample : -1) != want;
            if (found) { /* the final count is exact */
                int votes = 0;
                for (int k = 0; k < n; k++)
                    votes += (ellipse ? pt_ellipse_distance(&fit.ellipse, p[k].x, p[k].y)
                                      : pt_circle_distance(&fit.circle, p[k].x, p[k].y)) <= inlier;
                differ += votes != fit.votes;
            }
        }
    }
    PT_CHECK(differ == 0, "pruned RANSAC equals the full count: %d differences in %d cases",
             differ, cases);
    pt_ransac_table_free(&t);
}

/* pt_ransac_circle_votes against the plain count with pt_circle_distance:
 * random circles (radius below, near and far above the band), points
 * anywhere, on the outline, and on the band's edges to the last bit. */
#define VOTE_CASES 64
static void test_circle_votes_exact(void)
{
    enum { N = 203 };
    pt_point p[N];
    int differ = 0, early_wrong = 0, cases = 0, edge_points = 0;
    for (int trial = 0; trial < 3000; trial++) {
        pt_circle c;
        c.cx = 640 * pt_test_uniform(&rng) - 20;
        c.cy = 512 * pt_test_uniform(&rng) - 20;
        int kind = trial % 4;
        c.r = kind == 0 ? 0.05 + 2 * pt_test_uniform(&rng)   /* r < t: band reaches the centre */
              : kind == 1 ? 3 + 30 * pt_test_uniform(&rng)
                          : 20 + 600 * pt_test_uniform(&rng);
        double t = trial % 3 == 0 ? 2.0 : 0.1 + 10 * pt_test_uniform(&rng);
        if (trial % 7 == 0)
            t = floor(t) + 0.5;
        for (int k = 0; k < N; k++) {
            int what = (int)(5 * pt_test_uniform(&rng));
            double a = 2 * PI * pt_test_uniform(&rng);
            double rad;
            if (what == 0)
                rad = 3 * (c.r + t) * pt_test_uniform(&rng);
            else if (what == 1)
                rad = c.r + pt_test_gauss(&rng, t);
            else if (what == 2)
                rad = c.r + t;
            else if (what == 3)
                rad = c.r - t;
            else /* integer pixel positions near the outline */
                rad = -1;
            double x = rad >= 0 ? c.cx + rad * cos(a) : floor(c.cx + (c.r + t) * cos(a) + 0.5);
            double y = rad >= 0 ? c.cy + rad * sin(a) : floor(c.cy + (c.r + t) * sin(a) + 0.5);
            p[k].x = (float)x;
            p[k].y = (float)y;
            /* nudge onto the edge: the float neighbours of the point */
            if (what == 2 || what == 3) {
                int step = (int)(3 * pt_test_uniform(&rng)) - 1;
                p[k].x = nextafterf(p[k].x, step > 0 ? INFINITY : -INFINITY);
                if (step == 0)
                    p[k].x = (float)x;
                edge_points++;
            }
        }
        if (trial % 50 == 0) { /* exactly on the edge where the geometry allows it */
            c.cx = 100;
            c.cy = 100;
            c.r = 10;
            t = 2;
            p[0].x = 112;
            p[0].y = 100;
            p[1].x = 108;
            p[1].y = 100;
            p[2].x = 100;
            p[2].y = 100;
        }
        int want = 0;
        for (int k = 0; k < N; k++)
            want += pt_circle_distance(&c, p[k].x, p[k].y) <= t;
        for (int n = 0; n <= N; n += trial % 2 ? 67 : 1) {
            int want_n = 0;
            for (int k = 0; k < n; k++)
                want_n += pt_circle_distance(&c, p[k].x, p[k].y) <= t;
            differ += pt_ransac_circle_votes(p, n, &c, t, -1) != want_n;
            int beat = (int)(n * pt_test_uniform(&rng));
            int got = pt_ransac_circle_votes(p, n, &c, t, beat);
            /* above beat: exact; otherwise at most beat */
            early_wrong += want_n > beat ? got != want_n : got > beat;
            cases++;
        }
        (void)want;
    }
    /* Radius and band chosen so that sqrt(d2) - r lands on t to the last
     * bit: the roundings of the subtraction decide these points. */
    int edge_differ = 0;
    for (int trial = 0; trial < 20000; trial++) {
        float x = (float)(1 + 500 * pt_test_uniform(&rng));
        double t = 0.1 + 5 * pt_test_uniform(&rng);
        pt_circle c = {0.0, 0.0, (double)x - t};
        if (trial % 3 == 1)
            c.r = nextafter(c.r, 0.0);
        else if (trial % 3 == 2)
            c.r = nextafter(c.r, INFINITY);
        if (trial % 2) { /* the inner edge */
            c.r = (double)x + t;
            if (trial % 3 == 1)
                c.r = nextafter(c.r, 0.0);
        }
        pt_point q[3] = {{x, 0.0f}, {0.0f, x}, {-x, 0.0f}};
        int want_e = 0;
        for (int k = 0; k < 3; k++)
            want_e += pt_circle_distance(&c, q[k].x, q[k].y) <= t;
        edge_differ += pt_ransac_circle_votes(q, 3, &c, t, -1) != want_e;
    }
    PT_CHECK(edge_differ == 0, "points on the band's edge to the last bit: %d differences",
             edge_differ);
    /* Far from the origin (up to the float test's reach) with points just
     * beyond its margin around both edges: the float decisions must be
     * the exact ones. */
    int far_differ = 0, far_cases = 0;
    for (int trial = 0; trial < 4000; trial++) {
        pt_circle c = {16000 * pt_test_uniform(&rng), 16000 * pt_test_uniform(&rng),
                       1 + 3000 * pt_test_uniform(&rng)};
        double t = 0.5 + 4 * pt_test_uniform(&rng);
        double margin = 0.01 + 1e-5 * (c.r + t);
        pt_point q[VOTE_CASES];
        for (int k = 0; k < VOTE_CASES; k++) {
            double a = 2 * PI * pt_test_uniform(&rng);
            double edge = (k & 1) ? c.r + t : c.r - t;
            double off = (k & 2 ? 1 : -1) * margin * (1.0 + 2.0 * pt_test_uniform(&rng));
            q[k].x = (float)(c.cx + (edge + off) * cos(a));
            q[k].y = (float)(c.cy + (edge + off) * sin(a));
        }
        int want_f = 0;
        for (int k = 0; k < VOTE_CASES; k++)
            want_f += pt_circle_distance(&c, q[k].x, q[k].y) <= t;
        far_differ += pt_ransac_circle_votes(q, VOTE_CASES, &c, t, -1) != want_f;
        far_cases++;
    }
    PT_CHECK(far_differ == 0, "far circles, points near the band: %d of %d differ", far_differ,
             far_cases);
    PT_CHECK(edge_points > 1000, "%d points on the band's edges", edge_points);
    PT_CHECK(differ == 0, "circle votes equal the plain count: %d differences in %d cases",
             differ, cases);
    PT_CHECK(early_wrong == 0, "early stop keeps the decision: %d wrong in %d cases", early_wrong,
             cases);
    /* NaN and far-away models count like the plain test */
    pt_circle bad = {NAN, 0, 5};
    PT_CHECK(pt_ransac_circle_votes(p, N, &bad, 2.0, -1) == 0, "NaN centre: no votes");
    pt_circle far = {1e300, 0, 5};
    PT_CHECK(pt_ransac_circle_votes(p, N, &far, 2.0, -1) == 0, "far centre: no votes");
}

/* pt_ransac_ellipse_votes against the plain count with
 * pt_ellipse_frame_within: random ellipses (near-circles, flat ones, tiny
 * and huge axes, any angle), points anywhere, on and near the outline, on
 * the axes and at the centre (where the closest-point iteration stops
 * early), and the early stop's decision. */
static void test_ellipse_votes_exact(void)
{
    enum { N = 211 };
    pt_point p[N];
    int differ = 0, early_wrong = 0, cases = 0, axis_points = 0;
    for (int trial = 0; trial < 3000; trial++) {
        pt_ellipse e;
        e.cx = 640 * pt_test_uniform(&rng) - 20;
        e.cy = 512 * pt_test_uniform(&rng) - 20;
        if (trial % 4 == 0) { /* a centre that a point can hit exactly */
            e.cx = floor(e.cx) + 0.5;
            e.cy = floor(e.cy);
        }
        int kind = trial % 5;
        e.a = kind == 0 ? 0.05 + 2 * pt_test_uniform(&rng)
              : kind == 1 ? 3 + 30 * pt_test_uniform(&rng)
                          : 20 + 400 * pt_test_uniform(&rng);
        double ratio = kind == 3 ? 1.0 : kind == 4 ? 0.05 + 0.3 * pt_test_uniform(&rng)
                                                   : 0.5 + 0.6 * pt_test_uniform(&rng);
        e.b = e.a * ratio;
        e.theta = trial % 6 == 0 ? 0.0 : 360 * pt_test_uniform(&rng) - 180;
        double t = trial % 3 == 0 ? 2.0 : 0.1 + 10 * pt_test_uniform(&rng);
        pt_ellipse_frame f;
        pt_ellipse_frame_init(&e, &f);
        for (int k = 0; k < N; k++) {
            int what = (int)(6 * pt_test_uniform(&rng));
            double ang = 2 * PI * pt_test_uniform(&rng);
            double u, v;
            if (what == 0) { /* anywhere around */
                double rad = 3 * (e.a + t) * pt_test_uniform(&rng);
                u = rad * cos(ang);
                v = rad * sin(ang);
            } else if (what <= 2) { /* near the outline */
                double along = 1 + pt_test_gauss(&rng, t / (e.b > 1 ? e.b : 1));
                u = e.a * cos(ang) * along;
                v = e.b * sin(ang) * along;
            } else if (what == 3) { /* on an axis of the frame */
                double rad = 2 * (e.a + t) * pt_test_uniform(&rng);
                u = pt_test_uniform(&rng) < 0.5 ? rad : 0.0;
                v = u == 0.0 ? rad : 0.0;
                axis_points++;
            } else if (what == 4) { /* the centre */
                u = v = 0.0;
            } else { /* integer pixel positions near the outline */
                u = e.a * cos(ang);
                v = e.b * sin(ang);
            }
            double x = e.cx + u * f.cos_t - v * f.sin_t, y = e.cy + u * f.sin_t + v * f.cos_t;
            if (what == 5) {
                x = floor(x + 0.5);
                y = floor(y + 0.5);
            }
            p[k].x = (float)x;
            p[k].y = (float)y;
        }
        for (int n = 0; n <= N; n += trial % 2 ? 71 : 1) {
            int want_n = 0;
            for (int k = 0; k < n; k++)
                want_n += pt_ellipse_frame_within(&f, p[k].x, p[k].y, t);
            differ += pt_ransac_ellipse_votes(p, n, &e, t, -1) != want_n;
            int beat = (int)(n * pt_test_uniform(&rng));
            int got = pt_ransac_ellipse_votes(p, n, &e, t, beat);
            early_wrong += want_n > beat ? got != want_n : got > beat;
            cases++;
        }
    }
    PT_CHECK(axis_points > 1000, "%d points on the axes", axis_points);
    PT_CHECK(differ == 0, "ellipse votes equal the plain count: %d differences in %d cases",
             differ, cases);
    PT_CHECK(early_wrong == 0, "early stop keeps the decision: %d wrong in %d cases", early_wrong,
             cases);
    /* A circle's centre is its own centre of curvature: the iteration stops
     * at once and the distance is the radius (within 2 px here). */
    pt_ellipse round = {100.5, 100.0, 1.5, 1.5, 0.0};
    pt_point centre[3] = {{100.5f, 100.0f}, {100.5f, 100.0f}, {104.5f, 100.0f}};
    PT_CHECK(pt_ransac_ellipse_votes(centre, 3, &round, 2.0, -1) == 2,
             "a small circle's centre lies within 2 px of it");
    /* degenerate and non-finite models count like the plain test */
    pt_ellipse bad[4] = {{NAN, 0, 5, 4, 0}, {10, 10, 0, 0, 0}, {10, 10, 5, NAN, 30},
                         {10, 10, -3, 2, 0}};
    for (int k = 0; k < 4; k++) {
        pt_ellipse_frame f;
        pt_ellipse_frame_init(&bad[k], &f);
        int want = 0;
        for (int j = 0; j < N; j++)
            want += pt_ellipse_frame_within(&f, p[j].x, p[j].y, 2.0);
        PT_CHECK(pt_ransac_ellipse_votes(p, N, &bad[k], 2.0, -1) == want,
                 "degenerate ellipse %d counts like the plain test", k);
    }
}

int main(void)
{
    test_table_determinism();
    test_table_limits();
    test_pick();
    test_sample_indices();
    test_ransac_circle_outliers();
    test_ransac_ellipse_outliers();
    test_ransac_rules();
    test_ransac_pruned_equals_full();
    test_circle_votes_exact();
    test_ellipse_votes_exact();
    return PT_TEST_SUMMARY("ransac");
}
