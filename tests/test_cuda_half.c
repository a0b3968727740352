/* The CUDA back end's reduced frames (pt_track_options.keep_halves,
 * pt_backend.track_halves): frames reduced on the GPU from its own copy and
 * tracked from there give exactly the results of frames reduced on the host
 * (pt_image_halve) and tracked as any frames, for Starburst and tl, one eye
 * and two, frames smaller than the state was made for, whole calls and
 * chosen frames; a call whose reduced frames are no longer kept is refused
 * (PT_ERR_UNAVAILABLE) with nothing tracked; looks started ahead
 * (pt_backend.look_ahead) give the same; and the second look at half
 * resolution over -b cuda equals it over -b omp. Skips (passing) when no
 * usable GPU is present. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/detect/half_retry.h"
#include "lib/detect/pt_backend.h"
#include "tests/pt_agree.h"
#include "tests/pt_test.h"

static int count_differ(const pt_result *a, const pt_result *b, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++)
        d += !same_result(&a[i], &b[i]);
    return d;
}

/* Frames which[0..m) of frames, reduced on the host, tracked by a state of
 * half the size in one call: what track_halves must give. */
static void host_halves(const pt_config *cfg, const pt_track_options *opt, int w, int h,
                        pt_image **frames, const int *which, int m, pt_result *res)
{
    pt_image **halves = calloc((size_t)m, sizeof *halves);
    for (int k = 0; k < m; k++) {
        const pt_image *f = frames[which[k]];
        halves[k] = pt_image_create(f->width / 2, f->height / 2);
        pt_image_halve(f, halves[k]);
    }
    run_backend_calls(&pt_backend_cuda, cfg, opt, w / 2, h / 2, halves, m, m, 0, res);
    free_frames(halves, m);
}

/* A state for frames up to w x h that keeps its reduced frames, and one
 * for half that size, with base's options (keep_halves off); 0 when either
 * cannot be made. */
static int make_pair(const pt_config *cfg, const pt_track_options *base, int w, int h,
                     void **full, void **half)
{
    pt_track_options opt = *base;
    opt.keep_halves = 1;
    pt_error err;
    pt_error_clear(&err);
    *full = *half = NULL;
    PT_CHECK(pt_backend_cuda.create(cfg, &opt, w, h, full, &err) == PT_OK &&
                 pt_backend_cuda.create(cfg, base, w / 2, h / 2, half, &err) == PT_OK,
             "%s %dx%d: create: %s", pt_algorithm_name(base->algorithm), w, h, err.what);
    return *full && *half;
}

/* track_halves of frames which[0..m) of the call whose results are `of`
 * (its frames fr, the states made for w x h) gives what host_halves gives;
 * returns the pupils found. */
static int expect_halves(const char *what, void *half, void *full, const pt_config *cfg,
                         const pt_track_options *base, int w, int h, const pt_result *of,
                         pt_image **fr, const int *which, int m)
{
    int eyes = base->binocular ? 2 : 1;
    pt_result *want = calloc((size_t)m * eyes, sizeof *want);
    pt_result *got = calloc((size_t)m * eyes, sizeof *got);
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_backend_cuda.track_halves(half, full, of, fr, which, m, got, NULL, &err) == PT_OK,
             "%s: track_halves: %s", what, err.what);
    host_halves(cfg, base, w, h, fr, which, m, want);
    int differ = count_differ(want, got, m * eyes), found = 0;
    PT_CHECK(differ == 0, "%s: %d of %d results differ from frames reduced on the host", what,
             differ, m * eyes);
    for (int i = 0; i < m * eyes; i++)
        found += want[i].has_circle || want[i].has_ellipse;
    free(want);
    free(got);
    return found;
}

/* A call of n frames (prepared for w x h) with keep_halves, then
 * track_halves of the frames in which, against host_halves. */
