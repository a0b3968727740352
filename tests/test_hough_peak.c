/* Canny-Hough gradient voting's sub-cell centre (lib/detect/hough_peak.h):
 * the weighted mean of the 3x3 cell centres around the peak cell. */
#include <math.h>
#include <string.h>

#include "lib/detect/hough_peak.h"
#include "tests/pt_test.h"

enum { CW = 6, CH = 5 };

static void test_centres(void)
{
    float acc[CW * CH];
    memset(acc, 0, sizeof acc);
    double cx, cy;
    /* one cell voted: its centre, (x + 0.5) cell - 0.5 px */
    acc[2 * CW + 3] = 7.0f;
    pt_hough_peak_centre(acc, CW, 4, 3, 2, &cx, &cy);
    PT_CHECK(cx == 13.5 && cy == 9.5, "single cell: %g %g", cx, cy);
    /* a neighbour with a third of the votes pulls a quarter of a cell */
    acc[2 * CW + 4] = 7.0f / 3.0f;
    acc[2 * CW + 3] = 7.0f;
    pt_hough_peak_centre(acc, CW, 4, 3, 2, &cx, &cy);
    PT_CHECK_NEAR(cx, 13.5 + 0.25 * 4, 1e-6, "pulled right");
    PT_CHECK(cy == 9.5, "row unchanged: %g", cy);
    /* cells outside the 3x3 do not count */
    acc[0] = 100.0f;
    acc[4 * CW + 5] = 100.0f;
    pt_hough_peak_centre(acc, CW, 4, 3, 2, &cx, &cy);
    PT_CHECK_NEAR(cx, 14.5, 1e-6, "outside cells ignored (x)");
    PT_CHECK(cy == 9.5, "outside cells ignored (y): %g", cy);
    /* symmetric votes: the peak cell's centre, cell side 1 */
    memset(acc, 0, sizeof acc);
    for (int y = 1; y <= 3; y++)
        for (int x = 1; x <= 3; x++)
            acc[y * CW + x] = (x == 2 && y == 2) ? 4.0f : 1.0f;
    pt_hough_peak_centre(acc, CW, 1, 2, 2, &cx, &cy);
    PT_CHECK(cx == 2.0 && cy == 2.0, "symmetric: %g %g", cx, cy);
}

int main(void)
{
    test_centres();
    return PT_TEST_SUMMARY("hough_peak");
}
