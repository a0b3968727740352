/* Corneal-reflection removal after Aydi et al.: a reflection is a small bright
 * spot, so the white top-hat (image - opening) isolates it; the mask is grown
 * to cover the reflection's halo, and masked pixels are refilled from the
 * surrounding unmasked pixels so no artificial edge remains. */
#include <string.h>

#include "lib/core/byte_runs.h"
#include "omp/preprocess/preprocess.h"

size_t pt_reflection_scratch_bytes(int width, int height, int kernel, int dilate)
{
    return (size_t)width * height + 64 +
           pt_morph_scratch_bytes(width, height, kernel > dilate ? kernel : dilate) +
           (size_t)height;
}

/* Set bytes (each 0 or 1) of one mask row. */
static int count_row(const uint8_t *m, int w)
{
    int row = 0;
#pragma omp simd reduction(+ : row)
    for (int x = 0; x < w; x++)
        row += m[x];
    return row;
}

/* mask = (image - opened) > threshold; set[y] = whether row y has a set
 * pixel. The opening never exceeds the image, so for threshold >= 0 the
 * byte-wide saturating difference decides the same as the signed one. */
PT_VECTOR_CLONES static void threshold_rows(const pt_image *img, const uint8_t *opened,
                                            int threshold, uint8_t *mask, int mask_stride,
                                            uint8_t *set)
{
    int w = img->width, h = img->height;
    for (int y = 0; y < h; y++) {
        const uint8_t *restrict s = img->buf + (size_t)y * img->stride;
        const uint8_t *restrict o = opened + (size_t)y * w;
        uint8_t *restrict m = mask + (size_t)y * mask_stride;
        uint8_t any = 0;
        if (threshold >= 0 && threshold <= 255) {
            uint8_t t = (uint8_t)threshold;
#pragma omp simd reduction(| : any)
            for (int x = 0; x < w; x++) {
                uint8_t d = s[x] > o[x] ? (uint8_t)(s[x] - o[x]) : 0;
                m[x] = d > t;
                any |= m[x];
            }
        } else {
#pragma omp simd reduction(| : any)
            for (int x = 0; x < w; x++) {
                m[x] = (int)s[x] - (int)o[x] > threshold;
                any |= m[x];
            }
        }
        set[y] = any;
    }
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
    uint8_t *set =
        (uint8_t *)morph + pt_morph_scratch_bytes(w, h, kernel > dilate ? kernel : dilate);
    threshold_rows(img, opened, threshold, mask, mask_stride, set);
    long count = 0;
    for (int y = 0; y < h; y++)
        if (set[y])
            count += count_row(mask + (size_t)y * mask_stride, w);
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
        for (int yy = first; yy <= end; yy++)
            count += count_row(mask + (size_t)yy * mask_stride, w);
        y = end + 1;
    }
    return count;
}

/* The fill's distances down, one per masked pixel in raster order. */
static size_t fill_down_bytes(int width, int height)
{
    return ((size_t)width * height * sizeof(uint16_t) + 15) & ~(size_t)15;
}

/* The runs of masked pixels: start and end per run, first run per row. */
static size_t fill_runs_bytes(int width, int height)
{
    size_t runs = (size_t)((width + 1) / 2) * (size_t)height;
    return 2 * runs * sizeof(int32_t) + ((size_t)height + 1) * sizeof(int32_t);
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
           2 * (size_t)width * sizeof(int) + fill_runs_bytes(width, height) +
           2 * (size_t)width * sizeof(double) + (size_t)width + 64;
}

