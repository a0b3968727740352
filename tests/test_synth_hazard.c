/* Tests for the synthetic failure classes (lib/synth/synth_hazard.c, the
 * blurs of lib/synth/synth_filter.c, and their use in pt_synth_render). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/synth/synth.h"
#include "lib/synth/synth_filter.h"
#include "lib/synth/synth_noise.h"
#include "tests/pt_test.h"

static void test_parse_and_names(void)
{
    pt_error err;
    pt_error_clear(&err);
    unsigned set = 0;
    PT_CHECK(pt_synth_parse_hazards("lid,defocus", &set, &err) == PT_OK &&
                 set == (PT_SYNTH_LID | PT_SYNTH_DEFOCUS),
             "lid,defocus gave 0x%x", set);
    for (int i = 0; i < PT_SYNTH_HAZARD_COUNT; i++) {
        const char *name = pt_synth_hazard_name(i);
        PT_CHECK(name && pt_synth_parse_hazards(name, &set, &err) == PT_OK && set == 1u << i,
                 "name %d does not parse back", i);
    }
    PT_CHECK(pt_synth_hazard_name(-1) == NULL && pt_synth_hazard_name(PT_SYNTH_HAZARD_COUNT) == NULL,
             "names outside the range");
    const char *bad[] = {"", "lid,", ",lid", "lid,,defocus", "blur", "LID", "lid defocus"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set = 12345;
        PT_CHECK(pt_synth_parse_hazards(bad[i], &set, &err) == PT_ERR_PARAM && set == 12345,
                 "'%s' accepted", bad[i]);
    }
    PT_CHECK(pt_synth_parse_hazards(NULL, &set, &err) == PT_ERR_PARAM, "NULL accepted");
    char buf[128];
    pt_synth_hazard_format(PT_SYNTH_GLINT_RING | PT_SYNTH_MOTION_BLUR, buf, sizeof buf);
    PT_CHECK(!strcmp(buf, "glint-ring+motion-blur"), "format gave '%s'", buf);
    pt_synth_hazard_format(0, buf, sizeof buf);
    PT_CHECK(buf[0] == '\0', "empty set formats as '%s'", buf);
    pt_synth_hazard_format(PT_SYNTH_HAZARD_ALL, buf, 8);
    PT_CHECK(strlen(buf) < 8, "format overran a short buffer");
}

static int bits_set(unsigned v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static void test_mix_draw(void)
{
    int per_class[PT_SYNTH_HAZARD_COUNT] = {0}, singles = 0, n = 6000;
    for (int i = 0; i < n; i++) {
        unsigned m = pt_synth_hazard_mix(pt_synth_mix64((uint64_t)i));
        int k = bits_set(m);
        PT_CHECK((k == 1 || k == 2) && !(m & ~PT_SYNTH_HAZARD_ALL), "draw 0x%x", m);
        singles += k == 1;
        for (int c = 0; c < PT_SYNTH_HAZARD_COUNT; c++)
            per_class[c] += (m >> c) & 1u;
    }
    PT_CHECK(singles > 0.45 * n && singles < 0.55 * n, "%d singles of %d", singles, n);
    /* Each class is in 1/6 of the singles and 2/6 of the pairs: 1/4 of frames. */
    for (int c = 0; c < PT_SYNTH_HAZARD_COUNT; c++)
        PT_CHECK(per_class[c] > 0.22 * n && per_class[c] < 0.28 * n, "class %d in %d of %d", c,
                 per_class[c], n);
}

/* Sum, centroid and second moments of a float image. */
typedef struct {
    double sum, cx, cy, sxx, syy, sxy;
} moments;

static moments image_moments(const float *img, int w, int h)
{
    moments m = {0};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = img[(size_t)y * w + x];
            m.sum += v;
            m.cx += v * x;
            m.cy += v * y;
        }
    m.cx /= m.sum;
    m.cy /= m.sum;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = img[(size_t)y * w + x], dx = x - m.cx, dy = y - m.cy;
            m.sxx += v * dx * dx;
            m.syy += v * dy * dy;
            m.sxy += v * dx * dy;
        }
    m.sxx /= m.sum;
    m.syy /= m.sum;
    m.sxy /= m.sum;
    return m;
}

