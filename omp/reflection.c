/* Corneal-reflection removal after Aydi et al.: a reflection is a small bright
 * spot, so the white top-hat (image - opening) isolates it; the mask is grown
 * to cover the reflection's halo, and masked pixels are refilled from the
 * surrounding unmasked pixels so no artificial edge remains. */
#include <string.h>

#include "preprocess.h"

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

size_t pt_reflection_scratch_bytes(int width, int height, int kernel, int dilate)
{
    return (size_t)width * height + 64 +
           max_size(pt_morph_scratch_bytes(width, height, kernel),
                    pt_morph_scratch_bytes(width, height, dilate > 1 ? dilate : 1));
}

long pt_reflection_mask(const pt_image *img, int kernel, int threshold, int dilate,
                        uint8_t *mask, int mask_stride, void *scratch)
{
    int w = img->width, h = img->height;
    uint8_t *opened = scratch;
    void *morph = opened + (size_t)w * h + 64;
    pt_erode(img->buf, img->stride, opened, w, w, h, kernel, morph);
    pt_dilate(opened, w, opened, w, w, h, kernel, morph);
    for (int y = 0; y < h; y++) {
        const uint8_t *s = img->buf + (size_t)y * img->stride;
        const uint8_t *o = opened + (size_t)y * w;
        uint8_t *m = mask + (size_t)y * mask_stride;
#pragma omp simd
        for (int x = 0; x < w; x++)
            m[x] = (int)s[x] - (int)o[x] > threshold;
    }
    if (dilate > 1)
        pt_dilate(mask, mask_stride, mask, mask_stride, w, h, dilate, morph);
    long count = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        int row = 0;
#pragma omp simd reduction(+ : row)
        for (int x = 0; x < w; x++)
            row += m[x];
        count += row;
    }
    return count;
}

/* Nearest unmasked pixel from (x,y) stepping (dx,dy), at most max_search px. */
static int nearest_unmasked(const pt_image *img, const uint8_t *mask, int mask_stride,
                            int x, int y, int dx, int dy, int max_search, int *value)
{
    for (int d = 1; d <= max_search; d++) {
        int xx = x + d * dx, yy = y + d * dy;
        if (xx < 0 || yy < 0 || xx >= img->width || yy >= img->height)
            return 0;
        if (!mask[(size_t)yy * mask_stride + xx]) {
            *value = img->buf[(size_t)yy * img->stride + xx];
            return d;
        }
    }
    return 0;
}

void pt_reflection_fill(pt_image *img, const uint8_t *mask, int mask_stride,
                        int max_search)
{
    static const int dirs[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int y = 0; y < img->height; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint8_t *row = img->buf + (size_t)y * img->stride;
        for (int x = 0; x < img->width; x++) {
            if (!m[x])
                continue;
            double sum = 0, weight = 0;
            for (int k = 0; k < 4; k++) {
                int v;
                int d = nearest_unmasked(img, mask, mask_stride, x, y, dirs[k][0],
                                         dirs[k][1], max_search, &v);
                if (d) {
                    sum += v / (double)d;
                    weight += 1.0 / d;
                }
            }
            /* Only unmasked pixels are read, so filling in place is order-independent. */
            if (weight > 0)
                row[x] = (uint8_t)(sum / weight + 0.5);
        }
    }
}
