/* Tests for the synthetic eye renderer (lib/synth/synth.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/synth/synth.h"
#include "tests/pt_test.h"

static pt_image *render(const pt_synth_params *p, uint64_t seed, pt_synth_frame_truth *truth)
{
    pt_error err;
    pt_error_clear(&err);
    pt_image *img = pt_image_create(p->width, p->height);
    if (!img)
        return NULL;
    if (pt_synth_render(p, seed, img, truth, &err) != PT_OK) {
        fprintf(stderr, "render: %s\n", err.what);
        pt_image_destroy(img);
        return NULL;
    }
    return img;
}

static void test_same_seed_pt_image_same_pixels(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    pt_synth_frame_truth t1, t2;
    pt_image *a = render(&p, 42, &t1), *b = render(&p, 42, &t2), *c = render(&p, 43, &t2);
    PT_CHECK(a && b && c, "render failed");
    if (a && b && c) {
        PT_CHECK(pt_image_same_pixels(a, b), "same seed gave different pixels");
        PT_CHECK(!pt_image_same_pixels(a, c), "different seeds gave identical pixels");
        pt_synth_frame_truth t3;
        pt_image *d = render(&p, 42, &t3);
        PT_CHECK(d && t1.count == t3.count && t1.eyes[0].visible == t3.eyes[0].visible &&
                     t1.eyes[0].pupil.cx == t3.eyes[0].pupil.cx &&
                     t1.eyes[0].pupil.cy == t3.eyes[0].pupil.cy &&
                     t1.eyes[0].pupil.a == t3.eyes[0].pupil.a &&
                     t1.eyes[0].pupil.theta == t3.eyes[0].pupil.theta,
                 "same seed gave different ground truth");
        pt_image_destroy(d);
    }
    PT_CHECK(pt_synth_frame_seed(1, 0) != pt_synth_frame_seed(1, 1) &&
                 pt_synth_frame_seed(1, 0) != pt_synth_frame_seed(2, 0),
             "frame seeds collide");
    pt_image_destroy(a);
    pt_image_destroy(b);
    pt_image_destroy(c);
}

static int cmp_u8(const void *a, const void *b)
{
    return *(const uint8_t *)a - *(const uint8_t *)b;
}

/* Median grey level over the ring r0 <= |p - c| < r1. */
static int ring_median(const pt_image *img, double cx, double cy, double r0, double r1)
{
    static uint8_t values[1 << 20];
    int n = 0;
    for (int y = (int)(cy - r1) - 1; y <= (int)(cy + r1) + 1; y++)
        for (int x = (int)(cx - r1) - 1; x <= (int)(cx + r1) + 1; x++) {
            if (x < 0 || y < 0 || x >= img->width || y >= img->height || n >= (1 << 20))
                continue;
            double d = hypot(x - cx, y - cy);
            if (d >= r0 && d < r1)
                values[n++] = img->buf[(size_t)y * img->stride + x];
        }
    if (n == 0)
        return -1;
    qsort(values, (size_t)n, 1, cmp_u8);
    return values[n / 2];
}

