/* An outline fitted again on its border's mid-level crossings
 * (lib/detect/border_crossings.h): a blurred disc's and ellipse's border is
 * found from outlines that miss it by a few px, a lid's chord is left out,
 * a frame without a border keeps the old outline. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/detect/border_crossings.h"
#include "tests/pt_test.h"

#define W 200
#define H 200

/* Grey level of a border blurred over 4 px: 30 inside, 150 outside, 90
 * (the middle) where s = 0 (s: px beyond the border). */
static uint8_t ramp(double s)
{
    double t = (s + 2.0) / 4.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return (uint8_t)lround(30.0 + 120.0 * t);
}

/* An ellipse's border (a circle where a == b), the lid above lid_y (180;
 * -1: none). */
static void draw(uint8_t *buf, const pt_ellipse *e, double lid_y)
{
    double th = e->theta * M_PI / 180.0, ct = cos(th), st = sin(th);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double dx = x - e->cx, dy = y - e->cy;
            double u = dx * ct + dy * st, v = -dx * st + dy * ct;
            double q = sqrt(u * u / (e->a * e->a) + v * v / (e->b * e->b));
            /* px beyond the border along the ray from the centre */
            double s = (q - 1.0) * sqrt(dx * dx + dy * dy) / (q > 0.0 ? q : 1.0);
            buf[y * W + x] = y < lid_y ? 180 : ramp(s);
        }
}

static void test_disc(uint8_t *buf)
{
    pt_image img = {W, H, W, buf};
    pt_ellipse truth = {100.3, 90.7, 40.0, 40.0, 0.0}, out;
    draw(buf, &truth, -1.0);
    pt_ellipse wide = {103.3, 88.7, 44.0, 44.0, 0.0};
    PT_CHECK(pt_border_crossings(&img, &wide, &out), "a disc's outline 4 px too wide is refitted");
    PT_CHECK(hypot(out.cx - truth.cx, out.cy - truth.cy) < 0.2, "centre %.3f %.3f", out.cx,
             out.cy);
    PT_CHECK(fabs(out.a - 40.0) < 0.2 && fabs(out.b - 40.0) < 0.2, "axes %.3f %.3f", out.a,
             out.b);
    pt_ellipse narrow = {98.3, 92.7, 37.0, 37.0, 0.0};
    PT_CHECK(pt_border_crossings(&img, &narrow, &out) &&
                 hypot(out.cx - truth.cx, out.cy - truth.cy) < 0.2 &&
                 fabs(0.5 * (out.a + out.b) - 40.0) < 0.2,
             "and one 3 px too narrow");
    pt_ellipse far = {100.3, 90.7, 52.0, 52.0, 0.0};
    PT_CHECK(!pt_border_crossings(&img, &far, &out),
             "an outline beyond its reach (12 px off at radius 52) finds no border");
}

static void test_ellipse(uint8_t *buf)
{
    pt_image img = {W, H, W, buf};
    pt_ellipse truth = {99.6, 101.2, 48.0, 36.0, 30.0}, out;
    draw(buf, &truth, -1.0);
    pt_ellipse from = {101.0, 99.5, 46.0, 38.0, 25.0};
    PT_CHECK(pt_border_crossings(&img, &from, &out), "an ellipse's outline is refitted");
    PT_CHECK(hypot(out.cx - truth.cx, out.cy - truth.cy) < 0.3, "centre %.3f %.3f", out.cx,
             out.cy);
    PT_CHECK(fabs(out.a - 48.0) < 0.4 && fabs(out.b - 36.0) < 0.4, "axes %.3f %.3f", out.a,
             out.b);
    PT_CHECK(fabs(out.theta - 30.0) < 1.0, "angle %.2f", out.theta);
    pt_ellipse as_circle = {101.0, 99.5, 42.0, 42.0, 0.0};
    PT_CHECK(pt_border_crossings(&img, &as_circle, &out) &&
                 hypot(out.cx - truth.cx, out.cy - truth.cy) < 0.3 &&
                 fabs(0.5 * (out.a + out.b) - 42.0) < 0.4,
             "from the circle of its mean radius too");
}

static void test_lid(uint8_t *buf)
{
    pt_image img = {W, H, W, buf};
    pt_ellipse truth = {100.0, 100.0, 40.0, 40.0, 0.0}, out;
    draw(buf, &truth, 72.0); /* the lid hides the disc's top 12 px */
    /* a fit kept to the visible arc: too small and too low */
    pt_ellipse low = {100.0, 102.0, 38.0, 38.0, 0.0};
    PT_CHECK(pt_border_crossings(&img, &low, &out), "a lid-cut disc's outline is refitted");
    PT_CHECK(hypot(out.cx - truth.cx, out.cy - truth.cy) < 0.5, "centre %.3f %.3f", out.cx,
             out.cy);
    PT_CHECK(fabs(0.5 * (out.a + out.b) - 40.0) < 0.5, "mean radius %.3f",
             0.5 * (out.a + out.b));
}

static void test_none(uint8_t *buf)
{
    pt_image img = {W, H, W, buf};
    for (int i = 0; i < W * H; i++)
        buf[i] = 100;
    pt_ellipse e = {100.0, 100.0, 40.0, 40.0, 0.0}, out = {1, 2, 3, 4, 5};
    PT_CHECK(!pt_border_crossings(&img, &e, &out) && out.cx == 1.0,
             "a flat frame keeps the old outline");
    pt_ellipse none = {100.0, 100.0, 0.0, 0.0, 0.0};
    PT_CHECK(!pt_border_crossings(&img, &none, &out), "an outline without axes is not searched");
}

static void test_rank(void)
{
    double v[] = {3.0, 1.0, 2.0, 2.0, 5.0};
    int keep[] = {1, 1, 1, 1, 0};
    PT_CHECK(pt_cross_rank_value(v, NULL, 5, 0) == 1.0, "rank 0: the least");
    PT_CHECK(pt_cross_rank_value(v, NULL, 5, 2) == 2.0, "equal values take ranks in turn");
    PT_CHECK(pt_cross_rank_value(v, NULL, 5, 4) == 5.0, "rank 4: the greatest");
    PT_CHECK(pt_cross_rank_value(v, keep, 5, 3) == 3.0, "values not kept take no rank");
}

int main(void)
{
    uint8_t *buf = malloc(W * H);
    if (!buf)
        return 1;
    test_disc(buf);
    test_ellipse(buf);
    test_lid(buf);
    test_none(buf);
    test_rank();
    free(buf);
    return PT_TEST_SUMMARY("border_crossings");
}
