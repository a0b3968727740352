/* Preprocessing: morphology, Gaussian and median smoothing and the
 * reflection mask and fill against brute force, and reflection removal leaving a flat
 * pupil. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/pt_arena.h"
#include "omp/preprocess/preprocess.h"
#include "tests/pt_test.h"

static uint32_t rng_state = 12345;
static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static pt_image make_image(int w, int h, int stride_pad)
{
    pt_image img = {w, h, w + stride_pad, NULL};
    img.buf = malloc((size_t)img.stride * h);
    for (int i = 0; i < img.stride * h; i++)
        img.buf[i] = (uint8_t)(rng() & 255);
    return img;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int brute_morph(const pt_image *img, int x, int y, int k, int is_min)
{
    int r = k / 2, best = is_min ? 255 : 0;
    for (int yy = y - r; yy <= y + r; yy++)
        for (int xx = x - r; xx <= x + r; xx++) {
            if (xx < 0 || yy < 0 || xx >= img->width || yy >= img->height)
                continue;
            int v = img->buf[yy * img->stride + xx];
            best = is_min ? (v < best ? v : best) : (v > best ? v : best);
        }
    return best;
}

static void test_morphology_matches_brute_force(void)
{
    static const int sizes[][2] = {{1, 1}, {7, 5}, {33, 17}, {16, 40}, {64, 64}, {97, 203}};
    static const int kernels[] = {1, 3, 5, 9, 19, 41, 101};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
            int w = sizes[s][0], h = sizes[s][1], k = kernels[kk];
            pt_image img = make_image(w, h, (int)(s % 3) * 5);
            int dst_stride = w + 3;
            uint8_t *ero = malloc((size_t)dst_stride * h), *dil = malloc((size_t)dst_stride * h);
            void *scratch = malloc(pt_morph_scratch_bytes(w, h, k));
            pt_erode(img.buf, img.stride, ero, dst_stride, w, h, k, scratch);
            pt_dilate(img.buf, img.stride, dil, dst_stride, w, h, k, scratch);
            int bad = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    bad += ero[y * dst_stride + x] != brute_morph(&img, x, y, k, 1);
                    bad += dil[y * dst_stride + x] != brute_morph(&img, x, y, k, 0);
                }
            PT_CHECK(bad == 0, "erode/dilate %dx%d k=%d: %d pixels differ", w, h, k, bad);
            /* In place gives the same. */
            pt_image copy = img;
            copy.buf = malloc((size_t)img.stride * h);
            memcpy(copy.buf, img.buf, (size_t)img.stride * h);
            pt_erode(copy.buf, copy.stride, copy.buf, copy.stride, w, h, k, scratch);
            bad = 0;
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    bad += copy.buf[y * copy.stride + x] != ero[y * dst_stride + x];
            PT_CHECK(bad == 0, "in-place erode %dx%d k=%d: %d pixels differ", w, h, k, bad);
            free(copy.buf);
            free(scratch);
            free(ero);
            free(dil);
            free(img.buf);
        }
}

static void test_gaussian_matches_direct_convolution(void)
{
    static const struct { int w, h, size; double sigma; } cases[] = {
        {40, 30, 5, 2.0}, {31, 17, 3, 0.8}, {25, 25, 7, 1.5}, {9, 6, 11, 3.0}, {50, 3, 5, 2.0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int w = cases[c].w, h = cases[c].h, size = cases[c].size, r = size / 2;
        pt_image src = make_image(w, h, 7);
        pt_image dst = {w, h, w, malloc((size_t)w * h)};
        void *scratch = malloc(pt_gaussian_scratch_bytes(w, h, size));
        pt_gaussian(&src, &dst, size, cases[c].sigma, scratch);
        double g[64], total = 0;
        for (int i = 0; i < size; i++) {
            g[i] = exp(-(double)(i - r) * (i - r) / (2 * cases[c].sigma * cases[c].sigma));
            total += g[i];
        }
        double worst = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                double s = 0;
                for (int j = 0; j < size; j++)
                    for (int i = 0; i < size; i++)
                        s += g[i] * g[j] / (total * total) *
                             src.buf[clampi(y + j - r, 0, h - 1) * src.stride +
                                     clampi(x + i - r, 0, w - 1)];
                double e = fabs(s - dst.buf[y * w + x]);
                worst = e > worst ? e : worst;
            }
        PT_CHECK(worst <= 1.0, "gaussian %dx%d size %d: worst error %.3f grey levels", w, h,
                 size, worst);
        free(scratch);
        free(dst.buf);
        free(src.buf);
    }
}

/* The Gaussian's fixed-point arithmetic (smooth.c): 15-bit weights summing
 * to 32768, rows rounded to 8 fractional bits, columns to whole grey levels;
 * pt_gaussian and pt_gaussian_rows give exactly this for every size. */
