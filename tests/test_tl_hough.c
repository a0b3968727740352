/* Threshold-and-labeling and Canny-Hough on synthetic eyes: dark discs and
 * ellipses on bright noisy backgrounds with reflection dots and an eyelash. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "omp/detect/canny.h"
#include "omp/detect/detect.h"
#include "omp/detect/labeling.h"
#include "tests/pt_test.h"

enum { W = 240, H = 200, RANSAC_ROWS = 1000, RANSAC_SIZE = 5 };

static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Defaults of the tl and hough registry tables, plus the shared RANSAC settings. */
static void config_default(pt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    const pt_param_def *tables[2] = {pt_tl_param_defs, pt_hough_param_defs};
    int counts[2] = {pt_tl_param_count, pt_hough_param_count};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < counts[t]; i++) {
            const pt_param_def *d = &tables[t][i];
            char *field = (char *)cfg + d->offset;
            if (d->type == PT_PARAM_DOUBLE)
                memcpy(field, &d->def, sizeof d->def);
            else {
                int v = (int)d->def;
                memcpy(field, &v, sizeof v);
            }
        }
    cfg->pre.ransac_samples = 400;
    cfg->pre.ransac_sample_size = RANSAC_SIZE;
    cfg->pre.ransac_inlier = 1.5;
}

typedef struct {
    double cx, cy, a, b, theta; /* a == b: disc */
} shape;

/* Anti-aliased dark ellipse (4x4 supersampling), bright noisy background,
 * reflection dots and a dark eyelash line, then a 3x3 box blur twice (what
 * preprocessing leaves). */
static pt_image *draw_eye(int w, int h, const shape *s, int with_pupil, uint32_t seed)
{
    pt_image *img = pt_image_create(w, h);
    double *f = malloc((size_t)w * h * sizeof *f), *g = malloc((size_t)w * h * sizeof *g);
    double t = s->theta * M_PI / 180.0, c = cos(t), sn = sin(t);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int hits = 0;
            for (int sy = 0; with_pupil && sy < 4; sy++)
                for (int sx = 0; sx < 4; sx++) {
                    double px = x - 0.375 + 0.25 * sx - s->cx, py = y - 0.375 + 0.25 * sy - s->cy;
                    double u = px * c + py * sn, v = -px * sn + py * c;
                    hits += u * u / (s->a * s->a) + v * v / (s->b * s->b) <= 1.0;
                }
            double noise = (double)(rng_next(&seed) % 25) - 12.0;
            f[y * w + x] = 170.0 + (35.0 - 170.0) * hits / 16.0 + noise;
        }
    /* Eyelash: a 2 px dark line above the pupil. */
    for (int x = 10; x < w - 10; x++) {
        double yl = s->cy - s->b - 14.0 - 0.08 * (x - s->cx);
        for (int k = 0; k < 2; k++) {
            int y = (int)lround(yl) + k;
            if (y >= 0 && y < h)
                f[y * w + x] = 45.0;
        }
    }
    /* Reflections: one inside the pupil near its edge, two outside. */
    double dots[3][2] = {{s->cx + 0.5 * s->a, s->cy - 0.4 * s->b},
                         {s->cx - s->a - 20.0, s->cy + 10.0},
                         {s->cx + 10.0, s->cy + s->b + 15.0}};
    for (int d = 0; d < 3; d++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (hypot(x - dots[d][0], y - dots[d][1]) <= 3.0)
                    f[y * w + x] = 250.0;
    for (int pass = 0; pass < 2; pass++) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double sum = 0.0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
                        int yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
                        sum += f[yy * w + xx];
                    }
                g[y * w + x] = sum / 9.0;
            }
        memcpy(f, g, (size_t)w * h * sizeof *f);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = f[y * w + x];
            img->buf[(size_t)y * img->stride + x] =
                (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : lround(v));
        }
    free(f);
    free(g);
    return img;
}

typedef struct {
    pt_ransac_table table;
    pt_config cfg;
    pt_arena arena;
} fixture;

