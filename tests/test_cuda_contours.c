/* CUDA border tracking equals the sequential reference (which itself equals
 * OpenCV on the golden files, tests/test_contours.c): same borders, points,
 * order and hierarchy, on every golden set and on random images of several
 * sizes and densities. The CPU emulation of the CUDA kernels (the same
 * functions, lib/contours/contours_tile.h) is checked always; the GPU itself only when
 * one is usable, else "SKIP: ...". PT_TEST_QUICK=1 (compute-sanitizer runs)
 * uses fewer and smaller random images. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/contours/pt_cuda_contours.h"
#include "lib/contours/contours.h"
#include "lib/contours/contours_pieces.h"
#include "lib/io/pt_image.h"
#include "omp/contours/contours_omp.h"
#include "tests/pt_test.h"

#define GOLDEN_DIR "testdata/contours"

/* A back end under test: find with an explicit tile side (<= 0: default). */
typedef pt_status (*tiled_fn)(void *ctx, const pt_image *img, int thr, int mode, int approx,
                              int tile, pt_contours *out, pt_error *err);

static pt_status emulated(void *ctx, const pt_image *img, int thr, int mode, int approx,
                          int tile, pt_contours *out, pt_error *err)
{
    (void)ctx;
    return pt_contours_find_emulated(img, thr, mode, approx, tile, out, err);
}

static pt_status on_gpu(void *ctx, const pt_image *img, int thr, int mode, int approx,
                        int tile, pt_contours *out, pt_error *err)
{
    return pt_cuda_contours_find(ctx, img, thr, mode, approx, tile, 0, out, err);
}

static int same_contours(const pt_contours *a, const pt_contours *b)
{
    if (a->count != b->count)
        return 0;
    for (int i = 0; i < a->count; i++) {
        const pt_border *x = &a->borders[i], *y = &b->borders[i];
        if (x->is_hole != y->is_hole || x->next != y->next || x->prev != y->prev ||
            x->first_child != y->first_child || x->parent != y->parent || x->count != y->count)
            return 0;
        if (memcmp(a->points + x->first, b->points + y->first,
                   (size_t)x->count * sizeof *a->points))
            return 0;
    }
    return 1;
}

/* Every golden set (image, mode, approximation) at tile 8 and the default tile. */
static void test_golden(const char *who, tiled_fn fn, void *ctx)
{
    FILE *index = fopen(GOLDEN_DIR "/index.txt", "r");
    PT_CHECK(index != NULL, "golden index %s/index.txt missing", GOLDEN_DIR);
    if (!index)
        return;
    char name[128], mode[16], approx[16];
    int sets = 0, bad = 0;
    pt_contours ref, got;
    pt_contours_init(&ref);
    pt_contours_init(&got);
    while (fscanf(index, "%127s %15s %15s", name, mode, approx) == 3) {
        char path[512];
        snprintf(path, sizeof path, GOLDEN_DIR "/%s.png", name);
        pt_frames frames = {0};
        pt_error err;
        pt_error_clear(&err);
        if (pt_image_load(path, NULL, &frames, &err) || frames.count != 1) {
            PT_CHECK(0, "cannot load %s: %s", path, err.what);
            pt_frames_free(&frames);
            continue;
        }
        int m = !strcmp(mode, "list") ? PT_CONTOURS_LIST
                : !strcmp(mode, "ccomp") ? PT_CONTOURS_CCOMP : PT_CONTOURS_TREE;
        int a = strcmp(approx, "simple") ? PT_CONTOURS_APPROX_NONE : PT_CONTOURS_APPROX_SIMPLE;
        const pt_image *img = frames.frames[0];
        if (pt_contours_find_seq(img, 0, m, a, &ref, &err)) {
            PT_CHECK(0, "seq %s: %s", name, err.what);
        } else {
            const int tiles[2] = {8, 0};
            for (int k = 0; k < 2; k++) {
                pt_status st = fn(ctx, img, 0, m, a, tiles[k], &got, &err);
                if (st || !same_contours(&ref, &got)) {
                    if (bad < 5)
                        fprintf(stderr, "%s %s %s %s tile %d: %s\n", who, name, mode, approx,
                                tiles[k], st ? err.what : "differs from seq");
                    bad++;
                }
            }
        }
        sets++;
        pt_frames_free(&frames);
    }
    fclose(index);
    pt_contours_free(&ref);
    pt_contours_free(&got);
    PT_CHECK(sets >= 200, "only %d golden sets", sets);
    PT_CHECK(bad == 0, "%s differs from seq on %d runs of %d golden sets", who, bad, sets);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random blocky noise of the given density (percent), with flipped specks. */
static pt_image *random_image(uint64_t *rng, int w, int h, int density, int block)
{
    pt_image *img = pt_image_create(w, h);
    if (!img)
        return NULL;
    for (int by = 0; by < h; by += block)
        for (int bx = 0; bx < w; bx += block) {
            uint8_t v = (int)(rng_next(rng) % 100) < density ? 200 : 0;
            for (int y = by; y < by + block && y < h; y++)
                for (int x = bx; x < bx + block && x < w; x++)
                    img->buf[(size_t)y * img->stride + x] =
                        block > 2 && rng_next(rng) % 23 == 0 ? (uint8_t)(200 - v) : v;
        }
    return img;
}

/* n random images, sizes up to max_side (and some given large ones). */
static void test_random(const char *who, tiled_fn fn, void *ctx, int n, int max_side,
                        uint64_t seed)
{
    uint64_t rng = seed;
    pt_contours a, b;
    pt_contours_init(&a);
    pt_contours_init(&b);
    int differ = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        int w = 1 + (int)(rng_next(&rng) % (uint64_t)max_side);
        int h = 1 + (int)(rng_next(&rng) % (uint64_t)max_side);
        int density = (int)(rng_next(&rng) % 101);
        int block = 1 + (int)(rng_next(&rng) % 9);
        pt_image *img = random_image(&rng, w, h, density, block);
        int mode = 1 + (int)(rng_next(&rng) % 3);
        int approx = 1 + (int)(rng_next(&rng) % 2);
        int tile = (int)(rng_next(&rng) % 5) == 0 ? 0 : 1 << (int)(rng_next(&rng) % 7);
        pt_error err;
        pt_error_clear(&err);
        if (!img || pt_contours_find_seq(img, 100, mode, approx, &a, &err) ||
            fn(ctx, img, 100, mode, approx, tile, &b, &err)) {
            if (!failed)
                fprintf(stderr, "%s random image %d: %s\n", who, i, err.what);
            failed++;
        } else if (!same_contours(&a, &b)) {
            if (!differ)
                fprintf(stderr, "%s != seq: image %d (%dx%d) density %d block %d mode %d "
                                "approx %d tile %d\n", who, i, w, h, density, block, mode,
                        approx, tile);
            differ++;
        }
        pt_image_destroy(img);
    }
    PT_CHECK(failed == 0, "%s: %d of %d random images failed", who, failed, n);
    PT_CHECK(differ == 0, "%s differs from seq on %d of %d random images", who, differ, n);
    pt_contours_free(&a);
    pt_contours_free(&b);
}

