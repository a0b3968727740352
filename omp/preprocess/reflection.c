/* Corneal-reflection removal after Aydi et al.: a reflection is a small bright
 * spot, so the white top-hat (image - opening) isolates it; the mask is grown
 * to cover the reflection's halo, and masked pixels are refilled from the
 * surrounding unmasked pixels so no artificial edge remains. */
#include <string.h>

#include "omp/preprocess/preprocess.h"

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

/* The fill's distances down, rounded up so the column trackers after them are aligned. */
static size_t fill_down_bytes(int width, int height)
{
    return ((size_t)width * height * sizeof(uint16_t) + 15) & ~(size_t)15;
}

size_t pt_reflection_fill_scratch_bytes(int width, int height)
{
    return fill_down_bytes(width, height) + (size_t)width * sizeof(int);
}

/* Whether any pixel of the mask row is set. */
static inline int row_masked(const uint8_t *m, int w)
{
    int any = 0;
#pragma omp simd reduction(| : any)
    for (int x = 0; x < w; x++)
        any |= m[x];
    return any;
}

static inline void set_row(int *col, int w, int y)
{
#pragma omp simd
    for (int x = 0; x < w; x++)
        col[x] = y;
}

/* First masked pixel at or after x (w if none), 8 mask bytes at a time. */
static inline int next_masked(const uint8_t *m, int x, int w)
{
    while (x + 8 <= w) {
        uint64_t v;
        memcpy(&v, m + x, sizeof v);
        if (v)
            break;
        x += 8;
    }
    while (x < w && !m[x])
        x++;
    return x;
}

/* Same result as searching left, right, up and down from every masked pixel
 * for the nearest unmasked one (at most max_search px, not past the border),
 * in O(1) per pixel: a bottom-up pass records the distance down, the
 * top-down pass tracks the last unmasked row per column and, per row, fills
 * each run of masked pixels from the unmasked pixels that bound it. Rows
 * without a masked pixel only move the column trackers. Only unmasked pixels
 * are read, so filling in place is order-independent. */
PT_VECTOR_CLONES void pt_reflection_fill(pt_image *img, const uint8_t *mask, int mask_stride,
                                         int max_search, void *scratch)
{
    int w = img->width, h = img->height;
    uint16_t *down = (uint16_t *)scratch;
    int *col = (int *)((char *)scratch + fill_down_bytes(w, h));
    if (max_search > 65535)
        max_search = 65535;
    set_row(col, w, -1);
    for (int y = h - 1; y >= 0; y--) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint16_t *dn = down + (size_t)y * w;
        if (!row_masked(m, w)) {
            set_row(col, w, y);
            continue;
        }
        /* dn is read at masked pixels only; elsewhere its value is unused. */
#pragma omp simd
        for (int x = 0; x < w; x++) {
            int c = col[x];
            int d = c >= 0 ? c - y : 0;
            dn[x] = (uint16_t)(d <= max_search ? d : 0);
            col[x] = m[x] ? c : y;
        }
    }
    set_row(col, w, -1);
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint8_t *row = img->buf + (size_t)y * img->stride;
        const uint16_t *dn = down + (size_t)y * w;
        if (!row_masked(m, w)) {
            set_row(col, w, y);
            continue;
        }
        for (int x = next_masked(m, 0, w); x < w; x = next_masked(m, x, w)) {
            int left = x - 1, end = x;
            while (end < w && m[end])
                end++;
            int right = end < w ? end : -1;
            for (; x < end; x++) {
                double sum = 0, weight = 0;
                int d;
                if (left >= 0 && (d = x - left) <= max_search) {
                    sum += row[left] / (double)d;
                    weight += 1.0 / d;
                }
                if (right >= 0 && (d = right - x) <= max_search) {
                    sum += row[right] / (double)d;
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
#pragma omp simd
        for (int x = 0; x < w; x++)
            col[x] = m[x] ? col[x] : y;
    }
}