static void fixture_init(fixture *fx)
{
    config_default(&fx->cfg);
    pt_error err;
    PT_CHECK(pt_ransac_table_create(&fx->table, RANSAC_ROWS, RANSAC_SIZE, PT_RANSAC_SEED,
                                    &err) == PT_OK,
             "RANSAC table");
    pt_arena_init(&fx->arena);
}

static void fixture_free(fixture *fx)
{
    pt_ransac_table_free(&fx->table);
    pt_arena_free(&fx->arena);
}

static pt_result run(fixture *fx, pt_omp_detector detect, const pt_image *img, pt_roi roi,
                     int ellipse, int min_r, int max_r, pt_overlay *ov)
{
    pt_eye_input in;
    memset(&in, 0, sizeof in);
    in.raw = img;
    in.smoothed = img;
    in.roi = roi;
    in.min_radius = min_r;
    in.max_radius = max_r;
    in.ransac = &fx->table;
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.ellipse = ellipse;
    pt_result res;
    memset(&res, 0, sizeof res);
    pt_error err;
    pt_arena_reset(&fx->arena);
    pt_status st = detect(&in, &fx->cfg, &opt, &fx->arena, &res, ov, &err);
    PT_CHECK(st == PT_OK, "detector failed: %s", err.what);
    return res;
}

static void check_circle(const char *name, const pt_result *r, const shape *s)
{
    PT_CHECK(r->status == PT_DETECT_OK && r->has_circle, "%s: found (status %d)", name,
             (int)r->status);
    if (r->status != PT_DETECT_OK)
        return;
    double dc = hypot(r->circle.cx - s->cx, r->circle.cy - s->cy);
    PT_CHECK(dc <= 1.0, "%s: centre (%.2f,%.2f) is %.2f px from (%.2f,%.2f)", name,
             r->circle.cx, r->circle.cy, dc, s->cx, s->cy);
    PT_CHECK(fabs(r->circle.r - s->a) <= 1.5, "%s: radius %.2f vs %.2f", name, r->circle.r,
             s->a);
    PT_CHECK(r->confidence >= 0.3 && r->confidence <= 1.0, "%s: confidence %.2f", name,
             r->confidence);
}

static void check_ellipse(const char *name, const pt_result *r, const shape *s)
{
    PT_CHECK(r->status == PT_DETECT_OK && r->has_ellipse, "%s: ellipse found", name);
    if (r->status != PT_DETECT_OK || !r->has_ellipse)
        return;
    double dc = hypot(r->ellipse.cx - s->cx, r->ellipse.cy - s->cy);
    PT_CHECK(dc <= 1.0, "%s: centre %.2f px off", name, dc);
    PT_CHECK(fabs(r->ellipse.a - s->a) <= 1.5, "%s: a %.2f vs %.2f", name, r->ellipse.a, s->a);
    PT_CHECK(fabs(r->ellipse.b - s->b) <= 1.5, "%s: b %.2f vs %.2f", name, r->ellipse.b, s->b);
    double dt = fabs(r->ellipse.theta - s->theta);
    dt = dt > 90 ? 180 - dt : dt;
    PT_CHECK(dt <= 5.0, "%s: theta %.1f vs %.1f", name, r->ellipse.theta, s->theta);
}

static void test_disc(fixture *fx, pt_omp_detector detect, const char *name)
{
    shape s = {121.4, 98.7, 32.0, 32.0, 0.0};
    pt_image *img = draw_eye(W, H, &s, 1, 7);
    pt_roi full = {0, 0, W, H};
    pt_overlay ov = {0};
    pt_result r = run(fx, detect, img, full, 0, 10, 80, &ov);
    check_circle(name, &r, &s);
    PT_CHECK(ov.count > 50, "%s: overlay holds the points it saw (%d)", name, ov.count);
    pt_overlay_free(&ov);
    pt_image_destroy(img);
}

/* Overlay points within `radius` of (x, y). */
static int points_near(const pt_overlay *ov, double x, double y, double radius)
{
    int n = 0;
    for (int i = 0; i < ov->count; i++)
        n += hypot(ov->points[i].x - x, ov->points[i].y - y) <= radius;
    return n;
}

/* tl_border=contour fits the blob's outer border only: the reflection inside
 * the pupil (a hole in the dark blob, see draw_eye) gives no points, while
 * tl_border=pixels takes the hole's rim too. Both find the pupil. */