static void test_truth_is_consistent(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = 192;
    p.height = 160;
    int visible = 0, hidden = 0, darker = 0, checked = 0, easy_fail = 0;
    for (int d = 0; d < 3; d++) {
        p.difficulty = (pt_synth_difficulty)d;
        for (int i = 0; i < 60; i++) {
            pt_synth_frame_truth t;
            pt_image *img = render(&p, pt_synth_frame_seed(7, i + 1000 * d), &t);
            PT_CHECK(img != NULL, "render failed");
            if (!img)
                continue;
            PT_CHECK(t.count == 1 && t.eyes[0].eye == 0, "monocular frame has %d eyes", t.count);
            const pt_synth_truth *e = &t.eyes[0];
            if (!e->visible) {
                hidden++;
                pt_image_destroy(img);
                continue;
            }
            visible++;
            const pt_ellipse *q = &e->pupil;
            PT_CHECK(q->cx - q->a >= 0 && q->cx + q->a <= p.width - 1 && q->cy - q->a >= 0 &&
                         q->cy + q->a <= p.height - 1,
                     "pupil (%g,%g) a=%g outside %dx%d", q->cx, q->cy, q->a, p.width, p.height);
            PT_CHECK(q->a >= q->b && q->b >= 0.8 * q->a - 1e-6, "axes a=%g b=%g", q->a, q->b);
            PT_CHECK(q->theta >= 0 && q->theta < 180, "theta %g", q->theta);
            PT_CHECK(fabs(e->r - sqrt(q->a * q->b)) < 1e-9, "r is not sqrt(ab)");
            /* hard's small-pupil class constricts the pupil to iris / 3..6.5. */
            double ratio_hi = (t.hazards & PT_SYNTH_SMALL_PUPIL) ? 6.5 : 3.0;
            PT_CHECK(e->iris_radius >= 2.2 * e->r - 1e-3 &&
                         e->iris_radius <= ratio_hi * e->r + 1e-3,
                     "iris/pupil ratio %g", e->iris_radius / e->r);
            PT_CHECK(d == 2 ? t.hazards != 0 : t.hazards == 0, "difficulty %d: classes 0x%x", d,
                     t.hazards);
            if (e->occluded < 0.15) {
                /* Median ignores reflections and lashes; the ring is iris or lid/sclera. */
                int inner = ring_median(img, q->cx, q->cy, 0, 0.6 * q->b);
                int outer = ring_median(img, q->cx, q->cy, 1.25 * q->a, 1.25 * q->a + 0.5 * e->r);
                checked++;
                if (inner + 8 < outer)
                    darker++;
                else if (d == 0)
                    easy_fail++;
                else
                    fprintf(stderr, "  note: pupil not darker: difficulty %d frame %d: %d vs %d\n", d,
                            i, inner, outer);
            }
            pt_image_destroy(img);
        }
    }
    PT_CHECK(visible > 150, "only %d visible pupils", visible);
    PT_CHECK(hidden > 0, "no closed eye in 180 frames");
    /* Lashes and lid shadow may darken the ring on a few normal/hard frames. */
    PT_CHECK(checked > 100 && easy_fail == 0 && darker >= 0.95 * checked,
             "pupil darker than surround in %d of %d (%d easy failures)", darker, checked,
             easy_fail);
}

static void test_binocular_halves(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = 320;
    p.height = 128;
    p.binocular = 1;
    int ok = 0, n = 0;
    for (int i = 0; i < 30; i++) {
        pt_synth_frame_truth t;
        pt_image *img = render(&p, pt_synth_frame_seed(3, i), &t);
        PT_CHECK(img && t.count == 2 && t.eyes[0].eye == 'L' && t.eyes[1].eye == 'R',
                 "binocular truth labels");
        for (int e = 0; e < 2 && img; e++) {
            if (!t.eyes[e].visible)
                continue;
            n++;
            double cx = t.eyes[e].pupil.cx, a = t.eyes[e].pupil.a;
            if (e == 0 ? cx + a < p.width / 2 : cx - a >= p.width / 2)
                ok++;
        }
        pt_image_destroy(img);
    }
    PT_CHECK(n > 40 && ok == n, "eyes in their halves: %d of %d", ok, n);
}

static void test_rejects_bad_sizes(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = 40;
    p.height = 40;
    p.binocular = 1;
    pt_image *img = pt_image_create(40, 40);
    pt_synth_frame_truth t;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(img && pt_synth_render(&p, 1, img, &t, &err) == PT_ERR_PARAM,
             "20-px eyes accepted");
    p.binocular = 0;
    p.width = 41;
    PT_CHECK(img && pt_synth_render(&p, 1, img, &t, &err) == PT_ERR_PARAM,
             "size mismatch accepted");
    pt_synth_difficulty dif;
    PT_CHECK(pt_synth_parse_difficulty("hard", &dif, &err) == PT_OK && dif == PT_SYNTH_HARD,
             "parse hard");
    PT_CHECK(pt_synth_parse_difficulty("extreme", &dif, &err) == PT_ERR_PARAM, "parse extreme");
    pt_image_destroy(img);
}

/* The naive baseline: threshold at the 2nd percentile, largest 4-connected
 * component, its centroid. Returns 0 when nothing is found. */