static void compare_halves(const char *what, const pt_track_options *base, pt_image **frames,
                           int n, int w, int h, const int *which, int m)
{
    pt_config cfg;
    pt_config_default(&cfg);
    int eyes = base->binocular ? 2 : 1;
    pt_result *first = calloc((size_t)n * eyes, sizeof *first);
    void *full, *half;
    pt_error err;
    pt_error_clear(&err);
    if (!make_pair(&cfg, base, w, h, &full, &half))
        return;
    PT_CHECK(pt_backend_cuda.track(full, frames, n, first, NULL, &err) == PT_OK, "%s: track: %s",
             what, err.what);
    int found = expect_halves(what, half, full, &cfg, base, w, h, first, frames, which, m);
    PT_CHECK(found > m * eyes / 2, "%s: the reduced frames gave only %d of %d pupils", what,
             found, m * eyes);
    pt_backend_cuda.destroy(full);
    pt_backend_cuda.destroy(half);
    free(first);
}

/* Submitted calls: the call before the last one submitted still has its
 * reduced frames; the one before that, whose buffer the newest call took,
 * and a results array never submitted are refused. */
static void test_kept_calls(void)
{
    int n = 24, w = 320, h = 256;
    pt_image **frames = render(3 * n, w, h, 0, 611);
    pt_config cfg;
    pt_config_default(&cfg);
    pt_track_options half_opt;
    memset(&half_opt, 0, sizeof half_opt);
    half_opt.algorithm = PT_ALG_STARBURST;
    pt_result *res[3], got[24], never[24];
    for (int c = 0; c < 3; c++)
        res[c] = calloc((size_t)n, sizeof *res[c]);
    int which[24];
    for (int k = 0; k < n; k++)
        which[k] = k;
    void *full, *half;
    pt_error err;
    pt_error_clear(&err);
    if (!make_pair(&cfg, &half_opt, w, h, &full, &half))
        return;
    PT_CHECK(pt_backend_cuda.submit(full, frames, n, res[0], NULL, &err) == PT_OK, "submit 0");
    PT_CHECK(pt_backend_cuda.submit(full, frames + n, n, res[1], NULL, &err) == PT_OK, "submit 1");
    /* call 0's results are complete; call 1 is in flight */
    expect_halves("call 0 while call 1 is in flight", half, full, &cfg, &half_opt, w, h, res[0],
                  frames, which, n);
    PT_CHECK(pt_backend_cuda.submit(full, frames + 2 * n, n, res[2], NULL, &err) == PT_OK,
             "submit 2");
    expect_halves("call 1 while call 2 is in flight", half, full, &cfg, &half_opt, w, h, res[1],
                  frames + n, which, n);
    pt_result untouched = {.status = PT_DETECT_NOTFOUND, .confidence = 0.123};
    for (int k = 0; k < n; k++)
        got[k] = untouched;
    PT_CHECK(pt_backend_cuda.track_halves(half, full, res[0], frames, which, n, got, NULL, &err) ==
                 PT_ERR_UNAVAILABLE,
             "call 0's buffer was taken by call 2: refused");
    PT_CHECK(pt_backend_cuda.track_halves(half, full, never, frames, which, n, got, NULL, &err) ==
                 PT_ERR_UNAVAILABLE,
             "a results array of no call: refused");
    int which_out[1] = {n};
    PT_CHECK(pt_backend_cuda.track_halves(half, full, res[1], frames + n, which_out, 1, got, NULL,
                                          &err) == PT_ERR_UNAVAILABLE,
             "a frame beyond the call: refused");
    PT_CHECK(got[0].confidence == 0.123 && got[n - 1].confidence == 0.123,
             "nothing tracked when refused");
    PT_CHECK(pt_backend_cuda.drain(full, &err) == PT_OK, "drain");
    pt_backend_cuda.destroy(full);
    pt_backend_cuda.destroy(half);
    for (int c = 0; c < 3; c++)
        free(res[c]);
    free_frames(frames, 3 * n);
}

