/* tl's second look with thresholds near the dark level
 * (lib/detect/tl_retry.h): the darker-disc test, the rules, and the layer
 * over the omp back end on synthetic low-contrast eyes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/half_retry.h"
#include "lib/detect/tl_retry.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"
#include "lib/synth/synth.h"
#include "lib/synth/synth_hazard.h"
#include "tests/pt_test.h"
#include "tests/pt_track_once.h"

#define CX 160.4
#define CY 127.7
#define PUPIL_R 22.0
#define IRIS_R 62.0

/* An eye: a pupil at 40 in an iris at 50 on a surround at 190, each
 * border a 4 px ramp. */
static pt_image *eye_frame(int w, int h)
{
    pt_image *f = pt_image_create(w, h);
    if (!f)
        return NULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double rho = hypot(x - CX, y - CY);
            double v = rho < PUPIL_R - 2   ? 40
                       : rho < PUPIL_R + 2 ? 40 + 2.5 * (rho - (PUPIL_R - 2))
                       : rho < IRIS_R - 2  ? 50
                       : rho < IRIS_R + 2  ? 50 + 35 * (rho - (IRIS_R - 2))
                                           : 190;
            f->buf[(size_t)y * f->stride + x] = (uint8_t)lround(v);
        }
    return f;
}

static void test_darker_core(const pt_image *f)
{
    pt_circle iris = {CX, CY, IRIS_R}, pupil = {CX, CY, PUPIL_R};
    PT_CHECK(pt_tl_darker_core(f, &iris, NULL), "the iris's fit holds the pupil: a darker disc");
    PT_CHECK(!pt_tl_darker_core(f, &pupil, NULL), "the pupil's own fit holds none");
    pt_ellipse e;
    pt_ellipse_from_circle(&iris, &e);
    PT_CHECK(pt_tl_darker_core(f, &pupil, &e), "the ellipse, where given, is the fit");
}

static void test_rules(void)
{
    pt_result r;
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_OK;
    r.darker_core = 1;
    PT_CHECK(pt_tl_retry_wanted(&r), "a pupil found with a darker disc: looked at again");
    r.darker_core = 0;
    PT_CHECK(!pt_tl_retry_wanted(&r), "without one: not");
    r.darker_core = 1;
    r.status = PT_DETECT_NOTFOUND;
    PT_CHECK(!pt_tl_retry_wanted(&r), "no pupil: not (the half-size look is for those)");
    PT_CHECK(!pt_tl_retry_keeps(&r), "a second look without a pupil is not kept");
    r.status = PT_DETECT_OK;
    PT_CHECK(pt_tl_retry_keeps(&r), "one with a pupil is");

    pt_config cfg;
    pt_config_default(&cfg);
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_TL;
    PT_CHECK(pt_tl_retry_on(&cfg, &opt), "on by default for tl");
    opt.algorithm = PT_ALG_STARBURST;
    PT_CHECK(!pt_tl_retry_on(&cfg, &opt), "tl only");
    opt.algorithm = PT_ALG_TL;
    opt.sequence = 1;
    PT_CHECK(!pt_tl_retry_on(&cfg, &opt), "not with --sequence");
    opt.sequence = 0;
    pt_config c = cfg;
    c.tl.spacing = PT_TL_SPACING_SQUARE;
    PT_CHECK(!pt_tl_retry_on(&c, &opt), "tl_spacing=square: the first look was the second's");
    c = cfg;
    c.tl.range = PT_TL_RANGE_FIXED;
    PT_CHECK(!pt_tl_retry_on(&c, &opt), "tl_range=fixed: no eye levels to space");
    c = cfg;
    c.tl.dark_retry = 0;
    PT_CHECK(!pt_tl_retry_on(&c, &opt), "tl_dark_retry=0: off");
}

/* Within 10 % relative error (centre distance / true radius). */
static int within10(const pt_result *r, const pt_synth_truth *t)
{
    return r->status == PT_DETECT_OK && t->visible &&
           hypot(r->circle.cx - t->pupil.cx, r->circle.cy - t->pupil.cy) <= 0.1 * t->r;
}

/* The layer over the omp back end (with its half-size look) on low-contrast
 * eyes (synth --hazard low-contrast, 640x512): each answer is the first
 * look's, or the square-spaced look's where the first held a darker disc
 * and the second found a pupil; more pupils within 10 % than the first
 * look alone. Measured on the border pixels' fits (tl_crossings=0): on
 * these frames the mid-level crossings of the first look's outline already
 * find as many pupils. */
#define LOW_FRAMES 24
static void test_layer(void)
{
    pt_config cfg, square;
    pt_config_default(&cfg);
    cfg.tl.crossings = 0;
    square = cfg;
    square.tl.spacing = PT_TL_SPACING_SQUARE;
    pt_synth_params sp;
    pt_synth_params_default(&sp);
    sp.width = 640;
    sp.height = 512;
    sp.hazards = PT_SYNTH_LOW_CONTRAST;
    pt_image *f = pt_image_create(sp.width, sp.height);
    PT_CHECK(f != NULL, "frame");
    if (!f)
        return;
    int looked = 0, first_ok = 0, layer_ok = 0, rule = 1;
    for (int i = 0; i < LOW_FRAMES; i++) {
        pt_synth_frame_truth truth;
        pt_error err;
        pt_error_clear(&err);
        if (pt_synth_render(&sp, pt_synth_frame_seed(95, i), f, &truth, &err)) {
            PT_CHECK(0, "render frame %d: %s", i, err.what);
            break;
        }
        pt_result first, second, layered;
        if (pt_track_once(&pt_backend_omp_half_retry, &cfg, PT_ALG_TL, f, &first) ||
            pt_track_once(&pt_backend_omp_half_retry, &square, PT_ALG_TL, f, &second) ||
            pt_track_once(&pt_backend_omp_tl_retry, &cfg, PT_ALG_TL, f, &layered)) {
            PT_CHECK(0, "track frame %d", i);
            break;
        }
        const pt_result *want = &first;
        if (pt_tl_retry_wanted(&first)) {
            looked++;
            if (pt_tl_retry_keeps(&second))
                want = &second;
        }
        if (memcmp(&layered.circle, &want->circle, sizeof want->circle) != 0 ||
            layered.status != want->status || layered.confidence != want->confidence) {
            rule = 0;
            PT_CHECK(0, "frame %d: the layer's answer is not the rule's", i);
        }
        first_ok += within10(&first, &truth.eyes[0]);
        layer_ok += within10(&layered, &truth.eyes[0]);
    }
    PT_CHECK(rule, "the layer follows the rule on every frame");
    PT_CHECK(looked >= 2, "eyes looked at again: %d of %d", looked, LOW_FRAMES);
    PT_CHECK(layer_ok > first_ok, "within 10 %%: %d with the layer against %d", layer_ok,
             first_ok);
    pt_image_destroy(f);
}

int main(void)
{
    pt_image *f = eye_frame(320, 256);
    PT_CHECK(f != NULL, "frame");
    if (f) {
        test_darker_core(f);
        pt_image_destroy(f);
    }
    test_rules();
    test_layer();
    return PT_TEST_SUMMARY("test_tl_retry");
}
