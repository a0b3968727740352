/* The reported confidence (lib/detect/pupil_score.h, pupiltrack(1) METRICS:
 * confidence): a dark disc scores near 1 and outlines beside it low; on
 * synthetic eyes the true pupil outline scores above outlines that are off
 * centre, too small or around the iris, and above the documented threshold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/roc.h"
#include "lib/core/pt_arena.h"
#include "lib/detect/pupil_score.h"
#include "lib/params/params_auto.h"
#include "lib/synth/synth.h"
#include "omp/preprocess/preprocess.h"
#include "tests/pt_test.h"

static pt_image *disc_image(int w, int h, double cx, double cy, double r, int inside, int outside)
{
    pt_image *img = pt_image_create(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img->buf[(size_t)y * img->stride + x] =
                (uint8_t)(hypot(x - cx, y - cy) <= r ? inside : outside);
    return img;
}

static double score_circle(const pt_image *img, double cx, double cy, double r)
{
    pt_circle c = {cx, cy, r};
    pt_ellipse none = {0};
    return pt_pupil_confidence(img, 1, 1, 0, &c, &none);
}

static void test_disc(void)
{
    pt_image *img = disc_image(200, 160, 100, 80, 20, 20, 120);
    double exact = score_circle(img, 100, 80, 20);
    PT_CHECK(exact >= 0.95, "the disc's own outline: %.3f", exact);
    PT_CHECK(score_circle(img, 100, 80, 10) < 0.2, "half the radius: %.3f",
             score_circle(img, 100, 80, 10));
    PT_CHECK(score_circle(img, 100, 80, 40) < 0.2, "twice the radius: %.3f",
             score_circle(img, 100, 80, 40));
    PT_CHECK(score_circle(img, 115, 80, 20) < 0.5, "15 px off: %.3f", score_circle(img, 115, 80, 20));
    PT_CHECK(score_circle(img, 40, 40, 20) == 0.0, "flat region: %.3f", score_circle(img, 40, 40, 20));
    PT_CHECK(score_circle(img, 1000, 1000, 20) == 0.0, "outside the image");
    pt_circle c = {100, 80, 20};
    pt_ellipse e = {100, 80, 20, 20, 0};
    PT_CHECK(pt_pupil_confidence(img, 0, 1, 0, &c, &e) == 0.0, "not found: 0");
    PT_CHECK(pt_pupil_confidence(img, 1, 0, 1, &c, &e) == exact, "ellipse a = b as the circle");
    /* a lower contrast scores the same: the measure is contrast-normalised */
    pt_image *dim = disc_image(200, 160, 100, 80, 20, 7, 16);
    PT_CHECK_NEAR(score_circle(dim, 100, 80, 20), exact, 0.05, "low contrast, same score");
    pt_image_destroy(dim);
    pt_image_destroy(img);
}

/* The frame as the detectors see it: reflections filled and smoothed at
 * default parameters (omp/detect/backend.c); NULL on failure. */
static pt_image *smoothed(const pt_image *frame, pt_arena *arena)
{
    pt_config cfg;
    pt_config_default(&cfg);
    pt_auto_params autos;
    pt_resolve_auto(&cfg, frame->width, frame->height, &autos);
    pt_image *out = pt_image_create(frame->width, frame->height);
    uint8_t *mask = pt_arena_alloc(arena, (size_t)out->stride * out->height);
    int mask_valid;
    pt_error err;
    if (!mask || pt_preprocess(frame, &cfg.pre, autos.reflection_kernel, autos.reflection_dilate,
                               out, mask, &mask_valid, arena, &err)) {
        pt_image_destroy(out);
        return NULL;
    }
    return out;
}

/* Synthetic eyes (pupiltrack synth, normal difficulty), as the detectors
 * see them: the truth's outline against four wrong ones per frame. */
static void test_synthetic_eyes(void)
{
    pt_synth_params sp;
    pt_synth_params_default(&sp);
    enum { FRAMES = 24, WRONG = 4 };
    pt_roc_item items[FRAMES * (WRONG + 1)];
    int n = 0, good = 0, good_above = 0, bad = 0, bad_above = 0;
    pt_arena arena;
    pt_arena_init(&arena);
    for (int f = 0; f < FRAMES; f++) {
        pt_image *frame = pt_image_create(sp.width, sp.height);
        pt_synth_frame_truth truth;
        pt_error err;
        int rendered = !pt_synth_render(&sp, pt_synth_frame_seed(7, f), frame, &truth, &err);
        PT_CHECK(rendered, "render frame %d", f);
        pt_arena_reset(&arena);
        pt_image *img = rendered ? smoothed(frame, &arena) : NULL;
        pt_image_destroy(frame);
        PT_CHECK(!rendered || img, "preprocess frame %d", f);
        if (!img)
            continue;
        const pt_synth_truth *t = &truth.eyes[0];
        if (!t->visible || t->occluded > 0.2) {
            pt_image_destroy(img);
            continue;
        }
        pt_circle none = {0};
        pt_ellipse e = t->pupil, wrong[WRONG] = {e, e, e, e};
        wrong[0].cx += 0.6 * t->r;               /* off centre */
        wrong[1].a *= 0.5;                       /* inside the pupil */
        wrong[1].b *= 0.5;
        wrong[2].a = wrong[2].b = t->iris_radius; /* the iris */
        wrong[3].cy -= 1.2 * t->r;               /* beside the pupil */
        double s = pt_pupil_confidence(img, 1, 0, 1, &none, &e);
        items[n++] = (pt_roc_item){s, 1};
        good++;
        good_above += s >= PT_CONFIDENCE_FILTER;
        for (int k = 0; k < WRONG; k++) {
            double w = pt_pupil_confidence(img, 1, 0, 1, &none, &wrong[k]);
            items[n++] = (pt_roc_item){w, 0};
            bad++;
            bad_above += w >= PT_CONFIDENCE_FILTER;
        }
        pt_image_destroy(img);
    }
    pt_arena_free(&arena);
    PT_CHECK(good >= FRAMES / 2, "%d of %d frames with a visible pupil", good, FRAMES);
    double auc = pt_roc_auc(items, n);
    PT_CHECK(auc >= 0.97, "AUC true against wrong outlines %.3f", auc);
    PT_CHECK(good_above >= 0.9 * good, "%d of %d true outlines at or above %.2f", good_above,
             good, PT_CONFIDENCE_FILTER);
    PT_CHECK(bad_above <= 0.05 * bad, "%d of %d wrong outlines at or above %.2f", bad_above,
             bad, PT_CONFIDENCE_FILTER);
    printf("pupil_score: synthetic eyes: AUC %.3f, %d/%d true and %d/%d wrong outlines >= %.2f\n",
           auc, good_above, good, bad_above, bad, PT_CONFIDENCE_FILTER);
}

int main(void)
{
    test_disc();
    test_synthetic_eyes();
    return PT_TEST_SUMMARY("pupil_score");
}
