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

/* The row s with r replicated border pixels each side: line[0 .. w + 2r). */
static void gaussian_line(const uint8_t *s, int w, int r, uint8_t *line)
{
    memcpy(line + r, s, (size_t)w);
    for (int j = 0; j < r; j++) {
        line[j] = s[clamp_int(j - r, 0, w - 1)];
        line[w + r + j] = s[clamp_int(w + j, 0, w - 1)];
    }
}

/* One row, borders replicated, into out with 8 fractional bits. Symmetric
 * taps share one multiply: w_i * (p[-i] + p[+i]), 16 x 16 -> 32 bits. The
 * taps are summed up to four at a time per pass over the row (integer sums:
 * the order does not change them). */
PT_VECTOR_CLONES static void gaussian_row(const uint8_t *s, int w, int size, int r,
                                          const uint16_t *weights, uint8_t *line,
                                          uint32_t *restrict acc, uint16_t *restrict out)
{
    gaussian_line(s, w, r, line);
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GAUSS5_AVX2 1

/* The default 5-tap kernel with AVX2 pairwise multiply-adds (vpmaddwd,
 * signed 16 x 16 -> 32 bits): the same integer sums as gaussian_row and
 * gaussian_col, 16 pixels a step, for weights below 32768 (each then fits
 * a signed 16-bit lane). Rows: the pairs (centre, outer pair sum) and
 * (inner pair sum, 0), all at most 510. */
__attribute__((target("avx2"))) static void gauss5_row_avx2(const uint8_t *line, int w,
                                                            const uint16_t *weights,
                                                            uint16_t *out)
{
    const __m256i wc0 = _mm256_set1_epi32((int)((uint32_t)weights[2] | (uint32_t)weights[0] << 16));
    const __m256i w1 = _mm256_set1_epi32((int)weights[1]);
    const __m256i half = _mm256_set1_epi32(64), zero = _mm256_setzero_si256();
    int x = 0;
    for (; x + 16 <= w; x += 16) {
#define GAUSS5_BYTES(o) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(line + x + (o))))
        __m256i c = GAUSS5_BYTES(2);
        __m256i s0 = _mm256_add_epi16(GAUSS5_BYTES(0), GAUSS5_BYTES(4));
        __m256i s1 = _mm256_add_epi16(GAUSS5_BYTES(1), GAUSS5_BYTES(3));
#undef GAUSS5_BYTES
        /* unpack lo/hi take pixels 0-3 and 4-7 of each 128-bit lane, and the
         * pack below puts them back in order. */
        __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(c, s0), wc0),
                                      _mm256_madd_epi16(_mm256_unpacklo_epi16(s1, zero), w1));
        __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(c, s0), wc0),
                                      _mm256_madd_epi16(_mm256_unpackhi_epi16(s1, zero), w1));
        lo = _mm256_srli_epi32(_mm256_add_epi32(lo, half), 7);
        hi = _mm256_srli_epi32(_mm256_add_epi32(hi, half), 7);
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_packus_epi32(lo, hi));
    }
    const uint8_t *centre = line + 2;
    for (; x < w; x++) {
        uint32_t a = (uint32_t)weights[2] * centre[x] +
                     (uint32_t)weights[0] * (uint16_t)(centre[x - 2] + centre[x + 2]) +
                     (uint32_t)weights[1] * (uint16_t)(centre[x - 1] + centre[x + 1]);
        out[x] = (uint16_t)((a + 64u) >> 7);
    }
}

/* Columns: row values p (at most 65280) are taken as p - 32768 (p with its
 * top bit flipped, a signed 16-bit lane); the weights sum to 32768, so the
 * sum is the signed one plus 2^30, and every partial sum fits 32 bits. */
