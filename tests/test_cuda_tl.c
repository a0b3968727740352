/* The CUDA threshold-and-labeling detector (-a tl -b cuda) agrees with the
 * OpenMP one (the reference) on the same synthetic frames: same status per
 * frame and eye, centre and radius within 0.5 px, on at least 99 % of eyes,
 * for circles and ellipses, monocular and binocular, 320x256 to 1280x1024,
 * several threshold steps, every score mode and without the refit, small
 * pupils (the fine grid's dark level); also
 * frames smaller than the back end was prepared for, and several chunks and
 * task batches, among them eyes that try the second dark level
 * (lib/detect/tl_small.h) beside eyes that do not in one call, the same
 * on the GPU whether the frames come in one call or one at a time. Skips
 * (passing) when no usable GPU is present. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/core/pt_arena.h"
#include "lib/detect/eye_levels.h"
#include "lib/detect/pt_backend.h"
#include "lib/detect/tl_small.h"
#include "lib/params/params_auto.h"
#include "lib/synth/synth.h"
#include "omp/preprocess/preprocess.h"
#include "tests/pt_agree.h"
#include "tests/pt_test.h"

#define TOLERANCE_PX 0.5

static agreement total;
static int frames_div = 1; /* frames per case divided by this */

/* Back ends prepared for frames of prepare_w x prepare_h (0: the frames' size). */
static int prepare_w, prepare_h;
/* Frames' grey levels times this (synth --exposure). */
static float exposure = 1.0f;
/* Failure classes on every frame (synth --hazard; 0: none). */
static unsigned hazards;

/* n frames as render_hazards (tests/pt_agree.h), with the hazards above. */
static pt_image **render_case(int n, int w, int h, int binocular, uint64_t seed)
{
    return render_hazards(n, w, h, binocular, seed, exposure, hazards);
}

static void run(const pt_backend *b, const pt_config *cfg, const pt_track_options *opt,
                pt_image **frames, int n, pt_result *res)
{
    run_backend(b, cfg, opt, prepare_w, prepare_h, frames, n, res);
}

/* The GPU's results against the CPU's on frames[0..n), in one call. */
static void compare_frames(const char *what, const pt_config *cfg, const pt_track_options *opt,
                           pt_image **frames, int n)
{
    int eyes = opt->binocular ? 2 : 1;
    pt_result *ref = calloc((size_t)n * eyes, sizeof *ref);
    pt_result *gpu = calloc((size_t)n * eyes, sizeof *gpu);
    run(&pt_backend_omp, cfg, opt, frames, n, ref);
    run(&pt_backend_cuda, cfg, opt, frames, n, gpu);
    agreement a = {0, 0, 0, 0, 0.0};
    for (int i = 0; i < n * eyes; i++) {
        a.compared++;
        if (ref[i].status != gpu[i].status) {
            a.status_differs++;
            continue;
        }
        if (ref[i].status != PT_DETECT_OK)
            continue;
        a.found++;
        double d = fmax(hypot(ref[i].circle.cx - gpu[i].circle.cx,
                              ref[i].circle.cy - gpu[i].circle.cy),
                        fabs(ref[i].circle.r - gpu[i].circle.r));
        if (opt->ellipse)
            d = fmax(d, fmax(fabs(ref[i].ellipse.a - gpu[i].ellipse.a),
                             fabs(ref[i].ellipse.b - gpu[i].ellipse.b)));
        if (d > a.worst)
            a.worst = d;
        if (d > TOLERANCE_PX)
            a.beyond_tolerance++;
    }
    int bad = a.status_differs + a.beyond_tolerance;
    printf("%s: %d eyes (%d found), %d status differ, %d beyond %.1f px, worst agreeing %.3g px\n",
           what, a.compared, a.found, a.status_differs, a.beyond_tolerance, TOLERANCE_PX,
           a.worst);
    PT_CHECK(bad * 100 <= a.compared, "%s: %d of %d eyes disagree (more than 1 %%)", what, bad,
             a.compared);
    /* a comparison of nothing found proves nothing */
    PT_CHECK(a.found * 2 >= a.compared, "%s: only %d of %d eyes found", what, a.found,
             a.compared);
    total.compared += a.compared;
    total.status_differs += a.status_differs;
    total.beyond_tolerance += a.beyond_tolerance;
    total.worst = fmax(total.worst, a.worst);
    free(ref);
    free(gpu);
}

