/* The CUDA back end agrees with the OpenMP back end (the reference) on the same
 * synthetic frames: same status per frame and eye, centre and radius within
 * 0.5 px, on at least 99 % of frames, for monocular circle and ellipse and
 * binocular modes, at 320x256 and 1280x1024. Both back ends use the same
 * RANSAC sample table, so only floating-point rounding of transcendental
 * functions may differ. Skips (passing) when no usable GPU is present. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/detect/pt_backend.h"
#include "lib/synth/synth.h"
#include "tests/pt_agree.h"
#include "tests/pt_test.h"

#define TOLERANCE_PX 0.5

/* Back ends prepared for frames of prepare_w x prepare_h (0: the frames'
 * size), as track prepares for the largest frame seen so far. */
static int prepare_w, prepare_h;
/* Second-stage rays per first-stage ray (0: the default). */
static int stage2_rays;
/* Starburst's edge_fraction (0: the default, off). */
static double edge_fraction;
/* Starburst's size_fraction (0: the default, off). */
static double size_fraction;
/* Starburst's flat_edges (-1: the default, reject). */
static int flat_edges = -1;
/* Starburst's inner_pass (-1: the default, on). */
static int inner_pass = -1;
/* Starburst starts at (10, 10) instead of the darkest window: the eyes
 * need more iterations to reach the pupil. */
static int start_corner;
/* Frames per back-end call (0: all in one call). One frame per call is
 * bench's latency mode: the CUDA back end looks at the results after a few
 * iterations and runs the rest only for eyes still iterating. */
static int per_call;
/* The calls go through the back end's submit (each call's chunks queued
 * behind the last call's while it finishes) and one drain. */
static int submitted;

static void run(const pt_backend *b, const pt_track_options *opt, pt_image **frames, int n,
                pt_result *res)
{
    pt_config cfg;
    pt_config_default(&cfg);
    if (stage2_rays)
        cfg.starburst.stage2_rays = stage2_rays;
    cfg.starburst.edge_fraction = edge_fraction;
    cfg.starburst.size_fraction = size_fraction;
    if (flat_edges >= 0)
        cfg.starburst.flat_edges = flat_edges;
    if (inner_pass >= 0)
        cfg.starburst.inner_pass = inner_pass;
    if (start_corner)
        cfg.starburst.start_x = cfg.starburst.start_y = 10;
    run_backend_calls(b, &cfg, opt, prepare_w, prepare_h, frames, n, per_call ? per_call : n,
                      submitted, res);
}

/* The results of the two back ends over count eyes agree (see the top). */
static void check_agreement(const char *what, const pt_result *ref, const pt_result *gpu,
                            int count)
{
    agreement a = {0, 0, 0, 0, 0.0};
    for (int i = 0; i < count; i++) {
        a.compared++;
        if (ref[i].status != gpu[i].status) {
            a.status_differs++;
            continue;
        }
        if (ref[i].status != PT_DETECT_OK)
            continue;
        double d = fmax(hypot(ref[i].circle.cx - gpu[i].circle.cx,
                              ref[i].circle.cy - gpu[i].circle.cy),
                        fabs(ref[i].circle.r - gpu[i].circle.r));
        if (d > a.worst)
            a.worst = d;
        if (d > TOLERANCE_PX)
            a.beyond_tolerance++;
    }
    int bad = a.status_differs + a.beyond_tolerance;
    printf("%s: %d eyes, %d status differ, %d beyond %.1f px, worst agreeing %.3g px\n", what,
           a.compared, a.status_differs, a.beyond_tolerance, TOLERANCE_PX, a.worst);
    PT_CHECK(bad * 100 <= a.compared, "%s: %d of %d eyes disagree (more than 1 %%)", what, bad,
             a.compared);
}

/* Both back ends over frames[0..n), and their agreement. */
static void compare_frames(const char *what, const pt_track_options *opt, pt_image **frames,
                           int n)
{
    int eyes = opt->binocular ? 2 : 1;
    pt_result *ref = calloc((size_t)n * eyes, sizeof *ref);
    pt_result *gpu = calloc((size_t)n * eyes, sizeof *gpu);
    run(&pt_backend_omp, opt, frames, n, ref);
    run(&pt_backend_cuda, opt, frames, n, gpu);
    check_agreement(what, ref, gpu, n * eyes);
    free(ref);
    free(gpu);
}