static void test_tl_border_modes(fixture *fx)
{
    shape s = {121.4, 98.7, 32.0, 32.0, 0.0};
    double dot_x = s.cx + 0.5 * s.a, dot_y = s.cy - 0.4 * s.b; /* draw_eye's inner reflection */
    pt_image *img = draw_eye(W, H, &s, 1, 7);
    pt_roi full = {0, 0, W, H};
    int near[2] = {0, 0}, count[2] = {0, 0};
    for (int mode = PT_TL_BORDER_PIXELS; mode <= PT_TL_BORDER_CONTOUR; mode++) {
        fx->cfg.tl.border = mode;
        pt_overlay ov = {0};
        pt_result r = run(fx, pt_omp_tl, img, full, 0, 10, 80, &ov);
        check_circle(mode ? "tl contour border" : "tl pixel border", &r, &s);
        near[mode] = points_near(&ov, dot_x, dot_y, 6.0);
        count[mode] = ov.count;
        pt_overlay_free(&ov);
    }
    fx->cfg.tl.border = PT_TL_BORDER_PIXELS;
    PT_CHECK(near[PT_TL_BORDER_PIXELS] > 0, "pixel border holds the reflection's rim (%d points)",
             near[PT_TL_BORDER_PIXELS]);
    PT_CHECK(near[PT_TL_BORDER_CONTOUR] == 0, "contour border has %d points at the reflection",
             near[PT_TL_BORDER_CONTOUR]);
    /* The outer border of a disc of radius 32: about 8 r / sqrt(2) 8-connected pixels. */
    PT_CHECK(count[PT_TL_BORDER_CONTOUR] > 150 && count[PT_TL_BORDER_CONTOUR] < 260,
             "contour border of %d points", count[PT_TL_BORDER_CONTOUR]);
    pt_image_destroy(img);
}

static void test_disc_in_roi(fixture *fx, pt_omp_detector detect, const char *name)
{
    /* Binocular-style: the pupil is in the right half, coordinates stay full-frame. */
    shape s = {176.6, 92.2, 25.0, 25.0, 0.0};
    pt_image *img = draw_eye(W, H, &s, 1, 11);
    pt_roi right = {W / 2, 0, W / 2, H};
    pt_result r = run(fx, detect, img, right, 0, 8, 55, NULL);
    check_circle(name, &r, &s);
    pt_image_destroy(img);
}

static void test_ellipse(fixture *fx, pt_omp_detector detect, const char *name)
{
    shape s = {118.2, 101.5, 36.0, 29.0, 30.0};
    pt_image *img = draw_eye(W, H, &s, 1, 5);
    pt_roi full = {0, 0, W, H};
    pt_result r = run(fx, detect, img, full, 1, 10, 80, NULL);
    check_ellipse(name, &r, &s);
    pt_image_destroy(img);
}

/* An elongated pupil whose upper part a lid hides (bright from above a
 * straight lid edge): on the border pixels' fit (tl_crossings=0), circle
 * mode reports the centre and mean radius of the border's ellipse with
 * tl_shape=auto (lib/detect/tl_shape.h), while a circle through the visible
 * arc with the wide band takes in the lid edge and misses; the mid-level
 * crossings (lib/detect/border_crossings.h, the default) then bring either
 * mode's outline onto the border. */
