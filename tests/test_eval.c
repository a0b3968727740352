/* Metrics and curves: truth against itself, exact rates for a known shift,
 * missing/extra/duplicate results, blinks, false positives, curve CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/curve.h"
#include "eval/metrics.h"
#include "tests/pt_test.h"

#define FRAMES 40

/* GT: FRAMES circle frames (r = 20) plus ellipse frames, one blink, one without pupil. */
static char *make_gt_text(void)
{
    size_t cap = 1 << 16, n = 0;
    char *t = malloc(cap);
    n += (size_t)snprintf(t + n, cap - n, "image,cx,cy,r,a,b,theta,blink\n");
    for (int i = 0; i < FRAMES; i++)
        n += (size_t)snprintf(t + n, cap - n, "c%02d.png,%d.5,%d,20,,,,0\n", i, 100 + i, 80 + i);
    n += (size_t)snprintf(t + n, cap - n, "blink.png,50,50,10,,,,1\n");
    n += (size_t)snprintf(t + n, cap - n, "closed.png,,,,,,,\n");
    snprintf(t + n, cap - n, "ell.png,60,70,,30,10,45,\n");
    return t;
}

static void load_gt(pt_gt *gt)
{
    char *t = make_gt_text();
    pt_error err;
    if (pt_gt_load_memory(t, strlen(t), "gt.csv", "", gt, &err))
        fprintf(stderr, "gt: %s\n", err.what);
    free(t);
}

/* Results CSV text from rows; mutate decides what is written for entry k. */
typedef int (*mutate_fn)(int k, const pt_gt_entry *e, pt_result *r);

static void load_results(const pt_gt *gt, mutate_fn mutate, const char *extra, pt_results *res)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    pt_results_write_header(f);
    for (int k = 0; k < gt->count; k++) {
        pt_result r;
        pt_gt_entry_to_result(&gt->entries[k], &r);
        if (!mutate || mutate(k, &gt->entries[k], &r))
            pt_results_write_row(f, gt->entries[k].path, "starburst", "omp", &r);
    }
    if (extra)
        fputs(extra, f);
    fclose(f);
    pt_error err;
    if (pt_results_load_memory(buf, size, "res.csv", res, &err))
        fprintf(stderr, "results: %s\n", err.what);
    free(buf);
}

static void test_metric_formulas(void)
{
    pt_circle t = {10, 10, 20}, f = {13, 14, 21};
    PT_CHECK_NEAR(pt_metric_relative_circle(&f, &t), 5.0 / 20, 1e-12, "circle: centre dominates");
    f = (pt_circle){10, 10, 26};
    PT_CHECK_NEAR(pt_metric_relative_circle(&f, &t), 6.0 / 20, 1e-12, "circle: radius dominates");
    pt_ellipse te = {0, 0, 30, 10, 0}, fe = {4, 0, 30, 10, 0};
    PT_CHECK_NEAR(pt_metric_relative_ellipse(&fe, &te), 4.0 / 20, 1e-12, "ellipse centre / mean axis");
    fe = (pt_ellipse){0, 0, 30, 12, 0};
    PT_CHECK_NEAR(pt_metric_relative_ellipse(&fe, &te), 0.2, 1e-12, "ellipse minor axis");
    PT_CHECK_NEAR(pt_metric_centre_error(3, 4, 0, 0), 5, 1e-12, "pixel error");
}

static void test_truth_against_itself(void)
{
    pt_gt gt;
    load_gt(&gt);
    pt_results res;
    load_results(&gt, NULL, NULL, &res);
    pt_eval ev;
    pt_error err;
    PT_CHECK(pt_eval_run(&gt, &res, PT_SHAPE_AUTO, &ev, &err) == PT_OK, "eval runs");
    PT_CHECK(ev.frames == FRAMES + 1 && ev.rel_total == FRAMES + 1 && ev.px_total == FRAMES + 1,
             "frames %ld rel %ld px %ld", ev.frames, ev.rel_total, ev.px_total);
    int all = 1;
    for (int i = 0; i < PT_EVAL_REL_STEPS; i++)
        all &= ev.rel_detected[i] == ev.rel_total;
    for (int i = 0; i < PT_EVAL_PX_STEPS; i++)
        all &= ev.px_detected[i] == ev.px_total;
    PT_CHECK(all, "100 %% at every threshold, 0 included");
    PT_CHECK(ev.blinks == 1 && ev.false_positives == 0 && ev.no_pupil == 1 && ev.missing == 0 &&
                 ev.unmatched == 0,
             "blink %ld fp %ld nopupil %ld missing %ld unmatched %ld", ev.blinks,
             ev.false_positives, ev.no_pupil, ev.missing, ev.unmatched);
    PT_CHECK(pt_eval_rate_relative(&ev, 5) == 1.0 && pt_eval_rate_pixel(&ev, 5) == 1.0, "rates");
    pt_results_free(&res);
    pt_gt_free(&gt);
}

