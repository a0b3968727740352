/* Starburst's radial votes (lib/detect/starburst_radial.h): a point votes
 * for a circle only when its edge direction lies within vote_angle of the
 * circle's radius through it. */
#include <math.h>

#include "lib/detect/starburst_radial.h"
#include "tests/pt_test.h"

static pt_sb_config config(double angle)
{
    pt_sb_config k = {0};
    k.vote_cos = angle > 0 ? cos(angle * M_PI / 180.0) : -2.0;
    return k;
}

static pt_point dir(double deg)
{
    pt_point n = {(float)cos(deg * M_PI / 180.0), (float)sin(deg * M_PI / 180.0)};
    return n;
}

int main(void)
{
    pt_circle c = {100.0, 80.0, 40.0};
    pt_sb_config on = config(20), off = config(0);
    PT_CHECK(pt_sb_radial_on(&on) && !pt_sb_radial_on(&off), "vote_angle 0 is off");
    /* a point on the circle at 30 degrees, its edge direction radial */
    pt_point p = {(float)(100 + 40 * cos(M_PI / 6)), (float)(80 + 40 * sin(M_PI / 6))};
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, dir(30)), "a radial edge direction votes");
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, dir(45)), "15 degrees off: within 20");
    PT_CHECK(!pt_sb_radial_vote(&on, &c, p, dir(55)), "25 degrees off: not within 20");
    PT_CHECK(!pt_sb_radial_vote(&on, &c, p, dir(210)), "dark outside (inward rise) never votes");
    /* a lid's edge across the circle's top: direction straight up (bright lid above) */
    pt_point lid = {(float)(100 + 30), (float)(80 - 26.46)};
    PT_CHECK(!pt_sb_radial_vote(&on, &c, lid, dir(-90)),
             "a horizontal lid edge 49 degrees from the radius does not vote");
    pt_point top = {100.0f, 40.0f};
    PT_CHECK(pt_sb_radial_vote(&on, &c, top, dir(-90)), "where the lid touches the top it does");
    /* nothing to test: off, a zero direction, the centre */
    PT_CHECK(pt_sb_radial_vote(&off, &c, p, dir(120)), "off: every point votes");
    pt_point zero = {0.0f, 0.0f}, centre = {100.0f, 80.0f};
    PT_CHECK(pt_sb_radial_vote(&on, &c, p, zero), "no edge direction: votes");
    PT_CHECK(pt_sb_radial_vote(&on, &c, centre, dir(0)), "the centre: votes");
    return PT_TEST_SUMMARY("starburst_radial");
}
