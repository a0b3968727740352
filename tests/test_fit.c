/* Circle and ellipse fits and distances (lib/detect/fit.h). */
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/detect/fit.h"
#include "tests/pt_noise.h"
#include "tests/pt_test.h"

#define MAX_POINTS 4096
#define PI 3.14159265358979323846

static pt_test_rng rng = {0x9E3779B97F4A7C15ULL};

static double angle_diff(double a, double b)
{
    double d = fmod(fabs(a - b), 180.0);
    return d > 90.0 ? 180.0 - d : d;
}

/* Points (x,y) of the integer lattice on x^2 + y^2 = R^2; first_quadrant keeps
 * x >= 0, y >= 0 only (a 90 degree arc). */
static int lattice_circle(int R, int first_quadrant, int *lx, int *ly)
{
    int n = 0;
    for (int x = -R; x <= R; x++)
        for (int y = -R; y <= R; y++)
            if (x * x + y * y == R * R && (!first_quadrant || (x >= 0 && y >= 0))) {
                lx[n] = x;
                ly[n] = y;
                n++;
            }
    return n;
}

/* ---- exact data whose coordinates are exact in float ---------------------- */

static void test_circle_exact_lattice(void)
{
    static int lx[MAX_POINTS], ly[MAX_POINTS];
    static pt_point p[MAX_POINTS];
    const int radii[] = {5, 25, 65, 325, 1105};
    const double centres[][2] = {{0, 0}, {320.5, 240.25}, {-17, 1000}, {1279.75, 3.5}};
    for (int ri = 0; ri < 5; ri++)
        for (int ci = 0; ci < 4; ci++)
            for (int arc = 0; arc < 2; arc++) {
                int n = lattice_circle(radii[ri], arc, lx, ly);
                for (int k = 0; k < n; k++) {
                    p[k].x = (float)(centres[ci][0] + lx[k]);
                    p[k].y = (float)(centres[ci][1] + ly[k]);
                }
                pt_circle c;
                int ok = pt_fit_circle(p, NULL, n, &c);
                PT_CHECK(ok, "circle fit r=%d arc=%d failed", radii[ri], arc);
                PT_CHECK_NEAR(c.cx, centres[ci][0], 1e-6, "exact circle cx");
                PT_CHECK_NEAR(c.cy, centres[ci][1], 1e-6, "exact circle cy");
                PT_CHECK_NEAR(c.r, radii[ri], 1e-6, "exact circle r");
            }
}

/* An ellipse through float-exact points: lattice points of a circle of radius
 * R scaled by (p, q) along the axes, rotated by the Pythagorean triple
 * (cs, sn, h) (an exact rotation scaled by h), moved by an integer centre and
 * divided by 2^shift. */
typedef struct {
    int R, p, q, cs, sn, h, cx, cy, shift;
} exact_ellipse;

