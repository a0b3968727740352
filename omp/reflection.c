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

size_t pt_reflection_fill_scratch_bytes(int width, int height)
{
    return (size_t)width * height * sizeof(uint16_t) + 2 * (size_t)width * sizeof(int);
}

/* Same result as searching left, right, up and down from every masked pixel
 * for the nearest unmasked one (at most max_search px, not past the border),
 * in O(1) per pixel: a bottom-up pass records the distance down, the
 * top-down pass tracks the last unmasked row per column and, per row, the
 * nearest unmasked pixel left and right. Only unmasked pixels are read, so
 * filling in place is order-independent. */
void pt_reflection_fill(pt_image *img, const uint8_t *mask, int mask_stride,
                        int max_search, void *scratch)
{
    int w = img->width, h = img->height;
    uint16_t *down = (uint16_t *)scratch;
    int *col = (int *)(down + (size_t)w * h);
    int *right = col + w;
    if (max_search > 65535)
        max_search = 65535;
    for (int x = 0; x < w; x++)
        col[x] = -1;
    for (int y = h - 1; y >= 0; y--) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint16_t *dn = down + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            if (!m[x]) {
                col[x] = y;
                continue;
            }
            int d = col[x] >= 0 ? col[x] - y : 0;
            dn[x] = (uint16_t)(d <= max_search ? d : 0);
        }
    }
    for (int x = 0; x < w; x++)
        col[x] = -1;
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint8_t *row = img->buf + (size_t)y * img->stride;
        const uint16_t *dn = down + (size_t)y * w;
        int any = 0;
        for (int x = 0; x < w; x++)
            any |= m[x];
        if (any) {
            int next = -1;
            for (int x = w - 1; x >= 0; x--) {
                right[x] = next;
                if (!m[x])
                    next = x;
            }
            int left = -1;
            for (int x = 0; x < w; x++) {
                if (!m[x]) {
                    left = x;
                    continue;
                }
                double sum = 0, weight = 0;
                int d;
                if (left >= 0 && (d = x - left) <= max_search) {
                    sum += row[left] / (double)d;
                    weight += 1.0 / d;
                }
                if (right[x] >= 0 && (d = right[x] - x) <= max_search) {
                    sum += row[right[x]] / (double)d;
                    weight += 1.0 / d;
                }
                if (col[x] >= 0 && (d = y - col[x]) <= max_search) {
                    sum += img->buf[(size_t)col[x] * img->stride + x] / (double)d;
                    weight += 1.0 / d;
                }
                if ((d = dn[x]) > 0) {
                    sum += img->buf[(size_t)(y + d) * img->stride + x] / (double)d;
                    weight += 1.0 / d;
                }
                if (weight > 0)
                    row[x] = (uint8_t)(sum / weight + 0.5);
            }
        }
        for (int x = 0; x < w; x++)
            if (!m[x])
                col[x] = y;
    }
}