static void test_tl_lid_cut_ellipse(fixture *fx)
{
    shape s = {120.3, 104.6, 44.0, 32.0, 0.0};
    pt_image *img = draw_eye(W, H, &s, 1, 17);
    uint32_t seed = 29;
    int lid = (int)lround(s.cy - 0.45 * s.b);
    for (int y = 0; y < lid; y++)
        for (int x = 0; x < W; x++)
            img->buf[(size_t)y * img->stride + x] = (uint8_t)(165 + rng_next(&seed) % 11);
    pt_roi full = {0, 0, W, H};
    double mean_r = 0.5 * (s.a + s.b), err[2], crossed[2];
    int saved = fx->cfg.tl.shape, saved_crossings = fx->cfg.tl.crossings;
    for (int crossings = 0; crossings <= 1; crossings++)
        for (int shape_mode = PT_TL_SHAPE_AUTO; shape_mode <= PT_TL_SHAPE_CIRCLE; shape_mode++) {
            fx->cfg.tl.shape = shape_mode;
            fx->cfg.tl.crossings = crossings;
            pt_result r = run(fx, pt_omp_tl, img, full, 0, 10, 80, NULL);
            (crossings ? crossed : err)[shape_mode] =
                r.status == PT_DETECT_OK ? fmax(hypot(r.circle.cx - s.cx, r.circle.cy - s.cy),
                                                fabs(r.circle.r - mean_r))
                                         : INFINITY;
        }
    fx->cfg.tl.crossings = saved_crossings;
    for (int shape_mode = PT_TL_SHAPE_AUTO; shape_mode <= PT_TL_SHAPE_CIRCLE; shape_mode++)
        PT_CHECK(crossed[shape_mode] <= 0.05 * mean_r,
                 "tl lid-cut ellipse, tl_shape=%s with the crossings: %.2f px off",
                 shape_mode == PT_TL_SHAPE_AUTO ? "auto" : "circle", crossed[shape_mode]);
    PT_CHECK(err[PT_TL_SHAPE_AUTO] <= 0.05 * mean_r,
             "tl lid-cut ellipse, tl_shape=auto: %.2f px off (centre or mean radius)",
             err[PT_TL_SHAPE_AUTO]);
    PT_CHECK(err[PT_TL_SHAPE_CIRCLE] > err[PT_TL_SHAPE_AUTO],
             "tl lid-cut ellipse: the circle (%.2f px off) is not better than auto (%.2f)",
             err[PT_TL_SHAPE_CIRCLE], err[PT_TL_SHAPE_AUTO]);
    printf("tl lid-cut ellipse: auto %.2f px, circle %.2f px off; with the crossings %.2f, "
           "%.2f\n",
           err[PT_TL_SHAPE_AUTO], err[PT_TL_SHAPE_CIRCLE], crossed[PT_TL_SHAPE_AUTO],
           crossed[PT_TL_SHAPE_CIRCLE]);
    /* a round pupil keeps its circle: both modes agree */
    shape disc = {121.4, 98.7, 32.0, 32.0, 0.0};
    pt_image *round = draw_eye(W, H, &disc, 1, 7);
    fx->cfg.tl.shape = PT_TL_SHAPE_AUTO;
    pt_result a = run(fx, pt_omp_tl, round, full, 0, 10, 80, NULL);
    fx->cfg.tl.shape = PT_TL_SHAPE_CIRCLE;
    pt_result c = run(fx, pt_omp_tl, round, full, 0, 10, 80, NULL);
    fx->cfg.tl.shape = saved;
    PT_CHECK(a.circle.cx == c.circle.cx && a.circle.cy == c.circle.cy && a.circle.r == c.circle.r,
             "tl round pupil: auto (%.3f,%.3f,%.3f) kept the circle (%.3f,%.3f,%.3f)",
             a.circle.cx, a.circle.cy, a.circle.r, c.circle.cx, c.circle.cy, c.circle.r);
    pt_image_destroy(round);
    pt_image_destroy(img);
}

/* A pupil in an iris nearly as dark (low pupil-iris contrast), the iris a
 * sharp dark disc on the bright sclera, reflections on the pupil's border:
 * tl reports the pupil inside the iris (lib/detect/tl_nest.h), not the
 * iris, in circle and ellipse mode. */
