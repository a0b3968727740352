/* Starburst's reported size (lib/detect/starburst_size.h): the radius moved to
 * where the grey level across the fitted outline crosses size_fraction of
 * the step, the centre kept; robust to a lid over part of the outline. */
#include <math.h>
#include <string.h>

#include "lib/detect/starburst_size.h"
#include "tests/pt_sb_disc.h"
#include "tests/pt_test.h"

#define W PT_SB_DISC_W
#define CX PT_SB_DISC_CX
#define CY PT_SB_DISC_CY

/* The reported radius for a fitted circle of radius r at the disc's centre. */
static double reported(const pt_sb_view *c, double fraction, double r, double *cx)
{
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.size_fraction = fraction;
    pt_circle circle = {CX, CY, r};
    pt_ellipse ellipse = {CX, CY, r, r, 0.0};
    pt_sb_report_size(c, &k, &circle, &ellipse);
    PT_CHECK(ellipse.a == circle.r && ellipse.b == circle.r, "axes follow the radius");
    *cx = circle.cx;
    return circle.r;
}

static void test_disc(void)
{
    static uint8_t buf[W * W];
    pt_sb_view c = pt_sb_disc_view(buf, -1);
    double cx;
    PT_CHECK(reported(&c, 0.0, 20.0, &cx) == 20.0, "size_fraction 0: radius unchanged");
    PT_CHECK_NEAR(reported(&c, 0.5, 20.0, &cx), 20.0, 0.15, "0.5 on the midpoint: unchanged");
    PT_CHECK(cx == CX, "the centre stays");
    PT_CHECK_NEAR(reported(&c, 0.5, 21.5, &cx), 20.0, 0.15, "a fit 1.5 px too large: moved back");
    PT_CHECK_NEAR(reported(&c, 0.25, 20.0, &cx), 19.0, 0.15, "0.25: one px inside");
    PT_CHECK_NEAR(reported(&c, 0.1, 20.0, &cx), 18.4, 0.15, "0.1: 1.6 px inside");
    PT_CHECK_NEAR(reported(&c, 0.75, 20.0, &cx), 21.0, 0.15, "0.75: one px outside");
    /* a rotated ellipse frame reads the same normals of the same disc */
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.size_fraction = 0.25;
    pt_circle circle = {CX, CY, 20.0};
    pt_ellipse ellipse = {CX, CY, 20.0, 20.0, 37.0};
    pt_sb_report_size(&c, &k, &circle, &ellipse);
    PT_CHECK_NEAR(ellipse.a, 19.0, 0.15, "rotated frame: a");
    PT_CHECK(ellipse.a == ellipse.b && ellipse.theta == 37.0 && ellipse.cx == CX,
             "rotated frame: both axes move alike, angle and centre stay");
}

static void test_lid_and_flat(void)
{
    static uint8_t buf[W * W];
    /* the lid hides the top quarter of the outline: the median ignores it */
    pt_sb_view c = pt_sb_disc_view(buf, (int)(CY - 14));
    double cx;
    PT_CHECK_NEAR(reported(&c, 0.25, 20.0, &cx), 19.0, 0.2, "lid over a quarter: still 19");
    /* no step anywhere: nothing to measure, the fit stays */
    memset(buf, 90, sizeof buf);
    PT_CHECK(reported(&c, 0.25, 20.0, &cx) == 20.0, "flat image: radius unchanged");
    /* an outline whose normals leave the roi: unchanged */
    c = pt_sb_disc_view(buf, -1);
    c.xmax = CX - 3; /* the normals of more than half the outline reach past it */
    PT_CHECK(reported(&c, 0.25, 20.0, &cx) == 20.0, "half the normals outside the roi: unchanged");
}

int main(void)
{
    test_disc();
    test_lid_and_flat();
    return PT_TEST_SUMMARY("starburst_size");
}