static void test_motion_blur_point(void)
{
    enum { W = 96, H = 80 };
    static float img[W * H], tmp[W * H];
    const float lengths[] = {1.0f, 7.0f, 20.5f}, angles[] = {0.0f, 0.7f, 2.0f};
    pt_error err;
    pt_error_clear(&err);
    for (int i = 0; i < 3; i++) {
        memset(img, 0, sizeof img);
        img[40 * W + 50] = 1000.0f;
        float len = lengths[i], ang = angles[i];
        PT_CHECK(pt_synth_motion_blur(img, tmp, W, H, len, ang, &err) == PT_OK, "motion blur failed");
        moments m = image_moments(img, W, H);
        PT_CHECK(fabs(m.sum - 1000.0) < 0.05, "motion blur changed the sum: %g", m.sum);
        PT_CHECK(fabs(m.cx - 50.0) < 0.02 && fabs(m.cy - 40.0) < 0.02,
                 "motion blur moved the centroid to (%g, %g)", m.cx, m.cy);
        /* Along the motion: a segment of `len` sampled at taps 1 px or less
         * apart (variance len^2/12 * (taps+1)/(taps-1)), plus the bilinear
         * spread (at most 1/4 per axis); across it: the bilinear spread only. */
        double c = cos(ang), s = sin(ang);
        double along = m.sxx * c * c + 2 * m.sxy * c * s + m.syy * s * s;
        double across = m.sxx * s * s - 2 * m.sxy * c * s + m.syy * c * c;
        int taps = (int)ceilf(len) + 1;
        double want = (double)len * len / 12.0 * (taps + 1.0) / (taps - 1.0);
        PT_CHECK(along >= want - 0.01 && along <= want + 0.5, "length %g: along %g, want %g", len,
                 along, want);
        PT_CHECK(across <= 0.5, "length %g angle %g: across %g", len, ang, across);
    }
    memset(img, 0, sizeof img);
    img[10] = 5.0f;
    PT_CHECK(pt_synth_motion_blur(img, tmp, W, H, 0.5f, 1.0f, &err) == PT_OK && img[10] == 5.0f,
             "sub-pixel motion blur changed the image");
    PT_CHECK(pt_synth_motion_blur(img, tmp, W, H, 5000.0f, 1.0f, &err) == PT_ERR_PARAM,
             "5000-px motion blur accepted");
}

static void test_disc_blur(void)
{
    enum { W = 90, H = 90 };
    static float img[W * H];
    pt_error err;
    pt_error_clear(&err);
    const float radii[] = {1.5f, 6.0f, 12.3f};
    for (int i = 0; i < 3; i++) {
        float rad = radii[i];
        memset(img, 0, sizeof img);
        img[45 * W + 44] = 1000.0f;
        PT_CHECK(pt_synth_disc_blur(img, W, H, rad, &err) == PT_OK, "disc blur failed");
        moments m = image_moments(img, W, H);
        PT_CHECK(fabs(m.sum - 1000.0) < 0.05, "disc blur changed the sum: %g", m.sum);
        PT_CHECK(fabs(m.cx - 44.0) < 0.02 && fabs(m.cy - 45.0) < 0.02,
                 "disc blur moved the centroid to (%g, %g)", m.cx, m.cy);
        /* A uniform disc of radius R: E[x^2] = E[y^2] = R^2 / 4. */
        double want = rad * rad / 4.0;
        PT_CHECK(fabs(m.sxx - want) < 0.15 * want + 0.2 && fabs(m.syy - want) < 0.15 * want + 0.2,
                 "radius %g: moments %g %g, want %g", rad, m.sxx, m.syy, want);
        double outside = 0.0, centre = img[45 * W + 44];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                if (hypot(x - 44.0, y - 45.0) > rad + 1.0)
                    outside += img[(size_t)y * W + x];
        PT_CHECK(outside < 1e-3, "radius %g: %g outside the disc", rad, outside);
        PT_CHECK(centre > 0.8 * 1000.0 / (M_PI * rad * rad) &&
                     centre < 1.25 * 1000.0 / (M_PI * rad * rad),
                 "radius %g: centre %g, flat top %g", rad, centre, 1000.0 / (M_PI * rad * rad));
    }
    /* A constant image stays constant up to the borders. */
    for (int i = 0; i < W * H; i++)
        img[i] = 77.0f;
    PT_CHECK(pt_synth_disc_blur(img, W, H, 9.0f, &err) == PT_OK, "disc blur failed");
    int off = 0;
    for (int i = 0; i < W * H; i++)
        off += fabsf(img[i] - 77.0f) > 1e-3f;
    PT_CHECK(off == 0, "constant image changed at %d pixels", off);
    PT_CHECK(pt_synth_disc_blur(img, W, H, 300.0f, &err) == PT_ERR_PARAM, "300-px defocus accepted");
}

static pt_image *render(const pt_synth_params *p, uint64_t seed, pt_synth_frame_truth *truth)
{
    pt_error err;
    pt_error_clear(&err);
    pt_image *img = pt_image_create(p->width, p->height);
    if (img && pt_synth_render(p, seed, img, truth, &err) != PT_OK) {
        fprintf(stderr, "render: %s\n", err.what);
        pt_image_destroy(img);
        img = NULL;
    }
    return img;
}