static void compare(const char *what, const pt_config *cfg, const pt_track_options *opt, int n,
                    int w, int h, uint64_t seed)
{
    n = n / frames_div > 0 ? n / frames_div : 1;
    pt_image **frames = render_case(n, w, h, opt->binocular, seed);
    compare_frames(what, cfg, opt, frames, n);
    free_frames(frames, n);
}

/* The eyes of frames[0..n) (monocular) that try the second dark level, as
 * omp/detect/tl.c's eye_thresholds finds them on the preprocessed frame. */
static int second_level_eyes(const pt_config *cfg, pt_image **frames, int n)
{
    int tried = 0;
    pt_arena arena;
    pt_arena_init(&arena);
    for (int i = 0; i < n; i++) {
        int w = frames[i]->width, h = frames[i]->height;
        pt_auto_params autos;
        pt_resolve_auto(cfg, w, h, &autos);
        pt_image smoothed = {w, h, (w + 63) & ~63, NULL};
        smoothed.buf = pt_arena_alloc(&arena, (size_t)smoothed.stride * h);
        uint8_t *mask = pt_arena_alloc(&arena, (size_t)smoothed.stride * h);
        int mask_valid;
        pt_error err;
        PT_CHECK(smoothed.buf && mask && pt_preprocess(frames[i], &cfg->pre, autos.reflection_kernel,
                                                       autos.reflection_dilate, &smoothed, mask,
                                                       &mask_valid, &arena, &err) == PT_OK,
                 "preprocessing frame %d", i);
        unsigned hist[256];
        pt_eye_grid_histogram(smoothed.buf, smoothed.stride, 0, 0, w, h, hist);
        int coarse = pt_eye_level_of_histogram(hist, PT_EYE_DARK_RANK);
        int surround = pt_eye_level_of_histogram(hist, PT_EYE_SURROUND_RANK);
        int below, other;
        int mid = pt_eye_fine_patch(smoothed.buf, smoothed.stride, 0, 0, w, h, coarse, &below);
        int dark = pt_tl_small_darks(coarse, mid, below, cfg->tl.small_share, cfg->tl.small_also,
                                     &other);
        /* the first slot past tl_count: a threshold where that level is tried */
        tried += pt_tl_small_threshold(coarse, dark, other, surround, cfg->tl.count,
                                       cfg->tl.count, cfg->tl.threshold_min,
                                       cfg->tl.threshold_step, cfg->tl.spacing + 1) >= 0;
        pt_arena_reset(&arena);
    }
    pt_arena_free(&arena);
    return tried;
}

/* Small-pupil frames (even) and ordinary ones (odd) in one call, through a
 * back end prepared for 1280x1024 (47 task slots per batch): the eyes that
 * try the second dark level beside those that do not, their tasks over
 * several batches; the GPU as the CPU, and the same in one call as one
 * frame at a time (the batches then hold one eye's tasks). */
