/* The detectors' stage trace (lib/detect/pt_trace.h, track --draw-stages):
 * threshold and labeling records the labels of the threshold it fitted and
 * the border of the blob it chose, Starburst its rays per stage and
 * iteration; the detections are the same with and without a trace. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/detect/pt_trace.h"
#include "lib/detect/starburst_choice.h"
#include "lib/detect/starburst_config.h"
#include "omp/detect/detect.h"
#include "tests/pt_test.h"

enum { W = 200, H = 160 };
static const double CX = 97.3, CY = 84.6, R = 27.0;

/* A dark disc (grey 40) on a background of 150..189, a reflection on its
 * rim and a smaller dark spot away from it. */
static pt_image *eye(void)
{
    pt_image *img = pt_image_create(W, H);
    uint32_t s = 12345;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            s = s * 1664525u + 1013904223u;
            int v = 150 + (int)((s >> 8) % 40);
            if (hypot(x - CX, y - CY) <= R)
                v = 40 + (int)((s >> 16) % 8);
            if (hypot(x - 30, y - 30) <= 5)
                v = 50;
            if (hypot(x - (CX + R), y - CY) <= 4)
                v = 250;
            img->buf[(size_t)y * img->stride + x] = (uint8_t)v;
        }
    return img;
}

typedef struct {
    pt_config cfg;
    pt_ransac_table table;
    pt_arena arena;
} fixture;

static pt_result detect(fixture *fx, pt_omp_detector det, const pt_image *img, pt_point start,
                        pt_overlay *ov)
{
    pt_eye_input in;
    memset(&in, 0, sizeof in);
    in.raw = in.smoothed = img;
    in.roi = (pt_roi){0, 0, W, H};
    in.start = start;
    in.min_radius = 10;
    in.max_radius = 60;
    in.ransac = &fx->table;
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    pt_result res;
    memset(&res, 0, sizeof res);
    pt_error err;
    pt_error_clear(&err);
    pt_arena_reset(&fx->arena);
    PT_CHECK(det(&in, &fx->cfg, &opt, &fx->arena, &res, ov, &err) == PT_OK, "detector: %s",
             err.what);
    return res;
}

static int same_result(const pt_result *a, const pt_result *b)
{
    return a->status == b->status && a->has_circle == b->has_circle &&
           a->circle.cx == b->circle.cx && a->circle.cy == b->circle.cy &&
           a->circle.r == b->circle.r && a->confidence == b->confidence;
}

