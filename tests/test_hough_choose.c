/* The Canny-Hough detector's shared final steps (lib/detect/hough_choose.h,
 * lib/detect/hough_refit.h): the darkness inside an outline, the choice of the
 * pupil over the concentric iris, and when circle mode takes an ellipse. */
#include <math.h>
#include <string.h>

#include "lib/detect/hough_choose.h"
#include "lib/detect/hough_refit.h"
#include "tests/pt_test.h"

/* A synthetic eye: grey 200, an iris disc of radius 60 at 120, a pupil
 * disc of radius 20 at 30, both centred at (100, 100); one bright
 * reflection inside the pupil. */
static pt_image *eye(void)
{
    pt_image *img = pt_image_create(200, 200);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++) {
            double d = hypot(x - 100.0, y - 100.0);
            img->buf[(size_t)y * img->stride + x] = d < 20 ? 30 : d < 60 ? 120 : 200;
        }
    for (int y = 108; y < 113; y++)
        for (int x = 90; x < 95; x++)
            img->buf[(size_t)y * img->stride + x] = 255;
    return img;
}

static void test_inside_level(void)
{
    pt_image *img = eye();
    pt_ellipse pupil = {100, 100, 20, 20, 0}, iris = {100, 100, 60, 60, 0};
    PT_CHECK(pt_hough_inside_level(img, &pupil) == 30, "pupil inside: %d",
             pt_hough_inside_level(img, &pupil));
    PT_CHECK(pt_hough_inside_level(img, &iris) == 120, "iris inside: %d",
             pt_hough_inside_level(img, &iris));
    pt_ellipse away = {-500, -500, 20, 20, 0};
    PT_CHECK(pt_hough_inside_level(img, &away) == 255, "outside the image: 255");
    /* a lid (grey 200) over the pupil down to 2 px below its centre: more
     * than half its inside, yet whole radii stay dark below it */
    for (int y = 0; y < 102; y++)
        for (int x = 0; x < 200; x++)
            img->buf[(size_t)y * img->stride + x] = 200;
    PT_CHECK(pt_hough_inside_level(img, &pupil) == 30, "lid-cut pupil inside: %d",
             pt_hough_inside_level(img, &pupil));
    pt_image_destroy(img);
}

/* A dilated pupil (radius 0.65 of the iris's): two of the three rings of
 * the iris circle lie in the pupil, the outer one in the iris all round. */
static void test_inside_dilated(void)
{
    pt_image *img = pt_image_create(200, 200);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++) {
            double d = hypot(x - 100.0, y - 100.0);
            img->buf[(size_t)y * img->stride + x] = d < 39 ? 30 : d < 60 ? 120 : 200;
        }
    pt_ellipse pupil = {100, 100, 39, 39, 0}, iris = {100, 100, 60, 60, 0};
    PT_CHECK(pt_hough_inside_level(img, &pupil) == 30, "dilated pupil inside: %d",
             pt_hough_inside_level(img, &pupil));
    PT_CHECK(pt_hough_inside_level(img, &iris) == 120, "iris around it: %d",
             pt_hough_inside_level(img, &iris));
    pt_image_destroy(img);
}