/* Shift the centre by exactly 3 px (x) on even circle frames. */
static int shift_half(int k, const pt_gt_entry *e, pt_result *r)
{
    if (k < FRAMES && k % 2 == 0)
        r->circle.cx = e->cx + 3;
    return 1;
}

static void test_shift_three_pixels(void)
{
    pt_gt gt;
    load_gt(&gt);
    pt_results res;
    load_results(&gt, shift_half, NULL, &res);
    pt_eval ev;
    pt_eval_run(&gt, &res, PT_SHAPE_CIRCLE, &ev, NULL);
    long total = FRAMES + 1, good = FRAMES / 2 + 1; /* the ellipse frame is exact */
    int ok = 1;
    for (int t = 0; t < PT_EVAL_PX_STEPS; t++)
        ok &= ev.px_detected[t] == (t < 3 ? good : total);
    PT_CHECK(ok && ev.px_total == total, "pixel: %ld below 3 px, all from 3 px (got T2 %ld T3 %ld)",
             good, ev.px_detected[2], ev.px_detected[3]);
    /* 3 px on r = 20 is 15 % relative */
    ok = 1;
    for (int i = 0; i < PT_EVAL_REL_STEPS; i++)
        ok &= ev.rel_detected[i] == (i < 30 ? good : total);
    PT_CHECK(ok, "relative: jump exactly at 15 %% (14.5: %ld, 15: %ld)", ev.rel_detected[29],
             ev.rel_detected[30]);
    PT_CHECK_NEAR(pt_eval_rate_pixel(&ev, 2), (double)good / total, 1e-12, "rate at 2 px");
    PT_CHECK_NEAR(pt_eval_rate_relative(&ev, 10), (double)good / total, 1e-12, "rate at 10 %");

    /* the curve CSV has the tidy rows */
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    const char *names[] = {"rays"}, *values[] = {"16"};
    pt_curve_write_header(f, 1, names);
    pt_curve_write(f, "starburst,omp", &ev, PT_METRIC_BOTH, 1, values);
    fclose(f);
    int lines = 0;
    for (char *p = buf; *p; p++)
        lines += *p == '\n';
    PT_CHECK(lines == 1 + PT_EVAL_REL_STEPS + PT_EVAL_PX_STEPS, "one row per threshold (%d)", lines);
    PT_CHECK(!strncmp(buf, "config,metric,threshold,detected,total,rate,rays\n", 48), "header");
    char want[128];
    snprintf(want, sizeof want, "\n\"starburst,omp\",pixel,3,%ld,%ld,1.000000,16\n", total, total);
    PT_CHECK(strstr(buf, want) != NULL, "pixel row at 3 px: %s", want);
    snprintf(want, sizeof want, "\n\"starburst,omp\",relative,14.5,%ld,%ld,%.6f,16\n", good, total,
             (double)good / total);
    PT_CHECK(strstr(buf, want) != NULL, "relative row at 14.5 %%: %s", want);
    free(buf);
    pt_results_free(&res);
    pt_gt_free(&gt);
}

/* Drop frames 0..4, report frames 5..9 as notfound, 10 as error, detect on the
 * no-pupil frame and on the blink with nonsense. */