static void test_gaussian_fixed_point_exact(void)
{
    static const struct { int w, h, size; double sigma; } cases[] = {
        {41, 23, 3, 0.8}, {64, 30, 5, 2.0}, {37, 19, 7, 1.5}, {29, 31, 9, 2.5},
        {70, 12, 11, 3.0}, {33, 40, 15, 4.0}, {5, 3, 21, 6.0},
        /* the 5-tap kernel at widths around its 16- and 32-pixel steps, and
         * a sigma so small that the centre weight is the whole 32768 */
        {1, 4, 5, 2.0}, {2, 3, 5, 1.0}, {15, 6, 5, 2.0}, {16, 5, 5, 2.0}, {17, 9, 5, 0.7},
        {31, 4, 5, 2.0}, {32, 4, 5, 2.0}, {33, 7, 5, 3.0}, {100, 6, 5, 2.0},
        {1280, 4, 5, 2.0}, {40, 5, 5, 0.1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int w = cases[c].w, h = cases[c].h, size = cases[c].size, r = size / 2;
        double sigma = cases[c].sigma, g[64], total = 0;
        for (int i = 0; i < size; i++) {
            double d = i - r;
            g[i] = exp(-d * d / (2 * sigma * sigma));
            total += g[i];
        }
        long wt[64], sum = 0;
        for (int i = 0; i < size; i++) {
            wt[i] = lround(32768.0 * g[i] / total);
            sum += wt[i];
        }
        wt[r] += 32768 - sum;
        pt_image src = make_image(w, h, 5);
        /* the extremes: a run of white and of black pixels */
        for (int x = 0; x < w / 2; x++) {
            src.buf[x] = 255;
            src.buf[(h - 1) * src.stride + w - 1 - x] = 0;
        }
        uint16_t *rowf = malloc((size_t)w * h * sizeof *rowf);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                unsigned long a = 0;
                for (int i = 0; i < size; i++)
                    a += (unsigned long)wt[i] *
                         src.buf[y * src.stride + clampi(x + i - r, 0, w - 1)];
                rowf[y * w + x] = (uint16_t)((a + 64) >> 7);
            }
        pt_image dst = {w, h, w + 3, malloc((size_t)(w + 3) * h)};
        pt_image dst_rows = {w, h, w, malloc((size_t)w * h)};
        void *scratch = malloc(pt_gaussian_scratch_bytes(w, h, size));
        const uint8_t **rows = malloc((size_t)h * sizeof *rows);
        for (int y = 0; y < h; y++)
            rows[y] = src.buf + (size_t)(h - 1 - y) * src.stride; /* upside down */
        pt_gaussian(&src, &dst, size, sigma, scratch);
        pt_gaussian_rows(rows, w, h, &dst_rows, size, sigma, scratch);
        int bad = 0, bad_rows = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                unsigned long a = 0, b = 0;
                for (int j = 0; j < size; j++) {
                    a += (unsigned long)wt[j] * rowf[clampi(y + j - r, 0, h - 1) * w + x];
                    b += (unsigned long)wt[j] * rowf[(h - 1 - clampi(y + j - r, 0, h - 1)) * w + x];
                }
                bad += dst.buf[y * dst.stride + x] != (uint8_t)((a + (1ul << 22)) >> 23);
                bad_rows += dst_rows.buf[y * w + x] != (uint8_t)((b + (1ul << 22)) >> 23);
            }
        PT_CHECK(bad == 0 && bad_rows == 0,
                 "gaussian fixed point %dx%d size %d: %d pixels differ (%d from rows)", w, h,
                 size, bad, bad_rows);
        free(rows);
        free(scratch);
        free(dst_rows.buf);
        free(dst.buf);
        free(rowf);
        free(src.buf);
    }
}

static int cmp_u8(const void *a, const void *b) { return *(const uint8_t *)a - *(const uint8_t *)b; }

static void test_median_matches_brute_force(void)
{
    static const int sizes[] = {3, 7, 11};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int w = 37, h = 23, k = sizes[s], r = k / 2;
        pt_image src = make_image(w, h, 3);
        pt_image dst = {w, h, w + 1, malloc((size_t)(w + 1) * h)};
        pt_median(&src, &dst, k);
        uint8_t window[121];
        int bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int n = 0;
                for (int j = -r; j <= r; j++)
                    for (int i = -r; i <= r; i++)
                        window[n++] = src.buf[clampi(y + j, 0, h - 1) * src.stride +
                                              clampi(x + i, 0, w - 1)];
                qsort(window, (size_t)n, 1, cmp_u8);
                bad += dst.buf[y * dst.stride + x] != window[n / 2];
            }
        PT_CHECK(bad == 0, "median size %d: %d pixels differ", k, bad);
        free(dst.buf);
        free(src.buf);
    }
}