static void test_choose(void)
{
    /* the iris outline more credible than the pupil's: the pupil still wins */
    int ok[3] = {1, 1, 1}, inside[3] = {30, 32, 120};
    double value[3] = {0.7, 0.8, 0.9};
    /* concentric, as gradient voting offers them; the iris outline holds
     * the darker pupil in its middle, so its pupil score is low */
    pt_circle c[3] = {{100, 100, 18}, {100, 100, 20}, {100, 100, 50}};
    double shape[3] = {0.8, 0.8, 0.3};
    PT_CHECK(pt_hough_choose(3, ok, value, inside, shape, c) == 1, "the most credible dark one");
    /* a dark candidate far less credible than the best is not eligible */
    double weak[3] = {0.1, 0.2, 0.9};
    PT_CHECK(pt_hough_choose(3, ok, weak, inside, shape, c) == 2, "weak dark ones ignored");
    /* a third of the iris's value: the iris holds it and is left out */
    double third[3] = {0.2, 0.3, 0.9};
    PT_CHECK(pt_hough_choose(3, ok, third, inside, shape, c) == 1, "a weaker pupil inside the iris");
    /* ... unless it does not look like a pupil by itself */
    double unlike[3] = {0.1, 0.3, 0.8};
    PT_CHECK(pt_hough_choose(3, ok, third, inside, unlike, c) == 2, "a weak inner non-pupil");
    /* refinements that failed never win; none at all: -1 */
    int some[3] = {0, 0, 1};
    PT_CHECK(pt_hough_choose(3, some, value, inside, shape, c) == 2, "only ok candidates");
    int none[3] = {0, 0, 0};
    PT_CHECK(pt_hough_choose(3, none, value, inside, shape, c) == -1, "none ok");
    /* ties go to the lower index (the smaller radius) */
    double tie[3] = {0.8, 0.8, 0.1};
    PT_CHECK(pt_hough_choose(3, ok, tie, inside, shape, c) == 0, "ties to the smaller");
}

/* A dim frame: the pupil (inside 7) off the centre of the iris (inside 10),
 * whose strong outline is the more credible; 5/4 of 7 + the margin lets the
 * iris pass the darkness test, but it holds the clearly darker pupil. */
static void test_nested(void)
{
    int ok[2] = {1, 1}, inside[2] = {10, 7};
    double value[2] = {0.49, 0.37};
    pt_circle c[2] = {{79, 100, 37}, {100.6, 100.2, 15}};
    double shape[2] = {0.3, 0.6};
    PT_CHECK(pt_hough_holds_darker(2, 0, ok, value, 0.2, 0.1, inside, shape, c),
             "the iris holds the pupil");
    PT_CHECK(!pt_hough_holds_darker(2, 1, ok, value, 0.2, 0.1, inside, shape, c),
             "the pupil holds nothing");
    PT_CHECK(pt_hough_choose(2, ok, value, inside, shape, c) == 1, "the pupil inside the iris");
    /* the same pupil outside the iris's disc: no nesting, the most credible */
    pt_circle apart[2] = {{79, 100, 37}, {140, 100, 15}};
    PT_CHECK(pt_hough_choose(2, ok, value, inside, shape, apart) == 0, "not nested: most credible");
    /* a small circle within the pupil, as dark as it: the pupil stays */
    int same[2] = {30, 29};
    pt_circle inner[2] = {{100, 100, 20}, {102, 100, 8}};
    double v2[2] = {0.9, 0.6};
    PT_CHECK(pt_hough_choose(2, ok, v2, same, shape, inner) == 0, "as dark inside: the outer pupil");
    /* the darker inner one must be credible itself: from a quarter of the
     * best value (a weak pupil border in a dark iris) */
    double v3[2] = {0.9, 0.3};
    PT_CHECK(pt_hough_choose(2, ok, v3, inside, shape, c) == 1, "a third of the iris's value: the pupil");
    double v4[2] = {0.9, 0.2};
    PT_CHECK(pt_hough_choose(2, ok, v4, inside, shape, c) == 0, "a weak inner candidate: ignored");
    /* a lid-cut pupil (inside 25) and a circle in its darker lower part
     * (inside 17, clearly darker), a third as credible and no pupil by its
     * shape: the pupil stays */
    int lid_inside[2] = {25, 17};
    double lid_value[2] = {0.86, 0.37}, lid_shape[2] = {0.45, 0.01};
    pt_circle lid[2] = {{792, 647, 121}, {778, 655, 79}};
    PT_CHECK(pt_hough_choose(2, ok, lid_value, lid_inside, lid_shape, lid) == 0,
             "a dark part of a lid-cut pupil");
    /* a lid-cut pupil shaped like one (score 0.59) and a circle in a darker
     * part of it (inside 24 against 30, clearly darker), credible by its
     * value but less pupil-shaped (0.19): the pupil stays */
    int cut_inside[2] = {30, 24};
    double cut_value[2] = {0.77, 0.42}, cut_shape[2] = {0.59, 0.19};
    pt_circle cut[2] = {{745.5, 513.6, 113.5}, {809.9, 516.4, 54.6}};
    PT_CHECK(!pt_hough_holds_darker(2, 0, ok, cut_value, 0.38, 0.19, cut_inside, cut_shape, cut),
             "a less pupil-shaped inner circle is no pupil inside the outline");
    PT_CHECK(pt_hough_choose(2, ok, cut_value, cut_inside, cut_shape, cut) == 0,
             "a pupil-shaped lid-cut pupil over a darker part of it");
    /* a pupil barely darker than its iris: the iris outline scores as high
     * as the pupil's (0.79 against 0.46), but the pupil is shaped like one
     * by itself and the iris is left out */
    int low_inside[2] = {35, 29};
    double low_value[2] = {0.88, 0.25}, low_shape[2] = {0.79, 0.46};
    pt_circle low[2] = {{755, 508, 211}, {745, 514, 92}};
    PT_CHECK(pt_hough_choose(2, ok, low_value, low_inside, low_shape, low) == 1,
             "a pupil-shaped pupil inside a pupil-shaped iris outline");
    /* the lid-cut pair with the inner circle the more pupil-shaped: the
     * outer one is the iris around it */
    double iris_shape[2] = {0.19, 0.59};
    PT_CHECK(pt_hough_choose(2, ok, cut_value, cut_inside, iris_shape, cut) == 1,
             "a more pupil-shaped darker inner circle");
}

