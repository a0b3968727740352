/* The Canny-Hough choice's share from which a weaker, pupil-shaped inner
 * candidate leaves out the outline around it (hough_nest_keep,
 * pt_hough_choose_nest in lib/detect/hough_choose.h). The candidates are
 * those of a 1280x1024 synthetic frame with a small pupil barely darker
 * than its iris (synth --difficulty hard --seed 31, frame 60): the iris
 * outline (radius 232) scores 0.69, the pupil's (radius 36) 0.17, a
 * quarter of it, but is shaped like a pupil and clearly darker inside. */
#include "lib/detect/hough_choose.h"
#include "tests/pt_test.h"

static void test_small_dim_pupil(void)
{
    int ok[6] = {1, 1, 1, 1, 0, 1}, inside[6] = {39, 39, 108, 30, 38, 33};
    double value[6] = {0.693, 0.474, 0.075, 0.058, 0.147, 0.166};
    double shape[6] = {0.710, 0.710, 0.205, 0.172, 0.030, 0.688};
    pt_circle c[6] = {{600.4, 578.3, 232.4}, {600.4, 578.2, 232.5}, {578.5, 653.6, 406.1},
                      {556.4, 426.5, 40.4},  {544.8, 435.0, 87.5},  {599.7, 566.0, 35.9}};
    PT_CHECK(pt_hough_choose_nest(6, ok, value, inside, shape, c, 0.2) == 5,
             "from a fifth of the best value: the pupil inside the iris");
    PT_CHECK(pt_hough_choose_nest(6, ok, value, inside, shape, c, 0.25) == 0,
             "from a quarter: the iris outline");
    PT_CHECK(pt_hough_choose(6, ok, value, inside, shape, c) == 0,
             "pt_hough_choose: PT_HOUGH_NEST_KEEP");
    /* not shaped like a pupil: no share lets it rule out the iris */
    double unlike[6] = {0.710, 0.710, 0.205, 0.172, 0.030, 0.3};
    PT_CHECK(pt_hough_choose_nest(6, ok, value, inside, unlike, c, 0.1) == 0,
             "a weak inner circle unlike a pupil");
    /* 0: every credible-shaped inner candidate counts; 1: only the best */
    PT_CHECK(pt_hough_choose_nest(6, ok, value, inside, shape, c, 0.0) == 5, "share 0");
    PT_CHECK(pt_hough_choose_nest(6, ok, value, inside, shape, c, 1.0) == 0, "share 1");
}

int main(void)
{
    test_small_dim_pupil();
    return PT_TEST_SUMMARY("hough_nest");
}