static void test_ellipse_exact_lattice(void)
{
    static int lx[MAX_POINTS], ly[MAX_POINTS];
    static pt_point pts[MAX_POINTS];
    const exact_ellipse cases[] = {
        {65, 1, 1, 1, 0, 1, 300, 200, 0},         /* circle, a == b */
        {65, 2, 1, 1, 0, 1, 300, 200, 0},         /* theta 0 */
        {65, 1, 2, 1, 0, 1, 300, 200, 0},         /* a along y: theta 90 */
        {65, 3, 2, 3, 4, 5, 1000, 700, 1},        /* theta 53.13 */
        {325, 2, 1, 399, 40, 401, 4096, 8192, 9}, /* theta 5.72 */
        {325, 2, 1, 399, -40, 401, 4096, 8192, 9},/* theta 174.28 */
        {325, 2, 1, 40, 399, 401, 4096, 8192, 9}, /* theta 84.28 */
        {325, 10, 1, 5, 12, 13, 0, 0, 3},         /* very eccentric, theta 67.38 */
        {1105, 7, 6, 12, 5, 13, 99, 77, 6},       /* near-circular */
        {25, 3, 1, 3, -4, 5, 64, 64, 0},          /* 20 points, 6 on the arc */
    };
    for (unsigned ci = 0; ci < sizeof cases / sizeof cases[0]; ci++)
        for (int arc = 0; arc < 2; arc++) {
            const exact_ellipse *c = &cases[ci];
            int n = lattice_circle(c->R, arc, lx, ly);
            double div = (double)(1 << c->shift);
            for (int k = 0; k < n; k++) {
                long u = (long)c->p * lx[k], v = (long)c->q * ly[k];
                pts[k].x = (float)((c->cs * u - c->sn * v + c->cx) / div);
                pts[k].y = (float)((c->sn * u + c->cs * v + c->cy) / div);
            }
            double major = (c->p >= c->q ? c->p : c->q) * (double)c->R * c->h / div;
            double minor = (c->p >= c->q ? c->q : c->p) * (double)c->R * c->h / div;
            double theta = atan2(c->sn, c->cs) * 180.0 / PI + (c->p >= c->q ? 0.0 : 90.0);
            theta = fmod(theta + 360.0, 180.0);
            pt_ellipse e;
            int ok = pt_fit_ellipse(pts, NULL, n, &e);
            PT_CHECK(ok, "exact ellipse case %u arc %d: fit failed", ci, arc);
            PT_CHECK_NEAR(e.cx, c->cx / div, 1e-6, "exact ellipse cx");
            PT_CHECK_NEAR(e.cy, c->cy / div, 1e-6, "exact ellipse cy");
            PT_CHECK_NEAR(e.a, major, 1e-6, "exact ellipse a");
            PT_CHECK_NEAR(e.b, minor, 1e-6, "exact ellipse b");
            PT_CHECK(e.a >= e.b, "a >= b");
            PT_CHECK(e.theta >= 0.0 && e.theta < 180.0, "theta %g in [0,180)", e.theta);
            if (c->p != c->q)
                PT_CHECK(angle_diff(e.theta, theta) < 1e-6, "case %u arc %d theta %.9g vs %.9g",
                         ci, arc, e.theta, theta);
        }
}

/* ---- general data (float-rounded) ----------------------------------------- */

/* Float rounding moves a point by up to 2^-24 of its coordinate; a 90 degree
 * arc of an eccentric ellipse amplifies that by about a/b. */
static double rounding_tol(double centre, double a, double b, int arc)
{
    return 1e-6 + 2e-5 * (fabs(centre) + a) * (arc ? a / b : 1.0);
}

static void test_circle_general(void)
{
    static pt_point p[MAX_POINTS];
    const double radii[] = {3, 10, 50, 200, 500};
    const double centres[] = {0, 64.5, 320.5, 1000.25};
    const int counts[] = {3, 7, 100};
    for (int ri = 0; ri < 5; ri++)
        for (int ci = 0; ci < 4; ci++)
            for (int ni = 0; ni < 3; ni++)
                for (int arc = 0; arc < 2; arc++) {
                    int n = counts[ni];
                    double span = arc ? PI / 2 : 2 * PI, cx = centres[ci], cy = 0.7 * centres[ci] + 5;
                    for (int k = 0; k < n; k++) {
                        double t = 0.3 + span * k / (arc ? n - 1 : n);
                        p[k].x = (float)(cx + radii[ri] * cos(t));
                        p[k].y = (float)(cy + radii[ri] * sin(t));
                    }
                    pt_circle c;
                    PT_CHECK(pt_fit_circle(p, NULL, n, &c), "circle fit failed");
                    double tol = rounding_tol(cx, radii[ri], radii[ri], arc) * (n == 3 ? 4 : 1);
                    PT_CHECK_NEAR(c.cx, cx, tol, "circle cx");
                    PT_CHECK_NEAR(c.cy, cy, tol, "circle cy");
                    PT_CHECK_NEAR(c.r, radii[ri], tol, "circle r");
                }
}

