/* Starburst through the OpenMP back end: synthetic pupils (dark discs and
 * ellipses on a bright noisy background with corneal reflections on their
 * border) are found to within a pixel; blank frames are not; -j does not
 * change results; binocular frames give both eyes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/pt_backend.h"
#include "tests/pt_test.h"

#define PI 3.14159265358979323846

static uint32_t rng_state;
static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static pt_image *new_image(int w, int h)
{
    pt_image *img = malloc(sizeof *img);
    img->width = w;
    img->height = h;
    img->stride = w + 16;
    img->buf = malloc((size_t)img->stride * h);
    return img;
}

static void free_image(pt_image *img)
{
    free(img->buf);
    free(img);
}

static void fill_background(pt_image *img, uint32_t seed)
{
    rng_state = seed;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            img->buf[y * img->stride + x] = (uint8_t)(165 + rng() % 21);
}

/* Dark ellipse (value 45 + noise), antialiased by 4x4 supersampling. */
static void draw_pupil(pt_image *img, double cx, double cy, double a, double b,
                       double theta_deg)
{
    double t = theta_deg * PI / 180, ct = cos(t), st = sin(t);
    for (int y = (int)(cy - a - 2); y <= (int)(cy + a + 2); y++)
        for (int x = (int)(cx - a - 2); x <= (int)(cx + a + 2); x++) {
            if (x < 0 || y < 0 || x >= img->width || y >= img->height)
                continue;
            int in = 0;
            for (int j = 0; j < 4; j++)
                for (int i = 0; i < 4; i++) {
                    double dx = x - 0.375 + 0.25 * i - cx, dy = y - 0.375 + 0.25 * j - cy;
                    double u = dx * ct + dy * st, v = -dx * st + dy * ct;
                    in += (u * u) / (a * a) + (v * v) / (b * b) <= 1.0;
                }
            uint8_t *p = &img->buf[y * img->stride + x];
            double dark = 45 + rng() % 11;
            *p = (uint8_t)lround((*p * (16 - in) + dark * in) / 16.0);
        }
}

static void draw_dot(pt_image *img, double cx, double cy, double r)
{
    for (int y = (int)(cy - r); y <= (int)(cy + r + 1); y++)
        for (int x = (int)(cx - r); x <= (int)(cx + r + 1); x++)
            if (x >= 0 && y >= 0 && x < img->width && y < img->height &&
                hypot(x - cx, y - cy) <= r)
                img->buf[y * img->stride + x] = 250;
}

/* Three reflections sitting on the pupil border, as glints often do. */
static void draw_reflections(pt_image *img, double cx, double cy, double r)
{
    for (int k = 0; k < 3; k++) {
        double a = 0.7 + 2.1 * k;
        draw_dot(img, cx + r * cos(a), cy + r * sin(a), 2.5);
    }
}

static void run(const pt_track_options *opt, const pt_config *cfg, pt_image **frames, int n,
                pt_result *res)
{
    void *state = NULL;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_backend_omp.create(cfg, opt, frames[0]->width, frames[0]->height, &state,
                                   &err) == PT_OK,
             "create: %s", err.what);
    if (!state)
        return;
    PT_CHECK(pt_backend_omp.track(state, frames, n, res, NULL, &err) == PT_OK, "track: %s",
             err.what);
    pt_backend_omp.destroy(state);
}

static pt_track_options options(int threads, int ellipse, int binocular)
{
    pt_track_options o;
    memset(&o, 0, sizeof o);
    o.algorithm = PT_ALG_STARBURST;
    o.threads = threads;
    o.ellipse = ellipse;
    o.binocular = binocular;
    return o;
}

