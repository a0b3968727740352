/* The shared Starburst ray logic (lib/detect/starburst_ray.h): exact-operation
 * cos/sin against the C library, stage-2 directions, edge location on a
 * blurred step, reflections walked over, and the circle inlier band. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/starburst_ray.h"
#include "tests/pt_test.h"

static void test_cos_sin(void)
{
    double worst = 0.0;
    for (int i = -20000; i <= 20000; i++) {
        double a = i * 0.00157;
        double c, s;
        pt_sb_cos_sin(a, &c, &s);
        double e = fmax(fabs(c - cos(a)), fabs(s - sin(a)));
        if (e > worst)
            worst = e;
    }
    PT_CHECK(worst < 1e-14, "cos/sin worst error %.3g", worst);
    double c, s;
    pt_sb_cos_sin(0.0, &c, &s);
    PT_CHECK(c == 1.0 && s == 0.0, "cos/sin(0) = %g, %g", c, s);
    pt_sb_stage1_dir(5, 20, &c, &s); /* 90 degrees */
    PT_CHECK_NEAR(c, 0.0, 1e-15, "ray 5 of 20: dx");
    PT_CHECK_NEAR(s, 1.0, 1e-15, "ray 5 of 20: dy");
}

static void test_stage2(void)
{
    pt_point start = {10.0f, 10.0f}, from = {20.0f, 10.0f};
    double dx, dy;
    PT_CHECK(pt_sb_stage2_dir(start, from, 2, 5, 0.5, &dx, &dy), "direction exists");
    PT_CHECK_NEAR(dx, -1.0, 1e-15, "middle ray points back: dx");
    PT_CHECK_NEAR(dy, 0.0, 1e-15, "middle ray points back: dy");
    PT_CHECK(pt_sb_stage2_dir(start, from, 0, 5, 0.5, &dx, &dy), "first ray");
    PT_CHECK_NEAR(atan2(dy, dx), M_PI - 0.5, 1e-12, "first ray at -spread");
    PT_CHECK_NEAR(dx * dx + dy * dy, 1.0, 1e-15, "unit length");
    PT_CHECK(!pt_sb_stage2_dir(start, start, 0, 5, 0.5, &dx, &dy), "no direction from the start");
    PT_CHECK(pt_sb_stage2_len(start, from, 1000, 2) == 31, "stage-2 length 2.5 d + 2 g + 2: %d",
             pt_sb_stage2_len(start, from, 1000, 2));
}

/* A horizontal profile: dark (40) up to x = edge, then a linear ramp over
 * 4 px to 140, with an optional bright spot (250) at [spot, spot + 3). */
static pt_sb_view profile_view(uint8_t *buf, int w, double edge, int spot)
{
    for (int x = 0; x < w; x++) {
        double v = x < edge ? 40 : (x < edge + 4 ? 40 + 25 * (x - edge) : 140);
        if (spot >= 0 && x >= spot && x < spot + 3)
            v = 250;
        buf[x] = (uint8_t)lround(v);
    }
    pt_sb_view c;
    memset(&c, 0, sizeof c);
    c.buf = buf;
    c.width = w;
    c.height = 1;
    c.stride = w;
    c.xmax = w - 1;
    c.threshold = 15;
    c.gap = 1;
    c.edge_level = 1.0;
    c.max_step = 160;
    return c;
}

static void test_edges(void)
{
    uint8_t buf[200];
    pt_sb_view c = profile_view(buf, 200, 60, -1);
    pt_point e;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found");
    PT_CHECK_NEAR(e.x, 62.0, 0.6, "edge at the middle of the ramp");
    c.edge_level = 0.3;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (level 0.3)");
    PT_CHECK(e.x < 61.5 && e.x > 58.0, "level 0.3 edge on the dark side: %.2f", e.x);
    /* a reflection inside the pupil is walked over */
    c = profile_view(buf, 200, 60, 30);
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge behind a reflection");
    PT_CHECK_NEAR(e.x, 62.0, 0.6, "edge behind the reflection");
    c.max_step = 0;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e) && e.x < 32, "glint_step 0: the spot is the edge");
    /* a ray that ends before the edge finds none */
    c = profile_view(buf, 200, 60, -1);
    PT_CHECK(!pt_sb_cast(&c, 0, 0, 1, 0, 50, &e), "short ray: no edge");
}

/* edge_fraction: the edge where the grey level crosses that share of the
 * step, on a symmetric blurred step 40 -> 140 with its midpoint at x = 60. */
