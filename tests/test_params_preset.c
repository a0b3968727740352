/* Presets (lib/params/params_preset.h): "paper" sets each detector's values
 * as the pupil paper describes them (man pupiltrack, PRESETS); "default" is
 * the defaults. */
#include <string.h>

#include "lib/params/params_preset.h"
#include "tests/pt_test.h"

static void paper_config(pt_config *cfg)
{
    pt_error err;
    pt_config_default(cfg);
    const pt_preset *p = pt_preset_find("paper");
    PT_CHECK(p != NULL, "the paper preset exists");
    if (p)
        PT_CHECK(pt_config_apply_preset(cfg, p, &err) == PT_OK, "paper preset applies: %s",
                 err.what);
}

static void test_names(void)
{
    PT_CHECK(pt_preset_find("paper") != NULL, "paper found");
    PT_CHECK(pt_preset_find("default") != NULL, "default found");
    PT_CHECK(pt_preset_find("Paper") == NULL, "names are exact");
    PT_CHECK(pt_preset_find("") == NULL, "empty name unknown");
    PT_CHECK(strstr(pt_preset_names(), "paper") != NULL, "names listed");
}

/* Every value is a registry key in range, chosen for a detector that uses it. */
static void test_values_are_registry_values(void)
{
    const pt_preset *p = pt_preset_find("paper");
    for (int i = 0; p && i < p->count; i++) {
        const pt_preset_value *v = &p->values[i];
        const pt_param_def *d = pt_param_find(v->key);
        PT_CHECK(d != NULL, "%s is a parameter", v->key);
        if (!d)
            continue;
        PT_CHECK((v->algorithms & d->algorithms) == v->algorithms,
                 "%s: chosen for detectors that use it", v->key);
        for (int j = 0; j < i; j++)
            PT_CHECK(strcmp(p->values[j].key, v->key) != 0, "%s set once", v->key);
        pt_config cfg;
        pt_error err;
        pt_config_default(&cfg);
        PT_CHECK(pt_config_set_value(&cfg, v->key, v->value, &err) == PT_OK, "%s=%s valid",
                 v->key, v->value);
    }
}

static void test_default_is_the_defaults(void)
{
    pt_config a, b;
    pt_error err;
    pt_config_default(&a);
    pt_config_default(&b);
    PT_CHECK(pt_config_apply_preset(&b, pt_preset_find("default"), &err) == PT_OK,
             "default applies");
    PT_CHECK(!memcmp(&a, &b, sizeof a), "default preset changes nothing");
}

/* T&L: fixed thresholds 20..100 by 20, most RANSAC votes wins, no refit,
 * a 2 px band of 1024 fits of 5 points over the blob's border pixels. */
static void test_paper_tl(void)
{
    pt_config c;
    paper_config(&c);
    PT_CHECK(c.tl.threshold_min == 20 && c.tl.threshold_max == 100 && c.tl.threshold_step == 20,
             "thresholds 20..100 by 20");
    PT_CHECK(c.tl.score == PT_TL_SCORE_VOTES, "most votes wins");
    PT_CHECK(c.tl.refine == 0, "no refit between thresholds");
    PT_CHECK(c.tl.circle_band == 0.0, "band = ransac_inlier");
    PT_CHECK(c.tl.border == PT_TL_BORDER_PIXELS, "border pixels");
    PT_CHECK(c.pre.ransac_samples == 1024 && c.pre.ransac_sample_size == 5 &&
                 c.pre.ransac_inlier == 2.0,
             "RANSAC 1024 x 5 points, 2 px");
}

/* Starburst: top-hat 19 (of the paper's 13..25), Gaussian 5 / sigma 2,
 * 20 rays, +-50 degrees, 10 px / 10 restarts, plain RANSAC fits. */
static void test_paper_starburst(void)
{
    pt_config c;
    paper_config(&c);
    PT_CHECK(c.pre.reflection == PT_REFLECTION_INTERPOLATE, "reflections interpolated");
    PT_CHECK(c.pre.reflection_kernel == 19, "top-hat 19 px (%d)", c.pre.reflection_kernel);
    PT_CHECK(c.pre.smooth == PT_SMOOTH_GAUSSIAN && c.pre.smooth_size == 5 &&
                 c.pre.smooth_sigma == 2.0,
             "Gaussian 5, sigma 2");
    PT_CHECK(c.starburst.rays == 20 && c.starburst.stage2_spread == 50.0, "20 rays, +-50");
    PT_CHECK(c.starburst.converge_px == 10.0 && c.starburst.max_iterations == 10 &&
                 c.starburst.converge_stall == 0,
             "10 px, 10 restarts, no stop on a stalled search");
    PT_CHECK(c.starburst.vote_angle == 0.0, "every point in the band votes");
    PT_CHECK(c.starburst.start == PT_START_CENTRE, "starts at the centre");
    PT_CHECK(c.starburst.circle_refit == PT_SB_REFIT_CIRCLE, "reports the RANSAC circle");
    PT_CHECK(c.starburst.circle_tolerance == 0.0, "fixed inlier band");
    PT_CHECK(c.starburst.ellipse_fit == PT_SB_ELLIPSE_DIRECT, "direct RANSAC ellipse");
    PT_CHECK(c.starburst.glint_step == 0.0, "no reflection walking along rays");
}

/* Canny-Hough: 80 % / 40 % thresholds, sampled votes over the whole circle. */
static void test_paper_hough(void)
{
    pt_config c;
    paper_config(&c);
    PT_CHECK(c.hough.vote == PT_HOUGH_VOTE_SAMPLED, "sampled voting");
    PT_CHECK(c.hough.vote_spread == 180.0, "the whole circle");
    PT_CHECK(c.hough.angle_step == 3.6, "3.6 degrees");
    PT_CHECK(c.hough.canny_high == 0.8 && c.hough.canny_low == 0.4, "Canny 80 %% / 40 %%");
    PT_CHECK(c.hough.refit == PT_HOUGH_REFIT_CIRCLE, "the circle");
    PT_CHECK(c.hough.dark_spread == 255 && c.hough.glint_edges == PT_HOUGH_GLINT_EDGES_KEEP,
             "every edge facing the centre");
    PT_CHECK(c.hough.flat_edges == PT_HOUGH_FLAT_KEEP &&
                 c.hough.dark_vote == PT_HOUGH_DARK_VOTE_OFF,
             "no flat-edge test, no dark-edge vote");
    pt_config_default(&c);
    PT_CHECK(c.hough.flat_edges == PT_HOUGH_FLAT_REJECT &&
                 c.hough.dark_vote == PT_HOUGH_DARK_VOTE_ON,
             "defaults: flat edges rejected, dark-edge vote on");
}

/* A preset lies under later values: applied over a config, it sets only its keys. */
static void test_preset_keeps_other_keys(void)
{
    pt_config c;
    pt_error err;
    pt_config_default(&c);
    PT_CHECK(pt_config_set(&c, "reflection_threshold=77", &err) == PT_OK, "set");
    PT_CHECK(pt_config_apply_preset(&c, pt_preset_find("paper"), &err) == PT_OK, "apply");
    PT_CHECK(c.pre.reflection_threshold == 77, "a key the preset leaves alone stays");
}

int main(void)
{
    test_names();
    test_values_are_registry_values();
    test_default_is_the_defaults();
    test_paper_tl();
    test_paper_starburst();
    test_paper_hough();
    test_preset_keeps_other_keys();
    return PT_TEST_SUMMARY("params_preset");
}
