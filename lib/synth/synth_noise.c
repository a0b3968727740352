/* Deterministic noise primitives for the synthetic eye renderer. */
#include "lib/synth/synth_noise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t pt_synth_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void pt_synth_rng_seed(pt_synth_rng *rng, uint64_t seed)
{
    rng->state = pt_synth_mix64(seed ^ 0x243f6a8885a308d3ULL);
}

uint64_t pt_synth_next(pt_synth_rng *rng)
{
    rng->state += 0x9e3779b97f4a7c15ULL;
    return pt_synth_mix64(rng->state);
}

double pt_synth_uniform(pt_synth_rng *rng, double lo, double hi)
{
    /* 53 random bits give an exactly representable double in [0,1). */
    double u = (double)(pt_synth_next(rng) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

int pt_synth_int(pt_synth_rng *rng, int lo, int hi)
{
    if (hi <= lo)
        return lo;
    uint64_t span = (uint64_t)((int64_t)hi - lo + 1);
    return lo + (int)(pt_synth_next(rng) % span);
}

int pt_synth_chance(pt_synth_rng *rng, double p)
{
    return pt_synth_uniform(rng, 0.0, 1.0) < p;
}

float pt_synth_gauss_from_bits(uint64_t bits)
{
    /* Irwin-Hall with 4 terms: mean 2, variance 1/3; rescaled to unit variance. */
    float sum = (float)(bits & 0xffff) + (float)((bits >> 16) & 0xffff) +
                (float)((bits >> 32) & 0xffff) + (float)(bits >> 48);
    return (sum * (1.0f / 65536.0f) - 2.0f) * 1.7320508f;
}

pt_status pt_synth_lattice_init(pt_synth_lattice *lat, float width, float height,
                                float cell, uint64_t seed, pt_error *err)
{
    if (cell < 1.0f)
        cell = 1.0f;
    lat->inv_cell = 1.0f / cell;
    lat->nx = (int)(width / cell) + 3;
    lat->ny = (int)(height / cell) + 3;
    lat->values = malloc((size_t)lat->nx * (size_t)lat->ny * sizeof(float));
    if (!lat->values)
        return pt_error_set(err, PT_ERR_NOMEM, "", "synth: out of memory for noise lattice");
    pt_synth_rng rng;
    pt_synth_rng_seed(&rng, seed);
    for (int i = 0; i < lat->nx * lat->ny; i++)
        lat->values[i] = (float)pt_synth_uniform(&rng, -1.0, 1.0);
    return PT_OK;
}

void pt_synth_lattice_free(pt_synth_lattice *lat)
{
    free(lat->values);
    lat->values = NULL;
}

static float smooth01(float t)
{
    return t * t * (3.0f - 2.0f * t);
}

void pt_synth_periodic_table(float *table, int n, const int *cycles,
                             const float *amps, int octaves, pt_synth_rng *rng)
{
    float knots[512];
    memset(table, 0, (size_t)n * sizeof(float));
    float total = 0.0f;
    for (int o = 0; o < octaves; o++) {
        int k = cycles[o] < 2 ? 2 : (cycles[o] > 512 ? 512 : cycles[o]);
        for (int i = 0; i < k; i++)
            knots[i] = (float)pt_synth_uniform(rng, -1.0, 1.0);
        for (int i = 0; i < n; i++) {
            float g = (float)i * (float)k / (float)n;
            int i0 = (int)g;
            float f = smooth01(g - (float)i0);
            float v0 = knots[i0 % k], v1 = knots[(i0 + 1) % k];
            table[i] += amps[o] * (v0 + (v1 - v0) * f);
        }
        total += amps[o];
    }
    if (total > 0.0f)
        for (int i = 0; i < n; i++)
            table[i] /= total;
}

float pt_synth_atan2_turns(float y, float x)
{
    float ax = fabsf(x), ay = fabsf(y);
    float mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
    if (mx == 0.0f)
        return 0.0f;
    float a = mn / mx, s = a * a;
    /* Minimax polynomial for atan on [0,1] (max error about 1e-5 rad). */
    float r = ((-0.0464964749f * s + 0.15931422f) * s - 0.327622764f) * s * a + a;
    if (ay > ax)
        r = 1.57079637f - r;
    if (x < 0.0f)
        r = 3.14159274f - r;
    if (y < 0.0f)
        r = -r;
    float t = r * 0.159154943f;
    return t < 0.0f ? t + 1.0f : (t >= 1.0f ? t - 1.0f : t);
}

pt_status pt_synth_blur(float *img, float *tmp, int width, int height, float sigma,
                        pt_error *err)
{
    if (sigma <= 0.05f)
        return PT_OK;
    int radius = (int)ceilf(3.0f * sigma);
    if (radius > 64)
        radius = 64;
    float kernel[129];
    float sum = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        kernel[k + radius] = expf(-0.5f * (float)(k * k) / (sigma * sigma));
        sum += kernel[k + radius];
    }
    for (int k = 0; k <= 2 * radius; k++)
        kernel[k] /= sum;

    float *padded = malloc((size_t)(width + 2 * radius) * sizeof(float));
    if (!padded)
        return pt_error_set(err, PT_ERR_NOMEM, "", "synth: out of memory for blur");
    /* Rows: replicate the border, then a tap-outer loop that vectorises. */
    for (int y = 0; y < height; y++) {
        const float *src = img + (size_t)y * width;
        float *restrict dst = tmp + (size_t)y * width;
        for (int i = 0; i < radius; i++) {
            padded[i] = src[0];
            padded[radius + width + i] = src[width - 1];
        }
        memcpy(padded + radius, src, (size_t)width * sizeof(float));
        memset(dst, 0, (size_t)width * sizeof(float));
        for (int k = 0; k <= 2 * radius; k++) {
            const float w = kernel[k];
            const float *restrict in = padded + k;
            for (int x = 0; x < width; x++)
                dst[x] += w * in[x];
        }
    }
    free(padded);
    /* Columns: accumulate whole rows, clamping the row index at the borders. */
    for (int y = 0; y < height; y++) {
        float *restrict dst = img + (size_t)y * width;
        memset(dst, 0, (size_t)width * sizeof(float));
        for (int k = -radius; k <= radius; k++) {
            int yy = y + k < 0 ? 0 : (y + k >= height ? height - 1 : y + k);
            const float w = kernel[k + radius];
            const float *restrict in = tmp + (size_t)yy * width;
            for (int x = 0; x < width; x++)
                dst[x] += w * in[x];
        }
    }
    return PT_OK;
}