static void test_tl_pupil_in_iris(fixture *fx)
{
    shape s = {118.6, 99.3, 26.0, 26.0, 0.0};
    pt_image *img = draw_eye(W, H, &s, 1, 23);
    uint32_t seed = 31;
    double iris = 1.45 * s.a;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double d = hypot(x - s.cx, y - s.cy);
            uint8_t *px = &img->buf[(size_t)y * img->stride + x];
            if (d > s.a + 3.0 && d <= iris)
                *px = (uint8_t)(52 + rng_next(&seed) % 9);
            /* reflections across the pupil's border */
            for (int g = 0; g < 6; g++) {
                double phi = 2.0 * M_PI * g / 6.0 + 0.3;
                if (hypot(x - (s.cx + s.a * cos(phi)), y - (s.cy + s.a * sin(phi))) <= 3.5)
                    *px = 245;
            }
        }
    pt_roi full = {0, 0, W, H};
    for (int ellipse = 0; ellipse <= 1; ellipse++) {
        pt_result r = run(fx, pt_omp_tl, img, full, ellipse, 10, 80, NULL);
        PT_CHECK(r.status == PT_DETECT_OK, "tl pupil in iris (%s): found",
                 ellipse ? "ellipse" : "circle");
        double dc = hypot(r.circle.cx - s.cx, r.circle.cy - s.cy);
        PT_CHECK(dc <= 2.0 && fabs(r.circle.r - s.a) <= 0.1 * s.a,
                 "tl pupil in iris (%s): (%.1f,%.1f) r %.1f, truth (%.1f,%.1f) r %.1f",
                 ellipse ? "ellipse" : "circle", r.circle.cx, r.circle.cy, r.circle.r, s.cx,
                 s.cy, s.a);
    }
    pt_image_destroy(img);
}

static void test_blank(fixture *fx, pt_omp_detector detect, const char *name)
{
    shape s = {120, 100, 30, 30, 0};
    pt_image *img = pt_image_create(W, H);
    memset(img->buf, 150, (size_t)img->stride * H);
    pt_roi full = {0, 0, W, H};
    pt_result r = run(fx, detect, img, full, 0, 10, 80, NULL);
    PT_CHECK(r.status == PT_DETECT_NOTFOUND && !r.has_circle, "%s: blank -> notfound (%d)",
             name, (int)r.status);
    pt_image_destroy(img);
    /* Only noise (no pupil): no blob is dark enough. Hough is not checked here:
     * a quantile Canny always finds noise edges, and small noise circles can
     * pass the shared confidence test. */
    if (detect != pt_omp_tl)
        return;
    img = draw_eye(W, H, &s, 0, 3);
    memset(img->buf, 150, (size_t)img->stride * 30); /* hide the eyelash */
    r = run(fx, detect, img, full, 0, 10, 80, NULL);
    PT_CHECK(r.status == PT_DETECT_NOTFOUND, "%s: no pupil -> notfound (%d)", name,
             (int)r.status);
    pt_image_destroy(img);
}