static void test_circles_found_within_a_pixel(const pt_config *cfg)
{
    static const double discs[][3] = {
        {160, 120, 30}, {100.3, 80.6, 22}, {230.5, 150.2, 40}, {140, 170, 15}};
    for (int mode = 0; mode < 2; mode++) {
        pt_config c = *cfg;
        c.pre.reflection = mode ? PT_REFLECTION_SKIP : PT_REFLECTION_INTERPOLATE;
        for (size_t d = 0; d < sizeof discs / sizeof discs[0]; d++) {
            pt_image *img = new_image(320, 240);
            fill_background(img, 7 + (uint32_t)d);
            draw_pupil(img, discs[d][0], discs[d][1], discs[d][2], discs[d][2], 0);
            draw_reflections(img, discs[d][0], discs[d][1], discs[d][2]);
            pt_track_options o = options(1, 0, 0);
            pt_result res;
            run(&o, &c, &img, 1, &res);
            PT_CHECK(res.status == PT_DETECT_OK && res.has_circle && res.eye == 0,
                     "disc %zu (%s) found (status %d)", d, mode ? "skip" : "interpolate",
                     res.status);
            PT_CHECK(hypot(res.circle.cx - discs[d][0], res.circle.cy - discs[d][1]) <= 1.0,
                     "disc %zu centre (%.2f,%.2f) vs (%.2f,%.2f)", d, res.circle.cx,
                     res.circle.cy, discs[d][0], discs[d][1]);
            PT_CHECK_NEAR(res.circle.r, discs[d][2], 1.0, "disc radius");
            PT_CHECK(res.confidence >= 0.8 && res.confidence <= 1.0, "confidence %.2f",
                     res.confidence);
            PT_CHECK(res.ms > 0, "time measured");
            free_image(img);
        }
    }
}

/* --ellipse both ways: the ellipse refined from the RANSAC circle's points
 * (ellipse_fit=circle, the default) and the RANSAC ellipse (direct). With
 * circle_votes=inlier the circle of a very elliptical pupil (a/b 1.4) holds
 * one pair of arcs and misses the other: those pupils take circle_votes=band
 * (or ellipse_fit=direct); up to a/b 1.25 the defaults recover the axes. */
static void test_ellipse_axes_recovered(const pt_config *cfg)
{
    static const double flat[][5] = {{160, 120, 40, 28, 30}, {150.5, 110.5, 35, 25, 120}};
    static const double round[][5] = {{160, 120, 40, 32, 30}, {150.5, 110.5, 35, 28.5, 120}};
    for (int mode = 0; mode < 3; mode++) {
        pt_config c = *cfg;
        const double(*ells)[5] = mode ? flat : round;
        c.starburst.ellipse_fit = mode == 1 ? PT_SB_ELLIPSE_DIRECT : PT_SB_ELLIPSE_VIA_CIRCLE;
        if (mode == 2)
            c.starburst.circle_votes = PT_SB_VOTES_BAND;
        for (size_t k = 0; k < 2; k++) {
            pt_image *img = new_image(320, 240);
            fill_background(img, 99 + (uint32_t)k);
            draw_pupil(img, ells[k][0], ells[k][1], ells[k][2], ells[k][3], ells[k][4]);
            pt_track_options o = options(1, 1, 0);
            pt_result res;
            run(&o, &c, &img, 1, &res);
            PT_CHECK(res.status == PT_DETECT_OK && res.has_ellipse && res.has_circle,
                     "ellipse %zu found (mode %d)", k, mode);
            PT_CHECK(hypot(res.ellipse.cx - ells[k][0], res.ellipse.cy - ells[k][1]) <= 1.0,
                     "ellipse centre (%.2f,%.2f) mode %d", res.ellipse.cx, res.ellipse.cy, mode);
            PT_CHECK_NEAR(res.ellipse.a, ells[k][2], 1.0, "ellipse a");
            PT_CHECK_NEAR(res.ellipse.b, ells[k][3], 1.0, "ellipse b");
            PT_CHECK_NEAR(res.ellipse.theta, ells[k][4], 4.0, "ellipse theta");
            PT_CHECK_NEAR(res.circle.r, sqrt(res.ellipse.a * res.ellipse.b), 1e-9,
                          "circle radius is sqrt(ab)");
            free_image(img);
        }
    }
}

