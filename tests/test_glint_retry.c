/* Starburst's second look with reflections refilled around the pupil
 * (lib/detect/glint_retry.h, lib/detect/arc_fill.h): the fill along
 * circles, the rules, and the layer over the omp back end on synthetic eyes
 * with a ring of glints on the border. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/glint_retry.h"
#include "lib/detect/tl_retry.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"
#include "lib/synth/synth.h"
#include "lib/synth/synth_hazard.h"
#include "omp/preprocess/preprocess.h"
#include "tests/pt_test.h"
#include "tests/pt_track_once.h"

#define W 200
#define H 160
#define CX 100.3
#define CY 80.6
#define PUPIL_R 40.0

/* A pupil at 20 on an iris at 120, with a square glint at 250 centred on
 * the border to the right of the centre: mask[] marks the glint grown by 2. */
static pt_image *glint_frame(uint8_t *mask)
{
    pt_image *f = pt_image_create(W, H);
    if (!f)
        return NULL;
    int gx = (int)lround(CX + PUPIL_R), gy = (int)lround(CY);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int in_glint = abs(x - gx) <= 6 && abs(y - gy) <= 6;
            int grown = abs(x - gx) <= 8 && abs(y - gy) <= 8;
            f->buf[(size_t)y * f->stride + x] =
                in_glint ? 250 : hypot(x - CX, y - CY) < PUPIL_R ? 20 : 120;
            mask[(size_t)y * W + x] = (uint8_t)grown;
        }
    return f;
}

/* Along circles around the true centre the border goes on through the
 * glint: masked pixels inside it take the pupil's level, outside it the
 * iris's. The fill from left, right, above and below leaves grey there. */
static void test_arc_fill(void)
{
    uint8_t *mask = malloc((size_t)W * H);
    pt_image *f = mask ? glint_frame(mask) : NULL;
    pt_image *g = f ? pt_image_copy(f) : NULL;
    void *scratch = malloc(pt_reflection_fill_scratch_bytes(W, H));
    PT_CHECK(f && g && scratch, "frames");
    if (!f || !g || !scratch) {
        free(mask);
        free(scratch);
        pt_image_destroy(f);
        pt_image_destroy(g);
        return;
    }
    pt_arc_window win = {mask, W, 0, 0, W, H};
    pt_arc_fill(f, &win, CX, CY, 2 * PUPIL_R, 40, 1, f, 0, 0);
    pt_reflection_fill(g, mask, W, 40, scratch);
    int wrong = 0, grey = 0, masked = 0, moved = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int v = f->buf[(size_t)y * f->stride + x], u = g->buf[(size_t)y * g->stride + x];
            double rho = hypot(x - CX, y - CY);
            if (!mask[(size_t)y * W + x]) { /* the glint lies within the mask */
                moved += v != (rho < PUPIL_R ? 20 : 120);
                continue;
            }
            masked++;
            if (rho < PUPIL_R - 1.5)
                wrong += v > 30;
            else if (rho > PUPIL_R + 1.5)
                wrong += v < 110;
            grey += u > 40 && u < 100;
        }
    PT_CHECK(masked == 17 * 17, "the glint's mask: %d pixels", masked);
    PT_CHECK(wrong == 0, "%d masked pixels off the level of their side of the border", wrong);
    PT_CHECK(moved == 0, "%d unmasked pixels written", moved);
    PT_CHECK(grey > 20, "the fill from four sides leaves %d grey pixels (the test's premise)",
             grey);

    /* in steps of 2 px of arc the border goes on through the glint as well */
    pt_image *two = glint_frame(mask);
    PT_CHECK(two != NULL, "frame");
    if (two) {
        pt_arc_fill(two, &win, CX, CY, 2 * PUPIL_R, 40, 2, two, 0, 0);
        int off = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                double rho = hypot(x - CX, y - CY);
                int v = two->buf[(size_t)y * two->stride + x];
                if (mask[(size_t)y * W + x])
                    off += rho < PUPIL_R - 1.5 ? v > 30 : rho > PUPIL_R + 1.5 ? v < 110 : 0;
            }
        PT_CHECK(off == 0, "steps of 2 px: %d masked pixels off their side's level", off);
        pt_image_destroy(two);
    }

    /* A pixel with no unmasked pixel along its circle within reach keeps its value. */
    pt_image *k = glint_frame(mask);
    PT_CHECK(k != NULL, "frame");
    if (k) {
        pt_arc_fill(k, &win, CX, CY, 2 * PUPIL_R, 2, 1, k, 0, 0);
        int gx = (int)lround(CX + PUPIL_R), gy = (int)lround(CY);
        PT_CHECK(k->buf[(size_t)gy * k->stride + gx] == 250,
                 "the glint's middle, 8 steps from its edge, keeps its value at reach 2");
        size_t edge = (size_t)(gy + 8) * k->stride + gx - 1;
        PT_CHECK(k->buf[edge] == f->buf[(size_t)(gy + 8) * f->stride + gx - 1],
                 "a masked pixel on the mask's edge (pupil on both sides along its circle) is "
                 "filled at reach 2 as at 40");
        pt_image_destroy(k);
    }
    free(mask);
    free(scratch);
    pt_image_destroy(f);
    pt_image_destroy(g);
}