__attribute__((target("avx2"))) static void gauss5_col_avx2(const uint16_t *const *p, int w,
                                                            const uint16_t *weights,
                                                            uint8_t *d)
{
    const __m256i w01 = _mm256_set1_epi32((int)((uint32_t)weights[0] | (uint32_t)weights[1] << 16));
    const __m256i w23 = _mm256_set1_epi32((int)((uint32_t)weights[2] | (uint32_t)weights[3] << 16));
    const __m256i w4 = _mm256_set1_epi32((int)weights[4]);
    const __m256i flip = _mm256_set1_epi16((short)0x8000), zero = _mm256_setzero_si256();
    const __m256i offset = _mm256_set1_epi32((int)((1u << 30) + (1u << 22)));
    int x = 0;
    for (; x + 32 <= w; x += 32) {
        __m256i out16[2];
        for (int k = 0; k < 2; k++) {
            int o = x + 16 * k;
#define GAUSS5_ROW(i) _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p[i] + o)), flip)
            __m256i q0 = GAUSS5_ROW(0), q1 = GAUSS5_ROW(1), q2 = GAUSS5_ROW(2),
                    q3 = GAUSS5_ROW(3), q4 = GAUSS5_ROW(4);
#undef GAUSS5_ROW
            __m256i lo = _mm256_add_epi32(
                _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(q0, q1), w01),
                                 _mm256_madd_epi16(_mm256_unpacklo_epi16(q2, q3), w23)),
                _mm256_madd_epi16(_mm256_unpacklo_epi16(q4, zero), w4));
            __m256i hi = _mm256_add_epi32(
                _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(q0, q1), w01),
                                 _mm256_madd_epi16(_mm256_unpackhi_epi16(q2, q3), w23)),
                _mm256_madd_epi16(_mm256_unpackhi_epi16(q4, zero), w4));
            lo = _mm256_srli_epi32(_mm256_add_epi32(lo, offset), 23);
            hi = _mm256_srli_epi32(_mm256_add_epi32(hi, offset), 23);
            out16[k] = _mm256_packus_epi32(lo, hi);
        }
        /* packus interleaves the 128-bit lanes; the permute restores the order. */
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(out16[0], out16[1]), 0xD8);
        _mm256_storeu_si256((__m256i *)(d + x), bytes);
    }
    for (; x < w; x++) {
        uint32_t a = (uint32_t)weights[0] * p[0][x] + (uint32_t)weights[1] * p[1][x] +
                     (uint32_t)weights[2] * p[2][x] + (uint32_t)weights[3] * p[3][x] +
                     (uint32_t)weights[4] * p[4][x];
        d[x] = (uint8_t)((a + (1u << 22)) >> 23);
    }
}
#endif

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

    int fast5 = 0;
#ifdef GAUSS5_AVX2
    fast5 = size == 5 && __builtin_cpu_supports("avx2");
    for (int i = 0; i < size; i++)
        fast5 &= weights[i] < 32768;
#endif
    int produced = 0; /* rows 0..produced-1 have been row-filtered into the ring */
    for (int y = 0; y < h; y++) {
        int need = y + r < h - 1 ? y + r : h - 1;
        for (; produced <= need; produced++) {
            const uint8_t *src = rows ? rows[produced] : base + (size_t)produced * stride;
            uint16_t *out = ring + (size_t)(produced % size) * w;
#ifdef GAUSS5_AVX2
            if (fast5) {
                gaussian_line(src, w, r, line);
                gauss5_row_avx2(line, w, weights, out);
                continue;
            }
#endif
            gaussian_row(src, w, size, r, weights, line, acc, out);
        }
        for (int i = 0; i < size; i++)
            taps[i] = ring + (size_t)(clamp_int(y + i - r, 0, h - 1) % size) * w;
        uint8_t *d = dst->buf + (size_t)y * dst->stride;
#ifdef GAUSS5_AVX2
        if (fast5) {
            gauss5_col_avx2(taps, w, weights, d);
            continue;
        }
#endif
        gaussian_col(taps, w, size, weights, acc, d);
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