static inline void set_row(int *v, int w, int value)
{
#pragma omp simd
    for (int x = 0; x < w; x++)
        v[x] = value;
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

/* Column trackers: a masked pixel's nearest unmasked pixel in its column
 * on one side is the neighbouring pixel on that side when that one is
 * unmasked, else the one recorded for the neighbour. last[x] is the row of
 * column x's most recent masked pixel, near[x] that pixel's nearest
 * unmasked row; so only masked pixels touch the trackers. */
static inline int nearest_in_column(int *last, int *near, int x, int y, int step)
{
    int n = last[x] == y - step ? near[x] : y - step;
    last[x] = y;
    near[x] = n;
    return n;
}

/* One run [x0, x1) of masked pixels of row y, bounded by the unmasked
 * pixels left (x0 - 1, or none) and right (x1, or none); the nearest
 * unmasked row above from the trackers (row -1: none), dn[x - x0] the
 * distance down (0: none or out of reach). Each direction's quotient and weight come
 * from the tables, 0.0 when it has no pixel in reach, added in the order
 * left, right, up, down, into sums[] and weights[] (1.0 where no direction
 * has a pixel: then keep[] is set and the pixel keeps its value); the
 * divisions follow over the whole run (fill_divide). */
#define FILL_RUN(NAME, QUOT, RECIP)                                                          \
    static void NAME(const uint8_t *src, int src_stride, int y, int x0, int x1, int w,      \
                     int *last, int *near, const uint16_t *dn, int max_search,             \
                     const double *recip, const double *quot, double *restrict sums,       \
                     double *restrict weights, uint8_t *restrict keep)                     \
    {                                                                                      \
        const uint8_t *s = src + (size_t)y * src_stride;                                   \
        int left = x0 - 1, right = x1 < w ? x1 : -1;                                       \
        int vl = left >= 0 ? s[left] : 0, vr = right >= 0 ? s[right] : 0;                  \
        for (int x = x0; x < x1; x++) {                                                    \
            int dl = left >= 0 && x - left <= max_search ? x - left : 0;                   \
            int dr = right >= 0 && right - x <= max_search ? right - x : 0;                \
            int cu = nearest_in_column(last, near, x, y, 1);                               \
            int du = cu >= 0 && y - cu <= max_search ? y - cu : 0;                         \
            int dd = dn[x - x0];                                                           \
            int vu = src[(size_t)(du ? cu : y) * src_stride + x];                          \
            int vd = src[(size_t)(y + dd) * src_stride + x];                               \
            double sum = 0, weight = 0;                                                    \
            sum += QUOT(dl, vl);                                                           \
            weight += RECIP(dl);                                                           \
            sum += QUOT(dr, vr);                                                           \
            weight += RECIP(dr);                                                           \
            sum += QUOT(du, vu);                                                           \
            weight += RECIP(du);                                                           \
            sum += QUOT(dd, vd);                                                           \
            weight += RECIP(dd);                                                           \
            sums[x - x0] = sum;                                                            \
            weights[x - x0] = weight > 0 ? weight : 1.0;                                   \
            keep[x - x0] = !(weight > 0);                                                  \
        }                                                                                  \
    }

/* row[i] = sums[i] / weights[i] rounded, except where keep[i] (1): every
 * division is made and the pixels merged by a bit mask (no branch, so it
 * vectorises); kept pixels discard theirs. */
PT_VECTOR_CLONES static void fill_divide(const double *restrict sums,
                                         const double *restrict weights,
                                         const uint8_t *restrict keep, int n,
                                         uint8_t *restrict row)
{
#pragma omp simd
    for (int i = 0; i < n; i++) {
        uint8_t v = (uint8_t)(sums[i] / weights[i] + 0.5);
        uint8_t m = (uint8_t)-keep[i]; /* 0xff: keep the pixel */
        row[i] = (uint8_t)((v & ~m) | (row[i] & m));
    }
}

#define QUOT_TABLE(d, v) quot[(size_t)(d) * 256 + (v)]
#define RECIP_TABLE(d) recip[d]
FILL_RUN(fill_run, QUOT_TABLE, RECIP_TABLE)
/* Reaches beyond the tables: larger distances divide directly. */
#define QUOT_FAR(d, v) ((d) <= FILL_TABLE_MAX ? QUOT_TABLE(d, v) : (v) / (double)(d))
#define RECIP_FAR(d) ((d) <= FILL_TABLE_MAX ? RECIP_TABLE(d) : 1.0 / (d))
FILL_RUN(fill_run_far, QUOT_FAR, RECIP_FAR)

/* Same result as searching left, right, up and down from every masked pixel
 * for the nearest unmasked one (at most max_search px, not past the border),
 * in O(1) per masked pixel: the mask is read once into runs of masked
 * pixels, a bottom-up pass over the runs records each masked pixel's
 * distance down, the top-down pass fills each run from the unmasked pixels
 * that bound it and the column trackers. Only unmasked
 * pixels are read, and they are read from src, so src and the output may be
 * the same image. A row with masked pixels is written to out (src's row with
 * its masked pixels filled) and rows[y] points at it (when rows is given);
 * other rows point at src. */
PT_VECTOR_CLONES static void fill_core(const uint8_t *src, int src_stride, int w, int h,
                                       const uint8_t *mask, int mask_stride, int max_search,
                                       uint8_t *out, int out_stride, const uint8_t **rows,
                                       void *scratch)
{
    uint16_t *down = (uint16_t *)scratch;
    double *recip = (double *)((char *)scratch + fill_down_bytes(w, h));
    double *quot = recip + FILL_TABLE_MAX + 1;
    int *last = (int *)((char *)recip + fill_table_bytes());
    int *near = last + w;
    int32_t *run_row = (int32_t *)(near + w); /* row y's runs: run_row[y] .. run_row[y+1]-1 */
    int32_t *run_x0 = run_row + h + 1;
    int32_t *run_x1 = run_x0 + (size_t)((w + 1) / 2) * (size_t)h;
    /* One run's sums, weights and pixels to keep (64-byte aligned after the runs). */
    uintptr_t after_runs = (uintptr_t)(run_x1 + (size_t)((w + 1) / 2) * (size_t)h);
    double *sums = (double *)((after_runs + 63) & ~(uintptr_t)63);
    double *weights = sums + w;
    uint8_t *keep = (uint8_t *)(weights + w);
    if (max_search > 65535)
        max_search = 65535;
    /* A masked pixel's distance to an unmasked one is below the image size. */
    int reach = w > h ? w : h;
    if (max_search > reach)
        max_search = reach;
    int table_max = max_search < FILL_TABLE_MAX ? max_search : FILL_TABLE_MAX;

    /* The mask is read once, into runs. */
    int32_t runs = 0;
    size_t pixels = 0;
    for (int y = 0; y < h; y++) {
        const uint8_t *m = mask + (size_t)y * mask_stride;
        run_row[y] = runs;
        if (rows)
            rows[y] = src + (size_t)y * src_stride;
        for (int x = pt_next_set(m, 0, w); x < w; x = pt_next_set(m, x, w)) {
            int end = pt_next_clear(m, x, w);
            run_x0[runs] = x;
            run_x1[runs] = end;
            runs++;
            pixels += (size_t)(end - x);
            x = end;
        }
    }
    run_row[h] = runs;
    if (!runs)
        return;

    /* Bottom-up: the next unmasked row below each masked pixel (h: none). */
    set_row(last, w, -2);
    size_t k = pixels;
    for (int y = h - 1; y >= 0; y--)
        for (int32_t i = run_row[y + 1] - 1; i >= run_row[y]; i--) {
            k -= (size_t)(run_x1[i] - run_x0[i]);
            uint16_t *dn = down + k;
            for (int x = run_x0[i]; x < run_x1[i]; x++) {
                int d = nearest_in_column(last, near, x, y, -1) - y;
                dn[x - run_x0[i]] = (uint16_t)(y + d < h && d <= max_search ? d : 0);
            }
        }
    make_tables(recip, quot, table_max);
    set_row(last, w, -2);
    k = 0;
    for (int y = 0; y < h; y++) {
        if (run_row[y] == run_row[y + 1])
            continue;
        const uint8_t *s = src + (size_t)y * src_stride;
        uint8_t *row = out + (size_t)y * out_stride;
        if (row != s)
            memcpy(row, s, (size_t)w);
        if (rows)
            rows[y] = row;
        for (int32_t i = run_row[y]; i < run_row[y + 1]; i++) {
            if (max_search <= FILL_TABLE_MAX)
                fill_run(src, src_stride, y, run_x0[i], run_x1[i], w, last, near, down + k,
                         max_search, recip, quot, sums, weights, keep);
            else
                fill_run_far(src, src_stride, y, run_x0[i], run_x1[i], w, last, near, down + k,
                             max_search, recip, quot, sums, weights, keep);
            fill_divide(sums, weights, keep, run_x1[i] - run_x0[i], row + run_x0[i]);
            k += (size_t)(run_x1[i] - run_x0[i]);
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