static void test_tl(fixture *fx, const pt_image *img)
{
    pt_point centre = {W / 2.0f, H / 2.0f};
    pt_overlay plain = {0}, traced = {0};
    pt_trace t;
    memset(&t, 0, sizeof t);
    pt_trace_reset(&t);
    traced.trace = &t;
    pt_result a = detect(fx, pt_omp_tl, img, centre, NULL);
    pt_result b = detect(fx, pt_omp_tl, img, centre, &plain);
    pt_result c = detect(fx, pt_omp_tl, img, centre, &traced);
    PT_CHECK(a.status == PT_DETECT_OK, "tl finds the disc");
    PT_CHECK(same_result(&a, &b) && same_result(&a, &c), "tl: the same with a trace");
    PT_CHECK(!t.failed && t.tl_threshold >= 0 && t.tl_threshold < 255,
             "tl: threshold %d recorded", t.tl_threshold);
    const pt_tl_params *p = &fx->cfg.tl;
    if (p->range == PT_TL_RANGE_FIXED && !p->refine) /* one of the paper's thresholds */
        PT_CHECK(t.tl_threshold >= p->threshold_min && t.tl_threshold <= p->threshold_max &&
                     (t.tl_threshold - p->threshold_min) % p->threshold_step == 0,
                 "tl: threshold %d on the fixed grid", t.tl_threshold);
    PT_CHECK(t.x0 == 0 && t.y0 == 0 && t.width == W && t.height == H, "tl: the eye region");
    /* labels: exactly the pixels at or below the threshold, 8-connected
     * components numbered 1..label_count */
    int wrong = 0, split = 0, blob_pixels = 0, max_label = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int32_t k = t.labels[(size_t)y * W + x];
            int dark = img->buf[(size_t)y * img->stride + x] <= t.tl_threshold;
            wrong += dark != (k != 0);
            blob_pixels += k != 0 && k == t.blob;
            max_label = k > max_label ? k : max_label;
            if (k && x + 1 < W && t.labels[(size_t)y * W + x + 1] && t.labels[(size_t)y * W + x + 1] != k)
                split++;
            if (k && y + 1 < H && x + 1 < W && t.labels[(size_t)(y + 1) * W + x + 1] &&
                t.labels[(size_t)(y + 1) * W + x + 1] != k)
                split++;
        }
    PT_CHECK(wrong == 0, "tl: %d pixels labelled against the threshold", wrong);
    PT_CHECK(split == 0, "tl: %d neighbours with different labels", split);
    PT_CHECK(t.label_count >= 2 && max_label == t.label_count, "tl: %d labels (max %d)",
             t.label_count, max_label);
    /* the blob is the disc (the spot is too small for min_radius) */
    PT_CHECK(fabs(blob_pixels - M_PI * R * R) < 0.1 * M_PI * R * R, "tl: blob of %d pixels",
             blob_pixels);
    int off = 0;
    for (int i = 0; i < t.border_count; i++) {
        int x = (int)t.border[i].x, y = (int)t.border[i].y;
        off += t.labels[(size_t)y * W + x] != t.blob;
    }
    PT_CHECK(t.border_count > 50 && off == 0, "tl: %d border points, %d off the blob",
             t.border_count, off);
    PT_CHECK(t.border_count == traced.count, "tl: the border is the overlay's (%d vs %d)",
             t.border_count, traced.count);
    PT_CHECK(t.iteration_count == 0 && t.ray_count == 0, "tl records no rays");
    pt_overlay_free(&plain);
    pt_overlay_free(&traced);
    pt_trace_free(&t);
}

static void test_starburst(fixture *fx, const pt_image *img)
{
    /* off-centre inside the pupil: later iterations start elsewhere */
    pt_point start = {(float)(CX - 12), (float)(CY + 9)};
    pt_overlay plain = {0}, traced = {0};
    pt_trace t;
    memset(&t, 0, sizeof t);
    pt_trace_reset(&t);
    traced.trace = &t;
    pt_result a = detect(fx, pt_omp_starburst, img, start, NULL);
    pt_result b = detect(fx, pt_omp_starburst, img, start, &plain);
    pt_result c = detect(fx, pt_omp_starburst, img, start, &traced);
    PT_CHECK(a.status == PT_DETECT_OK, "starburst finds the disc");
    PT_CHECK(same_result(&a, &b) && same_result(&a, &c), "starburst: the same with a trace");
    const pt_starburst_params *p = &fx->cfg.starburst;
    PT_CHECK(!t.failed && t.iteration_count >= 2 && t.iteration_count <= p->max_iterations,
             "starburst: %d iterations", t.iteration_count);
    PT_CHECK(t.tl_threshold < 0, "starburst records no threshold");
    PT_CHECK(t.iteration_count > 0 && t.iterations[0].start.x == start.x &&
                 t.iterations[0].start.y == start.y,
             "starburst: the first iteration starts at the start point");
    pt_sb_config k;
    pt_sb_config_resolve(&fx->cfg, &k);
    int best = -1, stage1_total = 0, stage2_total = 0;
    for (int n = 0; n < t.iteration_count; n++) {
        const pt_trace_iteration *it = &t.iterations[n];
        int s1 = 0, s2 = 0, orphans = 0, misplaced = 0;
        for (int i = it->first; i < it->first + it->count; i++) {
            const pt_trace_ray *r = &t.rays[i];
            if (r->stage == 1) {
                s1++;
                misplaced += r->origin.x != it->start.x || r->origin.y != it->start.y || s2;
                continue;
            }
            s2++;
            int from = 0; /* cast from one of this iteration's stage-1 edge points */
            for (int j = it->first; j < it->first + it->count; j++)
                from |= t.rays[j].stage == 1 && t.rays[j].edge.x == r->origin.x &&
                        t.rays[j].edge.y == r->origin.y;
            orphans += !from;
        }
        PT_CHECK(s1 > 0 && s1 <= p->rays && s2 <= s1 * p->stage2_rays && misplaced == 0,
                 "iteration %d: %d stage-1 rays first from the start, %d stage-2", n + 1, s1,
                 s2);
        PT_CHECK(orphans == 0, "iteration %d: %d stage-2 rays from nowhere", n + 1, orphans);
        stage1_total += s1;
        stage2_total += s2;
        if (n > 0 && t.iterations[n - 1].has_fit)
            PT_CHECK(fabs(it->start.x - t.iterations[n - 1].fit.cx) < 1e-3 &&
                         fabs(it->start.y - t.iterations[n - 1].fit.cy) < 1e-3,
                     "iteration %d starts at the previous fit's centre", n + 1);
        /* the answer by fit_choice (lib/detect/starburst_choice.h); the disc
         * holds no darker core */
        if (it->has_fit &&
            pt_sb_fit_wins(&k, it->confidence, 0, &it->fit,
                           best < 0 ? -1.0 : t.iterations[best].confidence, 0,
                           best < 0 ? &it->fit : &t.iterations[best].fit))
            best = n;
    }
    PT_CHECK(stage2_total > stage1_total, "starburst: second-stage rays recorded (%d vs %d)",
             stage2_total, stage1_total);
    PT_CHECK(best >= 0 && fabs(t.iterations[best].fit.cx - c.circle.cx) < 1e-6 &&
                 fabs(t.iterations[best].fit.cy - c.circle.cy) < 1e-6,
             "starburst: the result is the fit fit_choice picks among the iterations'");
    /* the overlay holds the last iteration's fitted edge points */
    const pt_trace_iteration *last = &t.iterations[t.iteration_count - 1];
    int fitted = 0;
    for (int i = last->first; i < last->first + last->count; i++)
        fitted += t.rays[i].fitted;
    PT_CHECK(fitted == traced.count, "starburst: %d fitted points, overlay %d", fitted,
             traced.count);
    pt_overlay_free(&plain);
    pt_overlay_free(&traced);
    pt_trace_free(&t);
}

