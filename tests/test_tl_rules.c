/* tl's shared rules (lib/detect/tl_nest.h, tl_shape.h, tl_flat.h,
 * tl_level.h): which fit encloses which, when circle mode takes the
 * ellipse's circle, which border pixels lie on flat edges, where the refit
 * level's outside ring lies. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/detect/tl_flat.h"
#include "lib/detect/tl_level.h"
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

/* tl_shape_confidence: the ellipse's own outline against the circle's, and
 * the reported circle not below the reporting minimum where the circle is
 * not (lib/detect/tl_shape.h). */
static void test_ellipse_credible(void)
{
    PT_CHECK(pt_tl_ellipse_credible(0.8, 0.77, 0.5, 0.95, 100, 200),
             "an outline 0.95 times as confident stands");
    PT_CHECK(!pt_tl_ellipse_credible(0.8, 0.75, 0.9, 0.95, 100, 200),
             "the ellipse's own outline decides, not the circle reported for it");
    PT_CHECK(!pt_tl_ellipse_credible(0.8, 0.9, 0.2, 0.95, 100, 200),
             "a reported circle below the minimum where the circle is not: the circle");
    PT_CHECK(pt_tl_ellipse_credible(0.2, 0.9, 0.1, 0.95, 100, 200),
             "below the minimum both: the outline decides");
    PT_CHECK(pt_tl_ellipse_credible(0.8, 0.1, 0.1, 0.95, 150, 200) &&
                 pt_tl_ellipse_credible(0.8, 0.1, 0.1, 0.0, 100, 200),
             "a clean outline (3/4 of the border), or a share of 0: the votes decide");
}

#define FW 200
#define FH 200

/* A dark disc of radius 40 at (100, 100) on a bright frame, cut by a lid
 * above row cut (cut < 60: the whole disc); its 4-neighbour border pixels in
 * raster order into pts with their rows' first indices; returns their number. */
static int lid_disc(uint8_t *img, int cut, pt_point *pts, int *row_start)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            double dx = x - 100.0, dy = y - 100.0;
            img[y * FW + x] = dx * dx + dy * dy <= 40.0 * 40.0 && y >= cut ? 20 : 200;
        }
    int n = 0;
    for (int y = 0; y < FH; y++) {
        row_start[y] = n;
        for (int x = 1; x + 1 < FW; x++) {
            if (y == 0 || y + 1 == FH || img[y * FW + x] != 20)
                continue;
            if (img[y * FW + x - 1] != 20 || img[y * FW + x + 1] != 20 ||
                img[(y - 1) * FW + x] != 20 || img[(y + 1) * FW + x] != 20) {
                pts[n].x = (float)x;
                pts[n].y = (float)y;
                n++;
            }
        }
    }
    return n;
}

static void test_flat(void)
{
    static uint8_t img[FW * FH];
    static pt_point pts[FW * FH], normals[FW * FH];
    static int row_start[FH];
    double reach = pt_tl_flat_reach(80.0); /* max_radius of a 200x200 region */
    int n = lid_disc(img, 75, pts, row_start);
    int chord = 0, chord_flat = 0, arc_flat = 0, flat = 0, differ = 0;
    for (int i = 0; i < n; i++)
        normals[i] = pt_tl_flat_normal(img, FW, FW, FH, (int)pts[i].x, (int)pts[i].y);
    for (int i = 0; i < n; i++) {
        int f = pt_tl_flat_point(pts, row_start, 0, FH, n, img, FW, FW, FH, i, reach, NULL);
        /* the edge directions taken once for all the searches: the same pixels */
        differ += f != pt_tl_flat_point(pts, row_start, 0, FH, n, img, FW, FW, FH, i, reach,
                                        normals);
        flat += f;
        if (pts[i].y == 75.0f && fabs(pts[i].x - 100.0) < 20.0) {
            chord++;
            chord_flat += f;
        }
        if (pts[i].y > 80.0f)
            arc_flat += f;
    }
    PT_CHECK(differ == 0, "%d pixels differ with the edge directions taken once", differ);
    PT_CHECK(chord > 30 && chord_flat == chord, "the middle of a lid's chord is flat");
    PT_CHECK(arc_flat == 0, "no pixel of the disc's arc is flat");
    PT_CHECK(pt_tl_flat_drops(flat, n, reach), "the chord's pixels leave the border");
    n = lid_disc(img, 0, pts, row_start);
    flat = 0;
    for (int i = 0; i < n; i++)
        flat += pt_tl_flat_point(pts, row_start, 0, FH, n, img, FW, FW, FH, i, reach, NULL);
    PT_CHECK(flat == 0, "no pixel of a whole disc is flat");
    PT_CHECK(!pt_tl_flat_drops(PT_TL_FLAT_MIN - 1, 1000, 4.0), "a few flat pixels stay");
    PT_CHECK(!pt_tl_flat_drops(20, 1000, 21.9), "fewer flat pixels than the reach stay");
    PT_CHECK(!pt_tl_flat_drops(800, 1000, 21.9), "a border mostly flat stays whole");
}

static void test_level(void)
{
    PT_CHECK(pt_tl_level_outside(10.0, 8.0) == 18.0, "a small pupil's surround: the gap out");
    PT_CHECK(pt_tl_level_outside(10.0, 2.0) == 12.5, "or a quarter radius out, if farther");
    PT_CHECK(pt_tl_level_outside(100.0, 8.0) == 125.0, "a large pupil's a quarter radius out");
}

int main(void)
{
    test_nested();
    test_prefer_ellipse();
    test_ellipse_credible();
    test_flat();
    test_level();
    return PT_TEST_SUMMARY("tl_rules");
}
