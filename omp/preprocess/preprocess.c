/* The preprocessing pipeline: reflection mask, removal, smoothing. */
#include <string.h>

#include "omp/preprocess/preprocess.h"

pt_status pt_preprocess(const pt_image *src, const pt_preprocess_params *pre,
                        int reflection_kernel, int reflection_dilate, pt_image *smoothed,
                        uint8_t *mask, int *mask_valid, pt_arena *arena, pt_error *err)
{
    int w = src->width, h = src->height;
    /* The image to smooth: src's rows, or filled copies of those with masked pixels. */
    const uint8_t **rows = NULL;
    *mask_valid = 0;

    if (pre->reflection != PT_REFLECTION_OFF) {
        void *scratch = pt_arena_alloc(
            arena, pt_reflection_scratch_bytes(w, h, reflection_kernel, reflection_dilate));
        if (!scratch)
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for reflection mask");
        pt_reflection_mask(src, reflection_kernel, pre->reflection_threshold,
                           reflection_dilate, mask, smoothed->stride, scratch);
        *mask_valid = 1;
        if (pre->reflection == PT_REFLECTION_INTERPOLATE) {
            uint8_t *work = pt_arena_alloc(arena, (size_t)smoothed->stride * h);
            rows = pt_arena_alloc(arena, (size_t)h * sizeof *rows);
            void *fill_scratch = pt_arena_alloc(arena, pt_reflection_fill_scratch_bytes(w, h));
            if (!work || !rows || !fill_scratch)
                return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for reflection fill");
            /* A reflection the top-hat can find is narrower than its kernel, grown by the dilation. */
            pt_reflection_fill_rows(src, mask, smoothed->stride,
                                    reflection_kernel + reflection_dilate, work,
                                    smoothed->stride, rows, fill_scratch);
        }
    }

    int size = pre->smooth_size | 1;
    if (pre->smooth == PT_SMOOTH_GAUSSIAN && size > 1) {
        void *scratch = pt_arena_alloc(arena, pt_gaussian_scratch_bytes(w, h, size));
        if (!scratch)
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for smoothing");
        if (rows)
            pt_gaussian_rows(rows, w, h, smoothed, size, pre->smooth_sigma, scratch);
        else
            pt_gaussian(src, smoothed, size, pre->smooth_sigma, scratch);
    } else if (pre->smooth == PT_SMOOTH_MEDIAN && size > 1) {
        if (rows)
            pt_median_rows(rows, w, h, smoothed, size);
        else
            pt_median(src, smoothed, size);
    } else {
        for (int y = 0; y < h; y++)
            memcpy(smoothed->buf + (size_t)y * smoothed->stride,
                   rows ? rows[y] : src->buf + (size_t)y * src->stride, (size_t)w);
    }
    return PT_OK;
}

pt_point pt_darkest_point(const pt_image *img, int x0, int y0, int w, int h, int block,
                          pt_arena *arena)
{
    pt_point centre = {(float)(x0 + (w - 1) / 2.0), (float)(y0 + (h - 1) / 2.0)};
    if (block < 2)
        block = 2;
    int gw = w / block, gh = h / block;
    if (gw < 1 || gh < 1)
        return centre;
    uint32_t *cells = pt_arena_calloc(arena, (size_t)gw * gh * sizeof *cells);
    /* Column sums over one band of block rows, then folded into its cells:
     * the per-pixel work is one vectorised add. */
    uint32_t *column = pt_arena_alloc(arena, (size_t)gw * block * sizeof *column);
    if (!cells || !column)
        return centre;
    int span = gw * block;
    for (int cy = 0; cy < gh; cy++) {
        memset(column, 0, (size_t)span * sizeof *column);
        for (int y = cy * block; y < (cy + 1) * block; y++) {
            const uint8_t *row = img->buf + (size_t)(y0 + y) * img->stride + x0;
#pragma omp simd
            for (int x = 0; x < span; x++)
                column[x] += row[x];
        }
        uint32_t *c = cells + (size_t)cy * gw;
        for (int cx = 0; cx < gw; cx++) {
            uint32_t sum = 0;
            for (int i = 0; i < block; i++)
                sum += column[cx * block + i];
            c[cx] = sum;
        }
    }
    /* 2x2 windows of cells (or single cells when the grid is one wide). */
    int ww = gw > 1 ? 2 : 1, wh = gh > 1 ? 2 : 1;
    uint64_t best = UINT64_MAX;
    int bx = 0, by = 0;
    for (int cy = 0; cy + wh <= gh; cy++)
        for (int cx = 0; cx + ww <= gw; cx++) {
            uint64_t s = 0;
            for (int j = 0; j < wh; j++)
                for (int i = 0; i < ww; i++)
                    s += cells[(size_t)(cy + j) * gw + cx + i];
            if (s < best) {
                best = s;
                bx = cx;
                by = cy;
            }
        }
    pt_point p = {(float)(x0 + bx * block + ww * block / 2.0 - 0.5),
                  (float)(y0 + by * block + wh * block / 2.0 - 0.5)};
    return p;
}
