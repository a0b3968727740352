/* Canny-Hough's filter scale per eye region (lib/detect/hough_sigma.h):
 * hough_sigma below a 512 px short side, an integer multiple above. */
#include "lib/detect/hough_sigma.h"
#include "tests/pt_test.h"

static void test_steps(void)
{
    PT_CHECK(pt_hough_sigma_step(200, 200) == 1, "a 200x200 crop: step 1");
    PT_CHECK(pt_hough_sigma_step(640, 511) == 1, "short side 511: step 1");
    PT_CHECK(pt_hough_sigma_step(512, 4096) == 1, "short side 512: step 1");
    PT_CHECK(pt_hough_sigma_step(1280, 1024) == 2, "1280x1024: step 2");
    PT_CHECK(pt_hough_sigma_step(640, 1024) == 1, "a binocular half of 1280x1024: step 1");
    PT_CHECK(pt_hough_sigma_step(1535, 1600) == 2, "short side 1535: step 2");
    PT_CHECK(pt_hough_sigma_step(1536, 1600) == 3, "short side 1536: step 3");
    PT_CHECK(pt_hough_sigma_step(16384, 16384) == PT_HOUGH_SIGMA_STEPS, "at most the last step");
    PT_CHECK(pt_hough_sigma_step(0, 0) == 1, "an empty region: step 1");
}

static void test_sigma(void)
{
    PT_CHECK(pt_hough_sigma(1.5, 320, 256) == 1.5, "small regions keep hough_sigma");
    PT_CHECK(pt_hough_sigma(1.5, 1280, 1024) == 3.0, "1280x1024: twice hough_sigma");
    PT_CHECK(pt_hough_sigma(2.0, 2048, 2048) == 8.0, "2048x2048: four times");
}

int main(void)
{
    test_steps();
    test_sigma();
    return PT_TEST_SUMMARY("hough_sigma");
}