/* Large frames: sparse shapes, blocky noise and pixel noise. */
static void test_large(const char *who, tiled_fn fn, void *ctx, int w, int h)
{
    static const int density[3] = {3, 50, 50}, block[3] = {9, 4, 1};
    uint64_t rng = 0x5bd1e995u + (uint64_t)w;
    pt_contours a, b;
    pt_contours_init(&a);
    pt_contours_init(&b);
    for (int k = 0; k < 3; k++) {
        pt_image *img = random_image(&rng, w, h, density[k], block[k]);
        pt_error err;
        pt_error_clear(&err);
        int mode = k == 1 ? PT_CONTOURS_TREE : PT_CONTOURS_LIST;
        pt_status s1 = img ? pt_contours_find_seq(img, 100, mode, 1, &a, &err) : PT_ERR_NOMEM;
        pt_status s2 = s1 ? s1 : fn(ctx, img, 100, mode, 1, 0, &b, &err);
        PT_CHECK(!s1 && !s2, "%s %dx%d case %d: %s", who, w, h, k, err.what);
        if (!s1 && !s2)
            PT_CHECK(same_contours(&a, &b), "%s %dx%d density %d block %d: differs from seq "
                     "(%d vs %d borders)", who, w, h, density[k], block[k], b.count, a.count);
        pt_image_destroy(img);
    }
    pt_contours_free(&a);
    pt_contours_free(&b);
}

static void test_errors(const char *who, tiled_fn fn, void *ctx)
{
    pt_contours c;
    pt_contours_init(&c);
    pt_error err;
    pt_image empty = {0, 0, 0, NULL};
    PT_CHECK(fn(ctx, &empty, 0, PT_CONTOURS_LIST, 1, 0, &c, &err) == PT_ERR_PARAM,
             "%s: empty image is a parameter error", who);
    pt_image *img = pt_image_create(16, 16);
    PT_CHECK(fn(ctx, img, 0, PT_CONTOURS_LIST, 1, 3, &c, &err) == PT_ERR_PARAM,
             "%s: tile 3 refused", who);
    PT_CHECK(fn(ctx, img, 0, 7, 1, 0, &c, &err) == PT_ERR_PARAM, "%s: unknown mode", who);
    pt_image_destroy(img);
    /* bounded memory: a grid of dots needs many points */
    pt_image *many = pt_image_create(200, 200);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++)
            many->buf[y * many->stride + x] = x % 3 || y % 3 ? 0 : 255;
    c.max_points = 1000;
    PT_CHECK(fn(ctx, many, 0, PT_CONTOURS_TREE, 1, 0, &c, &err) == PT_ERR_NOMEM &&
                 c.count == 0, "%s: point limit gives PT_ERR_NOMEM", who);
    c.max_points = 0;
    PT_CHECK(fn(ctx, many, 0, PT_CONTOURS_TREE, 1, 0, &c, &err) == PT_OK && c.count == 67 * 67,
             "%s: dots: %d borders, want %d", who, c.count, 67 * 67);
    pt_image_destroy(many);
    pt_contours_free(&c);
}