static void test_rules(void)
{
    pt_result r, q;
    memset(&r, 0, sizeof r);
    r.status = PT_DETECT_OK;
    r.has_circle = 1;
    r.confidence = 0.3;
    PT_CHECK(pt_glint_retry_wanted(&r, 0.5), "a pupil found below the threshold: a candidate");
    PT_CHECK(!pt_glint_retry_wanted(&r, 0.3), "at the threshold: not");
    PT_CHECK(!pt_glint_retry_wanted(&r, 0.0), "0: off");
    r.status = PT_DETECT_NOTFOUND;
    PT_CHECK(!pt_glint_retry_wanted(&r, 0.5), "no pupil: no centre to refill around");
    r.status = PT_DETECT_OK;
    q = r;
    q.confidence = 0.5;
    PT_CHECK(!pt_glint_retry_keeps(&r, &q, 0.2), "more confident by the margin: the first stays");
    q.confidence = 0.51;
    PT_CHECK(pt_glint_retry_keeps(&r, &q, 0.2), "by more: the second replaces it");
    q.status = PT_DETECT_NOTFOUND;
    PT_CHECK(!pt_glint_retry_keeps(&r, &q, 0.2), "a second look without a pupil is not kept");
}

/* A cut of src from (ox, oy), written by pt_arc_fill at that offset, holds
 * the pixels the whole-frame fill writes there. */
static void test_arc_fill_offset(void)
{
    uint8_t *mask = malloc((size_t)W * H);
    pt_image *f = mask ? glint_frame(mask) : NULL;
    pt_image *whole = f ? pt_image_copy(f) : NULL;
    pt_image *cut = pt_image_create(60, 50);
    PT_CHECK(f && whole && cut, "frames");
    if (f && whole && cut) {
        int ox = 110, oy = 50;
        for (int y = 0; y < cut->height; y++)
            memcpy(cut->buf + (size_t)y * cut->stride, f->buf + (size_t)(oy + y) * f->stride + ox,
                   (size_t)cut->width);
        pt_arc_window win = {mask, W, 0, 0, W, H};
        pt_arc_fill(f, &win, CX, CY, 2 * PUPIL_R, 40, 2, whole, 0, 0);
        pt_arc_fill(f, &win, CX, CY, 2 * PUPIL_R, 40, 2, cut, ox, oy);
        int differ = 0;
        for (int y = 0; y < cut->height; y++)
            for (int x = 0; x < cut->width; x++)
                differ += cut->buf[(size_t)y * cut->stride + x] !=
                          whole->buf[(size_t)(oy + y) * whole->stride + ox + x];
        PT_CHECK(differ == 0, "%d pixels of the cut differ from the whole frame's", differ);
        PT_CHECK(f->buf[(size_t)lround(CY) * f->stride + (int)lround(CX + PUPIL_R)] == 250,
                 "the source is left as it was");
    }
    free(mask);
    pt_image_destroy(f);
    pt_image_destroy(whole);
    pt_image_destroy(cut);
}