static int damage(int k, const pt_gt_entry *e, pt_result *r)
{
    if (k < 5)
        return 0;
    if (k < 10)
        r->status = PT_DETECT_NOTFOUND;
    if (k == 10) {
        r->status = PT_DETECT_ERROR;
        snprintf(r->message, sizeof r->message, "decode failed");
    }
    if (!e->has_pupil || e->blink) {
        r->status = PT_DETECT_OK;
        r->has_circle = 1;
        r->circle = (pt_circle){1, 1, 1};
    }
    return 1;
}

static void test_missing_extra_blink_fp(void)
{
    pt_gt gt;
    load_gt(&gt);
    pt_results res;
    load_results(&gt, damage, "stray.png,,tl,omp,ok,1,1,1,,,,1,1,,\nc20.png,,tl,omp,ok,1,1,1,,,,1,1,,\n",
                 &res);
    pt_eval ev;
    pt_eval_run(&gt, &res, PT_SHAPE_AUTO, &ev, NULL);
    long total = FRAMES + 1, good = total - 11;
    PT_CHECK(ev.missing == 5 && ev.not_detected == 5 && ev.errors == 1,
             "missing %ld notfound %ld errors %ld", ev.missing, ev.not_detected, ev.errors);
    PT_CHECK(ev.rel_total == total && ev.rel_detected[PT_EVAL_REL_STEPS - 1] == good &&
                 ev.px_detected[PT_EVAL_PX_STEPS - 1] == good,
             "failures at every threshold: %ld of %ld", ev.rel_detected[40], ev.rel_total);
    PT_CHECK(ev.false_positives == 1 && ev.no_pupil == 1, "false positive counted apart");
    PT_CHECK(ev.blinks == 1, "blink excluded even with a bad detection");
    PT_CHECK(ev.unmatched == 1 && !strcmp(ev.unmatched_examples[0], "stray.png"),
             "result without truth reported (%ld)", ev.unmatched);
    PT_CHECK(ev.duplicates == 1, "second row for c20.png is a duplicate (%ld)", ev.duplicates);
    PT_CHECK(!strcmp(ev.missing_examples[0], "c00.png"), "missing example named");
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    pt_eval_print_summary(f, "test", &ev);
    fclose(f);
    PT_CHECK(strstr(buf, "false positives        1") && strstr(buf, "stray.png") &&
                 strstr(buf, "truth without result   5"),
             "summary:\n%s", buf);
    free(buf);
    pt_results_free(&res);
    pt_gt_free(&gt);
}

static void test_shapes(void)
{
    pt_gt_entry t;
    memset(&t, 0, sizeof t);
    t.has_pupil = 1;
    t.has_ellipse = 1;
    t.cx = 0;
    t.cy = 0;
    t.ellipse = (pt_ellipse){0, 0, 30, 10, 0};
    pt_result f;
    memset(&f, 0, sizeof f);
    f.status = PT_DETECT_OK;
    f.has_circle = 1;
    f.circle = (pt_circle){0, 0, 20};
    pt_eval ev;
    pt_eval_init(&ev);
    pt_eval_add(&ev, &t, &f, PT_SHAPE_AUTO);
    PT_CHECK(ev.rel_detected[0] == 1, "auto: circle vs ellipse compared as circles (r = (a+b)/2)");
    pt_eval_init(&ev);
    pt_eval_add(&ev, &t, &f, PT_SHAPE_ELLIPSE);
    PT_CHECK(ev.rel_detected[40] == 0 && ev.rel_detected[0] == 0,
             "ellipse: a circle of 20 against 30x10 is 100 %% off");
    /* centre-only truth scores pixels only */
    memset(&t, 0, sizeof t);
    t.has_pupil = 1;
    t.cx = 1;
    pt_eval_init(&ev);
    pt_eval_add(&ev, &t, &f, PT_SHAPE_AUTO);
    PT_CHECK(ev.rel_total == 0 && ev.no_radius == 1 && ev.px_total == 1 && ev.px_detected[1] == 1 &&
                 ev.px_detected[0] == 0,
             "centre-only truth");
    PT_CHECK(pt_eval_rate_relative(&ev, 5) < 0, "no relative rate without sizes");
}

int main(void)
{
    test_metric_formulas();
    test_truth_against_itself();
    test_shift_three_pixels();
    test_missing_extra_blink_fp();
    test_shapes();
    return PT_TEST_SUMMARY("eval");
}
