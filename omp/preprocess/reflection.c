/* Corneal-reflection removal after Aydi et al.: a reflection is a small bright
 * spot, so the white top-hat (image - opening) isolates it; the mask is grown
 * to cover the reflection's halo, and masked pixels are refilled from the
 * surrounding unmasked pixels so no artificial edge remains. */
#include <limits.h>
#include <string.h>

#include "omp/preprocess/preprocess.h"

size_t pt_reflection_scratch_bytes(int width, int height, int kernel, int dilate)
{
    return (size_t)width * height + 64 +
           pt_morph_scratch_bytes(width, height, kernel > dilate ? kernel : dilate) +
           (size_t)height;
}

long pt_reflection_mask(const pt_image *img, int kernel, int threshold, int dilate,
                        uint8_t *mask, int mask_stride, void *scratch)
{
    int w = img->width, h = img->height;
    uint8_t *opened = scratch;
    void *morph = opened + (size_t)w * h + 64;
    pt_erode(img->buf, img->stride, opened, w, w, h, kernel, morph);
    pt_dilate(opened, w, opened, w, w, h, kernel, morph);
    /* Threshold; rows with a set pixel are marked (the scratch after the morphology's). */
    uint8_t *set = (uint8_t *)morph + pt_morph_scratch_bytes(w, h, kernel > dilate ? kernel : dilate);
    long count = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *s = img->buf + (size_t)y * img->stride;
        const uint8_t *o = opened + (size_t)y * w;
        uint8_t *m = mask + (size_t)y * mask_stride;
        int row = 0;
#pragma omp simd reduction(+ : row)
        for (int x = 0; x < w; x++) {
            m[x] = (int)s[x] - (int)o[x] > threshold;
            row += m[x];
        }
        set[y] = row > 0;
        count += row;
    }
    if (dilate <= 1 || count == 0)
        return count;
    /* The dilation changes only rows within dilate/2 of a set row: it runs
     * on each band of such rows (the rows beside a band are clear, so its
     * edges see the same zeros as the whole image would give them). */
    int r = dilate / 2;
    count = 0;
    for (int y = 0; y < h;) {
        if (!set[y]) {
            y++;
            continue;
        }
        int first = y - r > 0 ? y - r : 0, last = y;
        /* Extend while another set row lies within 2r + 1 rows of the last one. */
        for (int k = y + 1; k < h && k <= last + 2 * r + 1; k++)
            if (set[k])
                last = k;
        int end = last + r < h - 1 ? last + r : h - 1;
        uint8_t *band = mask + (size_t)first * mask_stride;
        pt_dilate(band, mask_stride, band, mask_stride, w, end - first + 1, dilate, morph);
        for (int yy = first; yy <= end; yy++) {
            const uint8_t *m = mask + (size_t)yy * mask_stride;
            int row = 0;
#pragma omp simd reduction(+ : row)
            for (int x = 0; x < w; x++)
                row += m[x];
            count += row;
        }
        y = end + 1;
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

/* The inverse-distance weights for d = 0..max_search: recip[d] = 1.0 / d
 * and quot[d * 256 + v] = v / (double)d, the same IEEE quotients the
 * weighted mean divides out; d = 0 (no unmasked pixel in that direction)
 * gives 0.0, and adding +0.0 to a non-negative sum leaves it unchanged. */
PT_VECTOR_CLONES static void make_tables(double *recip, double *quot, int max_search)
{
    recip[0] = 0.0;
    memset(quot, 0, 256 * sizeof *quot);
    for (int d = 1; d <= max_search; d++) {
        recip[d] = 1.0 / d;
        double *q = quot + (size_t)d * 256;
#pragma omp simd
        for (int v = 0; v < 256; v++)
            q[v] = v / (double)d;
    }
}

/* One run [x0, x1) of masked pixels of row y, bounded by the unmasked
 * pixels left (x0 - 1, or none) and right (x1, or none). up[x]: the last
 * unmasked row above (-1: none); dn[x]: the distance down to the next one
 * (0: none or out of reach). Each direction's quotient and weight come from
 * the tables, 0.0 when it has no pixel in reach, added in the order left,
 * right, up, down. */
static void fill_run(const uint8_t *src, int src_stride, int y, int x0, int x1, int w,
                     const int *up, int clear_up, const uint16_t *dn, int max_search,
                     const double *recip, const double *quot, uint8_t *row)
{
    const uint8_t *s = src + (size_t)y * src_stride;
    int left = x0 - 1, right = x1 < w ? x1 : -1;
    int vl = left >= 0 ? s[left] : 0, vr = right >= 0 ? s[right] : 0;
    for (int x = x0; x < x1; x++) {
        int dl = left >= 0 && x - left <= max_search ? x - left : 0;
        int dr = right >= 0 && right - x <= max_search ? right - x : 0;
        int cu = up[x] > clear_up ? up[x] : clear_up;
        int du = cu >= 0 && y - cu <= max_search ? y - cu : 0;
        int dd = dn[x];
        int vu = src[(size_t)(du ? cu : y) * src_stride + x];
        int vd = src[(size_t)(y + dd) * src_stride + x];
        double sum = 0, weight = 0;
        sum += quot[(size_t)dl * 256 + vl];
        weight += recip[dl];
        sum += quot[(size_t)dr * 256 + vr];
        weight += recip[dr];
        sum += quot[(size_t)du * 256 + vu];
        weight += recip[du];
        sum += quot[(size_t)dd * 256 + vd];
        weight += recip[dd];
        if (weight > 0)
            row[x] = (uint8_t)(sum / weight + 0.5);
    }
}

/* fill_run for reaches beyond the tables: larger distances divide directly. */
#define QUOT(d, v) ((d) <= FILL_TABLE_MAX ? quot[(size_t)(d) * 256 + (v)] : (v) / (double)(d))
#define RECIP(d) ((d) <= FILL_TABLE_MAX ? recip[d] : 1.0 / (d))
static void fill_run_far(const uint8_t *src, int src_stride, int y, int x0, int x1, int w,
                     const int *up, int clear_up, const uint16_t *dn, int max_search,
                     const double *recip, const double *quot, uint8_t *row)
{
    const uint8_t *s = src + (size_t)y * src_stride;
    int left = x0 - 1, right = x1 < w ? x1 : -1;
    int vl = left >= 0 ? s[left] : 0, vr = right >= 0 ? s[right] : 0;
    for (int x = x0; x < x1; x++) {
        int dl = left >= 0 && x - left <= max_search ? x - left : 0;
        int dr = right >= 0 && right - x <= max_search ? right - x : 0;
        int cu = up[x] > clear_up ? up[x] : clear_up;
        int du = cu >= 0 && y - cu <= max_search ? y - cu : 0;
        int dd = dn[x];
        int vu = src[(size_t)(du ? cu : y) * src_stride + x];
        int vd = src[(size_t)(y + dd) * src_stride + x];
        double sum = 0, weight = 0;
        sum += QUOT(dl, vl);
        weight += RECIP(dl);
        sum += QUOT(dr, vr);
        weight += RECIP(dr);
        sum += QUOT(du, vu);
        weight += RECIP(du);
        sum += QUOT(dd, vd);
        weight += RECIP(dd);
        if (weight > 0)
            row[x] = (uint8_t)(sum / weight + 0.5);
    }
}
#undef QUOT
#undef RECIP

/* Same result as searching left, right, up and down from every masked pixel
 * for the nearest unmasked one (at most max_search px, not past the border),
 * in O(1) per pixel: a bottom-up pass records the distance down, the
 * top-down pass tracks the last unmasked row per column and, per row, fills
 * each run of masked pixels from the unmasked pixels that bound it. A row
 * without a masked pixel only moves one tracker shared by all columns (the
 * last such row); a column's last unmasked row is the later of the two.
 * Only unmasked pixels are read, and they are read from src, so src and the
 * output may be the same image. A row with masked pixels is written to out
 * (src's row with its masked pixels filled) and rows[y] points at it; other
 * rows point at src. */
PT_VECTOR_CLONES static void fill_core(const uint8_t *src, int src_stride, int w, int h,
                                       const uint8_t *mask, int mask_stride, int max_search,
                                       uint8_t *out, int out_stride, const uint8_t **rows,
                                       void *scratch)
{
    uint16_t *down = (uint16_t *)scratch;
    double *recip = (double *)((char *)scratch + fill_down_bytes(w, h));
    double *quot = recip + FILL_TABLE_MAX + 1;
    int *col = (int *)((char *)recip + fill_table_bytes());
    uint8_t *masked = (uint8_t *)(col + w);
    if (max_search > 65535)
        max_search = 65535;
    /* A masked pixel's distance to an unmasked one is below the image size. */
    int reach = w > h ? w : h;
    if (max_search > reach)
        max_search = reach;
    int table_max = max_search < FILL_TABLE_MAX ? max_search : FILL_TABLE_MAX;
    int any = 0;
    for (int y = 0; y < h; y++) {
        masked[y] = (uint8_t)row_masked(mask + (size_t)y * mask_stride, w);
        any |= masked[y];
        if (rows)
            rows[y] = src + (size_t)y * src_stride;
    }
    if (!any)
        return;
    /* Bottom-up: the next unmasked row below, none = far beyond any reach. */
    const int none_below = INT_MAX / 2;
    int clear_below = none_below;
    set_row(col, w, none_below);
    for (int y = h - 1; y >= 0; y--) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        uint16_t *dn = down + (size_t)y * w;
        if (!masked[y]) {
            clear_below = y;
            continue;
        }
        /* dn is read at masked pixels only; elsewhere its value is unused. */
#pragma omp simd
        for (int x = 0; x < w; x++) {
            int c = col[x] < clear_below ? col[x] : clear_below;
            int d = c - y;
            dn[x] = (uint16_t)(d <= max_search ? d : 0);
            col[x] = m[x] ? c : y;
        }
    }
    make_tables(recip, quot, table_max);
    int clear_up = -1;
    set_row(col, w, -1);
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        const uint8_t *s = src + (size_t)y * src_stride;
        const uint16_t *dn = down + (size_t)y * w;
        if (!masked[y]) {
            clear_up = y;
            continue;
        }
        uint8_t *row = out + (size_t)y * out_stride;
        if (row != s)
            memcpy(row, s, (size_t)w);
        if (rows)
            rows[y] = row;
        for (int x = next_masked(m, 0, w); x < w; x = next_masked(m, x, w)) {
            int end = x;
            while (end < w && m[end])
                end++;
            if (max_search <= FILL_TABLE_MAX)
                fill_run(src, src_stride, y, x, end, w, col, clear_up, dn, max_search, recip,
                         quot, row);
            else
                fill_run_far(src, src_stride, y, x, end, w, col, clear_up, dn, max_search, recip,
                             quot, row);
            x = end;
        }
#pragma omp simd
        for (int x = 0; x < w; x++) {
            int c = col[x] > clear_up ? col[x] : clear_up;
            col[x] = m[x] ? c : y;
        }
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
