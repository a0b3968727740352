/* The second look at half resolution (lib/detect/half_retry.h): the
 * reduction, the coordinates back in the frame, the rule, and the layer
 * over the omp back end. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/detect/half_retry.h"
#include "tests/pt_test.h"
#include "tests/pt_track_once.h"

static void test_halve(void)
{
    /* 5x3 with a stride wider than the width: the last column and row go */
    pt_image *src = pt_image_create(5, 3), *dst = pt_image_create(2, 1);
    PT_CHECK(src && dst, "images");
    const uint8_t rows[3][5] = {{1, 2, 10, 20, 99}, {2, 2, 30, 41, 99}, {99, 99, 99, 99, 99}};
    for (int y = 0; y < 3; y++)
        memcpy(src->buf + (size_t)y * src->stride, rows[y], 5);
    pt_image_halve(src, dst);
    /* (1+2+2+2)/4 = 1.75 -> 2; (10+20+30+41)/4 = 25.25 -> 25 */
    PT_CHECK(dst->buf[0] == 2 && dst->buf[1] == 25, "2x2 means %d %d, wanted 2 25", dst->buf[0],
             dst->buf[1]);
    /* a half is rounded up: (0+0+1+1)/4 = 0.5 -> 1; 255s stay 255 */
    memset(src->buf, 0, (size_t)src->stride * 3);
    src->buf[src->stride] = src->buf[src->stride + 1] = 1;
    memset(src->buf + 2, 255, 2);
    memset(src->buf + src->stride + 2, 255, 2);
    pt_image_halve(src, dst);
    PT_CHECK(dst->buf[0] == 1 && dst->buf[1] == 255, "rounding %d %d", dst->buf[0], dst->buf[1]);
    pt_image_destroy(src);
    pt_image_destroy(dst);
}

static void test_from_half(void)
{
    pt_result r;
    memset(&r, 0, sizeof r);
    r.has_circle = 1;
    r.circle.cx = 10;
    r.circle.cy = 20.25;
    r.circle.r = 5;
    r.ellipse.cx = 3; /* not valid: left alone */
    pt_result_from_half(&r);
    PT_CHECK_NEAR(r.circle.cx, 20.5, 1e-12, "circle x");
    PT_CHECK_NEAR(r.circle.cy, 41.0, 1e-12, "circle y");
    PT_CHECK_NEAR(r.circle.r, 10.0, 1e-12, "radius");
    PT_CHECK(r.ellipse.cx == 3, "an invalid ellipse is left alone");
    r.has_ellipse = 1;
    r.ellipse.cx = 1;
    r.ellipse.cy = 2;
    r.ellipse.a = 7;
    r.ellipse.b = 4;
    r.ellipse.theta = 0.3;
    pt_result_from_half(&r);
    PT_CHECK(r.ellipse.cx == 2.5 && r.ellipse.cy == 4.5 && r.ellipse.a == 14 &&
                 r.ellipse.b == 8 && r.ellipse.theta == 0.3,
             "ellipse %g %g %g %g %g", r.ellipse.cx, r.ellipse.cy, r.ellipse.a, r.ellipse.b,
             r.ellipse.theta);
}

static pt_result with(pt_detect_status st, double confidence)
{
    pt_result r;
    memset(&r, 0, sizeof r);
    r.status = st;
    r.confidence = confidence;
    r.has_circle = st == PT_DETECT_OK;
    r.circle.r = 2 * PT_HALF_MIN_RADIUS; /* in the frame: the smallest kept */
    return r;
}

static void test_rule(void)
{
    pt_result ok3 = with(PT_DETECT_OK, 0.3), ok5 = with(PT_DETECT_OK, 0.5);
    pt_result none = with(PT_DETECT_NOTFOUND, 0), bad = with(PT_DETECT_ERROR, 0);
    PT_CHECK(pt_half_retry_wanted(&ok3, 0.4), "below the floor: looked at again");
    PT_CHECK(!pt_half_retry_wanted(&ok5, 0.4), "above it: not");
    PT_CHECK(pt_half_retry_wanted(&none, 0.4), "no pupil: looked at again");
    PT_CHECK(!pt_half_retry_wanted(&bad, 0.4), "an error: not");
    PT_CHECK(!pt_half_retry_wanted(&ok3, 0), "half_retry=0: never");
    pt_result q36 = with(PT_DETECT_OK, 0.36), q34 = with(PT_DETECT_OK, 0.34);
    PT_CHECK(pt_half_retry_keeps(&ok3, &q36, 0.05), "0.36 beats 0.30 by more than 0.05");
    PT_CHECK(!pt_half_retry_keeps(&ok3, &q34, 0.05), "0.34 does not");
    PT_CHECK(pt_half_retry_keeps(&none, &q34, 0.05), "any pupil beats none");
    PT_CHECK(!pt_half_retry_keeps(&ok3, &none, 0), "no pupil never replaces one");
    /* a pupil under PT_HALF_MIN_RADIUS in the reduced frame: its
     * confidence's samples lie further out for its size; never kept */
    pt_result small = q36;
    small.circle.r = 2 * PT_HALF_MIN_RADIUS - 0.1;
    PT_CHECK(!pt_half_retry_keeps(&ok3, &small, 0.05), "a small second pupil is not kept");
    PT_CHECK(!pt_half_retry_keeps(&none, &small, 0.05), "not even over none");
    small.has_circle = 0;
    small.has_ellipse = 1;
    small.ellipse.a = 2 * PT_HALF_MIN_RADIUS + 4;
    small.ellipse.b = 2 * PT_HALF_MIN_RADIUS - 4;
    PT_CHECK(pt_half_retry_keeps(&ok3, &small, 0.05), "an ellipse's mean radius decides");
}

