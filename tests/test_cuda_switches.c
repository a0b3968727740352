/* --cuda-off (pt_track_options.cuda_off): each CUDA optimisation switched
 * off, one at a time and all together, gives exactly the results of the
 * back end with all of them on (status, fit and confidence, bit for bit);
 * only the speed may differ. Starburst (monocular, binocular, ellipse, one
 * frame per call and submitted calls), tl and hough. Skips (passing) when no
 * usable GPU is present. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/detect/pt_backend.h"
#include "tests/pt_agree.h"
#include "tests/pt_test.h"

static const struct {
    const char *name;
    int mask;
} switches[] = {
    {"pinned", PT_CUDA_OFF_PINNED}, {"mapped", PT_CUDA_OFF_MAPPED}, {"batch", PT_CUDA_OFF_BATCH},
    {"graphs", PT_CUDA_OFF_GRAPHS}, {"all", PT_CUDA_OFF_ALL},
};

/* frames n of w x h through -b cuda with every optimisation, then with each
 * switch off; per_call frames per call (0: all in one), submitted as bench does. */
static void compare(const char *what, const pt_track_options *base, int n, int w, int h,
                    uint64_t seed, int per_call, int submitted)
{
    pt_config cfg;
    pt_config_default(&cfg);
    int eyes = base->binocular ? 2 : 1;
    pt_image **frames = render(n, w, h, base->binocular, seed);
    pt_result *ref = calloc((size_t)n * eyes, sizeof *ref);
    pt_result *got = calloc((size_t)n * eyes, sizeof *got);
    pt_track_options opt = *base;
    opt.cuda_off = 0;
    run_backend_calls(&pt_backend_cuda, &cfg, &opt, 0, 0, frames, n, per_call ? per_call : n, submitted,
                      ref);
    int found = 0;
    for (int i = 0; i < n * eyes; i++)
        found += ref[i].has_circle || ref[i].has_ellipse;
    PT_CHECK(found > n * eyes / 2, "%s: the reference found only %d of %d eyes", what, found, n * eyes);
    for (size_t k = 0; k < sizeof switches / sizeof switches[0]; k++) {
        opt.cuda_off = switches[k].mask;
        memset(got, 0, sizeof *got * (size_t)n * eyes);
        run_backend_calls(&pt_backend_cuda, &cfg, &opt, 0, 0, frames, n, per_call ? per_call : n,
                          submitted, got);
        int differ = 0, first = -1;
        for (int i = 0; i < n * eyes; i++)
            if (!same_result(&ref[i], &got[i])) {
                differ++;
                if (first < 0)
                    first = i;
            }
        PT_CHECK(differ == 0, "%s, --cuda-off %s: %d of %d results differ (first: result %d)", what,
                 switches[k].name, differ, n * eyes, first);
    }
    free(ref);
    free(got);
    free_frames(frames, n);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_switches");
    }
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = PT_ALG_STARBURST;
    compare("starburst monocular 320x256", &opt, 150, 320, 256, 301, 0, 0);
    compare("starburst monocular 320x256, one frame per call", &opt, 20, 320, 256, 302, 1, 0);
    compare("starburst monocular 320x256, submitted calls of 32", &opt, 96, 320, 256, 303, 32, 1);
    opt.streams = 1;
    compare("starburst monocular 320x256, one stream", &opt, 60, 320, 256, 304, 0, 0);
    opt.streams = 0;
    opt.ellipse = 1;
    compare("starburst monocular ellipse 320x256", &opt, 60, 320, 256, 305, 0, 0);
    opt.ellipse = 0;
    opt.binocular = 1;
    compare("starburst binocular 640x256", &opt, 80, 640, 256, 306, 0, 0);
    opt.binocular = 0;
    compare("starburst monocular 1280x1024", &opt, 20, 1280, 1024, 307, 0, 0);
    opt.algorithm = PT_ALG_TL;
    compare("tl monocular 320x256", &opt, 60, 320, 256, 308, 0, 0);
    opt.algorithm = PT_ALG_HOUGH;
    compare("hough monocular 320x256", &opt, 60, 320, 256, 309, 0, 0);
    return PT_TEST_SUMMARY("cuda_switches");
}