/* A dark pupil with a bright corneal reflection inside: after preprocessing the
 * pupil interior is flat again (no edge for a detector to find). */
/* The reflection fill's definition: each masked pixel becomes the
 * inverse-distance mean of the nearest unmasked pixel left, right, up and
 * down (each at most max_search away, none past the border), read from the
 * image before the fill; with none it keeps its value. */
static int brute_fill(const pt_image *img, const uint8_t *mask, int ms, int x, int y, int max_search)
{
    static const int dirs[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    double sum = 0, weight = 0;
    for (int k = 0; k < 4; k++)
        for (int d = 1; d <= max_search; d++) {
            int xx = x + dirs[k][0] * d, yy = y + dirs[k][1] * d;
            if (xx < 0 || yy < 0 || xx >= img->width || yy >= img->height)
                break;
            if (!mask[yy * ms + xx]) {
                sum += img->buf[yy * img->stride + xx] / (double)d;
                weight += 1.0 / d;
                break;
            }
        }
    return weight > 0 ? (int)(uint8_t)(sum / weight + 0.5) : img->buf[y * img->stride + x];
}

static void test_reflection_fill_matches_brute_force(void)
{
    static const int sizes[][2] = {{1, 1}, {9, 3}, {37, 23}, {70, 41}, {300, 9}, {5, 290}};
    static const int searches[] = {1, 4, 30, 200};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t q = 0; q < sizeof searches / sizeof searches[0]; q++)
            for (int density = 0; density < 3; density++) {
                int w = sizes[s][0], h = sizes[s][1], ms = w + 5;
                pt_image img = make_image(w, h, 2);
                uint8_t *mask = calloc((size_t)ms * h, 1);
                /* Runs and blobs of mask, some touching the borders; rows left clear. */
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        if (y % 5 != 2)
                            mask[y * ms + x] = (int)(rng() % 4) < density + (x < 3 || x > w - 3);
                pt_image out = img;
                out.buf = malloc((size_t)img.stride * h);
                memcpy(out.buf, img.buf, (size_t)img.stride * h);
                void *scratch = malloc(pt_reflection_fill_scratch_bytes(w, h));
                pt_reflection_fill(&out, mask, ms, searches[q], scratch);
                int bad = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        int want = mask[y * ms + x] ? brute_fill(&img, mask, ms, x, y, searches[q])
                                                    : img.buf[y * img.stride + x];
                        bad += out.buf[y * out.stride + x] != want;
                    }
                PT_CHECK(bad == 0, "reflection fill %dx%d search %d density %d: %d pixels differ",
                         w, h, searches[q], density, bad);
                /* Out of place: rows point at filled copies or at the untouched source. */
                uint8_t *work = malloc((size_t)ms * h);
                const uint8_t **rows = malloc((size_t)h * sizeof *rows);
                pt_reflection_fill_rows(&img, mask, ms, searches[q], work, ms, rows, scratch);
                bad = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        bad += rows[y][x] != out.buf[y * out.stride + x];
                PT_CHECK(bad == 0, "reflection fill rows %dx%d search %d density %d: %d differ",
                         w, h, searches[q], density, bad);
                free(rows);
                free(work);
                free(scratch);
                free(out.buf);
                free(mask);
                free(img.buf);
            }
}

/* The reflection mask: (image - opening) > threshold, dilated, against brute
 * force, on dark images with a few bright spots (rows far apart, rows close
 * together, spots on the borders) so the mask has several bands of rows. */
