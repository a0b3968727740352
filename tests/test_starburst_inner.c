/* Starburst's inner pass (lib/detect/starburst_inner.h): an outline around
 * the iris of a low-contrast eye holds a darker disc, an outline around
 * the pupil does not (also with a lid over part of it); the inner pass's
 * threshold, reach and ray lengths; the order of the iterations' fits; and
 * when the inner pass's answer is kept. */
#include <math.h>
#include <string.h>

#include "lib/detect/starburst_inner.h"
#include "tests/pt_test.h"

#define W 200
#define H 200
#define CX 100.0
#define CY 100.0
#define IRIS_R 60.0
#define PUPIL_R 25.0

static uint8_t pixels[W * H];

/* A low-contrast eye: sclera 120, iris 40, pupil 30 (10 grey levels below
 * the iris); with lid, everything above y = lid_y is skin at 150. */
static pt_image eye(int lid, double lid_y)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double dx = x - CX, dy = y - CY, d2 = dx * dx + dy * dy;
            int v = d2 <= PUPIL_R * PUPIL_R ? 30 : d2 <= IRIS_R * IRIS_R ? 40 : 120;
            if (lid && y < lid_y)
                v = 150;
            pixels[y * W + x] = (uint8_t)v;
        }
    pt_image img = {W, H, W, pixels};
    return img;
}

static pt_ellipse round_fit(double r)
{
    pt_ellipse e = {CX + 0.3, CY - 0.2, r, r, 0.0};
    return e;
}

static void test_levels(void)
{
    pt_image img = eye(0, 0);
    pt_sb_levels v;
    pt_ellipse iris = round_fit(IRIS_R);
    pt_sb_levels_of(&img, &iris, &v);
    PT_CHECK(v.valid == PT_PUPIL_ANGLES, "every angle of the iris outline is inside");
    PT_CHECK(v.core == 30 && v.inner == 40, "iris outline: core %d (30), inner ring %d (40)",
             v.core, v.inner);
    PT_CHECK(pt_sb_dark_core(&v), "the iris outline holds a darker disc");
    pt_sb_inner ip;
    PT_CHECK(pt_sb_inner_wanted(&iris, &v, 0.1, 12.0, &ip), "the iris outline wants an inner pass");
    PT_CHECK(ip.threshold == PT_SB_INNER_SHARE * 10, "inner threshold %g", ip.threshold);
    PT_CHECK(ip.reach == PT_SB_INNER_REACH * IRIS_R, "inner reach %g", ip.reach);
    PT_CHECK(ip.radius == PT_SB_INNER_RING * IRIS_R, "inner radii up to %g", ip.radius);
    PT_CHECK(pt_sb_inner_wanted(&iris, &v, 0.1, 2.0, &ip) && ip.threshold == 2.0,
             "the inner pass never raises the threshold");

    pt_ellipse pupil = round_fit(PUPIL_R);
    pt_sb_levels_of(&img, &pupil, &v);
    PT_CHECK(v.core == 30 && v.inner == 30, "pupil outline: core %d, inner ring %d (30)", v.core,
             v.inner);
    PT_CHECK(!pt_sb_dark_core(&v) && !pt_sb_fit_dark(&v, 1.0) &&
                 !pt_sb_inner_wanted(&pupil, &v, 1.0, 12.0, &ip),
             "the pupil outline holds no darker disc");

    /* a lid over the top third of the pupil: the inner ring's lower
     * quartile stays at the pupil's level */
    img = eye(1, CY - PUPIL_R / 3.0);
    pt_sb_levels_of(&img, &pupil, &v);
    PT_CHECK(v.core == 30 && v.inner == 30, "lid-cut pupil: core %d, inner ring %d (30)", v.core,
             v.inner);
    PT_CHECK(!pt_sb_dark_core(&v) && !pt_sb_fit_dark(&v, 1.0),
             "a lid over part of the pupil is no darker disc");

    /* a contrast below PT_SB_INNER_MIN is none either; the floor */
    pt_sb_levels weak = {PT_PUPIL_ANGLES, 30, 30 + PT_SB_INNER_MIN - 1};
    PT_CHECK(!pt_sb_dark_core(&weak), "a core 5 levels darker is no darker disc");
    pt_sb_levels just = {PT_PUPIL_ANGLES, 30, 30 + PT_SB_INNER_MIN};
    PT_CHECK(pt_sb_inner_wanted(&iris, &just, 0.0, 12.0, &ip) &&
                 ip.threshold == PT_SB_THRESHOLD_FLOOR,
             "the inner threshold is at least the floor (%g)", ip.threshold);

    /* a weaker darker disc (PT_SB_INNER_WEAK) counts in a found outline only */
    pt_sb_levels faint = {PT_PUPIL_ANGLES, 30, 30 + PT_SB_INNER_WEAK};
    PT_CHECK(!pt_sb_dark_core(&faint), "tl's test: a core 4 levels darker is no darker disc");
    PT_CHECK(pt_sb_fit_dark(&faint, PT_CONFIDENCE_MIN) &&
                 pt_sb_inner_wanted(&iris, &faint, PT_CONFIDENCE_MIN, 12.0, &ip) &&
                 ip.threshold == PT_SB_THRESHOLD_FLOOR,
             "a found outline with a core 4 levels darker wants an inner pass");
    PT_CHECK(!pt_sb_fit_dark(&faint, PT_CONFIDENCE_MIN - 0.01) &&
                 !pt_sb_inner_wanted(&iris, &faint, PT_CONFIDENCE_MIN - 0.01, 12.0, &ip),
             "an outline below the confidence: a core 4 levels darker is no darker disc");
    pt_sb_levels fainter = {PT_PUPIL_ANGLES, 30, 30 + PT_SB_INNER_WEAK - 1};
    PT_CHECK(!pt_sb_fit_dark(&fainter, 1.0), "a core 3 levels darker is no darker disc");
    pt_sb_levels few = {PT_PUPIL_ANGLES / 4 - 1, 30, 60};
    PT_CHECK(!pt_sb_dark_core(&few) && !pt_sb_fit_dark(&few, 1.0),
             "too few angles inside the image: no darker disc");

    /* an outline off the image: no angle, no darker disc */
    pt_ellipse off = {-500.0, -500.0, 20.0, 20.0, 0.0};
    pt_sb_levels_of(&img, &off, &v);
    PT_CHECK(v.valid == 0 && !pt_sb_dark_core(&v), "an outline off the image has no levels");
}