/* Recording into a NULL trace does nothing; a reset trace is empty. */
static void test_reset(void)
{
    pt_point p = {1, 2};
    pt_trace_sb_stage1(NULL, p, &p, 1);
    pt_trace_tl(NULL, 3, NULL, 0, 0, 0, 1, 1, &p, 1);
    pt_trace t;
    memset(&t, 0, sizeof t);
    pt_trace_sb_stage2(&t, p, &p, 1); /* no iteration begun: nothing */
    PT_CHECK(t.ray_count == 0, "stage 2 before stage 1 records nothing");
    pt_trace_sb_stage1(&t, p, &p, 1);
    pt_trace_sb_stage2(&t, p, &p, 1);
    pt_trace_sb_fitted(&t, &p, 1);
    PT_CHECK(t.iteration_count == 1 && t.ray_count == 2 && t.iterations[0].count == 2 &&
                 t.rays[0].fitted && !t.rays[1].fitted,
             "one iteration of two rays, the second not fitted");
    pt_trace_reset(&t);
    PT_CHECK(t.iteration_count == 0 && t.ray_count == 0 && t.tl_threshold == -1,
             "reset empties it");
    pt_trace_free(&t);
}

int main(void)
{
    fixture fx;
    pt_config_default(&fx.cfg);
    pt_arena_init(&fx.arena);
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_ransac_table_create(&fx.table, fx.cfg.pre.ransac_samples,
                                    fx.cfg.pre.ransac_sample_size, PT_RANSAC_SEED, &err) == PT_OK,
             "RANSAC table");
    pt_image *img = eye();
    test_reset();
    test_tl(&fx, img);
    /* the paper's fixed thresholds too */
    fx.cfg.tl.range = PT_TL_RANGE_FIXED;
    fx.cfg.tl.refine = 0;
    test_tl(&fx, img);
    test_starburst(&fx, img);
    pt_image_destroy(img);
    pt_ransac_table_free(&fx.table);
    pt_arena_free(&fx.arena);
    return PT_TEST_SUMMARY("trace");
}