/* look_ahead: each call's wanted frames looked at while the call goes on;
 * track_halves of them gives what host_halves gives, after submitted calls
 * and after calls of one frame (an early look); frames not looked at ahead
 * are tracked when asked for. */
static void test_look_ahead(pt_algorithm alg, int per_call, int submitted)
{
    int n = 48, w = 640, h = 512, calls = n / per_call;
    pt_image **frames = render_hazards(n, w, h, 0, 631, 1.0f, PT_SYNTH_LOW_CONTRAST);
    pt_config cfg;
    pt_config_default(&cfg);
    pt_track_options half_opt;
    memset(&half_opt, 0, sizeof half_opt);
    half_opt.algorithm = alg;
    pt_result *first = calloc((size_t)n, sizeof *first);
    void *full, *half;
    pt_error err;
    pt_error_clear(&err);
    if (!make_pair(&cfg, &half_opt, w, h, &full, &half))
        return;
    PT_CHECK(pt_backend_cuda.look_ahead(full, half, cfg.retry.below, &err) == PT_OK,
             "look_ahead: %s", err.what);
    int looked = 0, asked = 0;
    for (int c = 0; c <= calls; c++) {
        if (c < calls) {
            pt_result *r = first + (size_t)c * per_call;
            pt_status st = submitted ? pt_backend_cuda.submit(full, frames + c * per_call, per_call,
                                                              r, NULL, &err)
                                     : pt_backend_cuda.track(full, frames + c * per_call, per_call,
                                                             r, NULL, &err);
            PT_CHECK(st == PT_OK, "call %d: %s", c, err.what);
        } else if (submitted) {
            PT_CHECK(pt_backend_cuda.drain(full, &err) == PT_OK, "drain");
        }
        /* the call whose results are complete now */
        int done = submitted ? c - 1 : c;
        if (done < 0 || done >= calls)
            continue;
        pt_image **fr = frames + done * per_call;
        pt_result *r = first + (size_t)done * per_call;
        int which[48], m = 0;
        for (int i = 0; i < per_call; i++)
            if (pt_half_retry_frame_wanted(w, h, 1, &r[i], cfg.retry.below))
                which[m++] = i;
        looked += m;
        char what[96];
        snprintf(what, sizeof what, "%s, call %d: looked at ahead", pt_algorithm_name(alg), done);
        if (m)
            expect_halves(what, half, full, &cfg, &half_opt, w, h, r, fr, which, m);
        /* every frame of the call: the others tracked when asked for */
        int every[48];
        for (int i = 0; i < per_call; i++)
            every[i] = i;
        snprintf(what, sizeof what, "%s, call %d: every frame", pt_algorithm_name(alg), done);
        expect_halves(what, half, full, &cfg, &half_opt, w, h, r, fr, every, per_call);
        asked++;
    }
    PT_CHECK(asked == calls && looked > 0, "%s: %d calls, %d frames looked at: no test",
             pt_algorithm_name(alg), asked, looked);
    pt_backend_cuda.destroy(full);
    pt_backend_cuda.destroy(half);
    free(first);
    free_frames(frames, n);
}

/* The second look over -b cuda (reduced on the GPU) and over -b omp, on
 * dim frames where it changes results: the same results, bit for bit. */