static int same_pupil(const pt_synth_truth *a, const pt_synth_truth *b)
{
    return a->visible == b->visible &&
           (!a->visible || (a->pupil.cx == b->pupil.cx && a->pupil.cy == b->pupil.cy &&
                            a->pupil.a == b->pupil.a && a->pupil.b == b->pupil.b &&
                            a->pupil.theta == b->pupil.theta));
}

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[n / 2] : 0.0;
}

/* Mean grey level over r0 <= |p - c| < r1. */
static double ring_mean(const pt_image *img, double cx, double cy, double r0, double r1)
{
    double sum = 0.0;
    long n = 0;
    for (int y = (int)(cy - r1) - 1; y <= (int)(cy + r1) + 1; y++)
        for (int x = (int)(cx - r1) - 1; x <= (int)(cx + r1) + 1; x++) {
            if (x < 0 || y < 0 || x >= img->width || y >= img->height)
                continue;
            double d = hypot(x - cx, y - cy);
            if (d >= r0 && d < r1) {
                sum += img->buf[(size_t)y * img->stride + x];
                n++;
            }
        }
    return n ? sum / n : 0.0;
}

/* Each class changes what it names and nothing else: the blurs keep the
 * truth, the eye classes keep the scene around them, and the same seed gives
 * the same frame. */
static void test_classes_in_frames(void)
{
    pt_synth_params p, q;
    pt_synth_params_default(&p);
    p.width = 256;
    p.height = 224;
    enum { N = 40 };
    double contrast_plain[N], contrast_low[N];
    int n_contrast = 0, ring_ok = 0, ring_frames = 0, lid_cut = 0, lid_frames = 0;
    int blur_same_truth = 0, blur_differs = 0, frames = 0;
    for (int i = 0; i < N; i++) {
        uint64_t seed = pt_synth_frame_seed(19, i);
        pt_synth_frame_truth t0, t1, t2;
        pt_image *plain = render(&p, seed, &t0);
        PT_CHECK(plain && t0.hazards == 0, "plain frame %d", i);
        if (!plain)
            continue;
        frames++;
        const pt_synth_truth *e0 = &t0.eyes[0];

        q = p;
        q.hazards = PT_SYNTH_MOTION_BLUR | PT_SYNTH_DEFOCUS;
        pt_image *blurred = render(&q, seed, &t1);
        pt_image *again = render(&q, seed, &t2);
        if (blurred && again) {
            blur_same_truth += same_pupil(e0, &t1.eyes[0]) && t1.hazards == q.hazards;
            blur_differs += !pt_image_same_pixels(plain, blurred);
            PT_CHECK(pt_image_same_pixels(blurred, again), "frame %d: same seed, different pixels", i);
        }
        pt_image_destroy(blurred);
        pt_image_destroy(again);

        q.hazards = PT_SYNTH_LOW_CONTRAST;
        pt_image *low = render(&q, seed, &t1);
        if (low && e0->visible && e0->occluded < 0.1) {
            const pt_ellipse *s = &e0->pupil;
            double iris0 = 1.3 * s->a, iris1 = fmin(0.9 * e0->iris_radius, 1.8 * s->a);
            if (iris1 > iris0 + 2) {
                contrast_plain[n_contrast] = ring_mean(plain, s->cx, s->cy, iris0, iris1) -
                                             ring_mean(plain, s->cx, s->cy, 0, 0.6 * s->b);
                contrast_low[n_contrast++] = ring_mean(low, s->cx, s->cy, iris0, iris1) -
                                             ring_mean(low, s->cx, s->cy, 0, 0.6 * s->b);
            }
            PT_CHECK(same_pupil(e0, &t1.eyes[0]), "frame %d: low contrast moved the pupil", i);
        }
        pt_image_destroy(low);

        q.hazards = PT_SYNTH_GLINT_RING;
        pt_image *ring = render(&q, seed, &t1);
        if (ring && t1.eyes[0].visible) {
            const pt_synth_truth *e = &t1.eyes[0];
            int ok = e->glints >= 4 && e->glints <= 9;
            for (int g = 0; g < e->glints; g++) {
                double d = hypot(e->glint_x[g] - e->pupil.cx, e->glint_y[g] - e->pupil.cy) / e->r;
                ok = ok && d > 0.65 && d < 1.35;
            }
            ring_frames++;
            ring_ok += ok && same_pupil(e0, e);
        }
        pt_image_destroy(ring);

        q.hazards = PT_SYNTH_LID;
        pt_image *lid = render(&q, seed, &t1);
        if (lid && !e0->visible == !t1.eyes[0].visible && e0->visible) {
            lid_frames++;
            /* The lids hide part of the pupil, never most of it. */
            lid_cut += t1.eyes[0].occluded > 0.1 && t1.eyes[0].occluded < 0.5 &&
                       same_pupil(e0, &t1.eyes[0]);
        }
        pt_image_destroy(lid);
        pt_image_destroy(plain);
    }
    PT_CHECK(blur_same_truth == frames && blur_differs == frames,
             "blurs: truth kept on %d, pixels changed on %d of %d", blur_same_truth, blur_differs,
             frames);
    double plain_med = median(contrast_plain, n_contrast), low_med = median(contrast_low, n_contrast);
    printf("pupil/iris step, median of %d frames: %.1f plain, %.1f low-contrast\n", n_contrast,
           plain_med, low_med);
    PT_CHECK(n_contrast >= 15 && low_med >= 5.0 && low_med <= 20.0 && plain_med > 2.0 * low_med,
             "low contrast: median step %.1f (plain %.1f, %d frames)", low_med, plain_med,
             n_contrast);
    PT_CHECK(ring_frames >= 30 && ring_ok == ring_frames, "glint ring right on %d of %d", ring_ok,
             ring_frames);
    PT_CHECK(lid_frames >= 30 && lid_cut >= 0.9 * lid_frames, "lid cuts %d of %d pupils", lid_cut,
             lid_frames);
}