static void test_edge_fraction(void)
{
    uint8_t buf[200];
    pt_sb_view c = profile_view(buf, 200, 60, -1);
    static const uint8_t step[] = {40, 45, 60, 90, 120, 135, 140};
    for (int x = 0; x < 200; x++)
        buf[x] = x < 57 ? 40 : (x < 64 ? step[x - 57] : 140);
    pt_point e;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (steepest point)");
    PT_CHECK_NEAR(e.x, 60.0, 1e-4, "steepest point at the midpoint");
    c.edge_fraction = 0.5;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (fraction 0.5)");
    PT_CHECK_NEAR(e.x, 60.0, 1e-4, "fraction 0.5: the midpoint");
    c.edge_fraction = 0.25; /* level 65: between 60 at x = 59 and 90 at x = 60 */
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (fraction 0.25)");
    PT_CHECK_NEAR(e.x, 59.0 + 5.0 / 30.0, 1e-4, "fraction 0.25: interpolated crossing");
    c.edge_fraction = 0.1; /* level 50: between 45 at x = 58 and 60 at x = 59 */
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (fraction 0.1)");
    PT_CHECK_NEAR(e.x, 58.0 + 5.0 / 15.0, 1e-4, "fraction 0.1: interpolated crossing");
    c.edge_fraction = 0.75; /* level 115: between 90 at x = 60 and 120 at x = 61 (forward) */
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (fraction 0.75)");
    PT_CHECK_NEAR(e.x, 60.0 + 25.0 / 30.0, 1e-4, "fraction 0.75: crossing beyond the steepest point");
    c.edge_fraction = 0.25;
    c.edge_offset = 1.0;
    PT_CHECK(pt_sb_cast(&c, 0, 0, 1, 0, 199, &e), "edge found (fraction and offset)");
    PT_CHECK_NEAR(e.x, 58.0 + 5.0 / 30.0, 1e-4, "edge_offset applies after the crossing");
    /* a ray starting inside the step's span: no crossing, the steepest point stays */
    c.edge_offset = 0.0;
    PT_CHECK(pt_sb_cast(&c, 58, 0, 1, 0, 140, &e), "edge found from inside the step");
    PT_CHECK(e.x >= 58.0f && e.x <= 61.0f, "edge within the step: %.2f", e.x);
}

static void test_band(void)
{
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.inlier = 2.0;
    k.circle_tol = 0.1;
    pt_circle small = {0, 0, 10}, big = {0, 0, 100};
    PT_CHECK(pt_sb_circle_band(&k, small.r) == 2.0, "band at least ransac_inlier");
    PT_CHECK(pt_sb_circle_band(&k, big.r) == 10.0, "band 10 %% of r");
    PT_CHECK(pt_sb_circle_inlier(&k, &big, 109, 0) && !pt_sb_circle_inlier(&k, &big, 111, 0),
             "inlier within the band only");
    k.gap = 0;
    k.gap_min = 3;
    PT_CHECK(pt_sb_gap(&k, 1) == 3 && pt_sb_gap(&k, 4) == 4, "auto gap floor");
    k.gap = 2;
    PT_CHECK(pt_sb_gap(&k, 4) == 2, "explicit gap wins");
}

/* A pupil of radius 50 (points 1 px in and out) under a straight lid edge
 * y = -40: a circle of radius 250 touching the edge holds most of the edge
 * within its band of 25 px and outvotes the pupil in band mode; within
 * ransac_inlier the pupil wins. */
static int count_votes(const pt_sb_config *k, const pt_circle *c, const pt_point *pts, int n)
{
    int votes = 0;
    for (int i = 0; i < n; i++)
        votes += pt_sb_circle_vote(k, c, pts[i].x, pts[i].y);
    return votes;
}

static void test_circle_votes(void)
{
    pt_point pts[72];
    int n = 0;
    for (int i = 0; i < 24; i++) {
        double c, s, r = i % 2 ? 51.0 : 49.0;
        pt_sb_cos_sin(2.0 * 3.14159265358979323846 * i / 24, &c, &s);
        pts[n].x = (float)(r * c);
        pts[n++].y = (float)(r * s);
    }
    for (int x = -120; x <= 120; x += 6) {
        pts[n].x = (float)x;
        pts[n++].y = -40.0f;
    }
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.inlier = 2.0;
    k.circle_tol = 0.1;
    pt_circle pupil = {0, 0, 50}, lid = {0, 210, 250};
    k.circle_votes = PT_SB_VOTES_BAND;
    int pb = count_votes(&k, &pupil, pts, n), lb = count_votes(&k, &lid, pts, n);
    PT_CHECK(lb > pb, "band votes favour the large circle: %d vs %d", lb, pb);
    k.circle_votes = PT_SB_VOTES_INLIER;
    int pi = count_votes(&k, &pupil, pts, n), li = count_votes(&k, &lid, pts, n);
    PT_CHECK(pi > li, "inlier votes favour the pupil: %d vs %d", pi, li);
    PT_CHECK(pi == 24 + 2, "the pupil's points and the edge's two on it: %d", pi);
    PT_CHECK(pt_sb_circle_vote(&k, &lid, 0, -42) && !pt_sb_circle_vote(&k, &lid, 0, -37),
             "vote within ransac_inlier only");
}

int main(void)
{
    test_cos_sin();
    test_circle_votes();
    test_stage2();
    test_edges();
    test_edge_fraction();
    test_band();
    return PT_TEST_SUMMARY("starburst_ray");
}