static void test_ellipse_general(void)
{
    static pt_point p[MAX_POINTS];
    const double axes[] = {5, 40, 120, 400};
    const double ratios[] = {1.0, 0.9, 0.5, 0.1};
    const double thetas[] = {0.0, 0.01, 30.0, 89.99, 90.0, 90.01, 135.0, 179.0, 179.9};
    const double centres[] = {0, 320.5, 1000.25};
    for (int ai = 0; ai < 4; ai++)
        for (int qi = 0; qi < 4; qi++)
            for (int ti = 0; ti < 9; ti++)
                for (int ci = 0; ci < 3; ci++)
                    for (int arc = 0; arc < 2; arc++) {
                        int n = 100;
                        double a = axes[ai], b = a * ratios[qi], th = thetas[ti] * PI / 180.0;
                        double cx = centres[ci], cy = 0.7 * centres[ci] + 3;
                        double span = arc ? PI / 2 : 2 * PI;
                        for (int k = 0; k < n; k++) {
                            double t = 0.3 + span * k / (arc ? n - 1 : n);
                            double u = a * cos(t), v = b * sin(t);
                            p[k].x = (float)(cx + u * cos(th) - v * sin(th));
                            p[k].y = (float)(cy + u * sin(th) + v * cos(th));
                        }
                        pt_ellipse e;
                        int ok = pt_fit_ellipse(p, NULL, n, &e);
                        PT_CHECK(ok, "ellipse fit failed a=%g b=%g theta=%g", a, b, thetas[ti]);
                        if (!ok)
                            continue;
                        double tol = rounding_tol(cx, a, b, arc);
                        PT_CHECK_NEAR(e.cx, cx, tol, "ellipse cx");
                        PT_CHECK_NEAR(e.cy, cy, tol, "ellipse cy");
                        PT_CHECK_NEAR(e.a, a, tol, "ellipse a");
                        PT_CHECK_NEAR(e.b, b, tol, "ellipse b");
                        PT_CHECK(e.theta >= 0.0 && e.theta < 180.0, "theta %g in range", e.theta);
                        if (ratios[qi] < 1.0) {
                            double ttol = 1e-6 + tol / (a - b) * (180.0 / PI);
                            PT_CHECK(angle_diff(e.theta, thetas[ti]) <= ttol,
                                     "theta %g vs %g (tol %g) a=%g b=%g arc=%d", e.theta,
                                     thetas[ti], ttol, a, b, arc);
                        }
                    }
}

/* theta is the a axis from +x towards +y, y down. */
static void test_theta_convention(void)
{
    pt_point p[64];
    /* a = 30 along y, b = 10 along x */
    for (int k = 0; k < 64; k++) {
        double t = 2 * PI * k / 64;
        p[k].x = (float)(100 + 10 * cos(t));
        p[k].y = (float)(50 + 30 * sin(t));
    }
    pt_ellipse e;
    PT_CHECK(pt_fit_ellipse(p, NULL, 64, &e), "vertical ellipse fit");
    PT_CHECK_NEAR(e.theta, 90.0, 1e-4, "a along y gives theta 90");
    PT_CHECK_NEAR(e.a, 30.0, 1e-4, "vertical a");
    PT_CHECK_NEAR(e.b, 10.0, 1e-4, "vertical b");
    /* a along the image diagonal down-right (+x, +y) is 45, down-left is 135 */
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int k = 0; k < 64; k++) {
            double t = 2 * PI * k / 64;
            double u = 30 * cos(t), v = 10 * sin(t);
            double c = sqrt(0.5), s = sign * sqrt(0.5);
            p[k].x = (float)(100 + u * c - v * s);
            p[k].y = (float)(50 + u * s + v * c);
        }
        PT_CHECK(pt_fit_ellipse(p, NULL, 64, &e), "diagonal ellipse fit");
        PT_CHECK_NEAR(e.theta, sign > 0 ? 45.0 : 135.0, 1e-4, "diagonal theta");
    }
}