static void compare_mix(const pt_config *cfg, const pt_track_options *opt, int n, int w, int h,
                        uint64_t seed)
{
    n = n / frames_div > 1 ? n / frames_div : 2;
    pt_image **frames = render_hazards(n, w, h, 0, seed, 1.0f, PT_SYNTH_SMALL_PUPIL);
    pt_image **plain = render_hazards(n, w, h, 0, seed + 1, 1.0f, 0);
    for (int i = 1; i < n; i += 2) {
        pt_image *t = frames[i];
        frames[i] = plain[i];
        plain[i] = t;
    }
    int tried = second_level_eyes(cfg, frames, n);
    printf("mixed frames %dx%d: %d of %d eyes try the second dark level\n", w, h, tried, n);
    PT_CHECK(tried > 0 && tried < n, "mixed frames: %d of %d eyes try the second dark level",
             tried, n);
    prepare_w = 1280;
    prepare_h = 1024;
    compare_frames("monocular circle 320x256, mixed small and ordinary pupils", cfg, opt, frames,
                   n);
    pt_result *one = calloc((size_t)n, sizeof *one), *each = calloc((size_t)n, sizeof *each);
    run_backend_calls(&pt_backend_cuda, cfg, opt, prepare_w, prepare_h, frames, n, n, 0, one);
    run_backend_calls(&pt_backend_cuda, cfg, opt, prepare_w, prepare_h, frames, n, 1, 0, each);
    prepare_w = prepare_h = 0;
    int differ = 0;
    for (int i = 0; i < n; i++)
        differ += one[i].status != each[i].status || one[i].circle.cx != each[i].circle.cx ||
                  one[i].circle.cy != each[i].circle.cy || one[i].circle.r != each[i].circle.r ||
                  one[i].confidence != each[i].confidence;
    PT_CHECK(differ == 0, "mixed frames: %d of %d eyes differ between one call and single frames",
             differ, n);
    free(one);
    free(each);
    free_frames(frames, n);
    free_frames(plain, n);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_tl");
    }
    /* PT_TEST_QUICK=1 (for compute-sanitizer runs) uses a tenth of the frames,
     * PT_TEST_QUICK=N > 1 an N-th (at least one frame per case). */
    const char *quick = getenv("PT_TEST_QUICK");
    frames_div = quick ? (atoi(quick) > 1 ? atoi(quick) : 10) : 1;
    pt_config cfg;
    pt_config_default(&cfg);
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_TL;
    compare("monocular circle 320x256", &cfg, &opt, 300, 320, 256, 201);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256", &cfg, &opt, 100, 320, 256, 202);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare("binocular circle 640x256", &cfg, &opt, 100, 640, 256, 203);
    opt.ellipse = 1;
    compare("binocular ellipse 640x256", &cfg, &opt, 40, 640, 256, 204);
    opt.ellipse = 0;
    opt.binocular = 0;
    compare("monocular circle 1280x1024", &cfg, &opt, 40, 1280, 1024, 205);
    /* under-exposed eyes: thresholds between each eye's dark and surround levels */
    exposure = 0.2f;
    compare("monocular circle 320x256, exposure 0.2", &cfg, &opt, 60, 320, 256, 250);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256, exposure 0.2", &cfg, &opt, 30, 320, 256, 251);
    opt.ellipse = 0;
    exposure = 1.0f;
    /* small pupils: the dark level from the fine grid (lib/detect/eye_levels.h) */
    hazards = PT_SYNTH_SMALL_PUPIL;
    compare("monocular circle 1280x1024, small pupils", &cfg, &opt, 30, 1280, 1024, 260);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256, small pupils", &cfg, &opt, 60, 320, 256, 261);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare("binocular circle 640x256, small pupils", &cfg, &opt, 40, 640, 256, 262);
    opt.binocular = 0;
    /* the fine grid's share at the coarse dark rank's (tl_small_share) */
    double small_share = cfg.tl.small_share;
    cfg.tl.small_share = 1.07;
    compare("monocular circle 640x512, small pupils, tl_small_share=1.07", &cfg, &opt, 40, 640,
            512, 269);
    cfg.tl.small_share = small_share;
    /* both dark levels where the fine grid's share lies between tl_small_share and
     * tl_small_also (lib/detect/tl_small.h): the defaults, and the first level alone */
    compare("monocular circle 640x512, small pupils, both dark levels", &cfg, &opt, 40, 640,
            512, 275);
    opt.ellipse = 1;
    compare("monocular ellipse 640x512, small pupils, both dark levels", &cfg, &opt, 40, 640,
            512, 276);
    opt.ellipse = 0;
    double small_also = cfg.tl.small_also;
    cfg.tl.small_also = 0.0;
    compare("monocular circle 640x512, small pupils, tl_small_also=0", &cfg, &opt, 40, 640, 512,
            277);
    cfg.tl.small_also = small_also;
    hazards = 0;
    compare_mix(&cfg, &opt, 128, 320, 256, 300);
    /* lid-cut pupils: border pixels on the lid's chord leave the fit
     * (lib/detect/tl_flat.h), and all of them stay with tl_flat=0 */
    hazards = PT_SYNTH_LID;
    compare("monocular circle 1280x1024, lids", &cfg, &opt, 30, 1280, 1024, 263);
    opt.ellipse = 1;
    compare("monocular ellipse 640x512, lids", &cfg, &opt, 40, 640, 512, 264);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare("binocular circle 640x256, lids", &cfg, &opt, 40, 640, 256, 265);
    opt.binocular = 0;
    cfg.tl.flat = 0;
    compare("monocular circle 640x512, lids, tl_flat=0", &cfg, &opt, 40, 640, 512, 266);
    cfg.tl.flat = 1;
    /* the refit level's surround read on the blurred border
     * (lib/detect/tl_level.h; beyond it at the default gap) */
    hazards = PT_SYNTH_SMALL_PUPIL;
    cfg.tl.level_gap = 2.0;
    compare("monocular circle 200x200, small pupils, tl_level_gap=2", &cfg, &opt, 60, 200, 200,
            267);
    opt.ellipse = 1;
    compare("monocular ellipse 200x200, small pupils, tl_level_gap=2", &cfg, &opt, 40, 200,
            200, 268);
    opt.ellipse = 0;
    pt_config_default(&cfg);
    hazards = 0;
    static const int counts[] = {1, 3, 12};
    for (int k = 0; k < 3; k++) {
        char what[64];
        cfg.tl.count = counts[k];
        snprintf(what, sizeof what, "monocular circle 320x256 tl_count=%d", counts[k]);
        compare(what, &cfg, &opt, 60, 320, 256, 240 + k);
    }
    pt_config_default(&cfg);
    cfg.tl.range = PT_TL_RANGE_FIXED;
    static const int steps[] = {5, 10, 40};
    for (int k = 0; k < 3; k++) {
        char what[64];
        cfg.tl.threshold_step = steps[k];
        snprintf(what, sizeof what, "monocular circle 320x256 tl_range=fixed tl_step=%d", steps[k]);
        compare(what, &cfg, &opt, 60, 320, 256, 210 + k);
    }
    pt_config_default(&cfg);
    cfg.tl.score = PT_TL_SCORE_VOTES;
    compare("monocular circle 320x256 tl_score=votes", &cfg, &opt, 60, 320, 256, 220);
    cfg.tl.score = PT_TL_SCORE_SUPPORT;
    compare("monocular circle 320x256 tl_score=support", &cfg, &opt, 60, 320, 256, 221);
    pt_config_default(&cfg);
    cfg.tl.refine = 0;
    compare("monocular circle 320x256 tl_refine=0", &cfg, &opt, 60, 320, 256, 222);
    pt_config_default(&cfg);
    /* circle mode's shape check (lib/detect/tl_shape.h), with and without the refit,
     * and with the votes alone deciding */
    cfg.tl.shape = PT_TL_SHAPE_AUTO;
    cfg.tl.shape_confidence = 0.0;
    compare("monocular circle 1280x1024 tl_shape_confidence=0", &cfg, &opt, 30, 1280, 1024,
            228);
    cfg.tl.shape_confidence = 0.95;
    compare("monocular circle 320x256 tl_shape=auto", &cfg, &opt, 100, 320, 256, 223);
    compare("monocular circle 1280x1024 tl_shape=auto", &cfg, &opt, 30, 1280, 1024, 224);
    opt.binocular = 1;
    compare("binocular circle 640x256 tl_shape=auto", &cfg, &opt, 40, 640, 256, 225);
    opt.binocular = 0;
    cfg.tl.refine = 0;
    compare("monocular circle 320x256 tl_shape=auto tl_refine=0", &cfg, &opt, 60, 320, 256, 226);
    pt_config_default(&cfg);
    /* thresholds denser near the dark level (lib/detect/eye_levels.h) */
    cfg.tl.spacing = PT_TL_SPACING_SQUARE;
    compare("monocular circle 320x256 tl_spacing=square", &cfg, &opt, 60, 320, 256, 229);
    pt_config_default(&cfg);
    /* the paper's choice: no enclosed-fit rule (lib/detect/tl_nest.h) */
    cfg.tl.pupil_prior = 0;
    compare("monocular circle 320x256 tl_pupil_prior=0", &cfg, &opt, 60, 320, 256, 227);
    pt_config_default(&cfg);
    /* small frames through a back end prepared for larger ones (as track does) */
    prepare_w = 640;
    prepare_h = 480;
    compare("monocular circle 128x128 (prepared for 640x480)", &cfg, &opt, 60, 128, 128,
            230);
    prepare_w = prepare_h = 0;
    printf("all: %d eyes compared, %d status differ, %d beyond %.1f px, worst agreeing %.3g px\n",
           total.compared, total.status_differs, total.beyond_tolerance, TOLERANCE_PX,
           total.worst);
    return PT_TEST_SUMMARY("cuda_tl");
}
