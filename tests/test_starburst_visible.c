/* The visible confidence of Starburst's fit_choice=visible
 * (lib/detect/starburst_visible.h): samples covered by something brighter
 * than the pupil leave the count when they form at most two arcs over at
 * most half the outline; otherwise it is the plain confidence. */
#include <math.h>

#include "lib/detect/starburst_visible.h"
#include "tests/pt_test.h"

/* A pupil of radius r at (cx, cy), level 30, in an iris of level 90; rows
 * above lid_top (and below lid_bottom) are skin of level 200. */
static void draw_eye(pt_image *img, double cx, double cy, double r, int lid_top, int lid_bottom)
{
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            double d = hypot(x - cx, y - cy);
            int v = d <= r ? 30 : 90;
            if (y < lid_top || y > lid_bottom)
                v = 200;
            img->buf[(size_t)y * img->stride + x] = (uint8_t)v;
        }
}

int main(void)
{
    pt_image *img = pt_image_create(240, 240);
    if (!img)
        return 1;
    pt_ellipse pupil = {120.0, 120.0, 60.0, 60.0, 0.0};

    /* no lid: nothing covered, the plain confidence */
    draw_eye(img, 120, 120, 60, -1, 1000);
    PT_CHECK(pt_confidence_ellipse(img, &pupil) == 1.0 &&
                 pt_visible_confidence(img, &pupil) == 1.0,
             "an open pupil: every sample passes either way");

    /* an upper lid 30 % of the diameter below the top */
    draw_eye(img, 120, 120, 60, 60 + 36, 1000);
    double plain = pt_confidence_ellipse(img, &pupil);
    double visible = pt_visible_confidence(img, &pupil);
    PT_CHECK(plain < 0.8, "the lid fails the samples of the covered arc (%.3f)", plain);
    PT_CHECK(visible == 1.0, "left out, the visible arc passes (%.3f)", visible);

    /* both lids, 25 % and 10 % of the diameter */
    draw_eye(img, 120, 120, 60, 60 + 30, 180 - 12);
    plain = pt_confidence_ellipse(img, &pupil);
    visible = pt_visible_confidence(img, &pupil);
    PT_CHECK(plain < 0.8 && visible == 1.0, "two covered arcs: %.3f plain, %.3f visible", plain,
             visible);

    /* a lid over more than half the outline: the plain confidence */
    draw_eye(img, 120, 120, 60, 60 + 80, 1000);
    PT_CHECK(pt_visible_confidence(img, &pupil) == pt_confidence_ellipse(img, &pupil),
             "a lid over most of the outline is no lid: the plain confidence");

    /* an outline around the iris (radius 90, the pupil of radius 40 inside):
     * all its samples are in the iris or beyond, none lies 20 levels above
     * a passing sample's own inside level */
    draw_eye(img, 120, 120, 40, -1, 1000);
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            if (hypot(x - 120.0, y - 120.0) > 90.0)
                img->buf[(size_t)y * img->stride + x] = 150;
    pt_ellipse iris = {120.0, 120.0, 90.0, 90.0, 0.0};
    PT_CHECK(pt_visible_confidence(img, &iris) == pt_confidence_ellipse(img, &iris),
             "an iris outline keeps its plain confidence");

    /* a fit larger than the pupil, not covered: the iris beyond the pupil is
     * 60 levels brighter, but every sample fails, so there is no pupil
     * level to compare with */
    draw_eye(img, 120, 120, 40, -1, 1000);
    pt_ellipse wide = {120.0, 120.0, 60.0, 60.0, 0.0};
    PT_CHECK(pt_visible_confidence(img, &wide) == 0.0, "no passing sample: confidence 0");

    /* three separate bright patches on the outline are no lid */
    draw_eye(img, 120, 120, 60, -1, 1000);
    for (int p = 0; p < 3; p++) {
        double a = p * 2.0 * 3.14159265358979323846 / 3.0;
        int px = (int)(120 + 60 * cos(a)), py = (int)(120 + 60 * sin(a));
        for (int y = py - 10; y <= py + 10; y++)
            for (int x = px - 10; x <= px + 10; x++)
                img->buf[(size_t)y * img->stride + x] = 200;
    }
    PT_CHECK(pt_visible_confidence(img, &pupil) == pt_confidence_ellipse(img, &pupil),
             "three covered arcs: the plain confidence");

    /* the ranks give the median of the passing samples' levels */
    int state[PT_CONFIDENCE_SAMPLES], inside[PT_CONFIDENCE_SAMPLES];
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++) {
        state[k] = k < 5 ? PT_VISIBLE_PASS : PT_VISIBLE_FAIL;
        inside[k] = k < 5 ? 50 - 3 * (k % 3) : 0; /* passing levels 50 47 44 50 47 */
    }
    int median = -1;
    for (int k = 0; k < 5; k++)
        if (pt_visible_rank(state, inside, k) == 5 / 2)
            median = k;
    PT_CHECK(median == 4, "rank 2 of 44 47 47 50 50 is the second 47 (sample %d)", median);
    pt_image_destroy(img);
    return PT_TEST_SUMMARY("starburst_visible");
}
