/* Motion and defocus blurs of a float image (lib/synth/synth_filter.h). */
#include "lib/synth/synth_filter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MOTION_MAX_TAPS 1024

static int clamp_index(int v, int n)
{
    return v < 0 ? 0 : (v >= n ? n - 1 : v);
}

pt_status pt_synth_motion_blur(float *img, float *tmp, int width, int height, float length,
                               float angle, pt_error *err)
{
    if (!(length >= 1.0f))
        return PT_OK;
    if (length > (float)(MOTION_MAX_TAPS - 1))
        return pt_error_set(err, PT_ERR_PARAM, "", "synth: motion blur of %.0f px is too long",
                            length);
    /* Taps at equal steps of at most 1 px from -length/2 to +length/2. */
    int taps = (int)ceilf(length) + 1;
    int ox[MOTION_MAX_TAPS], oy[MOTION_MAX_TAPS];
    float w00[MOTION_MAX_TAPS], w10[MOTION_MAX_TAPS], w01[MOTION_MAX_TAPS],
        w11[MOTION_MAX_TAPS];
    float c = cosf(angle), s = sinf(angle), norm = 1.0f / (float)taps;
    for (int k = 0; k < taps; k++) {
        float t = -0.5f * length + length * (float)k / (float)(taps - 1);
        float dx = t * c, dy = t * s;
        float fx0 = floorf(dx), fy0 = floorf(dy);
        float fx = dx - fx0, fy = dy - fy0;
        ox[k] = (int)fx0;
        oy[k] = (int)fy0;
        w00[k] = (1.0f - fx) * (1.0f - fy) * norm;
        w10[k] = fx * (1.0f - fy) * norm;
        w01[k] = (1.0f - fx) * fy * norm;
        w11[k] = fx * fy * norm;
    }
    for (int y = 0; y < height; y++) {
        float *dst = tmp + (size_t)y * width;
        memset(dst, 0, (size_t)width * sizeof(float));
        for (int k = 0; k < taps; k++) {
            const float *r0 = img + (size_t)clamp_index(y + oy[k], height) * width;
            const float *r1 = img + (size_t)clamp_index(y + oy[k] + 1, height) * width;
            int lo = -ox[k], hi = width - 2 - ox[k]; /* x + ox, x + ox + 1 both inside */
            for (int x = 0; x < width; x++) {
                int x0, x1;
                if (x >= lo && x <= hi) {
                    x0 = x + ox[k];
                    x1 = x0 + 1;
                } else {
                    x0 = clamp_index(x + ox[k], width);
                    x1 = clamp_index(x + ox[k] + 1, width);
                }
                dst[x] += w00[k] * r0[x0] + w10[k] * r0[x1] + w01[k] * r1[x0] + w11[k] * r1[x1];
            }
        }
    }
    memcpy(img, tmp, (size_t)width * (size_t)height * sizeof(float));
    return PT_OK;
}

pt_status pt_synth_disc_blur(float *img, int width, int height, float radius, pt_error *err)
{
    if (!(radius >= 1.0f))
        return PT_OK;
    if (radius > 256.0f)
        return pt_error_set(err, PT_ERR_PARAM, "", "synth: defocus of %.0f px is too wide",
                            radius);
    const int reach = (int)floorf(radius);
    const int pad = reach + 2;
    const size_t stride = (size_t)width + 2 * (size_t)pad + 1;
    /* Per row, the integral of the (border-replicated) row from the left
     * edge of padded cell 0 to the right edge of each cell: a row's sum over
     * any real interval is two interpolated look-ups. */
    double *integral = malloc(stride * (size_t)height * sizeof(double));
    float *out = malloc((size_t)width * (size_t)height * sizeof(float));
    if (!integral || !out) {
        free(integral);
        free(out);
        return pt_error_set(err, PT_ERR_NOMEM, "", "synth: out of memory for defocus");
    }
    for (int y = 0; y < height; y++) {
        const float *row = img + (size_t)y * width;
        double *cum = integral + (size_t)y * stride;
        cum[0] = 0.0;
        for (int j = 0; j < width + 2 * pad; j++)
            cum[j + 1] = cum[j] + row[clamp_index(j - pad, width)];
    }
    double half[2 * 258 + 1], total = 0.0;
    for (int dy = -reach; dy <= reach; dy++) {
        half[dy + reach] = sqrt((double)radius * radius - (double)dy * dy);
        total += 2.0 * half[dy + reach];
    }
    for (int y = 0; y < height; y++) {
        float *dst = out + (size_t)y * width;
        for (int x = 0; x < width; x++)
            dst[x] = 0.0f;
        for (int dy = -reach; dy <= reach; dy++) {
            const double *cum = integral + (size_t)clamp_index(y + dy, height) * stride;
            const double h = half[dy + reach];
            /* Pixel x covers [x - 0.5, x + 0.5]; padded position u = x + pad + 0.5. */
            for (int x = 0; x < width; x++) {
                double u1 = (double)x + pad + 0.5 + h, u0 = (double)x + pad + 0.5 - h;
                int k1 = (int)u1, k0 = (int)u0;
                double c1 = cum[k1] + (u1 - k1) * (cum[k1 + 1] - cum[k1]);
                double c0 = cum[k0] + (u0 - k0) * (cum[k0 + 1] - cum[k0]);
                dst[x] += (float)(c1 - c0);
            }
        }
        for (int x = 0; x < width; x++)
            dst[x] = (float)(dst[x] / total);
    }
    memcpy(img, out, (size_t)width * (size_t)height * sizeof(float));
    free(out);
    free(integral);
    return PT_OK;
}