/* Within 10 % relative error (centre distance / true radius). */
static int within10(const pt_result *r, const pt_synth_truth *t)
{
    return r->status == PT_DETECT_OK && t->visible &&
           hypot(r->circle.cx - t->pupil.cx, r->circle.cy - t->pupil.cy) <= 0.1 * t->r;
}

/* The layer over the omp back end (with its other looks) on eyes with a
 * ring of glints on the border (synth --hazard glint-ring,small-pupil,
 * 640x512): each answer is the first look's, or, where the first was below
 * the threshold, a pupil more confident than it by more than the margin;
 * some are looked at again and kept, and more pupils lie within 10 % than
 * with the first look alone. */
#define RING_FRAMES 24
static void test_layer(void)
{
    pt_config cfg;
    pt_config_default(&cfg);
    PT_CHECK(cfg.retry.glint == 0.0, "off by default");
    cfg.retry.glint = 0.5;
    pt_synth_params sp;
    pt_synth_params_default(&sp);
    sp.width = 640;
    sp.height = 512;
    sp.hazards = PT_SYNTH_GLINT_RING | PT_SYNTH_SMALL_PUPIL;
    pt_image *f = pt_image_create(sp.width, sp.height);
    PT_CHECK(f != NULL, "frame");
    if (!f)
        return;
    int changed = 0, first_ok = 0, layer_ok = 0, rule = 1;
    for (int i = 0; i < RING_FRAMES; i++) {
        pt_synth_frame_truth truth;
        pt_error err;
        pt_error_clear(&err);
        if (pt_synth_render(&sp, pt_synth_frame_seed(51, i), f, &truth, &err)) {
            PT_CHECK(0, "render frame %d: %s", i, err.what);
            break;
        }
        pt_result first, layered;
        if (pt_track_once(&pt_backend_omp_tl_retry, &cfg, PT_ALG_STARBURST, f, &first) ||
            pt_track_once(&pt_backend_omp_glint_retry, &cfg, PT_ALG_STARBURST, f, &layered)) {
            PT_CHECK(0, "track frame %d", i);
            break;
        }
        int same = !memcmp(&layered.circle, &first.circle, sizeof first.circle) &&
                   layered.status == first.status && layered.confidence == first.confidence;
        if (!same) {
            changed++;
            if (!pt_glint_retry_wanted(&first, cfg.retry.glint) ||
                !pt_glint_retry_keeps(&first, &layered, cfg.retry.glint_margin)) {
                rule = 0;
                PT_CHECK(0, "frame %d: an answer changed against the rule", i);
            }
        }
        first_ok += within10(&first, &truth.eyes[0]);
        layer_ok += within10(&layered, &truth.eyes[0]);
    }
    printf("glint_retry: %d of %d answers replaced; within 10 %%: %d -> %d\n", changed,
           RING_FRAMES, first_ok, layer_ok);
    PT_CHECK(rule, "the layer follows the rule on every frame");
    PT_CHECK(changed >= 2, "answers replaced: %d of %d", changed, RING_FRAMES);
    PT_CHECK(layer_ok > first_ok, "within 10 %%: %d with the layer against %d", layer_ok,
             first_ok);
    pt_image_destroy(f);
}

int main(void)
{
    test_arc_fill();
    test_arc_fill_offset();
    test_rules();
    test_layer();
    return PT_TEST_SUMMARY("test_glint_retry");
}
