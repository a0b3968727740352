/* Circle mode's ellipse refinement (lib/detect/starburst_refit.h): it recovers the
 * centre and mean radius of an elliptical pupil cut by an eyelid from a
 * circle that settled on one side, keeps circular pupils (a - b within
 * ransac_inlier) as circles,
 * refuses what is not a pupil, and the row split the CUDA back end uses
 * (strided rows per thread, best = most votes then lowest row) gives exactly
 * the serial answer. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/detect/ransac.h"
#include "lib/detect/starburst_refit.h"
#include "tests/pt_test.h"

#define MAX_POINTS 256

/* Deterministic noise in [-amp, amp]. */
static double jitter(uint32_t *state, double amp)
{
    *state = *state * 1664525u + 1013904223u;
    return amp * ((double)(*state >> 8) / (double)(1u << 24) * 2.0 - 1.0);
}

/* n points on an ellipse, those above y_cut dropped (an upper eyelid), with
 * noise, and `outliers` points scattered along the lid line. */
static int ellipse_points(pt_point *pts, int n, double cx, double cy, double a, double b,
                          double theta_deg, double y_cut, double noise, int outliers,
                          uint32_t seed)
{
    double t = theta_deg * 3.14159265358979323846 / 180.0;
    int count = 0;
    uint32_t state = seed;
    for (int i = 0; i < n; i++) {
        double phi = 2.0 * 3.14159265358979323846 * i / n;
        double u = a * cos(phi), v = b * sin(phi);
        double x = cx + u * cos(t) - v * sin(t), y = cy + u * sin(t) + v * cos(t);
        if (y < y_cut)
            continue;
        pts[count].x = (float)(x + jitter(&state, noise));
        pts[count].y = (float)(y + jitter(&state, noise));
        count++;
    }
    for (int i = 0; i < outliers && count < MAX_POINTS; i++) {
        pts[count].x = (float)(cx + jitter(&state, a));
        pts[count].y = (float)(y_cut + jitter(&state, 2.0));
        count++;
    }
    return count;
}

static pt_sb_config config(void)
{
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.inlier = 2.0;
    k.circle_tol = 0.1;
    k.circle_refit = PT_SB_REFIT_ELLIPSE;
    return k;
}

/* The CUDA back end's decomposition: thread `first` of `stride` takes rows
 * first, first + stride, ...; the threads' bests are combined by most votes,
 * then lowest row; the best row is refitted and checked. */
static int split_refine(const pt_sb_config *k, const pt_point *pts, int n, const pt_circle *c,
                        const pt_ransac_table *t, int stride, int *cand, pt_ellipse *out)
{
    int m = pt_sb_refit_candidates(k, c, pts, n, cand);
    if (m < PT_SB_REFIT_SAMPLE)
        return 0;
    int rows = pt_sb_refit_rows(t->samples, t->sample_size);
    int best_votes = -1, best_row = -1;
    for (int first = stride - 1; first >= 0; first--) { /* any order of threads */
        int votes = -1, row = -1;
        for (int s = first; s < rows; s += stride) {
            pt_ellipse e;
            if (!pt_sb_refit_row_fit(t->values, s, pts, cand, m, 1, 1000, &e))
                continue;
            int v = pt_sb_refit_votes(&e, k->inlier, pts, cand, m);
            if (v > votes) {
                votes = v;
                row = s;
            }
        }
        if (row >= 0 && (votes > best_votes || (votes == best_votes && row < best_row))) {
            best_votes = votes;
            best_row = row;
        }
    }
    pt_ellipse e;
    if (best_row < 0 || !pt_sb_refit_row_fit(t->values, best_row, pts, cand, m, 1, 1000, &e))
        return 0;
    return pt_sb_refit_finish(k, c, pts, n, cand, m, 1, 1000, e, out);
}

static void test_elliptical_pupil(const pt_ransac_table *t)
{
    pt_point pts[MAX_POINTS];
    int cand[MAX_POINTS];
    pt_sb_config k = config();
    /* a/b = 1.25 upright, the top 60 px under the lid */
    int n = ellipse_points(pts, 120, 600, 500, 120, 96, 80, 500 - 60, 0.7, 12, 7);
    /* the circle a RANSAC with a 10 % band settles on: r ~ b, centre lowered */
    pt_circle c = {601, 514, 97};
    pt_ellipse e;
    PT_CHECK(pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 1000,
                                  cand, &e),
             "elliptical pupil: refinement credible");
    PT_CHECK(pt_sb_dist(e.cx, e.cy, 600, 500) < 2.0, "centre (%.2f, %.2f) vs (600, 500)", e.cx,
             e.cy);
    PT_CHECK_NEAR(0.5 * (e.a + e.b), 108, 2.0, "mean radius");
    pt_ellipse split;
    for (int stride = 1; stride <= 256; stride *= 8) {
        int ok = split_refine(&k, pts, n, &c, t, stride, cand, &split);
        PT_CHECK(ok && memcmp(&split, &e, sizeof e) == 0,
                 "rows split over %d threads: the serial answer bit for bit", stride);
    }
}

