/* Canny on a sub-image: separable derivative-of-Gaussian filtering, 4-sector
 * non-maximum suppression, histogram thresholds, stack-based hysteresis. */
#include "omp/detect/canny.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "omp/preprocess/preprocess.h" /* PT_VECTOR_CLONES */

#define CANNY_BINS 2048
#define CANNY_MAX_RADIUS 64
/* Magnitudes below this are float rounding on flat areas, not gradients. */
#define CANNY_ZERO 1e-3f

/* g: Gaussian, dg: its derivative, both of length 2*radius+1 centred. The
 * derivative is scaled so a unit ramp gives gradient 1. */
static int make_kernels(double sigma, float *g, float *dg)
{
    if (sigma < 0.3)
        sigma = 0.3;
    int radius = (int)ceil(3.0 * sigma);
    if (radius > CANNY_MAX_RADIUS)
        radius = CANNY_MAX_RADIUS;
    double sum = 0.0, dsum = 0.0;
    for (int i = -radius; i <= radius; i++) {
        double v = exp(-0.5 * i * i / (sigma * sigma));
        g[i + radius] = (float)v;
        sum += v;
    }
    for (int i = -radius; i <= radius; i++) {
        g[i + radius] = (float)(g[i + radius] / sum);
        /* d/dx of the Gaussian, sign chosen so that brighter-to-the-right is positive */
        dg[i + radius] = (float)(i * (double)g[i + radius]);
        dsum += i * (double)dg[i + radius];
    }
    for (int i = 0; i < 2 * radius + 1; i++)
        dg[i] = (float)(dg[i] / dsum);
    return radius;
}

/* Horizontal pass of both kernels over one row, edges clamped: the row is
 * padded into `padded` (width + 2*radius floats) so the tap loop is outside
 * and the pixel loop vectorises. Each pixel's sums add the taps in kernel
 * order, several taps per pass over the row. */
PT_VECTOR_CLONES static void filter_row(const uint8_t *src, int width, const float *g,
                                        const float *dg, int radius, float *restrict padded,
                                        float *restrict out_g, float *restrict out_dg)
{
    for (int x = 0; x < radius; x++) {
        padded[x] = src[0];
        padded[width + radius + x] = src[width - 1];
    }
#pragma omp simd
    for (int x = 0; x < width; x++)
        padded[x + radius] = src[x];
#pragma omp simd
    for (int x = 0; x < width; x++) {
        out_g[x] = 0.0f;
        out_dg[x] = 0.0f;
    }
    int taps = 2 * radius + 1, k = 0;
    for (; k + 4 <= taps; k += 4) {
        const float *restrict p = padded + k;
        float g0 = g[k], g1 = g[k + 1], g2 = g[k + 2], g3 = g[k + 3];
        float d0 = dg[k], d1 = dg[k + 1], d2 = dg[k + 2], d3 = dg[k + 3];
#pragma omp simd
        for (int x = 0; x < width; x++) {
            float a = out_g[x], b = out_dg[x];
            a += g0 * p[x];
            b += d0 * p[x];
            a += g1 * p[x + 1];
            b += d1 * p[x + 1];
            a += g2 * p[x + 2];
            b += d2 * p[x + 2];
            a += g3 * p[x + 3];
            b += d3 * p[x + 3];
            out_g[x] = a;
            out_dg[x] = b;
        }
    }
    for (; k < taps; k++) {
        const float *restrict p = padded + k;
        float wg = g[k], wd = dg[k];
#pragma omp simd
        for (int x = 0; x < width; x++) {
            out_g[x] += wg * p[x];
            out_dg[x] += wd * p[x];
        }
    }
}

/* mag = sqrt(gx^2 + gy^2) of one row; returns its largest value. */
static inline float magnitude_row(const float *restrict gx, const float *restrict gy, int width,
                                  float *restrict mag)
{
    float vmax = 0.0f;
#pragma omp simd reduction(max : vmax)
    for (int x = 0; x < width; x++) {
        mag[x] = sqrtf(gx[x] * gx[x] + gy[x] * gy[x]);
        vmax = mag[x] > vmax ? mag[x] : vmax;
    }
    return vmax;
}

