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

/* Distances up to FILL_TABLE_MAX take their quotients from tables. */
#define FILL_TABLE_MAX 128

static size_t fill_table_bytes(void)
{
    return (size_t)(FILL_TABLE_MAX + 1) * (256 + 1) * sizeof(double);
}

size_t pt_reflection_fill_scratch_bytes(int width, int height)
{
    return fill_down_bytes(width, height) + fill_table_bytes() +
           ((size_t)width * sizeof(int) + (size_t)height + 15);
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

/* The inverse-distance weights: recip[d] = 1.0 / d and quot[d * 256 + v] =
 * v / (double)d, the same IEEE quotients the weighted mean divides out, for
 * d = 1..table_max. */
typedef struct {
    const double *recip, *quot;
    int table_max;
} fill_tables;

PT_VECTOR_CLONES static fill_tables make_tables(double *space, int max_search)
{
    fill_tables t;
    int n = max_search < FILL_TABLE_MAX ? max_search : FILL_TABLE_MAX;
    double *recip = space, *quot = space + FILL_TABLE_MAX + 1;
    recip[0] = 0.0;
    for (int d = 1; d <= n; d++) {
        recip[d] = 1.0 / d;
        double *q = quot + (size_t)d * 256;
#pragma omp simd
        for (int v = 0; v < 256; v++)
            q[v] = v / (double)d;
    }
    t.recip = recip;
    t.quot = quot;
    t.table_max = n;
    return t;
}

static inline double quotient(const fill_tables *t, int v, int d)
{
    return d <= t->table_max ? t->quot[(size_t)d * 256 + v] : v / (double)d;
}

static inline double reciprocal(const fill_tables *t, int d)
{
    return d <= t->table_max ? t->recip[d] : 1.0 / d;
}

/* Same result as searching left, right, up and down from every masked pixel
 * for the nearest unmasked one (at most max_search px, not past the border),
 * in O(1) per pixel: a bottom-up pass records the distance down, the
 * top-down pass tracks the last unmasked row per column and, per row, fills
 * each run of masked pixels from the unmasked pixels that bound it. Rows
 * without a masked pixel only move the column trackers. Only unmasked pixels
 * are read, and they are read from src, so src and the output may be the
 * same image. A row with masked pixels is written to out (src's row with its
 * masked pixels filled) and rows[y] points at it; other rows point at src. */
PT_VECTOR_CLONES static void fill_core(const uint8_t *src, int src_stride, int w, int h,
                                       const uint8_t *mask, int mask_stride, int max_search,
                                       uint8_t *out, int out_stride, const uint8_t **rows,
                                       void *scratch)
{
    uint16_t *down = (uint16_t *)scratch;
    double *table_space = (double *)((char *)scratch + fill_down_bytes(w, h));
    int *col = (int *)((char *)table_space + fill_table_bytes());
    uint8_t *masked = (uint8_t *)(col + w);
    if (max_search > 65535)
        max_search = 65535;
    int any = 0;
    for (int y = 0; y < h; y++) {
        masked[y] = (uint8_t)row_masked(mask + (size_t)y * mask_stride, w);
        any |= masked[y];
        if (rows)
            rows[y] = src + (size_t)y * src_stride;
    }
    if (!any)
        return;
    set_row(col, w, -1);
    for (int y = h - 1; y >= 0; y--) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint16_t *dn = down + (size_t)y * w;
        if (!masked[y]) {
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
    fill_tables t = make_tables(table_space, max_search);
    set_row(col, w, -1);
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        const uint8_t *s = src + (size_t)y * src_stride;
        const uint16_t *dn = down + (size_t)y * w;
        if (!masked[y]) {
            set_row(col, w, y);
            continue;
        }
        uint8_t *row = out + (size_t)y * out_stride;
        if (row != s)
            memcpy(row, s, (size_t)w);
        if (rows)
            rows[y] = row;
        for (int x = next_masked(m, 0, w); x < w; x = next_masked(m, x, w)) {
            int left = x - 1, end = x;
            while (end < w && m[end])
                end++;
            int right = end < w ? end : -1;
            for (; x < end; x++) {
                double sum = 0, weight = 0;
                int d;
                if (left >= 0 && (d = x - left) <= max_search) {
                    sum += quotient(&t, s[left], d);
                    weight += reciprocal(&t, d);
                }
                if (right >= 0 && (d = right - x) <= max_search) {
                    sum += quotient(&t, s[right], d);
                    weight += reciprocal(&t, d);
                }
                if (col[x] >= 0 && (d = y - col[x]) <= max_search) {
                    sum += quotient(&t, src[(size_t)col[x] * src_stride + x], d);
                    weight += reciprocal(&t, d);
                }
                if ((d = dn[x]) > 0) {
                    sum += quotient(&t, src[(size_t)(y + d) * src_stride + x], d);
                    weight += reciprocal(&t, d);
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

void pt_reflection_fill(pt_image *img, const uint8_t *mask, int mask_stride, int max_search,
                        void *scratch)
{
    fill_core(img->buf, img->stride, img->width, img->height, mask, mask_stride, max_search,
              img->buf, img->stride, NULL, scratch);
}

void pt_reflection_fill_rows(const pt_image *src, const uint8_t *mask, int mask_stride,
                             int max_search, uint8_t *out, int out_stride, const uint8_t **rows,
                             void *scratch)
{
    fill_core(src->buf, src->stride, src->width, src->height, mask, mask_stride, max_search,
              out, out_stride, rows, scratch);
}
