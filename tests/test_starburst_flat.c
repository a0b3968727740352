/* Starburst's rejection of edge points on flat edges
 * (lib/detect/starburst_flat.h): points on a lid's straight edge are flat,
 * points on any pupil up to max_radius are not, and the edge directions
 * come from the grey levels. */
#include <math.h>
#include <string.h>

#include "lib/detect/starburst_flat.h"
#include "tests/pt_sb_disc.h"
#include "tests/pt_test.h"

#define W PT_SB_DISC_W
#define MAXN 256

/* Points on a circle (cx, cy, r), every `step` degrees, with their outward
 * normals; returns their number. */
static int circle_points(double cx, double cy, double r, double step, pt_point *pts,
                         pt_point *nrm)
{
    int n = 0;
    for (double a = 0; a < 360 && n < MAXN; a += step, n++) {
        double c = cos(a * M_PI / 180.0), s = sin(a * M_PI / 180.0);
        pts[n].x = (float)(cx + r * c);
        pts[n].y = (float)(cy + r * s);
        nrm[n].x = (float)c;
        nrm[n].y = (float)s;
    }
    return n;
}

static int count_flat_band(const pt_point *pts, const pt_point *nrm, const uint8_t *found, int n,
                           double max_r, double band)
{
    int flat = 0;
    double reach = pt_sb_flat_reach(max_r, band);
    for (int i = 0; i < n; i++)
        flat += (!found || found[i]) && pt_sb_flat_point(pts, nrm, found, n, i, reach, band);
    return flat;
}

/* with the default flat_band, 1 px */
static int count_flat(const pt_point *pts, const pt_point *nrm, const uint8_t *found, int n,
                      double max_r)
{
    return count_flat_band(pts, nrm, found, n, max_r, 1.0);
}

static void test_geometry(void)
{
    static pt_point pts[MAXN], nrm[MAXN];
    const double max_r = 100;
    /* pupils of every size up to max_radius, sampled densely: no point is flat */
    for (double r = 4; r <= max_r; r += 8) {
        int n = circle_points(64.5, 63.2, r, 2.0, pts, nrm);
        PT_CHECK(count_flat(pts, nrm, NULL, n, max_r) == 0, "a pupil up to max_radius keeps all");
    }
    /* a straight lid edge 60 px long, dark below, bright above: all flat */
    int n = 0;
    for (double x = 30; x <= 90; x += 2.5, n++) {
        pts[n].x = (float)x;
        pts[n].y = (float)(40 + 0.05 * x);
        nrm[n].x = 0.05f / sqrtf(1.0025f);
        nrm[n].y = -1.0f / sqrtf(1.0025f);
    }
    PT_CHECK(count_flat(pts, nrm, NULL, n, max_r) == n, "a straight edge is flat");
    /* an edge much flatter than any pupil (radius 10 x max_radius) is flat too */
    int arc = 0;
    for (double a = 267; a <= 273; a += 0.25, arc++) { /* the top of the circle, 105 px */
        double c = cos(a * M_PI / 180.0), s = sin(a * M_PI / 180.0);
        pts[arc].x = (float)(64 + 1000 * c);
        pts[arc].y = (float)(1064 + 1000 * s);
        nrm[arc].x = (float)c;
        nrm[arc].y = (float)s;
    }
    PT_CHECK(arc > 20, "arc sampled");
    PT_CHECK(count_flat(pts, nrm, NULL, arc, max_r) == arc, "a near-straight arc is flat");
    /* the same straight run with its normals turned by 30 degrees (not one edge) */
    n = 0;
    for (double x = 30; x <= 90; x += 2.5, n++) {
        pts[n].x = (float)x;
        pts[n].y = 40.0f;
        double a = (n & 1 ? 30.0 : -30.0) * M_PI / 180.0;
        nrm[n].x = (float)sin(a);
        nrm[n].y = (float)-cos(a);
    }
    PT_CHECK(count_flat(pts, nrm, NULL, n, max_r) == 0, "edge directions must agree");
    /* found flags: the partners of a point must be found ones */
    static uint8_t found[MAXN];
    n = 0;
    for (double x = 30; x <= 90; x += 10, n++) {
        pts[n].x = (float)x;
        pts[n].y = 40.0f;
        nrm[n].x = 0.0f;
        nrm[n].y = -1.0f;
        found[n] = 1;
    }
    PT_CHECK(count_flat(pts, nrm, found, n, max_r) == n, "7 points on a line, all found");
    for (int i = 1; i < n; i++)
        found[i] = i == 1;
    PT_CHECK(count_flat(pts, nrm, found, n, max_r) == 0,
             "two found points: one partner each, not flat");
    /* a few chance alignments do not make an edge */
    PT_CHECK(!pt_sb_flat_drops(PT_SB_FLAT_MIN - 1) && pt_sb_flat_drops(PT_SB_FLAT_MIN),
             "flat points leave the fit from PT_SB_FLAT_MIN on");
}