/* Pixel noise (half the pixels set): borders of every shape, most of them a
 * few pixels long, so the assembly handles up to hundreds of thousands of
 * borders. seq, omp (2 threads), the emulation and, when present, the GPU
 * agree in each approximation, in every mode or (list_only) in LIST mode:
 * OpenCV's parent search of CCOMP/TREE, which every back end replays, grows
 * with the square of the borders on such images. */
static void test_noise(pt_cuda_contours *gpu, int w, int h, int list_only)
{
    uint64_t rng = 0x853c49e6748fea9bULL + (uint64_t)w * 31 + (uint64_t)h;
    pt_image *img = random_image(&rng, w, h, 50, 1);
    PT_CHECK(img != NULL, "noise %dx%d image", w, h);
    if (!img)
        return;
    pt_contours ref, got;
    pt_contours_init(&ref);
    pt_contours_init(&got);
    static const int modes[3] = {PT_CONTOURS_LIST, PT_CONTOURS_CCOMP, PT_CONTOURS_TREE};
    for (int m = 0; m < (list_only ? 1 : 3); m++)
        for (int a = PT_CONTOURS_APPROX_NONE; a <= PT_CONTOURS_APPROX_SIMPLE; a++) {
            pt_error err;
            pt_error_clear(&err);
            pt_status st = pt_contours_find_seq(img, 100, modes[m], a, &ref, &err);
            PT_CHECK(!st && ref.count > w * h / 16, "noise %dx%d seq: %d borders (%s)", w, h,
                     ref.count, err.what);
            if (st)
                continue;
            st = pt_contours_find_omp(img, 100, modes[m], a, 2, &got, &err);
            PT_CHECK(!st && same_contours(&ref, &got), "noise %dx%d mode %d approx %d: omp %s",
                     w, h, modes[m], a, st ? err.what : "differs from seq");
            st = pt_contours_find_emulated(img, 100, modes[m], a, 0, &got, &err);
            PT_CHECK(!st && same_contours(&ref, &got),
                     "noise %dx%d mode %d approx %d: emulated %s", w, h, modes[m], a,
                     st ? err.what : "differs from seq");
            if (gpu) {
                st = pt_cuda_contours_find(gpu, img, 100, modes[m], a, 0, 0, &got, &err);
                PT_CHECK(!st && same_contours(&ref, &got),
                         "noise %dx%d mode %d approx %d: cuda %s", w, h, modes[m], a,
                         st ? err.what : "differs from seq");
            }
        }
    pt_contours_free(&ref);
    pt_contours_free(&got);
    pt_image_destroy(img);
}

static void test_directions(void)
{
    static const int dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int dy[8] = {0, -1, -1, -1, 0, 1, 1, 1};
    int ok = 1;
    for (int d = 0; d < 8; d++)
        ok &= pt_cdir_dx(d) == dx[d] && pt_cdir_dy(d) == dy[d];
    PT_CHECK(ok, "packed Freeman direction tables");
}

int main(void)
{
    int quick = getenv("PT_TEST_QUICK") != NULL;
    test_directions();
    test_errors("emulated", emulated, NULL);
    test_golden("emulated", emulated, NULL);
    test_random("emulated", emulated, NULL, 150, 150, 0x2545f4914f6cdd1dULL);
    test_large("emulated", emulated, NULL, 640, 512);
    test_noise(NULL, 1000, 700, 0);

    pt_error err;
    pt_error_clear(&err);
    pt_cuda_contours *ctx = NULL;
    if (pt_cuda_contours_create(&ctx, &err) != PT_OK) {
        printf("SKIP: CUDA contours: %s\n", err.what);
        return PT_TEST_SUMMARY("cuda_contours");
    }
    test_errors("cuda", on_gpu, ctx);
    test_golden("cuda", on_gpu, ctx);
    test_random("cuda", on_gpu, ctx, quick ? 40 : 300, quick ? 100 : 300,
                0x9e3779b97f4a7c15ULL);
    test_large("cuda", on_gpu, ctx, 1280, 1024);
    test_noise(ctx, quick ? 640 : 1000, quick ? 480 : 700, 0);
    if (!quick)
        test_noise(ctx, 2464, 2056, 1);
    if (!quick) {
        test_large("cuda", on_gpu, ctx, 1232, 1028);
        test_large("cuda", on_gpu, ctx, 2464, 2056);
    }
    pt_cuda_contours_destroy(ctx);
    return PT_TEST_SUMMARY("cuda_contours");
}