static void test_blank_not_found(const pt_config *cfg)
{
    pt_image *img = new_image(320, 240);
    fill_background(img, 3);
    pt_track_options o = options(1, 0, 0);
    pt_result res;
    run(&o, cfg, &img, 1, &res);
    PT_CHECK(res.status == PT_DETECT_NOTFOUND && !res.has_circle, "blank frame: notfound (%d)",
             res.status);
    free_image(img);
}

static void test_threads_do_not_change_results(const pt_config *cfg)
{
    enum { N = 12 };
    pt_image *frames[N];
    for (int i = 0; i < N; i++) {
        frames[i] = new_image(200, 160);
        fill_background(frames[i], 1000 + (uint32_t)i);
        if (i % 5 != 4)
            draw_pupil(frames[i], 60 + 7 * i, 50 + 5 * i, 14 + i, 12 + i, 15.0 * i);
    }
    for (int seq = 0; seq < 2; seq++)
        for (int ell = 0; ell < 2; ell++) {
            pt_result one[N], many[N];
            pt_track_options o1 = options(1, ell, 0), o4 = options(4, ell, 0);
            o1.sequence = o4.sequence = seq;
            run(&o1, cfg, frames, N, one);
            run(&o4, cfg, frames, N, many);
            int same = 1, found = 0;
            for (int i = 0; i < N; i++) {
                same &= one[i].status == many[i].status &&
                        !memcmp(&one[i].circle, &many[i].circle, sizeof one[i].circle) &&
                        !memcmp(&one[i].ellipse, &many[i].ellipse, sizeof one[i].ellipse) &&
                        one[i].confidence == many[i].confidence;
                found += one[i].status == PT_DETECT_OK;
            }
            PT_CHECK(same, "-j 1 and -j 4 agree (sequence %d, ellipse %d)", seq, ell);
            PT_CHECK(found >= 9, "most frames found (%d of %d)", found, N);
            PT_CHECK(one[4].status == PT_DETECT_NOTFOUND, "blank frame 4 not found");
        }
    for (int i = 0; i < N; i++)
        free_image(frames[i]);
}

static void test_binocular_both_eyes(const pt_config *cfg)
{
    pt_image *img = new_image(480, 200);
    fill_background(img, 42);
    draw_pupil(img, 110, 95, 25, 25, 0);
    draw_pupil(img, 370.5, 105.5, 20, 20, 0);
    draw_reflections(img, 110, 95, 25);
    pt_track_options o = options(2, 0, 1);
    pt_result res[2];
    run(&o, cfg, &img, 1, res);
    PT_CHECK(res[0].eye == 'L' && res[1].eye == 'R', "eyes labelled L, R");
    PT_CHECK(res[0].status == PT_DETECT_OK && hypot(res[0].circle.cx - 110, res[0].circle.cy - 95) <= 1.0,
             "left eye at (%.2f,%.2f)", res[0].circle.cx, res[0].circle.cy);
    PT_CHECK(res[1].status == PT_DETECT_OK &&
                 hypot(res[1].circle.cx - 370.5, res[1].circle.cy - 105.5) <= 1.0,
             "right eye at (%.2f,%.2f)", res[1].circle.cx, res[1].circle.cy);
    free_image(img);
}

static void test_invalid_frame_is_an_error(const pt_config *cfg)
{
    pt_image *good = new_image(100, 100);
    fill_background(good, 5);
    pt_image bad = {0, 0, 0, NULL};
    pt_image *frames[2] = {good, &bad};
    pt_track_options o = options(2, 0, 0);
    pt_result res[2];
    run(&o, cfg, frames, 2, res);
    PT_CHECK(res[1].status == PT_DETECT_ERROR && res[1].message[0], "empty frame: error");
    PT_CHECK(res[0].status == PT_DETECT_NOTFOUND, "other frame still processed");
    free_image(good);
}

int main(void)
{
    pt_config cfg;
    pt_config_default(&cfg);
    test_circles_found_within_a_pixel(&cfg);
    test_ellipse_axes_recovered(&cfg);
    test_blank_not_found(&cfg);
    test_threads_do_not_change_results(&cfg);
    test_binocular_both_eyes(&cfg);
    test_invalid_frame_is_an_error(&cfg);
    return PT_TEST_SUMMARY("starburst");
}