static void test_circular_pupil(const pt_ransac_table *t)
{
    pt_point pts[MAX_POINTS];
    int cand[MAX_POINTS];
    pt_sb_config k = config();
    int n = ellipse_points(pts, 100, 300, 200, 40, 40, 0, 0, 0.5, 0, 3);
    pt_circle c;
    PT_CHECK(pt_fit_circle(pts, NULL, n, &c), "circle fit");
    pt_ellipse e;
    if (pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 1000, cand,
                             &e)) {
        PT_CHECK(pt_sb_dist(e.cx, e.cy, c.cx, c.cy) < 0.5, "circular pupil: centre stays");
        PT_CHECK_NEAR(0.5 * (e.a + e.b), c.r, 0.5, "circular pupil: radius stays");
    }
    pt_ellipse split;
    int serial = pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1,
                                      1000, cand, &e);
    int ok = split_refine(&k, pts, n, &c, t, 32, cand, &split);
    PT_CHECK(ok == serial && (!ok || memcmp(&split, &e, sizeof e) == 0),
             "circular pupil: split over a warp equals serial");
}

static void test_refusals(const pt_ransac_table *t)
{
    pt_point pts[MAX_POINTS];
    int cand[MAX_POINTS];
    pt_sb_config k = config();
    pt_ellipse e;
    /* too few points */
    int n = ellipse_points(pts, 4, 100, 100, 30, 30, 0, 0, 0, 0, 1);
    pt_circle c = {100, 100, 30};
    PT_CHECK(!pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 1000,
                                   cand, &e),
             "4 points: the circle stays");
    /* a/b = 2.5: a lid or lash line, not a pupil */
    n = ellipse_points(pts, 120, 400, 400, 100, 40, 0, 0, 0.3, 0, 5);
    c.cx = 400;
    c.cy = 400;
    c.r = 70;
    k.circle_tol = 0.5;
    PT_CHECK(!pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 1000,
                                   cand, &e),
             "a / b = 2.5: the circle stays");
    /* an ellipse it reports has both axes in [min_r, max_r] */
    k.circle_tol = 0.1;
    n = ellipse_points(pts, 120, 600, 500, 120, 96, 80, 0, 0.5, 0, 9);
    c.cx = 600;
    c.cy = 505;
    c.r = 105;
    int ok = pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 110,
                                  cand, &e);
    PT_CHECK(!ok || (e.a <= 110 && e.b <= 110), "max_r 110: a = %.1f, b = %.1f", e.a, e.b);
    /* a - b within ransac_inlier: a circle within the noise, the circle stays */
    n = ellipse_points(pts, 100, 300, 200, 41, 40, 30, 0, 0.3, 0, 11);
    PT_CHECK(pt_fit_circle(pts, NULL, n, &c), "circle fit");
    PT_CHECK(!pt_sb_circle_ellipse(&k, pts, n, &c, t->values, t->samples, t->sample_size, 1, 1000,
                                   cand, &e),
             "a - b = 1 px < ransac_inlier: the circle stays");
    /* a table too small for one row of 5 */
    PT_CHECK(pt_sb_refit_rows(1, 3) == 0 && pt_sb_refit_rows(1024, 5) == PT_SB_REFIT_ROWS &&
                 pt_sb_refit_rows(100, 3) == 60,
             "rows read from the table as one flat run");
}

int main(void)
{
    pt_ransac_table t;
    pt_error err;
    if (pt_ransac_table_create(&t, 1024, 5, PT_RANSAC_SEED, &err) != PT_OK) {
        fprintf(stderr, "cannot make the sample table\n");
        return 1;
    }
    test_elliptical_pupil(&t);
    test_circular_pupil(&t);
    test_refusals(&t);
    pt_ransac_table_free(&t);
    return PT_TEST_SUMMARY("test_starburst_refit");
}