/* Small pupils: radius 5..20 px in 200x200 crops, the eye around them as it was. */
static void test_small_pupils(void)
{
    pt_synth_params p;
    pt_synth_params_default(&p);
    p.width = p.height = 200;
    p.hazards = PT_SYNTH_SMALL_PUPIL;
    int n = 0, in_range = 0;
    double lo = 1e9, hi = 0;
    for (int i = 0; i < 60; i++) {
        pt_synth_frame_truth t;
        pt_image *img = render(&p, pt_synth_frame_seed(23, i), &t);
        if (img && t.eyes[0].visible) {
            double r = t.eyes[0].r, ratio = t.eyes[0].iris_radius / r;
            n++;
            in_range += r >= 5.0 && r <= 20.0 && ratio >= 3.0 - 1e-3 && ratio <= 6.5 + 1e-3;
            lo = fmin(lo, r);
            hi = fmax(hi, r);
        }
        pt_image_destroy(img);
    }
    printf("small pupils in 200x200: radius %.1f..%.1f px over %d frames\n", lo, hi, n);
    PT_CHECK(n >= 50 && in_range == n, "small pupils: %d of %d in range", in_range, n);
}

/* hard: normal's scene under one or two classes, the draw recorded. */
static void test_hard_mix(void)
{
    pt_synth_params normal, hard;
    pt_synth_params_default(&normal);
    normal.width = 192;
    normal.height = 160;
    hard = normal;
    hard.difficulty = PT_SYNTH_HARD;
    int same = 0, eligible = 0, counts[3] = {0};
    for (int i = 0; i < 60; i++) {
        uint64_t seed = pt_synth_frame_seed(29, i);
        pt_synth_frame_truth tn, th, th2;
        pt_image *a = render(&normal, seed, &tn), *b = render(&hard, seed, &th);
        pt_image *c = render(&hard, seed, &th2);
        if (!a || !b || !c) {
            PT_CHECK(0, "render failed");
        } else {
            int k = bits_set(th.hazards);
            counts[k < 3 ? k : 0]++;
            PT_CHECK(th.hazards == th2.hazards && pt_image_same_pixels(b, c), "hard frame %d not repeatable",
                     i);
            if (!(th.hazards & PT_SYNTH_SMALL_PUPIL)) {
                eligible++;
                same += same_pupil(&tn.eyes[0], &th.eyes[0]);
            }
        }
        pt_image_destroy(a);
        pt_image_destroy(b);
        pt_image_destroy(c);
    }
    PT_CHECK(counts[0] == 0 && counts[1] > 15 && counts[2] > 15, "classes per frame: %d %d %d",
             counts[0], counts[1], counts[2]);
    PT_CHECK(eligible > 20 && same == eligible, "hard kept normal's pupil on %d of %d", same,
             eligible);
    pt_synth_frame_truth t;
    hard.hazards = 1u << PT_SYNTH_HAZARD_COUNT;
    pt_image *img = pt_image_create(hard.width, hard.height);
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(img && pt_synth_render(&hard, 1, img, &t, &err) == PT_ERR_PARAM,
             "unknown class bit accepted");
    pt_image_destroy(img);
}

int main(void)
{
    test_parse_and_names();
    test_mix_draw();
    test_motion_blur_point();
    test_disc_blur();
    test_classes_in_frames();
    test_small_pupils();
    test_hard_mix();
    return PT_TEST_SUMMARY("synth_hazard");
}