/* Vertical pass for one row: gx = g_y * dg_x(img), gy = dg_y * g_x(img), the
 * rows sx[k], dx[k] (k = 0..2*radius) added in kernel order; then the
 * magnitude (magnitude_row). Returns the row's largest magnitude. */
PT_VECTOR_CLONES static float filter_col(const float *const *sx, const float *const *dx,
                                         int width, const float *g, const float *dg,
                                         int radius, float *restrict gx, float *restrict gy,
                                         float *restrict mag)
{
#pragma omp simd
    for (int x = 0; x < width; x++) {
        gx[x] = 0.0f;
        gy[x] = 0.0f;
    }
    int taps = 2 * radius + 1, k = 0;
    for (; k + 4 <= taps; k += 4) {
        const float *restrict s0 = sx[k], *restrict s1 = sx[k + 1], *restrict s2 = sx[k + 2],
                             *restrict s3 = sx[k + 3];
        const float *restrict e0 = dx[k], *restrict e1 = dx[k + 1], *restrict e2 = dx[k + 2],
                             *restrict e3 = dx[k + 3];
        float g0 = g[k], g1 = g[k + 1], g2 = g[k + 2], g3 = g[k + 3];
        float d0 = dg[k], d1 = dg[k + 1], d2 = dg[k + 2], d3 = dg[k + 3];
#pragma omp simd
        for (int x = 0; x < width; x++) {
            float a = gx[x], b = gy[x];
            a += g0 * e0[x];
            b += d0 * s0[x];
            a += g1 * e1[x];
            b += d1 * s1[x];
            a += g2 * e2[x];
            b += d2 * s2[x];
            a += g3 * e3[x];
            b += d3 * s3[x];
            gx[x] = a;
            gy[x] = b;
        }
    }
    for (; k < taps; k++) {
        const float *restrict s0 = sx[k], *restrict e0 = dx[k];
        float wg = g[k], wd = dg[k];
#pragma omp simd
        for (int x = 0; x < width; x++) {
            gx[x] += wg * e0[x];
            gy[x] += wd * s0[x];
        }
    }
    return magnitude_row(gx, gy, width, mag);
}

/* The quantile of pt_canny_quantile with the values' maximum already known. */
PT_VECTOR_CLONES static float quantile_below_max(const float *values, int n, float vmax,
                                                 double quantile,
                                int *hist, int bins)
{
    if (vmax <= CANNY_ZERO)
        return 0.0f;
    memset(hist, 0, (size_t)bins * sizeof *hist);
    float scale = (float)bins / vmax;
    long nonzero = 0;
    /* Bins of a block of values at a time (vectorised), then counted. */
    enum { BLOCK = 256 };
    int bin[BLOCK];
    for (int i0 = 0; i0 < n; i0 += BLOCK) {
        int len = n - i0 < BLOCK ? n - i0 : BLOCK;
        const float *v = values + i0;
#pragma omp simd
        for (int i = 0; i < len; i++) {
            int b = (int)(v[i] * scale);
            b = b < bins ? b : bins - 1;
            bin[i] = v[i] <= CANNY_ZERO ? -1 : b;
        }
        for (int i = 0; i < len; i++) {
            if (bin[i] < 0)
                continue;
            hist[bin[i]]++;
            nonzero++;
        }
    }
    long target = (long)ceil(quantile * (double)nonzero);
    long cumulative = 0;
    for (int b = 0; b < bins; b++) {
        cumulative += hist[b];
        if (cumulative >= target)
            return (float)(b + 1) / scale; /* the upper edge of the bin */
    }
    return vmax;
}