static void test_idx_selection(void)
{
    pt_point p[40];
    int idx[20];
    /* even slots on the circle, odd slots far off it */
    for (int k = 0; k < 20; k++) {
        double t = 2 * PI * k / 20;
        p[2 * k].x = (float)(40 + 12 * cos(t));
        p[2 * k].y = (float)(30 + 12 * sin(t));
        p[2 * k + 1].x = (float)(500 + k * 7);
        p[2 * k + 1].y = (float)(-300 + k * k);
        idx[k] = 2 * k;
    }
    pt_circle c;
    PT_CHECK(pt_fit_circle(p, idx, 20, &c), "idx circle fit");
    PT_CHECK_NEAR(c.cx, 40, 1e-4, "idx circle cx");
    PT_CHECK_NEAR(c.r, 12, 1e-4, "idx circle r");
    pt_ellipse e;
    PT_CHECK(pt_fit_ellipse(p, idx, 20, &e), "idx ellipse fit");
    PT_CHECK_NEAR(e.cy, 30, 1e-4, "idx ellipse cy");
    PT_CHECK_NEAR(e.a, 12, 1e-4, "idx ellipse a");
}

/* sigma 0.5 px on 200 points: sub-pixel centres. */
static void test_noisy(void)
{
    static pt_point p[200];
    for (int trial = 0; trial < 20; trial++) {
        double cx = 100 + 13.7 * trial, cy = 80 + 5.3 * trial, r = 15 + 4 * trial;
        for (int k = 0; k < 200; k++) {
            double t = 2 * PI * pt_test_uniform(&rng);
            p[k].x = (float)(cx + r * cos(t) + pt_test_gauss(&rng, 0.5));
            p[k].y = (float)(cy + r * sin(t) + pt_test_gauss(&rng, 0.5));
        }
        pt_circle c;
        PT_CHECK(pt_fit_circle(p, NULL, 200, &c), "noisy circle fit");
        PT_CHECK(hypot(c.cx - cx, c.cy - cy) < 0.2, "noisy circle centre off by %g",
                 hypot(c.cx - cx, c.cy - cy));
        PT_CHECK(fabs(c.r - r) < 0.2, "noisy circle r off by %g", fabs(c.r - r));

        double a = r * 1.3, b = r * 0.8, th = (trial * 37 % 180) * PI / 180;
        for (int k = 0; k < 200; k++) {
            double t = 2 * PI * pt_test_uniform(&rng);
            double u = a * cos(t), v = b * sin(t);
            p[k].x = (float)(cx + u * cos(th) - v * sin(th) + pt_test_gauss(&rng, 0.5));
            p[k].y = (float)(cy + u * sin(th) + v * cos(th) + pt_test_gauss(&rng, 0.5));
        }
        pt_ellipse e;
        PT_CHECK(pt_fit_ellipse(p, NULL, 200, &e), "noisy ellipse fit");
        PT_CHECK(hypot(e.cx - cx, e.cy - cy) < 0.2, "noisy ellipse centre off by %g",
                 hypot(e.cx - cx, e.cy - cy));
        PT_CHECK(fabs(e.a - a) < 0.3 && fabs(e.b - b) < 0.3, "noisy ellipse axes %g %g vs %g %g",
                 e.a, e.b, a, b);
    }
}