/* flat_band: a lid edge whose points scatter by +-2 px about it is flat
 * within a 3 px band and not within 1 px; pupils up to max_radius stay
 * whole at any band (the reach grows with it). */
static void test_band(void)
{
    static pt_point pts[MAXN], nrm[MAXN];
    const double max_r = 100;
    for (double band = 0.5; band <= 8; band *= 2)
        for (double r = 4; r <= max_r; r += 8) {
            int n = circle_points(64.5, 63.2, r, 2.0, pts, nrm);
            PT_CHECK(count_flat_band(pts, nrm, NULL, n, max_r, band) == 0,
                     "a pupil up to max_radius keeps all at any band");
        }
    int n = 0;
    for (double x = 20; x <= 140; x += 4, n++) {
        pts[n].x = (float)x;
        pts[n].y = (float)(40 + ((n % 3) - 1) * 2.0);
        nrm[n].x = 0.0f;
        nrm[n].y = -1.0f;
    }
    PT_CHECK(count_flat_band(pts, nrm, NULL, n, max_r, 3.0) == n,
             "a scattered lid edge is flat within 3 px");
    pt_point up = {0.0f, -1.0f}, a = {50.0f, 40.0f}, b = {110.0f, 42.0f};
    PT_CHECK(!pt_sb_flat_partner(a, up, b, up, pt_sb_flat_reach(max_r, 1.0), 1.0),
             "2 px off the tangent: no partner within 1 px");
    PT_CHECK(pt_sb_flat_partner(a, up, b, up, pt_sb_flat_reach(max_r, 3.0), 3.0),
             "2 px off the tangent: a partner within 3 px");
}

static void test_normals(void)
{
    static uint8_t buf[W * W];
    pt_sb_view c = pt_sb_disc_view(buf, 54);
    /* on the disc's border at 30 degrees below the x axis: radial */
    double a = 30 * M_PI / 180.0;
    pt_point e = {(float)(64.3 + 20 * cos(a)), (float)(63.7 + 20 * sin(a))};
    pt_point n = pt_sb_edge_normal(&c, e);
    PT_CHECK(n.x * cos(a) + n.y * sin(a) > cos(5 * M_PI / 180.0), "border normal is radial");
    PT_CHECK_NEAR(n.x * n.x + n.y * n.y, 1.0, 1e-6, "unit normal");
    /* on the lid's edge (row 53.5) inside the disc: pointing up, to the bright lid */
    pt_point lid = {60.0f, 53.5f};
    n = pt_sb_edge_normal(&c, lid);
    PT_CHECK(n.y < -0.99f, "lid normal points up");
    /* flat grey: no direction */
    pt_point mid = {64.0f, 64.0f};
    n = pt_sb_edge_normal(&c, mid);
    PT_CHECK(n.x == 0.0f && n.y == 0.0f, "no gradient: zero normal");
    /* next to the roi's border: no direction either */
    pt_point corner = {1.0f, 64.0f};
    n = pt_sb_edge_normal(&c, corner);
    PT_CHECK(n.x == 0.0f && n.y == 0.0f, "samples outside the roi: zero normal");
}

int main(void)
{
    test_geometry();
    test_band();
    test_normals();
    return PT_TEST_SUMMARY("starburst_flat");
}
