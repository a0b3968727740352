/* Smoothing filters. The Gaussian is separable: the row pass multiplies uint8
 * by 15-bit weights (16 x 16 -> 32-bit products) and keeps 8 fractional bits in
 * uint16, the column pass combines whole rows likewise, so both vectorise.
 * (8-bit weights with 16-bit sums were tried: their rounding alone gave errors
 * above 1 grey level against the exact 2-D convolution.) The median slides a
 * 256-bin histogram along each row (Huang), O(size) per pixel. */
#include <math.h>
#include <string.h>

#include "omp/preprocess/preprocess.h"

#define GAUSS_MAX_SIZE 255

static int clamp_int(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

size_t pt_gaussian_scratch_bytes(int width, int height, int size)
{
    (void)height;
    size = clamp_int(size | 1, 1, GAUSS_MAX_SIZE);
    size_t r = (size_t)(size / 2);
    return (size_t)width * size * sizeof(uint16_t) + (size_t)width * sizeof(uint32_t) +
           (size_t)width + 2 * r + 3 * 64;
}

/* Integer weights summing to exactly `total_weight` = 32768, so every weight
 * fits 16 bits and 65280 * 32768 still fits 32 bits. */
static int gaussian_weights(int size, double sigma, int total_weight, uint32_t *w)
{
    int r = size / 2;
    double g[GAUSS_MAX_SIZE], total = 0;
    for (int i = 0; i < size; i++) {
        double d = i - r;
        g[i] = exp(-d * d / (2 * sigma * sigma));
        total += g[i];
    }
    int sum = 0;
    for (int i = 0; i < size; i++) {
        w[i] = (uint32_t)lround((double)total_weight * g[i] / total);
        sum += (int)w[i];
    }
    w[r] = (uint32_t)((int)w[r] + total_weight - sum);
    return r;
}

/* One row, borders replicated, into out with 8 fractional bits. Symmetric
 * taps share one multiply: w_i * (p[-i] + p[+i]), 16 x 16 -> 32 bits. The
 * taps are summed up to four at a time per pass over the row (integer sums:
 * the order does not change them). */
PT_VECTOR_CLONES static void gaussian_row(const uint8_t *s, int w, int size, int r,
                                          const uint16_t *weights, uint8_t *line,
                                          uint32_t *restrict acc, uint16_t *restrict out)
{
    memcpy(line + r, s, (size_t)w);
    for (int j = 0; j < r; j++) {
        line[j] = s[clamp_int(j - r, 0, w - 1)];
        line[w + r + j] = s[clamp_int(w + j, 0, w - 1)];
    }
    const uint8_t *restrict centre = line + r;
    uint16_t wc = weights[r];
    if (r == 2) { /* the default 5-tap kernel in one pass */
        const uint8_t *restrict l = line, *restrict h = line + 4;
        uint16_t w0 = weights[0], w1 = weights[1];
#pragma omp simd
        for (int x = 0; x < w; x++) {
            uint32_t a = (uint32_t)wc * (uint16_t)centre[x] +
                         (uint32_t)w0 * (uint16_t)(l[x] + h[x]) +
                         (uint32_t)w1 * (uint16_t)(l[x + 1] + h[x - 1]);
            out[x] = (uint16_t)((a + 64u) >> 7);
        }
        return;
    }
#pragma omp simd
    for (int x = 0; x < w; x++)
        acc[x] = (uint32_t)wc * (uint16_t)centre[x];
    int i = 0;
    for (; i + 4 <= r; i += 4) {
        const uint8_t *restrict l = line + i, *restrict h = line + size - 1 - i;
        uint16_t w0 = weights[i], w1 = weights[i + 1], w2 = weights[i + 2], w3 = weights[i + 3];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * (uint16_t)(l[x] + h[x]) +
                      (uint32_t)w1 * (uint16_t)(l[x + 1] + h[x - 1]) +
                      (uint32_t)w2 * (uint16_t)(l[x + 2] + h[x - 2]) +
                      (uint32_t)w3 * (uint16_t)(l[x + 3] + h[x - 3]);
    }
    for (; i + 2 <= r; i += 2) {
        const uint8_t *restrict l = line + i, *restrict h = line + size - 1 - i;
        uint16_t w0 = weights[i], w1 = weights[i + 1];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * (uint16_t)(l[x] + h[x]) +
                      (uint32_t)w1 * (uint16_t)(l[x + 1] + h[x - 1]);
    }
    for (; i < r; i++) {
        const uint8_t *restrict l = line + i, *restrict h = line + size - 1 - i;
        uint16_t w0 = weights[i];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * (uint16_t)(l[x] + h[x]);
    }
#pragma omp simd
    for (int x = 0; x < w; x++)
        out[x] = (uint16_t)((acc[x] + 64u) >> 7);
}

/* One output row from `size` ring rows p[0..size) (8 fractional bits each),
 * up to four rows per pass. */
PT_VECTOR_CLONES static void gaussian_col(const uint16_t *const *p, int w, int size,
                                          const uint16_t *weights, uint32_t *restrict acc,
                                          uint8_t *restrict d)
{
    if (size == 5) { /* the default 5-tap kernel in one pass */
        const uint16_t *restrict p0 = p[0], *restrict p1 = p[1], *restrict p2 = p[2],
                                 *restrict p3 = p[3], *restrict p4 = p[4];
        uint16_t w0 = weights[0], w1 = weights[1], w2 = weights[2], w3 = weights[3],
                 w4 = weights[4];
#pragma omp simd
        for (int x = 0; x < w; x++) {
            uint32_t a = (uint32_t)w0 * p0[x] + (uint32_t)w1 * p1[x] + (uint32_t)w2 * p2[x] +
                         (uint32_t)w3 * p3[x] + (uint32_t)w4 * p4[x];
            d[x] = (uint8_t)((a + (1u << 22)) >> 23);
        }
        return;
    }
#pragma omp simd
    for (int x = 0; x < w; x++)
        acc[x] = 0;
    int i = 0;
    for (; i + 4 <= size; i += 4) {
        const uint16_t *restrict p0 = p[i], *restrict p1 = p[i + 1], *restrict p2 = p[i + 2],
                                 *restrict p3 = p[i + 3];
        uint16_t w0 = weights[i], w1 = weights[i + 1], w2 = weights[i + 2], w3 = weights[i + 3];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * p0[x] + (uint32_t)w1 * p1[x] + (uint32_t)w2 * p2[x] +
                      (uint32_t)w3 * p3[x];
    }
    for (; i + 2 <= size; i += 2) {
        const uint16_t *restrict p0 = p[i], *restrict p1 = p[i + 1];
        uint16_t w0 = weights[i], w1 = weights[i + 1];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * p0[x] + (uint32_t)w1 * p1[x];
    }
    for (; i < size; i++) {
        const uint16_t *restrict p0 = p[i];
        uint16_t w0 = weights[i];
#pragma omp simd
        for (int x = 0; x < w; x++)
            acc[x] += (uint32_t)w0 * p0[x];
    }
#pragma omp simd
    for (int x = 0; x < w; x++)
        d[x] = (uint8_t)((acc[x] + (1u << 22)) >> 23);
}

/* Rows of the source at rows[y], or at base + y * stride when rows is NULL. */
static void gaussian_core(const uint8_t *base, int stride, const uint8_t *const *rows, int w,
                          int h, pt_image *dst, int size, double sigma, void *scratch)
{
    size = clamp_int(size | 1, 1, GAUSS_MAX_SIZE);
    uint32_t weights32[GAUSS_MAX_SIZE];
    uint16_t weights[GAUSS_MAX_SIZE]; /* each at most 32768 */
    int r = gaussian_weights(size, sigma > 0 ? sigma : 1e-6, 32768, weights32);
    for (int i = 0; i < size; i++)
        weights[i] = (uint16_t)weights32[i];

    /* The row pass feeds a ring of `size` rows so the column pass reads from L1/L2. */
    uint8_t *sbase = scratch;
    uint16_t *ring = (uint16_t *)sbase;
    uint32_t *acc =
        (uint32_t *)(sbase + (((size_t)w * size * sizeof(uint16_t) + 63) & ~(size_t)63));
    uint8_t *line = (uint8_t *)acc + (((size_t)w * sizeof(uint32_t) + 63) & ~(size_t)63);
    const uint16_t *taps[GAUSS_MAX_SIZE];

    int produced = 0; /* rows 0..produced-1 have been row-filtered into the ring */
    for (int y = 0; y < h; y++) {
        int need = y + r < h - 1 ? y + r : h - 1;
        for (; produced <= need; produced++)
            gaussian_row(rows ? rows[produced] : base + (size_t)produced * stride, w, size, r,
                         weights, line, acc, ring + (size_t)(produced % size) * w);
        for (int i = 0; i < size; i++)
            taps[i] = ring + (size_t)(clamp_int(y + i - r, 0, h - 1) % size) * w;
        gaussian_col(taps, w, size, weights, acc, dst->buf + (size_t)y * dst->stride);
    }
}

void pt_gaussian(const pt_image *src, pt_image *dst, int size, double sigma, void *scratch)
{
    gaussian_core(src->buf, src->stride, NULL, src->width, src->height, dst, size, sigma,
                  scratch);
}

void pt_gaussian_rows(const uint8_t *const *rows, int width, int height, pt_image *dst,
                      int size, double sigma, void *scratch)
{
    gaussian_core(NULL, 0, rows, width, height, dst, size, sigma, scratch);
}

/* Rows of the source at img_rows[y], or at base + y * stride when img_rows is NULL. */
static void median_core(const uint8_t *base, int stride, const uint8_t *const *img_rows, int w,
                        int h, pt_image *dst, int size)
{
    size = clamp_int(size | 1, 1, GAUSS_MAX_SIZE);
    int r = size / 2;
    int half = size * size / 2;
    const uint8_t *rows[GAUSS_MAX_SIZE];
    for (int y = 0; y < h; y++) {
        for (int i = 0; i < size; i++)
        {
            int yy = clamp_int(y + i - r, 0, h - 1);
            rows[i] = img_rows ? img_rows[yy] : base + (size_t)yy * stride;
        }
        int hist[256] = {0};
        for (int dx = -r; dx <= r; dx++) {
            int cx = clamp_int(dx, 0, w - 1);
            for (int i = 0; i < size; i++)
                hist[rows[i][cx]]++;
        }
        /* m is the median while below (values < m) <= half < below + hist[m]. */
        int m = 0, below = 0;
        while (below + hist[m] <= half)
            below += hist[m++];
        uint8_t *d = dst->buf + (size_t)y * dst->stride;
        d[0] = (uint8_t)m;
        for (int x = 1; x < w; x++) {
            int out = clamp_int(x - r - 1, 0, w - 1), in = clamp_int(x + r, 0, w - 1);
            for (int i = 0; i < size; i++) {
                int vo = rows[i][out], vi = rows[i][in];
                hist[vo]--;
                below -= vo < m;
                hist[vi]++;
                below += vi < m;
            }
            while (below > half)
                below -= hist[--m];
            while (below + hist[m] <= half)
                below += hist[m++];
            d[x] = (uint8_t)m;
        }
    }
}

void pt_median(const pt_image *src, pt_image *dst, int size)
{
    median_core(src->buf, src->stride, NULL, src->width, src->height, dst, size);
}

void pt_median_rows(const uint8_t *const *rows, int width, int height, pt_image *dst, int size)
{
    median_core(NULL, 0, rows, width, height, dst, size);
}