float pt_canny_quantile(const float *values, int n, double quantile, int *hist, int bins)
{
    float vmax = 0.0f;
    for (int i = 0; i < n; i++)
        vmax = values[i] > vmax ? values[i] : vmax;
    return quantile_below_max(values, n, vmax, quantile, hist, bins);
}

/* Non-maximum suppression of one interior row (y = 1..height-2) along the
 * gradient, quantised to 0/45/90/135 degrees (tan 22.5 = 0.4142): e[x] = 1
 * for a candidate above low, 2 above high, else 0; x = 1..width-2. All four
 * neighbour pairs are loaded and the sector's pair selected, so the row
 * vectorises. */
PT_VECTOR_CLONES static void suppress_row(const float *m, const float *gxr, const float *gyr,
                                          int width, float low, float high,
                                          uint8_t *restrict e)
{
    const float tan22 = 0.41421356f;
    const float *up = m - width, *down = m + width;
#pragma omp simd
    for (int x = 1; x < width - 1; x++) {
        float v = m[x];
        float ax = fabsf(gxr[x]), ay = fabsf(gyr[x]);
        int horizontal = ay <= tan22 * ax;
        int vertical = ax <= tan22 * ay;
        int same_sign = !((gxr[x] > 0) ^ (gyr[x] > 0));
        float l = m[x - 1], r = m[x + 1], u = up[x], d = down[x];
        float ul = up[x - 1], ur = up[x + 1], dl = down[x - 1], dr = down[x + 1];
        float diag1 = same_sign ? ul : ur, diag2 = same_sign ? dr : dl;
        float vert1 = vertical ? u : diag1, vert2 = vertical ? d : diag2;
        float n1 = horizontal ? l : vert1, n2 = horizontal ? r : vert2;
        /* > on one side and >= on the other keeps one pixel of a plateau */
        int keep = (v >= low) & (v > n1) & (v >= n2);
        e[x] = (uint8_t)(keep + (keep & (v >= high)));
    }
}

/* Push the strong pixels (2) of edges row e (x = 1..width-2; row starts at
 * index row) onto stack, 8 bytes at a time: values are 0, 1 or 2, so bit 1
 * of a byte marks a strong pixel. */
static int push_strong(const uint8_t *e, int width, size_t row, int32_t *stack, int top)
{
    int x = 1;
    for (; x + 8 <= width - 1; x += 8) {
        uint64_t v;
        memcpy(&v, e + x, sizeof v);
        v &= 0x0202020202020202ull;
        while (v) {
            int b = __builtin_ctzll(v) >> 3;
            stack[top++] = (int32_t)(row + (size_t)(x + b));
            v &= v - 1;
        }
    }
    for (; x < width - 1; x++)
        if (e[x] == 2)
            stack[top++] = (int32_t)(row + (size_t)x);
    return top;
}