static void test_reflection_mask_matches_brute_force(void)
{
    static const int sizes[][2] = {{40, 60}, {97, 131}, {13, 200}};
    static const int kernels[][2] = {{9, 3}, {15, 5}, {11, 1}};
    /* Thresholds at both ends of the range too. */
    static const int thresholds[] = {40, 0, 1, 20, 128, 254, 255};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
            int w = sizes[s][0], h = sizes[s][1], k = kernels[kk][0], dil = kernels[kk][1];
            pt_image img = make_image(w, h, 3);
            /* The last size keeps the full 0..255 noise, so every difference occurs. */
            if (s < 2)
                for (int i = 0; i < img.stride * h; i++)
                    img.buf[i] = (uint8_t)(img.buf[i] % 30 + 60);
            int spots = 3 + (int)(rng() % 6);
            for (int n = 0; n < spots; n++) {
                int cx = (int)(rng() % w), cy = n == 0 ? 0 : n == 1 ? h - 1 : (int)(rng() % h);
                for (int y = cy - 1; y <= cy + 1; y++)
                    for (int x = cx - 1; x <= cx + 1; x++)
                        if (x >= 0 && y >= 0 && x < w && y < h)
                            img.buf[y * img.stride + x] = 250;
            }
            int ms = w + 7;
            uint8_t *mask = malloc((size_t)ms * h);
            void *scratch = malloc(pt_reflection_scratch_bytes(w, h, k, dil));
            /* brute force: opening, threshold, dilation */
            pt_image ero = {w, h, w, malloc((size_t)w * h)};
            pt_image open = {w, h, w, malloc((size_t)w * h)};
            pt_image thr = {w, h, w, malloc((size_t)w * h)};
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    ero.buf[y * w + x] = (uint8_t)brute_morph(&img, x, y, k, 1);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    open.buf[y * w + x] = (uint8_t)brute_morph(&ero, x, y, k, 0);
            for (size_t ti = 0; ti < sizeof thresholds / sizeof thresholds[0]; ti++) {
                int t = thresholds[ti];
                memset(mask, 0xAA, (size_t)ms * h);
                long count = pt_reflection_mask(&img, k, t, dil, mask, ms, scratch);
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++)
                        thr.buf[y * w + x] =
                            img.buf[y * img.stride + x] - open.buf[y * w + x] > t;
                int bad = 0;
                long want_count = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        int want =
                            dil > 1 ? brute_morph(&thr, x, y, dil, 0) : thr.buf[y * w + x];
                        want_count += want;
                        bad += mask[y * ms + x] != want;
                    }
                PT_CHECK(bad == 0 && count == want_count,
                         "reflection mask %dx%d k=%d dilate=%d threshold %d: %d pixels differ, "
                         "count %ld vs %ld",
                         w, h, k, dil, t, bad, count, want_count);
            }
            free(thr.buf);
            free(open.buf);
            free(ero.buf);
            free(scratch);
            free(mask);
            free(img.buf);
        }
}

static void test_reflection_removed_pupil_flat(void)
{
    int w = 160, h = 120;
    pt_image src = {w, h, w, malloc((size_t)w * h)};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double d = hypot(x - 80, y - 60);
            int v = d <= 30 ? 40 : 180;
            if (hypot(x - 88, y - 55) <= 3.5)
                v = 255;
            src.buf[y * w + x] = (uint8_t)v;
        }
    pt_preprocess_params pre = {0};
    pre.reflection = PT_REFLECTION_INTERPOLATE;
    pre.reflection_threshold = 40;
    pre.smooth = PT_SMOOTH_GAUSSIAN;
    pre.smooth_size = 5;
    pre.smooth_sigma = 2;
    pt_image out = {w, h, 192, malloc((size_t)192 * h)};
    uint8_t *mask = malloc((size_t)192 * h);
    int mask_valid = 0;
    pt_arena arena;
    pt_arena_init(&arena);
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_preprocess(&src, &pre, 15, 3, &out, mask, &mask_valid, &arena, &err) == PT_OK,
             "preprocess: %s", err.what);
    PT_CHECK(mask_valid && mask[55 * 192 + 88] == 1, "reflection centre is masked");
    PT_CHECK(mask[10 * 192 + 10] == 0 && mask[60 * 192 + 80 - 12] == 0,
             "plain iris and pupil are not masked");
    int lo = 255, hi = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (hypot(x - 80, y - 60) <= 24) {
                int v = out.buf[y * 192 + x];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
    PT_CHECK(hi - lo <= 4, "pupil interior flat after removal: min %d max %d", lo, hi);

    /* Skip mode leaves the reflection in the image but still masks it. */
    pre.reflection = PT_REFLECTION_SKIP;
    pt_arena_reset(&arena);
    PT_CHECK(pt_preprocess(&src, &pre, 15, 3, &out, mask, &mask_valid, &arena, &err) == PT_OK,
             "preprocess skip");
    PT_CHECK(mask_valid && mask[55 * 192 + 88] == 1 && out.buf[55 * 192 + 88] > 150,
             "skip mode: masked, not filled (%d)", out.buf[55 * 192 + 88]);
    pre.reflection = PT_REFLECTION_OFF;
    PT_CHECK(pt_preprocess(&src, &pre, 15, 3, &out, mask, &mask_valid, &arena, &err) == PT_OK &&
                 !mask_valid,
             "reflection off: no mask");

    pt_point p = pt_darkest_point(&out, 0, 0, w, h, 6, &arena);
    PT_CHECK(hypot(p.x - 80, p.y - 60) < 25, "darkest point inside the pupil (%.1f,%.1f)",
             p.x, p.y);
    pt_arena_free(&arena);
    free(mask);
    free(out.buf);
    free(src.buf);
}

int main(void)
{
    test_morphology_matches_brute_force();
    test_gaussian_matches_direct_convolution();
    test_gaussian_fixed_point_exact();
    test_median_matches_brute_force();
    test_reflection_fill_matches_brute_force();
    test_reflection_mask_matches_brute_force();
    test_reflection_removed_pupil_flat();
    return PT_TEST_SUMMARY("preprocess");
}