/* A frame w x h with a dark disc (40 inside, 140 outside, a 4 px ramp). */
static pt_image *disc_frame(int w, int h, double cx, double cy, double r)
{
    pt_image *f = pt_image_create(w, h);
    if (!f)
        return NULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double rho = hypot(x - cx, y - cy);
            double v = rho < r - 2 ? 40 : rho < r + 2 ? 40 + 25 * (rho - (r - 2)) : 140;
            f->buf[(size_t)y * f->stride + x] = (uint8_t)lround(v);
        }
    return f;
}

static void test_layer(void)
{
    pt_image *f = disc_frame(320, 256, 150.3, 121.8, 50);
    pt_image *h = pt_image_create(160, 128);
    PT_CHECK(f && h, "frames");
    pt_image_halve(f, h);
    pt_config cfg;
    pt_config_default(&cfg);
    PT_CHECK(cfg.retry.below > 0, "on by default");
    pt_algorithm algs[2] = {PT_ALG_STARBURST, PT_ALG_TL};
    for (int a = 0; a < 2; a++) {
        /* the half-size frame's pupil, scaled back, is the frame's */
        pt_result full, half;
        PT_CHECK(!pt_track_once(&pt_backend_omp, &cfg, algs[a], f, &full), "full size");
        PT_CHECK(!pt_track_once(&pt_backend_omp, &cfg, algs[a], h, &half), "half size");
        PT_CHECK(full.status == PT_DETECT_OK && half.status == PT_DETECT_OK, "found");
        pt_result_from_half(&half);
        PT_CHECK(fabs(half.circle.cx - full.circle.cx) < 0.6 &&
                     fabs(half.circle.cy - full.circle.cy) < 0.6 &&
                     fabs(half.circle.r - full.circle.r) < 1.0,
                 "%s: half (%.2f %.2f %.2f) against full (%.2f %.2f %.2f)",
                 pt_algorithm_name(algs[a]), half.circle.cx, half.circle.cy, half.circle.r,
                 full.circle.cx, full.circle.cy, full.circle.r);
        /* a confident eye is not looked at again: the layer gives the back
         * end's own result; below an unreachable floor with no margin it
         * keeps the second look where that is more confident */
        pt_result layered, always;
        PT_CHECK(!pt_track_once(&pt_backend_omp_half_retry, &cfg, algs[a], f, &layered), "layer");
        PT_CHECK(full.confidence >= cfg.retry.below, "a clean disc is confident");
        PT_CHECK(memcmp(&layered.circle, &full.circle, sizeof full.circle) == 0 &&
                     layered.confidence == full.confidence,
                 "%s: the layer changed a confident result", pt_algorithm_name(algs[a]));
        pt_config every = cfg;
        every.retry.below = 1;
        every.retry.margin = 0;
        PT_CHECK(!pt_track_once(&pt_backend_omp_half_retry, &every, algs[a], f, &always), "always");
        int kept = half.confidence > full.confidence;
        const pt_circle *want = kept ? &half.circle : &full.circle;
        PT_CHECK(fabs(always.circle.cx - want->cx) < 1e-9 && fabs(always.circle.r - want->r) < 1e-9 &&
                     always.confidence == (kept ? half.confidence : full.confidence),
                 "%s: half_retry=1 kept the wrong look", pt_algorithm_name(algs[a]));
    }
    pt_image_destroy(f);
    pt_image_destroy(h);
}

int main(void)
{
    test_halve();
    test_from_half();
    test_rule();
    test_layer();
    return PT_TEST_SUMMARY("half_retry");
}