static int naive_darkest_blob(const pt_image *img, double *cx, double *cy, int *labels,
                              int *stack)
{
    long hist[256] = {0};
    int w = img->width, h = img->height;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            hist[img->buf[(size_t)y * img->stride + x]]++;
    long want = (long)w * h / 50, acc = 0;
    int thr = 0;
    while (thr < 255 && (acc += hist[thr]) < want)
        thr++;
    memset(labels, 0, sizeof(int) * (size_t)w * h);
    long best = 0;
    int label = 0;
    for (int start = 0; start < w * h; start++) {
        if (labels[start] || img->buf[(size_t)(start / w) * img->stride + start % w] > thr)
            continue;
        label++;
        long n = 0;
        double sx = 0, sy = 0;
        int top = 0;
        stack[top++] = start;
        labels[start] = label;
        while (top) {
            int p = stack[--top], x = p % w, y = p / w;
            n++;
            sx += x;
            sy += y;
            const int nb[4][2] = {{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}};
            for (int k = 0; k < 4; k++) {
                int qx = nb[k][0], qy = nb[k][1];
                if (qx < 0 || qy < 0 || qx >= w || qy >= h)
                    continue;
                int q = qy * w + qx;
                if (!labels[q] && img->buf[(size_t)qy * img->stride + qx] <= thr) {
                    labels[q] = label;
                    stack[top++] = q;
                }
            }
        }
        if (n > best) {
            best = n;
            *cx = sx / n;
            *cy = sy / n;
        }
    }
    return best > 0;
}

/* hard enough that the naive detector misses a fair share. */
static void test_naive_detector_fails_sometimes(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = 160;
    p.height = 128;
    int *labels = malloc(sizeof(int) * 160 * 128);
    int *stack = malloc(sizeof(int) * 160 * 128 * 4);
    double rate[3] = {0};
    for (int d = 0; d < 3 && labels && stack; d++) {
        p.difficulty = (pt_synth_difficulty)d;
        int fails = 0, visible = 0;
        for (int i = 0; i < 150; i++) {
            pt_synth_frame_truth t;
            pt_image *img = render(&p, pt_synth_frame_seed(11 + d, i), &t);
            if (!img)
                continue;
            if (t.eyes[0].visible) {
                double cx, cy;
                visible++;
                if (!naive_darkest_blob(img, &cx, &cy, labels, stack) ||
                    hypot(cx - t.eyes[0].pupil.cx, cy - t.eyes[0].pupil.cy) > 0.1 * t.eyes[0].r)
                    fails++;
            }
            pt_image_destroy(img);
        }
        rate[d] = visible ? (double)fails / visible : 1.0;
        printf("naive darkest-blob detector, %s: fails on %d of %d visible pupils (%.0f %%)\n",
               d == 0 ? "easy" : (d == 1 ? "normal" : "hard"), fails, visible, 100 * rate[d]);
    }
    PT_CHECK(rate[1] >= 0.2 && rate[1] <= 0.45, "normal: naive failure rate %.2f", rate[1]);
    PT_CHECK(rate[0] < rate[1] && rate[1] < rate[2], "difficulty does not order failures: %.2f %.2f %.2f",
             rate[0], rate[1], rate[2]);
    free(labels);
    free(stack);
}

/* A full-size frame renders, with its pupil inside the frame (its speed is
 * measured by scripts/figures.sh and bench, not here). */
static void test_large_frame(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = 1280;
    p.height = 1024;
    pt_synth_frame_truth t;
    pt_image *img = render(&p, 5, &t);
    PT_CHECK(img != NULL, "1280x1024 render failed");
    if (img)
        PT_CHECK(img->width == 1280 && img->height == 1024, "1280x1024 frame is %dx%d",
                 img->width, img->height);
    pt_image_destroy(img);
}

int main(void)
{
    test_same_seed_pt_image_same_pixels();
    test_truth_is_consistent();
    test_binocular_halves();
    test_rejects_bad_sizes();
    test_naive_detector_fails_sometimes();
    test_large_frame();
    return PT_TEST_SUMMARY("synth");
}