static void test_degenerate(void)
{
    pt_point p[10];
    pt_circle c;
    pt_ellipse e;
    for (int k = 0; k < 10; k++) {
        p[k].x = (float)(3 * k + 1);
        p[k].y = (float)(2 * k - 5);
    }
    PT_CHECK(!pt_fit_circle(p, NULL, 10, &c), "collinear circle rejected");
    PT_CHECK(!pt_fit_ellipse(p, NULL, 10, &e), "collinear ellipse rejected");
    p[0].x = 0; p[0].y = 0; p[1].x = 10; p[1].y = 0; p[2].x = 0; p[2].y = 10;
    p[3].x = 10; p[3].y = 10; p[4].x = 5; p[4].y = 12;
    PT_CHECK(!pt_fit_circle(p, NULL, 2, &c), "circle needs 3 points");
    PT_CHECK(pt_fit_circle(p, NULL, 3, &c), "3 points make a circle");
    PT_CHECK(!pt_fit_ellipse(p, NULL, 4, &e), "ellipse needs 5 points");
    PT_CHECK(!pt_fit_circle(p, NULL, 0, &c), "no points");
    for (int k = 0; k < 10; k++)
        p[k].x = p[k].y = 7.0f;
    PT_CHECK(!pt_fit_circle(p, NULL, 10, &c), "identical points (circle)");
    PT_CHECK(!pt_fit_ellipse(p, NULL, 10, &e), "identical points (ellipse)");
    for (int k = 0; k < 10; k++) {
        p[k].x = (float)(20 + 5 * cos(k * 0.6));
        p[k].y = (float)(20 + 5 * sin(k * 0.6));
    }
    p[4].y = NAN;
    PT_CHECK(!pt_fit_circle(p, NULL, 10, &c), "NaN rejected (circle)");
    PT_CHECK(!pt_fit_ellipse(p, NULL, 10, &e), "NaN rejected (ellipse)");
    p[4].y = INFINITY;
    PT_CHECK(!pt_fit_circle(p, NULL, 10, &c), "inf rejected (circle)");
    PT_CHECK(!pt_fit_ellipse(p, NULL, 10, &e), "inf rejected (ellipse)");
}

/* Reference closest-point distance: dense parameter scan, then golden section. */
static double ellipse_distance_reference(const pt_ellipse *e, double x, double y)
{
    double th = e->theta * PI / 180.0, c = cos(th), s = sin(th);
    double dx = x - e->cx, dy = y - e->cy;
    double u = dx * c + dy * s, v = -dx * s + dy * c;
    const int steps = 20000;
    double best = 1e300, best_t = 0.0;
    for (int k = 0; k < steps; k++) {
        double t = 2 * PI * k / steps;
        double d = hypot(u - e->a * cos(t), v - e->b * sin(t));
        if (d < best) {
            best = d;
            best_t = t;
        }
    }
    double lo = best_t - 2 * PI / steps, hi = best_t + 2 * PI / steps;
    for (int it = 0; it < 100; it++) {
        double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
        double d1 = hypot(u - e->a * cos(m1), v - e->b * sin(m1));
        double d2 = hypot(u - e->a * cos(m2), v - e->b * sin(m2));
        if (d1 < d2)
            hi = m2;
        else
            lo = m1;
    }
    double t = 0.5 * (lo + hi);
    double d = hypot(u - e->a * cos(t), v - e->b * sin(t));
    return d < best ? d : best;
}

static void test_distances(void)
{
    pt_circle c = {10.0, -4.0, 5.0};
    PT_CHECK_NEAR(pt_circle_distance(&c, 10.0, -4.0), 5.0, 1e-12, "circle distance at centre");
    PT_CHECK_NEAR(pt_circle_distance(&c, 13.0, 0.0), 0.0, 1e-12, "circle distance on outline");
    PT_CHECK_NEAR(pt_circle_distance(&c, 10.0, 8.0), 7.0, 1e-12, "circle distance outside");

    pt_ellipse ec;
    pt_ellipse_from_circle(&c, &ec);
    PT_CHECK(ec.a == 5.0 && ec.b == 5.0 && ec.cx == 10.0 && ec.cy == -4.0 && ec.theta == 0.0,
             "ellipse from circle");
    PT_CHECK_NEAR(pt_ellipse_distance(&ec, 10.0, 8.0), 7.0, 1e-9, "ellipse(circle) distance");

    const pt_ellipse shapes[] = {{50, 40, 30, 10, 0},  {50, 40, 30, 10, 90},
                                 {0, 0, 20, 19, 33},   {7, 3, 60, 6, 170},
                                 {100, 100, 12, 12, 0}, {-5, 9, 200, 20, 45}};
    double worst = 0.0;
    for (unsigned si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const pt_ellipse *e = &shapes[si];
        for (int k = 0; k < 300; k++) {
            /* points from the centre out to twice the size, all directions */
            double t = 2 * PI * pt_test_uniform(&rng), rr = 2.0 * pt_test_uniform(&rng);
            double th = e->theta * PI / 180.0;
            double u = rr * e->a * cos(t), v = rr * e->b * sin(t);
            if (k < 4) { /* on the axes, the hardest inside case */
                u = (k & 1) ? 0.3 * e->a : 0.0;
                v = (k & 1) ? 0.0 : 0.3 * e->b;
            }
            double x = e->cx + u * cos(th) - v * sin(th), y = e->cy + u * sin(th) + v * cos(th);
            double d = pt_ellipse_distance(e, x, y), ref = ellipse_distance_reference(e, x, y);
            if (fabs(d - ref) > worst)
                worst = fabs(d - ref);
        }
    }
    PT_CHECK(worst < 1e-3, "ellipse distance within 1e-3 px of the reference (worst %g)", worst);
}