static void compare(const char *what, const pt_track_options *opt, int n, int w, int h,
                    uint64_t seed)
{
    pt_image **frames = render(n, w, h, opt->binocular, seed);
    compare_frames(what, opt, frames, n);
    free_frames(frames, n);
}

/* Under-exposed frames (pupil near grey level 7, iris near 16): each eye's
 * edge threshold is lowered to its contrast (edge_contrast), on both back
 * ends from the same samples. */
static void compare_exposed(const char *what, const pt_track_options *opt, int n, int w, int h,
                            uint64_t seed, float exposure)
{
    pt_image **frames = render_exposed(n, w, h, opt->binocular, seed, exposure);
    compare_frames(what, opt, frames, n);
    free_frames(frames, n);
}

/* Frames whose eyelids cut every pupil (synth --hazard lid): the points
 * on the lids' edges are left out of the fit (flat_edges=reject), on both
 * back ends the same points. */
static void compare_lid(const char *what, const pt_track_options *opt, int n, int w, int h,
                        uint64_t seed)
{
    pt_image **frames = render_hazards(n, w, h, opt->binocular, seed, 1.0f, PT_SYNTH_LID);
    compare_frames(what, opt, frames, n);
    free_frames(frames, n);
}

/* Low-contrast eyes (synth --hazard low-contrast): fits around a darker
 * disc give way to others, and converged ones are searched again inside
 * (inner_pass), on both back ends alike. Unless inner_pass is off, the
 * OpenMP back end with inner_pass=off must answer differently on some
 * eyes, or these frames would not exercise the inner pass. */
static void compare_low_contrast(const char *what, const pt_track_options *opt, int n, int w,
                                 int h, uint64_t seed)
{
    int eyes = opt->binocular ? 2 : 1;
    pt_image **frames =
        render_hazards(n, w, h, opt->binocular, seed, 1.0f, PT_SYNTH_LOW_CONTRAST);
    compare_frames(what, opt, frames, n);
    if (inner_pass == PT_SB_INNER_OFF) {
        free_frames(frames, n);
        return;
    }
    pt_result *on = calloc((size_t)n * eyes, sizeof *on);
    pt_result *off = calloc((size_t)n * eyes, sizeof *off);
    run(&pt_backend_omp, opt, frames, n, on);
    int saved = inner_pass;
    inner_pass = PT_SB_INNER_OFF;
    run(&pt_backend_omp, opt, frames, n, off);
    inner_pass = saved;
    int changed = 0;
    for (int i = 0; i < n * eyes; i++)
        changed += on[i].status != off[i].status || on[i].circle.cx != off[i].circle.cx ||
                   on[i].circle.cy != off[i].circle.cy || on[i].circle.r != off[i].circle.r;
    PT_CHECK(changed > 0, "%s: inner_pass changed none of %d eyes", what, n * eyes);
    free(on);
    free(off);
    free_frames(frames, n);
}

/* Frames of two sizes (every third one small) through one state prepared
 * for the larger, per_call frames per call. One frame per call: every call
 * runs on the first stream, whose frame sizes and jobs then often differ
 * from the last ones it uploaded, so the back end must upload them again
 * (it skips the upload when they are the same; a build that never uploads
 * again read a small frame as a large one: 174 px off on the H100). In one
 * call the chunks end at every change of size. */
static void mixed_sizes(const char *what, int n, uint64_t seed)
{
    pt_image **big = render(n, 320, 256, 0, seed), **small = render(n, 192, 160, 0, seed + 1);
    pt_image **frames = calloc((size_t)n, sizeof *frames);
    for (int i = 0; i < n; i++)
        frames[i] = i % 3 == 2 ? small[i] : big[i];
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_STARBURST;
    compare_frames(what, &opt, frames, n);
    free_frames(big, n);
    free_frames(small, n);
    free(frames);
}

/* --devices: a batch split across two states (both on device 0 here, so
 * the split is tested on one GPU) gives the results of one state. */