static void test_refit_credible(void)
{
    pt_circle c = {100, 100, 50};
    pt_ellipse near = {105, 98, 55, 46, 30}, off = {130, 100, 55, 46, 30},
               flat = {100, 100, 80, 40, 0};
    PT_CHECK(pt_hough_refit_credible(&c, &near), "a nearby ellipse of ratio 1.2");
    PT_CHECK(!pt_hough_refit_credible(&c, &off), "centre shifted 0.6 r");
    PT_CHECK(!pt_hough_refit_credible(&c, &flat), "ratio 2");
    pt_circle r = pt_hough_refit_circle(&near);
    PT_CHECK(r.cx == 105 && r.cy == 98 && r.r == 50.5, "centre and mean radius");
}

/* The ellipse RANSAC's annulus points: kept whole up to the cap, else every
 * k-th in order, k = ceil(n / cap), so never more than the cap. */
static void test_thin_annulus(void)
{
    enum { N = 2 * PT_HOUGH_ELLIPSE_POINTS + 5 };
    static pt_point pts[N];
    for (int k = 0; k < N; k++) {
        pts[k].x = (float)k;
        pts[k].y = (float)-k;
    }
    PT_CHECK(pt_hough_thin_annulus(pts, PT_HOUGH_ELLIPSE_POINTS) == PT_HOUGH_ELLIPSE_POINTS &&
                 pts[PT_HOUGH_ELLIPSE_POINTS - 1].x == PT_HOUGH_ELLIPSE_POINTS - 1,
             "at the cap: unchanged");
    int m = pt_hough_thin_annulus(pts, N);
    int ordered = 1;
    for (int k = 0; k < m; k++)
        ordered &= pts[k].x == (float)(3 * k) && pts[k].y == (float)(-3 * k);
    PT_CHECK(m == (N + 2) / 3 && m <= PT_HOUGH_ELLIPSE_POINTS,
             "2 cap + 5 points: every 3rd, %d kept", m);
    PT_CHECK(ordered, "every 3rd point, in order");
    pts[0].x = 7.0f;
    PT_CHECK(pt_hough_thin_annulus(pts, 3) == 3 && pts[0].x == 7.0f, "a few points: unchanged");
}

int main(void)
{
    test_inside_level();
    test_inside_dilated();
    test_choose();
    test_nested();
    test_refit_credible();
    test_thin_annulus();
    return PT_TEST_SUMMARY("hough_choose");
}