static void compare_layers(const char *what, const pt_track_options *base, int n, int w, int h,
                           uint64_t seed, int per_call, int submitted)
{
    pt_config cfg, off;
    pt_config_default(&cfg);
    off = cfg;
    off.retry.below = 0;
    int eyes = base->binocular ? 2 : 1;
    pt_image **frames = render_hazards(n, w, h, base->binocular, seed, 1.0f, PT_SYNTH_LOW_CONTRAST);
    pt_result *omp = calloc((size_t)n * eyes, sizeof *omp);
    pt_result *cuda = calloc((size_t)n * eyes, sizeof *cuda);
    pt_result *plain = calloc((size_t)n * eyes, sizeof *plain);
    pt_track_options opt = *base;
    run_backend_calls(&pt_backend_omp_half_retry, &cfg, &opt, 0, 0, frames, n, n, 0, omp);
    run_backend_calls(&pt_backend_omp_half_retry, &off, &opt, 0, 0, frames, n, n, 0, plain);
    run_backend_calls(&pt_backend_cuda_half_retry, &cfg, &opt, 0, 0, frames, n, per_call, submitted,
                      cuda);
    int changed = count_differ(omp, plain, n * eyes);
    PT_CHECK(changed > 0, "%s: the second look changed no result: no test", what);
    int differ = count_differ(omp, cuda, n * eyes);
    PT_CHECK(differ == 0, "%s: %d of %d results differ between -b cuda and -b omp (%d changed by "
             "the second look)", what, differ, n * eyes, changed);
    free(omp);
    free(cuda);
    free(plain);
    free_frames(frames, n);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_half");
    }
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    int all[80], some[7] = {0, 3, 4, 11, 30, 31, 39};
    for (int k = 0; k < 80; k++)
        all[k] = k;
    pt_algorithm algs[2] = {PT_ALG_STARBURST, PT_ALG_TL};
    for (int a = 0; a < 2; a++) {
        char what[96];
        opt.algorithm = algs[a];
        opt.binocular = 0;
        /* 80 frames: two chunks; prepared larger than the frames (rows
         * of the reduced planes wider than the frames) */
        pt_image **frames = render(80, 320, 256, 0, 601 + a);
        snprintf(what, sizeof what, "%s 320x256, every frame", pt_algorithm_name(algs[a]));
        compare_halves(what, &opt, frames, 80, 320, 256, all, 80);
        snprintf(what, sizeof what, "%s 320x256 in a 400x300 state, 7 frames",
                 pt_algorithm_name(algs[a]));
        compare_halves(what, &opt, frames, 40, 400, 300, some, 7);
        free_frames(frames, 80);
        /* odd sizes: the last row and column are left out */
        frames = render(12, 331, 263, 0, 603 + a);
        snprintf(what, sizeof what, "%s 331x263", pt_algorithm_name(algs[a]));
        compare_halves(what, &opt, frames, 12, 331, 263, all, 12);
        free_frames(frames, 12);
        opt.binocular = 1;
        frames = render(20, 640, 256, 1, 605 + a);
        snprintf(what, sizeof what, "%s binocular 640x256", pt_algorithm_name(algs[a]));
        compare_halves(what, &opt, frames, 20, 640, 256, all, 20);
        free_frames(frames, 20);
    }
    test_kept_calls();
    for (int a = 0; a < 2; a++) {
        test_look_ahead(algs[a], 16, 1);
        test_look_ahead(algs[a], 48, 0);
        test_look_ahead(algs[a], 1, 0);
    }
    opt.binocular = 0;
    for (int a = 0; a < 2; a++) {
        opt.algorithm = algs[a];
        /* the same 48 frames each time, on which the second look changes results */
        compare_layers(a ? "tl 640x512, one call" : "starburst 640x512, one call", &opt, 48, 640,
                       512, 622, 48, 0);
        compare_layers(a ? "tl 640x512, submitted calls of 16"
                         : "starburst 640x512, submitted calls of 16",
                       &opt, 48, 640, 512, 622, 16, 1);
        compare_layers(a ? "tl 640x512, one frame a call" : "starburst 640x512, one frame a call",
                       &opt, 48, 640, 512, 622, 1, 0);
    }
    opt.algorithm = PT_ALG_STARBURST;
    opt.binocular = 1;
    compare_layers("starburst binocular 1280x512, submitted calls of 16", &opt, 32, 1280, 512, 624,
                   16, 1);
    return PT_TEST_SUMMARY("cuda_half");
}