/* pt_ellipse_frame_within gives exactly pt_ellipse_frame_distance(...) <= d:
 * points everywhere, and many close to both sides of the band's edges,
 * where the fast bound must not reject wrongly; degenerate shapes too. */
static void test_within(void)
{
    const pt_ellipse shapes[] = {{50, 40, 30, 10, 0},    {50, 40, 30, 10, 90},
                                 {0, 0, 20, 19, 33},     {7, 3, 60, 6, 170},
                                 {100, 100, 12, 12, 0},  {-5, 9, 200, 20, 45},
                                 {640, 512, 180, 150, 12}, {3, 3, 1e-3, 5, 0},
                                 {0, 0, 0, 4, 0},        {1, 1, 5, -2, 0}};
    const double bands[] = {0.5, 1.0, 2.0, 3.5, 10.0};
    long mismatches = 0, tested = 0, far = 0;
    for (unsigned si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const pt_ellipse *e = &shapes[si];
        pt_ellipse_frame f;
        pt_ellipse_frame_init(e, &f);
        double th = e->theta * PI / 180.0;
        for (unsigned bi = 0; bi < sizeof bands / sizeof bands[0]; bi++) {
            double d = bands[bi];
            for (int k = 0; k < 4000; k++) {
                double t = 2 * PI * pt_test_uniform(&rng);
                double ox = fabs(e->a) * cos(t), oy = fabs(e->b) * sin(t);
                double nx = fabs(e->b) * cos(t), ny = fabs(e->a) * sin(t);
                double nl = sqrt(nx * nx + ny * ny);
                double off;
                if (k % 4 == 0) /* anywhere out to twice the size */
                    off = (2.0 * pt_test_uniform(&rng) - 1.0) * (fabs(e->a) + fabs(e->b) + d);
                else /* just inside or outside the band's two edges */
                    off = (k % 2 ? d : -d) + (pt_test_uniform(&rng) - 0.5) * 1e-3 * (k % 3 ? 1.0 : 1e-6);
                double u = ox + (nl > 0 ? off * nx / nl : off), v = oy + (nl > 0 ? off * ny / nl : 0);
                double x = e->cx + u * cos(th) - v * sin(th), y = e->cy + u * sin(th) + v * cos(th);
                int full = pt_ellipse_frame_distance(&f, x, y) <= d;
                mismatches += pt_ellipse_frame_within(&f, x, y, d) != full;
                far += !full;
                tested++;
            }
        }
    }
    PT_CHECK(mismatches == 0, "within == distance <= d: %ld of %ld points differ", mismatches,
             tested);
    PT_CHECK(far > tested / 10, "the test points include points outside the band (%ld)", far);
    pt_ellipse_frame nan_frame = {NAN, 0, 1, 0, 10, 8};
    PT_CHECK(pt_ellipse_frame_within(&nan_frame, 1, 1, 2) ==
                 (pt_ellipse_frame_distance(&nan_frame, 1, 1) <= 2),
             "NaN centre: same answer as the full test");
}

