/* Canny on a sub-image: separable derivative-of-Gaussian filtering, 4-sector
 * non-maximum suppression, histogram thresholds, stack-based hysteresis. */
#include "omp/detect/canny.h"

#include <math.h>
#include <string.h>

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
 * and the pixel loop vectorises. */
static void filter_row(const uint8_t *src, int width, const float *g, const float *dg,
                       int radius, float *restrict padded, float *restrict out_g,
                       float *restrict out_dg)
{
    for (int x = -radius; x < width + radius; x++)
        padded[x + radius] = src[x < 0 ? 0 : x >= width ? width - 1 : x];
    memset(out_g, 0, (size_t)width * sizeof *out_g);
    memset(out_dg, 0, (size_t)width * sizeof *out_dg);
    for (int k = 0; k <= 2 * radius; k++) {
        const float *restrict p = padded + k;
        float wg = g[k], wd = dg[k];
#pragma omp simd
        for (int x = 0; x < width; x++) {
            out_g[x] += wg * p[x];
            out_dg[x] += wd * p[x];
        }
    }
}

float pt_canny_quantile(const float *values, int n, double quantile, int *hist, int bins)
{
    float vmax = 0.0f;
    for (int i = 0; i < n; i++)
        vmax = values[i] > vmax ? values[i] : vmax;
    if (vmax <= CANNY_ZERO)
        return 0.0f;
    memset(hist, 0, (size_t)bins * sizeof *hist);
    float scale = (float)bins / vmax;
    long nonzero = 0;
    for (int i = 0; i < n; i++) {
        if (values[i] <= CANNY_ZERO)
            continue;
        int b = (int)(values[i] * scale);
        hist[b < bins ? b : bins - 1]++;
        nonzero++;
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

    float *smooth_x = pt_arena_alloc(arena, n * sizeof(float)); /* rows smoothed */
    float *deriv_x = pt_arena_alloc(arena, n * sizeof(float));  /* rows differentiated */
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

    for (int y = 0; y < height; y++)
        filter_row(pix + (size_t)y * (size_t)stride, width, g, dg, radius, padded,
                   smooth_x + (size_t)y * width, deriv_x + (size_t)y * width);

    /* Vertical pass: gx = g_y * dg_x(img), gy = dg_y * g_x(img); rows are summed
     * whole so the inner loop runs along x and vectorises. */
    for (int y = 0; y < height; y++) {
        float *restrict gx = out->gx + (size_t)y * width;
        float *restrict gy = out->gy + (size_t)y * width;
        memset(gx, 0, (size_t)width * sizeof(float));
        memset(gy, 0, (size_t)width * sizeof(float));
        for (int k = -radius; k <= radius; k++) {
            int yy = y + k < 0 ? 0 : y + k >= height ? height - 1 : y + k;
            const float *restrict sx = smooth_x + (size_t)yy * width;
            const float *restrict dx = deriv_x + (size_t)yy * width;
            float wg = g[k + radius], wd = dg[k + radius];
#pragma omp simd
            for (int x = 0; x < width; x++) {
                gx[x] += wg * dx[x];
                gy[x] += wd * sx[x];
            }
        }
        float *restrict mag = out->magnitude + (size_t)y * width;
#pragma omp simd
        for (int x = 0; x < width; x++)
            mag[x] = sqrtf(gx[x] * gx[x] + gy[x] * gy[x]);
    }

    out->high = pt_canny_quantile(out->magnitude, (int)n, high_quantile, hist, CANNY_BINS);
    out->low = (float)(low_ratio * out->high);
    uint8_t *edges = out->edges;
    memset(edges, 0, n);
    if (out->high <= 0.0f)
        return PT_OK;

    /* Non-maximum suppression along the gradient, quantised to 0/45/90/135
     * degrees (tan 22.5 = 0.4142); 1 = candidate above low, 2 = above high. */
    const float tan22 = 0.41421356f;
    int top = 0;
    for (int y = 1; y + 1 < height; y++) {
        const float *m = out->magnitude + (size_t)y * width;
        const float *gxr = out->gx + (size_t)y * width, *gyr = out->gy + (size_t)y * width;
        for (int x = 1; x + 1 < width; x++) {
            float v = m[x];
            if (v < out->low)
                continue;
            float ax = fabsf(gxr[x]), ay = fabsf(gyr[x]);
            float n1, n2;
            if (ay <= tan22 * ax) {
                n1 = m[x - 1];
                n2 = m[x + 1];
            } else if (ax <= tan22 * ay) {
                n1 = m[x - width];
                n2 = m[x + width];
            } else if ((gxr[x] > 0) == (gyr[x] > 0)) {
                n1 = m[x - width - 1];
                n2 = m[x + width + 1];
            } else {
                n1 = m[x - width + 1];
                n2 = m[x + width - 1];
            }
            /* > on one side and >= on the other keeps one pixel of a plateau */
            if (v > n1 && v >= n2) {
                size_t i = (size_t)y * width + x;
                if (v >= out->high) {
                    edges[i] = 2;
                    stack[top++] = (int32_t)i;
                } else {
                    edges[i] = 1;
                }
            }
        }
    }

    /* Hysteresis: grow strong edges through 8-connected candidates. */
    while (top) {
        int32_t i = stack[--top];
        int x = i % width, y = i / width;
        for (int dy = -1; dy <= 1; dy++) {
            int yy = y + dy;
            if (yy < 0 || yy >= height)
                continue;
            for (int dx = -1; dx <= 1; dx++) {
                int xx = x + dx;
                if (xx < 0 || xx >= width)
                    continue;
                size_t j = (size_t)yy * width + xx;
                if (edges[j] == 1) {
                    edges[j] = 2;
                    stack[top++] = (int32_t)j;
                }
            }
        }
    }
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t e = edges[i] == 2;
        edges[i] = e;
        count += e;
    }
    out->edge_count = count;
    return PT_OK;
}
