/* The CUDA preprocessing kernels give the same bytes as omp/preprocess/preprocess.c:
 * reflection mask and smoothed frame, for every reflection mode and smoothing
 * filter, on synthetic eye images (with glints) and on random images with
 * bright spots, at sizes that are not multiples of the kernels' tiles.
 * Skips (passing) when no usable GPU is present. PT_TEST_QUICK=1 does fewer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/core/pt_cuda.h"
#include "lib/core/pt_arena.h"
#include "lib/synth/synth.h"
#include "omp/preprocess/preprocess.h"
#include "tests/pt_test.h"

/* A noisy grey image with a few saturated spots of several sizes. */
static void random_spots(pt_image *img, unsigned seed)
{
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            seed = seed * 1664525u + 1013904223u;
            img->buf[(size_t)y * img->stride + x] = (uint8_t)(60 + (seed >> 24) % 80);
        }
    for (int k = 0; k < 12; k++) {
        seed = seed * 1664525u + 1013904223u;
        int cx = (int)(seed % (unsigned)img->width), cy = (int)((seed >> 8) % (unsigned)img->height);
        int r = 1 + (int)((seed >> 20) % 9);
        for (int y = cy - r; y <= cy + r; y++)
            for (int x = cx - r; x <= cx + r; x++)
                if (x >= 0 && y >= 0 && x < img->width && y < img->height)
                    img->buf[(size_t)y * img->stride + x] = 250;
    }
}

static void compare(const char *what, const pt_image *src, const pt_preprocess_params *pre,
                    int kernel, int dilate, int copies)
{
    int w = src->width, h = src->height;
    pt_image *ref = pt_image_create(w, h), *gpu = pt_image_create(w, h);
    uint8_t *ref_mask = calloc((size_t)ref->stride * h, 1);
    uint8_t *gpu_mask = calloc((size_t)ref->stride * h, 1);
    pt_arena arena;
    pt_arena_init(&arena);
    pt_error err;
    pt_error_clear(&err);
    int mask_valid = 0;
    PT_CHECK(pt_preprocess(src, pre, kernel, dilate, ref, ref_mask, &mask_valid, &arena, &err) ==
                 PT_OK,
             "%s: omp: %s", what, err.what);
    PT_CHECK(pt_cuda_preprocess_image(pre, kernel, dilate, src, copies, gpu, gpu_mask, ref->stride,
                                      &err) == PT_OK,
             "%s: cuda: %s", what, err.what);
    long pixel_diff = 0, mask_diff = 0, masked = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * ref->stride + x;
            pixel_diff += ref->buf[i] != gpu->buf[i];
            if (mask_valid) {
                mask_diff += (ref_mask[i] != 0) != (gpu_mask[i] != 0);
                masked += ref_mask[i] != 0;
            }
        }
    PT_CHECK(pixel_diff == 0, "%s: %ld smoothed pixels differ", what, pixel_diff);
    PT_CHECK(mask_diff == 0, "%s: %ld mask pixels differ (%ld masked)", what, mask_diff, masked);
    pt_arena_free(&arena);
    pt_image_destroy(ref);
    pt_image_destroy(gpu);
    free(ref_mask);
    free(gpu_mask);
}

/* copies: the frame goes through as a chunk of that many copies (the
 * register column pass serves chunks of 8 frames or more). */
static void all_modes(const char *name, const pt_image *src, int kernel, int dilate, int copies)
{
    static const int reflections[] = {PT_REFLECTION_INTERPOLATE, PT_REFLECTION_SKIP,
                                      PT_REFLECTION_OFF};
    static const int smooths[] = {PT_SMOOTH_GAUSSIAN, PT_SMOOTH_MEDIAN, PT_SMOOTH_NONE};
    pt_config cfg;
    pt_config_default(&cfg);
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++) {
            pt_preprocess_params pre = cfg.pre;
            pre.reflection = reflections[r];
            pre.smooth = smooths[s];
            if (pre.smooth == PT_SMOOTH_MEDIAN)
                pre.smooth_size = 7;
            char what[160];
            snprintf(what, sizeof what, "%s %dx%d x%d kernel %d dilate %d reflection %d smooth %d",
                     name, src->width, src->height, copies, kernel, dilate, r, s);
            compare(what, src, &pre, kernel, dilate, copies);
        }
    /* A wider Gaussian: a tile border of two words, masked pixels filled. */
    pt_preprocess_params pre = cfg.pre;
    pre.smooth_size = 11;
    char what[160];
    snprintf(what, sizeof what, "%s %dx%d x%d kernel %d dilate %d gaussian 11", name, src->width,
             src->height, copies, kernel, dilate);
    compare(what, src, &pre, kernel, dilate, copies);
}

int main(void)
{
    pt_error err;
    if (pt_cuda_available(&err)) {
        printf("SKIP: CUDA tests: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_preprocess");
    }
    static const int sizes[][2] = {{320, 256}, {333, 211}, {1280, 1024}, {7, 5}, {1100, 37}};
    /* PT_TEST_QUICK=1 (for compute-sanitizer runs) leaves out 1280x1024. */
    int quick = getenv("PT_TEST_QUICK") != NULL;
    for (int k = 0; k < 5; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        if (quick && w * h > 1000000)
            continue;
        pt_image *img = pt_image_create(w, h);
        pt_synth_params sp;
        pt_synth_params_default(&sp);
        sp.width = w;
        sp.height = h;
        pt_synth_frame_truth truth;
        if (w >= 64 && h >= 64 && pt_synth_render(&sp, pt_synth_frame_seed(7, k), img, &truth,
                                                  &err) == PT_OK) {
            all_modes("synth", img, 19, 5, 1);
            all_modes("synth", img, 9, 1, 1);
            all_modes("synth", img, 57, 15, 1); /* the auto sizes at 1280x1024 */
            all_modes("synth", img, 57, 15, 8);
        }
        random_spots(img, 1234u + k);
        all_modes("spots", img, 13, 3, 1);
        all_modes("spots", img, 41, 9, 1);
        if (w * h <= 100000) {
            all_modes("spots", img, 41, 9, 8);
            all_modes("spots", img, 63, 33, 8);
            all_modes("spots", img, 75, 67, 1); /* half-widths beyond the register passes' 31 */
        }
        pt_image_destroy(img);
    }
    return PT_TEST_SUMMARY("cuda_preprocess");
}
