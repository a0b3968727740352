/* The Canny-Hough refinement's dark-side test (lib/detect/hough_dark.h): an edge
 * point is kept when the pupil lies behind it, not skin or iris. */
#include <math.h>

#include "lib/detect/hough_dark.h"
#include "tests/pt_test.h"

/* Grey 200 (skin) above row 40, a pupil disc of radius 30 at 20 centred at
 * (100, 100), iris (120) elsewhere; a glint (250) rows 96..104, columns
 * 71..76, just inside the pupil's left border. */
static pt_image *scene(void)
{
    pt_image *img = pt_image_create(200, 200);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++) {
            double d = hypot(x - 100.0, y - 100.0);
            int g = y < 40 ? 200 : d < 30 ? 20 : 120;
            if (y >= 96 && y <= 104 && x >= 71 && x <= 76)
                g = 250;
            img->buf[(size_t)y * img->stride + x] = (uint8_t)g;
        }
    return img;
}

static void test_limit(void)
{
    PT_CHECK(pt_hough_dark_limit(20, 12) == 32, "inside 20 + spread 12");
    PT_CHECK(pt_hough_dark_limit(200, 100) == 255, "capped at 255");
    PT_CHECK(pt_hough_dark_limit(0, 255) == 255, "spread 255: no test");
}

static void test_behind(void)
{
    pt_image *img = scene();
    int limit = pt_hough_dark_limit(20, 12);
    double reach = PT_HOUGH_DARK_REACH * 30.0; /* 3 px steps */
    /* the pupil's bottom border, dark side up: pupil behind it */
    PT_CHECK(pt_hough_dark_behind(img, 100.0, 130.0, 0.0, -1.0, reach, limit),
             "pupil border: dark behind");
    /* the right border, dark side to the left */
    PT_CHECK(pt_hough_dark_behind(img, 130.0, 100.0, -1.0, 0.0, reach, limit),
             "right border: dark behind");
    /* the left border behind a glint: the glint covers the first steps
     * (3 and 6 px in), the third (9 px) reaches the pupil */
    PT_CHECK(pt_hough_dark_behind(img, 68.0, 100.0, 1.0, 0.0, reach, limit),
             "left border behind a glint: the deepest step is dark");
    /* an edge in the skin above the lid facing down at skin: not the pupil */
    PT_CHECK(!pt_hough_dark_behind(img, 100.0, 20.0, 0.0, 1.0, reach, limit),
             "skin behind: rejected");
    /* the iris outline facing the centre from 50 px: iris behind */
    PT_CHECK(!pt_hough_dark_behind(img, 100.0, 150.0, 0.0, -1.0, reach, limit),
             "iris behind: rejected");
    /* an iris-level limit keeps it */
    PT_CHECK(pt_hough_dark_behind(img, 100.0, 150.0, 0.0, -1.0, reach,
                                  pt_hough_dark_limit(120, 12)),
             "iris behind, iris-dark limit: kept");
    /* outside the image: nothing to tell, kept */
    PT_CHECK(pt_hough_dark_behind(img, 199.0, 100.0, 1.0, 0.0, reach, limit),
             "steps leave the image: kept");
    pt_image_destroy(img);
}

int main(void)
{
    test_limit();
    test_behind();
    return PT_TEST_SUMMARY("hough_dark");
}