/* pt_ellipse_frame_near: pt_ellipse_frame_distance stays within 0.01 px
 * (a fifth of PT_ELLIPSE_NEAR_MARGIN) of the true distance for ellipses of
 * long / short axis up to PT_ELLIPSE_NEAR_RATIO and points up to 35 px from
 * the outline, so a point it calls clearly within d passes the full test;
 * it calls many such points. */
static void test_near(void)
{
    const double bands[] = {0.5, 2.0, 10.0, 30.0};
    double worst = 0.0;
    long near = 0, wrong = 0, tested = 0;
    for (int k = 0; k < 3000; k++) {
        double a = 1.5 + 598.5 * pt_test_uniform(&rng);
        double b = a / (1.0 + (PT_ELLIPSE_NEAR_RATIO - 1.0) * pt_test_uniform(&rng));
        pt_ellipse e = {400 * pt_test_uniform(&rng), 300 * pt_test_uniform(&rng), a, b,
                        180 * pt_test_uniform(&rng)};
        if (k % 2) {
            e.a = b;
            e.b = a;
        }
        pt_ellipse_frame f;
        pt_ellipse_frame_init(&e, &f);
        double t = 2 * PI * pt_test_uniform(&rng), th = e.theta * PI / 180.0;
        double nx = e.b * cos(t), ny = e.a * sin(t), nl = sqrt(nx * nx + ny * ny);
        double in = e.a < e.b ? e.a : e.b;
        in = in < 35.0 ? in : 35.0;
        double off = -in + (35.0 + in) * pt_test_uniform(&rng);
        double u = e.a * cos(t) + off * nx / nl, v = e.b * sin(t) + off * ny / nl;
        double x = e.cx + u * cos(th) - v * sin(th), y = e.cy + u * sin(th) + v * cos(th);
        double full = pt_ellipse_frame_distance(&f, x, y);
        double excess = full - ellipse_distance_reference(&e, x, y);
        worst = excess > worst ? excess : worst;
        double du = x - f.cx, dv = y - f.cy;
        double fu = fabs(du * f.cos_t + dv * f.sin_t), fv = fabs(-du * f.sin_t + dv * f.cos_t);
        for (unsigned bi = 0; bi < sizeof bands / sizeof bands[0]; bi++) {
            int sure = pt_ellipse_frame_near(f.a, f.b, fu, fv, bands[bi]);
            near += sure;
            wrong += sure && !(full <= bands[bi]);
            tested++;
        }
    }
    PT_CHECK(worst < 0.01, "iterated distance within 0.01 px above the true one (worst %g)",
             worst);
    PT_CHECK(wrong == 0, "clearly within d: the full test agrees (%ld of %ld differ)", wrong,
             near);
    PT_CHECK(near > tested / 5, "clearly within d for many points (%ld of %ld)", near, tested);
    PT_CHECK(!pt_ellipse_frame_near(30, 10, 30.5, 0, 2.0), "a flat ellipse is not decided");
    PT_CHECK(!pt_ellipse_frame_near(20, 15, 0, 0, 100.0), "the centre is not decided");
}

/* A 32-lane warp's sums (cuda/detect/warp_fit.cuh): lane l sums the terms
 * of points l, l + 32, ... in its own accumulators, then the lane sums are
 * added in lane order. The fits from those sums equal the serial fits bit
 * for bit; for n > 32 a plain sum in point order differs in the last bits
 * for some of the sets, so the order matters. */
#define LANES 32
static void warp_sums(const pt_point *p, const int *sel, int n, int terms, double mx, double my,
                      double inv, int ellipse, double *sum)
{
    double lane[LANES][PT_FIT_ELLIPSE_MOMENTS];
    for (int l = 0; l < LANES && l < n; l++)
        for (int k = l; k < n; k += LANES) {
            pt_point q = pt_fit_point_at(p, sel, k);
            double t[PT_FIT_ELLIPSE_MOMENTS];
            if (ellipse)
                pt_fit_ellipse_terms((q.x - mx) * inv, (q.y - my) * inv, t);
            else
                pt_fit_circle_terms((q.x - mx) * inv, (q.y - my) * inv, t);
            for (int j = 0; j < terms; j++)
                lane[l][j] = k == l ? t[j] : lane[l][j] + t[j];
        }
    for (int j = 0; j < terms; j++) {
        sum[j] = lane[0][j];
        for (int l = 1; l < LANES && l < n; l++)
            sum[j] += lane[l][j];
    }
}