static void split_devices(int n, int w, int h, uint64_t seed)
{
    pt_image **frames = render(n, w, h, 0, seed);
    pt_result *one = calloc((size_t)n, sizeof *one), *two = calloc((size_t)n, sizeof *two);
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_STARBURST;
    run(&pt_backend_cuda, &opt, frames, n, one);
    opt.ndevices = 2;
    opt.devices[0] = opt.devices[1] = 0;
    run(&pt_backend_cuda, &opt, frames, n, two);
    int differ = 0;
    for (int i = 0; i < n; i++)
        differ += one[i].status != two[i].status || one[i].circle.cx != two[i].circle.cx ||
                  one[i].circle.cy != two[i].circle.cy || one[i].circle.r != two[i].circle.r;
    PT_CHECK(differ == 0, "--devices 0,0: %d of %d frames differ from one device", differ, n);
    free_frames(frames, n);
    free(one);
    free(two);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_starburst");
    }
    /* PT_TEST_QUICK=1 (for compute-sanitizer runs) uses a tenth of the frames. */
    int div = getenv("PT_TEST_QUICK") ? 10 : 1;
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_STARBURST;
    compare("monocular circle 320x256", &opt, 500 / div, 320, 256, 101);
    compare_exposed("monocular circle 320x256, exposure 0.2", &opt, 200 / div, 320, 256, 131,
                    0.2f);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256", &opt, 200 / div, 320, 256, 102);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare("binocular circle 640x256", &opt, 200 / div, 640, 256, 103);
    compare_exposed("binocular circle 640x256, exposure 0.3", &opt, 100 / div, 640, 256, 132,
                    0.3f);
    opt.binocular = 0;
    opt.sequence = 1;
    compare_exposed("sequence circle 320x256, exposure 0.2", &opt, 60 / div, 320, 256, 133,
                    0.2f);
    opt.sequence = 0;
    compare("monocular circle 1280x1024", &opt, 60 / div, 1280, 1024, 104);
    opt.sequence = 1;
    compare("sequence circle 320x256", &opt, 100 / div, 320, 256, 105);
    split_devices(90 / div + 1, 320, 256, 106);
    /* small frames through a back end prepared for larger ones (as track does) */
    opt.sequence = 0;
    prepare_w = 640;
    prepare_h = 480;
    compare("monocular circle 128x128 (prepared for 640x480)", &opt, 100 / div, 128, 128, 107);
    prepare_w = prepare_h = 0;
    compare("monocular circle 128x128", &opt, 100 / div, 128, 128, 108);
    /* more edge slots per eye than RANSAC compacts in shared memory */
    stage2_rays = 110;
    compare("monocular circle 320x256, 110 second-stage rays", &opt, 40 / div, 320, 256, 109);
    stage2_rays = 0;
    /* edges placed on a grey level of the step (pt_sb_level_crossing) */
    edge_fraction = 0.15;
    compare("monocular circle 128x128, edge_fraction 0.15", &opt, 100 / div, 128, 128, 110);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256, edge_fraction 0.15", &opt, 100 / div, 320, 256, 111);
    opt.ellipse = 0;
    edge_fraction = 0.0;
    /* the reported size moved to a grey level of the step (pt_sb_report_size),
     * in the pipeline's finish, for independent frames and --sequence */
    size_fraction = 0.2;
    compare("monocular circle 128x128, size_fraction 0.2", &opt, 100 / div, 128, 128, 112);
    opt.ellipse = 1;
    compare("monocular ellipse 320x256, size_fraction 0.2", &opt, 100 / div, 320, 256, 113);
    opt.ellipse = 0;
    opt.sequence = 1;
    compare("sequence circle 128x128, size_fraction 0.2", &opt, 60 / div, 128, 128, 114);
    opt.sequence = 0;
    size_fraction = 0.0;
    /* lid-cut pupils: points on flat edges left out (the default), in the
     * batch pipeline (its own launch per iteration), with more slots than a
     * block has threads, one frame per call, and with every point kept */
    compare_lid("lid-cut monocular circle 1280x1024", &opt, 40 / div, 1280, 1024, 126);
    compare_lid("lid-cut monocular circle 320x256", &opt, 200 / div, 320, 256, 127);
    opt.ellipse = 1;
    compare_lid("lid-cut monocular ellipse 320x256", &opt, 100 / div, 320, 256, 128);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare_lid("lid-cut binocular circle 640x256", &opt, 100 / div, 640, 256, 129);
    opt.binocular = 0;
    stage2_rays = 110;
    compare_lid("lid-cut monocular circle 320x256, 110 second-stage rays", &opt, 40 / div, 320,
                256, 130);
    stage2_rays = 0;
    per_call = 1;
    compare_lid("lid-cut monocular circle 320x256, one frame per call", &opt, 100 / div, 320, 256,
                131);
    per_call = 0;
    opt.sequence = 1;
    compare_lid("lid-cut sequence circle 320x256", &opt, 60 / div, 320, 256, 132);
    opt.sequence = 0;
    flat_edges = PT_SB_FLAT_KEEP;
    compare_lid("lid-cut monocular circle 320x256, flat_edges=keep", &opt, 100 / div, 320, 256,
                133);
    flat_edges = -1;
    /* low-contrast eyes: the inner pass and the choice against fits around
     * a darker disc, in the batch pipeline, one frame per call (the early
     * look, then the rest of the iterations) and the sequence kernel */
    compare_low_contrast("low-contrast monocular circle 1280x1024", &opt, 40 / div, 1280, 1024,
                         134);
    compare_low_contrast("low-contrast monocular circle 320x256", &opt, 200 / div, 320, 256, 135);
    opt.ellipse = 1;
    compare_low_contrast("low-contrast monocular ellipse 320x256", &opt, 100 / div, 320, 256, 136);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare_low_contrast("low-contrast binocular circle 640x256", &opt, 100 / div, 640, 256, 137);
    opt.binocular = 0;
    per_call = 1;
    compare_low_contrast("low-contrast monocular circle 320x256, one frame per call", &opt,
                         100 / div, 320, 256, 138);
    per_call = 0;
    opt.sequence = 1;
    compare_low_contrast("low-contrast sequence circle 320x256", &opt, 60 / div, 320, 256, 139);
    opt.sequence = 0;
    inner_pass = PT_SB_INNER_OFF;
    compare_low_contrast("low-contrast monocular circle 320x256, inner_pass=off", &opt, 100 / div,
                         320, 256, 140);
    inner_pass = -1;
    /* one frame per call: the early look at the results, then the rest of
     * the iterations for eyes still iterating (from a corner, a quarter of
     * these frames change after the third iteration on the OpenMP back end) */
    per_call = 1;
    compare("monocular circle 320x256, one frame per call", &opt, 100 / div, 320, 256, 115);
    start_corner = 1;
    compare("monocular circle 320x256, one frame per call, start (10, 10)", &opt, 100 / div,
            320, 256, 116);
    opt.ellipse = opt.binocular = 1;
    compare("binocular ellipse 640x256, one frame per call, start (10, 10)", &opt, 40 / div,
            640, 256, 117);
    opt.ellipse = opt.binocular = 0;
    start_corner = 0;
    mixed_sizes("monocular circle 320x256 and 192x160 mixed, one frame per call", 60 / div, 118);
    per_call = 0;
    mixed_sizes("monocular circle 320x256 and 192x160 mixed, one call", 60 / div, 119);
    /* calls submitted one after the other, drained at the end: the streams
     * go round across calls and each chunk's results reach its own call's
     * place (70 frames per call are two chunks of unequal size, so calls
     * start on different streams) */
    submitted = 1;
    per_call = 70;
    compare("monocular circle 320x256, submitted 70 per call", &opt, 500 / div, 320, 256, 120);
    opt.binocular = 1;
    compare("binocular circle 640x256, submitted 70 per call", &opt, 200 / div, 640, 256, 121);
    opt.binocular = 0;
    opt.sequence = 1;
    compare("sequence circle 320x256, submitted 70 per call", &opt, 100 / div, 320, 256, 122);
    opt.sequence = 0;
    per_call = 1;
    start_corner = 1;
    compare("monocular circle 320x256, submitted one frame per call, start (10, 10)", &opt,
            100 / div, 320, 256, 123);
    start_corner = 0;
    mixed_sizes("monocular circle 320x256 and 192x160 mixed, submitted one frame per call",
                60 / div, 124);
    per_call = 70;
    split_devices(200 / div + 1, 320, 256, 125);
    submitted = per_call = 0;
    return PT_TEST_SUMMARY("cuda_starburst");
}
