/* tl's shared rules (lib/detect/tl_nest.h, tl_shape.h): which fit encloses
 * which, when circle mode takes the ellipse's circle. */
#include <math.h>

#include "lib/detect/tl_nest.h"
#include "lib/detect/tl_shape.h"
#include "tests/pt_test.h"

static void test_nested(void)
{
    pt_circle iris = {100.0, 100.0, 60.0}, pupil = {110.0, 95.0, 25.0};
    PT_CHECK(pt_tl_nested(&iris, &pupil), "a pupil inside the iris is nested");
    PT_CHECK(!pt_tl_nested(&pupil, &iris), "the iris is not nested in the pupil");
    pt_circle big = {100.0, 100.0, 45.0};
    PT_CHECK(!pt_tl_nested(&iris, &big), "a circle of 3/4 the radius is not nested");
    pt_circle out = {140.0, 100.0, 25.0};
    PT_CHECK(!pt_tl_nested(&iris, &out), "a circle crossing the outline is not nested");
    pt_circle edge = {135.0, 100.0, 25.0};
    PT_CHECK(pt_tl_nested(&iris, &edge), "a circle touching the outline from inside is nested");
}

static void test_prefer_ellipse(void)
{
    pt_circle c = {100.0, 100.0, 40.0};
    pt_ellipse e = {102.0, 104.0, 44.0, 36.0, 10.0};
    PT_CHECK(pt_tl_prefer_ellipse(&c, 100, &e, 141), "1.41 times the votes: the ellipse");
    PT_CHECK(!pt_tl_prefer_ellipse(&c, 100, &e, 140), "1.4 times the votes: the circle");
    pt_ellipse flat = {100.0, 100.0, 61.0, 40.0, 0.0};
    PT_CHECK(!pt_tl_prefer_ellipse(&c, 100, &flat, 300), "axes ratio above 1.5: the circle");
    pt_ellipse away = {100.0, 115.0, 44.0, 36.0, 0.0};
    PT_CHECK(!pt_tl_prefer_ellipse(&c, 100, &away, 300), "centre 0.375 r away: the circle");
    pt_circle m = pt_tl_ellipse_circle(&e);
    PT_CHECK(m.cx == 102.0 && m.cy == 104.0 && m.r == 40.0, "the ellipse's circle: mean radius");
}

int main(void)
{
    test_nested();
    test_prefer_ellipse();
    return PT_TEST_SUMMARY("tl_rules");
}