/* The inner pass's outline confidence: the low-contrast pupil's border
 * blurred over a few pixels rises by less than the margin within 2 px
 * of it, by more at the edge gap. */
static void test_inner_confidence(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double dx = x - CX, dy = y - CY, d = sqrt(dx * dx + dy * dy) - PUPIL_R;
            /* a ramp from 30 to 40 over 20 px centred on the border */
            double v = d <= -10 ? 30 : d >= 10 ? 40 : 35 + 0.5 * d;
            pixels[y * W + x] = (uint8_t)(v + 0.5);
        }
    pt_image img = {W, H, W, pixels};
    pt_ellipse pupil = round_fit(PUPIL_R);
    double at2 = pt_confidence_ellipse_off(&img, &pupil, PT_CONFIDENCE_OFFSET);
    PT_CHECK(at2 == pt_confidence_ellipse(&img, &pupil),
             "at PT_CONFIDENCE_OFFSET it is pt_confidence_ellipse (%g)", at2);
    PT_CHECK(at2 < PT_CONFIDENCE_MIN, "2 px either side: %g, below the confidence", at2);
    double at4 = pt_confidence_ellipse_off(&img, &pupil, pt_sb_inner_offset(4));
    PT_CHECK(at4 == 1.0, "the edge gap (4 px) either side: %g", at4);
    PT_CHECK(pt_sb_inner_offset(1) == PT_CONFIDENCE_OFFSET && pt_sb_inner_offset(4) == 4.0,
             "the offset is the edge gap, at least PT_CONFIDENCE_OFFSET");
}

static void test_choice(void)
{
    /* the first fit always; one without a darker disc beats one with it;
     * among equals the more confident, the first of equals */
    PT_CHECK(pt_sb_fit_better(0.1, 1, -1.0, 0), "the first fit is taken");
    PT_CHECK(pt_sb_fit_better(0.2, 0, 0.9, 1), "no darker disc beats a darker disc");
    PT_CHECK(!pt_sb_fit_better(0.9, 1, 0.2, 0), "a darker disc loses to none");
    PT_CHECK(pt_sb_fit_better(0.6, 0, 0.5, 0) && !pt_sb_fit_better(0.5, 0, 0.5, 0),
             "among equals the more confident, the first of equals");

    /* the inner pass's answer: found, and at least half the first's score */
    PT_CHECK(!pt_sb_inner_kept(-1.0, 0.9, 0.1), "no inner fit: the first stays");
    PT_CHECK(!pt_sb_inner_kept(PT_CONFIDENCE_MIN - 0.01, 0.9, 0.1),
             "an inner fit below the reported confidence: the first stays");
    PT_CHECK(pt_sb_inner_kept(0.8, 0.3, 0.6) && !pt_sb_inner_kept(0.8, 0.29, 0.6),
             "the inner fit needs half the first's score");
    PT_CHECK(pt_sb_inner_kept(0.8, 0.0, -1.0), "no first fit: the inner fit is kept");

    /* ray lengths: limited in the inner pass only */
    PT_CHECK(pt_sb_inner_len(90, 0, 42.0) == 90, "first pass: the ray length stays");
    PT_CHECK(pt_sb_inner_len(90, 1, 42.5) == 42, "inner pass: rays reach 42 px");
    PT_CHECK(pt_sb_inner_len(30, 1, 42.5) == 30, "inner pass: never longer than before");
}

int main(void)
{
    test_levels();
    test_inner_confidence();
    test_choice();
    return PT_TEST_SUMMARY("starburst_inner");
}