static void test_moments_by_lane(void)
{
    long mismatches = 0, fits = 0, order_differs = 0;
    for (int trial = 0; trial < 400; trial++) {
        pt_point p[300];
        int idx[300];
        int n = 5 + trial % 290;
        double cx = 50 + 900 * pt_test_uniform(&rng), cy = 50 + 700 * pt_test_uniform(&rng);
        double a = 5 + 200 * pt_test_uniform(&rng), b = a * (0.4 + 0.6 * pt_test_uniform(&rng)), th = PI * pt_test_uniform(&rng);
        for (int k = 0; k < n; k++) {
            double t = 2 * PI * pt_test_uniform(&rng), u = a * cos(t), v = b * sin(t);
            p[k].x = (float)(cx + u * cos(th) - v * sin(th) + pt_test_gauss(&rng, trial % 3));
            p[k].y = (float)(cy + u * sin(th) + v * cos(th) + pt_test_gauss(&rng, trial % 3));
            idx[k] = n - 1 - k;
        }
        const int *sel = (trial & 1) ? idx : NULL;
        double mx, my, scale, inv;
        if (!pt_fit_normalise(p, sel, n, &mx, &my, &scale, &inv))
            continue;
        double me[PT_FIT_ELLIPSE_MOMENTS], mc[PT_FIT_CIRCLE_MOMENTS], serial = 0.0;
        warp_sums(p, sel, n, PT_FIT_ELLIPSE_MOMENTS, mx, my, inv, 1, me);
        warp_sums(p, sel, n, PT_FIT_CIRCLE_MOMENTS, mx, my, inv, 0, mc);
        for (int k = 0; k < n; k++) {
            pt_point q = pt_fit_point_at(p, sel, k);
            double t[PT_FIT_ELLIPSE_MOMENTS];
            pt_fit_ellipse_terms((q.x - mx) * inv, (q.y - my) * inv, t);
            serial += t[13];
        }
        order_differs += n > LANES && serial != me[13];
        pt_ellipse e1, e2;
        memset(&e1, 0, sizeof e1);
        memset(&e2, 0, sizeof e2);
        int ok1 = pt_fit_ellipse(p, sel, n, &e1);
        int ok2 = pt_fit_ellipse_from_sums(me, n, mx, my, scale, &e2);
        mismatches += ok1 != ok2 || memcmp(&e1, &e2, sizeof e1) != 0;
        pt_circle c1, c2;
        memset(&c1, 0, sizeof c1);
        memset(&c2, 0, sizeof c2);
        ok1 = pt_fit_circle(p, sel, n, &c1);
        ok2 = pt_fit_circle_from_sums(mc, n, mx, my, scale, &c2);
        mismatches += ok1 != ok2 || (n >= 3 && memcmp(&c1, &c2, sizeof c1) != 0);
        fits += 2;
    }
    PT_CHECK(fits >= 700, "moments by lane: only %ld fits", fits);
    PT_CHECK(mismatches == 0, "moments by lane: %ld of %ld fits differ from the serial fit",
             mismatches, fits);
    PT_CHECK(order_differs > 0, "the lane order's sums differ from point order's on some sets");
}

int main(void)
{
    test_circle_exact_lattice();
    test_ellipse_exact_lattice();
    test_circle_general();
    test_ellipse_general();
    test_theta_convention();
    test_idx_selection();
    test_moments_by_lane();
    test_noisy();
    test_degenerate();
    test_distances();
    test_within();
    test_near();
    return PT_TEST_SUMMARY("fit");
}
