/* Canny-Hough's coarse pupil localisation (lib/detect/hough_seed.h): the
 * integral image of the cell grid, the darkest box, which seed candidates
 * repeat a voting candidate, and the confidence's darkness factor. */
#include <math.h>
#include <stdlib.h>

#include "lib/detect/hough_seed.h"
#include "tests/pt_test.h"

/* A dim eye: skin 60, an iris disc of radius 40 (grey 24) centred at
 * (100, 100), a pupil of radius 14 (grey 16) off its centre at (112, 96),
 * a glint already filled in, and pixel noise of +-2 from a fixed LCG. */
static pt_image *dim_eye(void)
{
    pt_image *img = pt_image_create(200, 200);
    unsigned state = 12345u;
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++) {
            state = state * 1103515245u + 12345u;
            int noise = (int)((state >> 16) % 5) - 2;
            double di = hypot(x - 100.0, y - 100.0), dp = hypot(x - 112.0, y - 96.0);
            int g = dp < 14.0 ? 16 : di < 40.0 ? 24 : 60;
            img->buf[(size_t)y * img->stride + x] = (uint8_t)(g + noise);
        }
    return img;
}

static void test_integral(void)
{
    pt_image *img = dim_eye();
    int x0 = 7, y0 = 5, w = 150, h = 120, cell = 3, gw = w / cell, gh = h / cell;
    int32_t *ii = malloc((size_t)(gw + 1) * (gh + 1) * sizeof *ii);
    pt_hough_seed_integral(img, x0, y0, w, h, cell, ii);
    int bad = 0;
    /* every box of a few sizes against the direct sum of its pixels */
    for (int by = 0; by + 4 <= gh; by += 5)
        for (int bx = 0; bx + 6 <= gw; bx += 7) {
            int32_t direct = 0;
            for (int y = by * cell; y < (by + 4) * cell; y++)
                for (int x = bx * cell; x < (bx + 6) * cell; x++)
                    direct += img->buf[(size_t)(y0 + y) * img->stride + x0 + x];
            bad += pt_hough_seed_box(ii, gw, bx, by, bx + 6, by + 4) != direct;
        }
    PT_CHECK(bad == 0, "box sums from the integral image: %d wrong", bad);
    PT_CHECK(pt_hough_seed_box(ii, gw, 0, 0, 0, gh) == 0, "empty box: 0");
    pt_image_destroy(img);
    free(ii);
}

static void test_darkest(void)
{
    pt_image *img = dim_eye();
    int min_r = 4, cell = pt_hough_seed_cell(min_r), gw = 200 / cell, gh = 200 / cell;
    PT_CHECK(cell == 2, "cell: half the smallest radius (%d)", cell);
    PT_CHECK(pt_hough_seed_cell(1) == 1, "cell at least 1 px");
    int32_t *ii = malloc((size_t)(gw + 1) * (gh + 1) * sizeof *ii);
    pt_hough_seed_integral(img, 0, 0, 200, 200, cell, ii);
    pt_hough_seed seed;
    PT_CHECK(pt_hough_darkest(ii, gw, gh, &seed), "a seed in a 100 x 100 grid");
    double px = (seed.gx + 0.5) * cell - 0.5, py = (seed.gy + 0.5) * cell - 0.5;
    /* the box lies in the pupil (within half its radius of the centre),
     * not at the iris centre 12.6 px away */
    PT_CHECK(hypot(px - 112.0, py - 96.0) <= 7.0, "seed at (%.1f, %.1f), pupil at (112, 96)",
             px, py);
    PT_CHECK_NEAR(pt_hough_seed_radius(&seed, cell), 7 * 2 / sqrt(M_PI), 1e-6,
                  "seed radius: a disc of the box's area");
    /* a grid smaller than the box has no seed */
    PT_CHECK(!pt_hough_darkest(ii, 6, 6, &seed), "6 x 6 grid: no 7 x 7 box");
    pt_image_destroy(img);
    free(ii);
}

static void test_repeats(void)
{
    pt_circle vote[2] = {{100, 100, 50}, {300, 300, 20}};
    int ok[2] = {1, 1}, off[2] = {0, 1}, inside[2] = {30, 30};
    pt_circle lid_cut = {101, 112, 43}; /* the lower part of the same pupil */
    pt_circle pupil_in_iris = {120, 100, 15};
    pt_circle far = {200, 200, 48};
    PT_CHECK(pt_hough_seed_repeats(&lid_cut, 29, 2, ok, vote, inside),
             "the same pupil, shifted: repeats");
    PT_CHECK(!pt_hough_seed_repeats(&lid_cut, 29, 2, off, vote, inside),
             "the voting one not ok: kept");
    PT_CHECK(pt_hough_seed_repeats(&pupil_in_iris, 29, 2, ok, vote, inside),
             "a small disc within the pupil, as dark: repeats");
    PT_CHECK(!pt_hough_seed_repeats(&pupil_in_iris, 20, 2, ok, vote, inside),
             "a pupil inside the voting's iris, clearly darker: kept");
    PT_CHECK(!pt_hough_seed_repeats(&far, 29, 2, ok, vote, inside), "elsewhere: kept");
    PT_CHECK(!pt_hough_seed_repeats(&lid_cut, 29, 0, ok, vote, inside),
             "no voting candidates: kept");
}

static void test_dark_share(void)
{
    pt_hough_seed s = {10, 10, 3, 49 * 4 * 7}; /* 7 x 7 cells of 2 px, grey 7 */
    PT_CHECK_NEAR(pt_hough_seed_level(&s, 2), 7.0, 1e-12, "seed box level");
    PT_CHECK_NEAR(pt_hough_dark_share(7.0, 7), 1.0, 1e-12, "the pupil: as dark as the box");
    PT_CHECK_NEAR(pt_hough_dark_share(7.0, 4), 1.0, 1e-12, "darker than the box: capped at 1");
    PT_CHECK_NEAR(pt_hough_dark_share(7.0, 10), 0.75, 1e-12, "the iris around it: 9/12");
    PT_CHECK_NEAR(pt_hough_dark_share(-1.0, 100), 1.0, 1e-12, "no seed: no factor");
}

int main(void)
{
    test_integral();
    test_darkest();
    test_repeats();
    test_dark_share();
    return PT_TEST_SUMMARY("hough_seed");
}