pt_status pt_canny_detect(const uint8_t *pix, int stride, int width, int height,
                          double sigma, double high_quantile, double low_ratio,
                          pt_arena *arena, pt_canny_edges *out, pt_error *err)
{
    memset(out, 0, sizeof *out);
    out->width = width;
    out->height = height;
    if (width <= 0 || height <= 0)
        return PT_OK;
    size_t n = (size_t)width * (size_t)height;
    float g[2 * CANNY_MAX_RADIUS + 1], dg[2 * CANNY_MAX_RADIUS + 1];
    int radius = make_kernels(sigma, g, dg);

    /* The horizontal pass feeds a ring of 2*radius+1 rows, each filtered
     * just before the first output row that needs it, so the vertical pass
     * reads from cache. */
    int taps = 2 * radius + 1;
    size_t ring = (size_t)taps * width * sizeof(float);
    float *smooth_x = pt_arena_alloc(arena, ring); /* rows smoothed */
    float *deriv_x = pt_arena_alloc(arena, ring);  /* rows differentiated */
    out->gx = pt_arena_alloc(arena, n * sizeof(float));
    out->gy = pt_arena_alloc(arena, n * sizeof(float));
    out->magnitude = pt_arena_alloc(arena, n * sizeof(float));
    out->edges = pt_arena_alloc(arena, n);
    int *hist = pt_arena_alloc(arena, CANNY_BINS * sizeof(int));
    int32_t *stack = pt_arena_alloc(arena, n * sizeof(int32_t));
    size_t padded_len = (size_t)width + 2 * (size_t)radius;
    float *padded = pt_arena_alloc(arena, padded_len * sizeof(float));
    if (!padded || !smooth_x || !deriv_x || !out->gx || !out->gy || !out->magnitude || !out->edges ||
        !hist || !stack)
        return pt_error_set(err, PT_ERR_NOMEM, "", "canny: out of memory");

    /* Vertical pass: rows are summed whole so the inner loop runs along x and vectorises. */
    float vmax = 0.0f;
    int produced = 0; /* rows 0..produced-1 have been filtered into the ring */
    for (int y = 0; y < height; y++) {
        int need = y + radius < height - 1 ? y + radius : height - 1;
        for (; produced <= need; produced++) {
            size_t slot = (size_t)(produced % taps) * width;
            filter_row(pix + (size_t)produced * (size_t)stride, width, g, dg, radius, padded,
                       smooth_x + slot, deriv_x + slot);
        }
        const float *sx[2 * CANNY_MAX_RADIUS + 1], *dx[2 * CANNY_MAX_RADIUS + 1];
        for (int k = -radius; k <= radius; k++) {
            int yy = y + k < 0 ? 0 : y + k >= height ? height - 1 : y + k;
            size_t slot = (size_t)(yy % taps) * width;
            sx[k + radius] = smooth_x + slot;
            dx[k + radius] = deriv_x + slot;
        }
        size_t row = (size_t)y * width;
        float m = filter_col(sx, dx, width, g, dg, radius, out->gx + row, out->gy + row,
                             out->magnitude + row);
        vmax = m > vmax ? m : vmax;
    }

    out->high = quantile_below_max(out->magnitude, (int)n, vmax, high_quantile, hist,
                                   CANNY_BINS);
    out->low = (float)(low_ratio * out->high);
    uint8_t *edges = out->edges;
    if (out->high <= 0.0f || width < 3 || height < 3) {
        memset(edges, 0, n);
        return PT_OK;
    }

    /* Candidates on interior pixels only, so every strong pixel's 8
     * neighbours lie inside the image; the border is no edge. */
    memset(edges, 0, (size_t)width);
    memset(edges + (size_t)(height - 1) * width, 0, (size_t)width);
    int top = 0;
    for (int y = 1; y + 1 < height; y++) {
        size_t row = (size_t)y * width;
        uint8_t *e = edges + row;
        e[0] = e[width - 1] = 0;
        suppress_row(out->magnitude + row, out->gx + row, out->gy + row, width, out->low,
                     out->high, e);
        top = push_strong(e, width, row, stack, top);
    }

    /* Hysteresis: grow strong edges through 8-connected candidates. */
    const ptrdiff_t around[8] = {-(ptrdiff_t)width - 1, -(ptrdiff_t)width,
                                 -(ptrdiff_t)width + 1, -1,
                                 1,                     (ptrdiff_t)width - 1,
                                 (ptrdiff_t)width,      (ptrdiff_t)width + 1};
    while (top) {
        int32_t i = stack[--top];
        for (int k = 0; k < 8; k++) {
            size_t j = (size_t)((ptrdiff_t)i + around[k]);
            if (edges[j] == 1) {
                edges[j] = 2;
                stack[top++] = (int32_t)j;
            }
        }
    }
    int count = 0;
#pragma omp simd reduction(+ : count)
    for (size_t i = 0; i < n; i++) {
        uint8_t e = edges[i] == 2;
        edges[i] = e;
        count += e;
    }
    out->edge_count = count;
    return PT_OK;
}
