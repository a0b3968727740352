/* Canny-Hough gradient voting's radius candidates (lib/detect/hough_radii.h):
 * the strongest local maxima of the radius score, then the smallest, a
 * tenth of a radius apart, smallest first. */
#include <string.h>

#include "lib/detect/hough_radii.h"
#include "tests/pt_test.h"

enum { MAX_R = 300 };

/* A score of value v peaking at radius r, falling by v / 8 a px either side. */
static void bump(double *score, int r, double v)
{
    for (int k = r - 7; k <= r + 7; k++)
        if (k >= 0 && k <= MAX_R) {
            double s = v * (1.0 - (k > r ? k - r : r - k) / 8.0);
            score[k] = s > score[k] ? s : score[k];
        }
}

static void test_strongest_first(void)
{
    static double score[MAX_R + 1];
    memset(score, 0, sizeof score);
    /* noise circles inside the pupil: many weak maxima below its radius */
    for (int r = 20; r < 80; r += 8)
        bump(score, r, 0.3);
    bump(score, 100, 0.6); /* the lid-cut pupil */
    /* the iris: a row of strong maxima a few px apart */
    bump(score, 240, 1.0);
    score[244] = 0.97;
    score[245] = 0.99;
    score[246] = 0.96;
    bump(score, 260, 0.95);
    int radius[6];
    int n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 3, 3, radius);
    /* the iris (1.0), the pupil (0.6), then the first of the noise maxima */
    PT_CHECK(n == 3 && radius[0] == 20 && radius[1] == 100 && radius[2] == 240,
             "3 strongest: %d %d %d", radius[0], radius[1], radius[2]);
    int iris_like = 0;
    for (int k = 0; k < n; k++)
        iris_like += radius[k] >= 216 && radius[k] <= 264;
    PT_CHECK(iris_like == 1, "the iris's maxima count once: %d", iris_like);
    /* 2 strongest, then the smallest not near one taken (245, 260 are near 240) */
    n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 2, 4, radius);
    PT_CHECK(n == 4 && radius[0] == 20 && radius[1] == 28 && radius[2] == 100 && radius[3] == 240,
             "2 strongest + 2 smallest: %d %d %d %d", radius[0], radius[1], radius[2], radius[3]);
    /* the smallest only: the pupil crowded out */
    n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 0, 4, radius);
    PT_CHECK(n == 4 && radius[3] < 100, "smallest only: %d .. %d", radius[0], radius[3]);
}

static void test_keep_and_range(void)
{
    static double score[MAX_R + 1];
    int radius[6];
    memset(score, 0, sizeof score);
    bump(score, 50, 0.04); /* below PT_HOUGH_RADIUS_KEEP of the best */
    bump(score, 120, 1.0);
    int n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 3, 6, radius);
    PT_CHECK(n == 1 && radius[0] == 120, "weak maxima left out: %d", n);
    /* a tenth of the best: a strong pick, not a smallest one */
    bump(score, 50, 0.1);
    n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 3, 6, radius);
    PT_CHECK(n == 2 && radius[0] == 50 && radius[1] == 120, "a tenth as strong: %d", n);
    n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 0, 6, radius);
    PT_CHECK(n == 1 && radius[0] == 120, "a tenth: not among the smallest: %d", n);
    /* [lo, hi] limits both the maxima and the best they are measured by */
    n = pt_hough_radius_peaks(score, 10, MAX_R, 30, 80, 3, 6, radius);
    PT_CHECK(n == 1 && radius[0] == 50, "range 30..80: %d", n);
    /* ties go to the smaller radius */
    memset(score, 0, sizeof score);
    bump(score, 60, 1.0);
    bump(score, 150, 1.0);
    n = pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 1, 1, radius);
    PT_CHECK(n == 1 && radius[0] == 60, "tie: the smaller radius");
    memset(score, 0, sizeof score);
    PT_CHECK(pt_hough_radius_peaks(score, 10, MAX_R, 10, MAX_R, 3, 6, radius) == 0,
             "no score: none");
}

int main(void)
{
    test_strongest_first();
    test_keep_and_range();
    return PT_TEST_SUMMARY("hough_radii");
}
