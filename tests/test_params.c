/* The parameter registry: defaults, validation, lookup. */
#include <math.h>
#include <string.h>

#include "lib/params/pt_params.h"
#include "tests/pt_test.h"

static void test_every_default_is_in_range(void)
{
    pt_config cfg;
    pt_config_default(&cfg);
    int n = pt_param_count();
    PT_CHECK(n > 20, "registry holds the detectors' parameters (%d)", n);
    for (int i = 0; i < n; i++) {
        const pt_param_def *d = pt_param_def_at(i);
        PT_CHECK(d->def >= d->min && d->def <= d->max, "%s default %g in [%g,%g]", d->name,
                 d->def, d->min, d->max);
        PT_CHECK(d->help && strlen(d->help) > 5, "%s has help", d->name);
        PT_CHECK(d->algorithms != 0, "%s names its detectors", d->name);
        PT_CHECK(pt_param_find(d->name) == d, "%s is unique", d->name);
        if (d->type == PT_PARAM_CHOICE)
            PT_CHECK(d->choices && d->choices[0], "%s has choices", d->name);
    }
}

static void test_set_validates(void)
{
    pt_config cfg;
    pt_error err;
    pt_config_default(&cfg);
    PT_CHECK(pt_config_set(&cfg, "rays=32", &err) == PT_OK, "rays=32 accepted");
    PT_CHECK(cfg.starburst.rays == 32, "rays stored (%d)", cfg.starburst.rays);
    PT_CHECK(pt_config_set(&cfg, "smooth_sigma=1.25", &err) == PT_OK, "sigma accepted");
    PT_CHECK(cfg.pre.smooth_sigma == 1.25, "sigma stored");
    PT_CHECK(pt_config_set(&cfg, "smooth=median", &err) == PT_OK, "choice accepted");
    PT_CHECK(cfg.pre.smooth == PT_SMOOTH_MEDIAN, "choice stored as index");
    PT_CHECK(pt_config_set(&cfg, "nosuch=1", &err) == PT_ERR_PARAM, "unknown key rejected");
    PT_CHECK(strstr(err.what, "nosuch") != NULL, "message names the key: %s", err.what);
    PT_CHECK(pt_config_set(&cfg, "rays=0", &err) == PT_ERR_PARAM, "out of range rejected");
    PT_CHECK(pt_config_set(&cfg, "rays=3.5", &err) == PT_ERR_PARAM, "fraction for int rejected");
    PT_CHECK(pt_config_set(&cfg, "rays=", &err) == PT_ERR_PARAM, "empty value rejected");
    PT_CHECK(pt_config_set(&cfg, "smooth_sigma=nan", &err) == PT_ERR_PARAM, "NaN rejected");
    PT_CHECK(pt_config_set(&cfg, "smooth_sigma=inf", &err) == PT_ERR_PARAM, "inf rejected");
    PT_CHECK(pt_config_set(&cfg, "smooth=bogus", &err) == PT_ERR_PARAM, "bad choice rejected");
    PT_CHECK(pt_config_set(&cfg, "rays", &err) == PT_ERR_PARAM, "missing = rejected");
    PT_CHECK(cfg.starburst.rays == 32, "failed sets leave the value (%d)", cfg.starburst.rays);
}

static void test_algorithm_names(void)
{
    PT_CHECK(pt_algorithm_from_name("starburst") == PT_ALG_STARBURST, "starburst");
    PT_CHECK(pt_algorithm_from_name("tl") == PT_ALG_TL, "tl");
    PT_CHECK(pt_algorithm_from_name("hough") == PT_ALG_HOUGH, "hough");
    PT_CHECK(pt_algorithm_from_name("x") == 0, "unknown");
    PT_CHECK(!strcmp(pt_algorithm_name(PT_ALG_TL), "tl"), "name of tl");
}

int main(void)
{
    test_every_default_is_in_range();
    test_set_validates();
    test_algorithm_names();
    return PT_TEST_SUMMARY("params");
}