static void test_hough_same_for_any_thread_count(fixture *fx)
{
    shape s = {101.7, 95.1, 28.0, 28.0, 0.0};
    pt_image *img = draw_eye(W, H, &s, 1, 13);
    pt_roi full = {0, 0, W, H};
    int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    pt_result one = run(fx, pt_omp_hough, img, full, 0, 10, 80, NULL);
    omp_set_num_threads(3);
    pt_result three = run(fx, pt_omp_hough, img, full, 0, 10, 80, NULL);
    omp_set_num_threads(saved);
    PT_CHECK(one.status == three.status && one.circle.cx == three.circle.cx &&
                 one.circle.cy == three.circle.cy && one.circle.r == three.circle.r,
             "hough: 1 and 3 workers agree (%.3f,%.3f,%.3f vs %.3f,%.3f,%.3f)", one.circle.cx,
             one.circle.cy, one.circle.r, three.circle.cx, three.circle.cy, three.circle.r);
    pt_image_destroy(img);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Stage timing on a 1280x1024 frame, best of 3 (printed with --time, not checked). */
static void time_big_frame(fixture *fx)
{
    enum { BW = 1280, BH = 1024, REPS = 3 };
    shape s = {652.3, 498.8, 60.0, 60.0, 0.0};
    pt_image *img = draw_eye(BW, BH, &s, 1, 9);
    pt_roi full = {0, 0, BW, BH};
    const pt_config *cfg = &fx->cfg;
    double t_label = 1e30, t_canny = 1e30, t_tl = 1e30, t_hough = 1e30, t_gradient = 1e30;
    int edges = 0;
    pt_result r_tl, r_hough;
    for (int rep = 0; rep < REPS; rep++) {
        pt_error err;
        pt_arena_reset(&fx->arena);
        uint8_t *mask = pt_arena_alloc(&fx->arena, (size_t)BW * BH);
        pt_labeling lab;
        pt_labeling_reserve(&lab, BW, BH, &fx->arena, &err);
        double t0 = now_ms();
        for (int th = cfg->tl.threshold_min; th <= cfg->tl.threshold_max;
             th += cfg->tl.threshold_step) {
            for (int y = 0; y < BH; y++)
                for (int x = 0; x < BW; x++)
                    mask[y * BW + x] = img->buf[(size_t)y * img->stride + x] <= th;
            pt_label_components(mask, BW, BW, BH, &lab);
        }
        double t1 = now_ms();
        pt_canny_edges canny;
        pt_canny_detect(img->buf, img->stride, BW, BH, cfg->hough.sigma, cfg->hough.canny_high,
                        cfg->hough.canny_low, &fx->arena, &canny, &err);
        double t2 = now_ms();
        edges = canny.edge_count;
        r_tl = run(fx, pt_omp_tl, img, full, 0, 20, 150, NULL);
        double t3 = now_ms();
        r_hough = run(fx, pt_omp_hough, img, full, 0, 20, 150, NULL);
        double t4 = now_ms();
        fx->cfg.hough.vote = PT_HOUGH_VOTE_GRADIENT;
        run(fx, pt_omp_hough, img, full, 0, 20, 150, NULL);
        fx->cfg.hough.vote = PT_HOUGH_VOTE_SAMPLED;
        t_gradient = fmin(t_gradient, now_ms() - t4);
        t_label = fmin(t_label, t1 - t0);
        t_canny = fmin(t_canny, t2 - t1);
        t_tl = fmin(t_tl, t3 - t2);
        t_hough = fmin(t_hough, t4 - t3);
    }
    printf("1280x1024, radii 20..150, %d threads:\n", omp_get_max_threads());
    printf("  tl total %.1f ms (threshold + labeling of %d thresholds %.1f ms; "
           "border + RANSAC the rest) -> %s r %.2f\n",
           t_tl, (cfg->tl.threshold_max - cfg->tl.threshold_min) / cfg->tl.threshold_step + 1,
           t_label, pt_detect_status_name(r_tl.status), r_tl.circle.r);
    printf("  hough total %.1f ms (canny %.1f ms, %d edge pixels; voting + refit the rest) "
           "-> %s r %.2f\n",
           t_hough, t_canny, edges, pt_detect_status_name(r_hough.status), r_hough.circle.r);
    printf("  hough with vote=gradient total %.1f ms\n", t_gradient);
    pt_image_destroy(img);
}

int main(int argc, char **argv)
{
    fixture fx;
    fixture_init(&fx);
    pt_omp_detector detectors[2] = {pt_omp_tl, pt_omp_hough};
    const char *names[2] = {"tl", "hough"};
    for (int d = 0; d < 2; d++) {
        test_disc(&fx, detectors[d], names[d]);
        test_disc_in_roi(&fx, detectors[d], names[d]);
        test_ellipse(&fx, detectors[d], names[d]);
        test_blank(&fx, detectors[d], names[d]);
    }
    test_tl_border_modes(&fx);
    test_tl_lid_cut_ellipse(&fx);
    test_tl_pupil_in_iris(&fx);
    fx.cfg.tl.score = PT_TL_SCORE_VOTES; /* the paper's rule */
    test_disc(&fx, pt_omp_tl, "tl most votes");
    test_ellipse(&fx, pt_omp_tl, "tl most votes");
    fx.cfg.hough.vote = PT_HOUGH_VOTE_GRADIENT;
    test_disc(&fx, pt_omp_hough, "hough gradient");
    fx.cfg.hough.vote = PT_HOUGH_VOTE_SAMPLED;
    fx.cfg.hough.vote_spread = 180; /* the paper's whole circle */
    test_disc(&fx, pt_omp_hough, "hough whole circle");
    config_default(&fx.cfg);
    test_hough_same_for_any_thread_count(&fx);
    if (argc > 1 && !strcmp(argv[1], "--time"))
        time_big_frame(&fx);
    fixture_free(&fx);
    return PT_TEST_SUMMARY("tl_hough");
}
