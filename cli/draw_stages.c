/* --draw-stages: the OpenMP preprocessing's stages (man pupiltrack, track). */
#include "cli/draw_stages.h"

#include <string.h>

#include "lib/core/pt_arena.h"
#include "lib/detect/hough_sigma.h"
#include "lib/params/params_auto.h"
#include "omp/detect/canny.h"
#include "omp/preprocess/preprocess.h"
#include "cli/draw.h"
#include "cli/draw_rays.h"
#include "cli/draw_tl_stages.h"

static pt_status write_stage(const char *dir, const char *name, const char *suffix,
                             const pt_image *img, pt_error *err)
{
    char path[4096];
    pt_draw_path(path, sizeof path, dir, name, suffix);
    return pt_png_write_grey(path, img, err);
}

/* Canny-Hough's edges (omp/detect/hough.c runs the same detection on each
 * eye region of the smoothed frame) into edges, 255 on an edge pixel. */
static pt_status canny_stage(const pt_image *smoothed, const pt_config *cfg, int region_width,
                             pt_image *edges, pt_error *err)
{
    const pt_hough_params *p = &cfg->hough;
    int w = smoothed->width, h = smoothed->height;
    pt_arena arena;
    pt_arena_init(&arena);
    pt_status st = PT_OK;
    for (int x0 = 0; x0 < w && !st; x0 += region_width) {
        int rw = x0 + region_width <= w ? region_width : w - x0;
        pt_canny_edges canny;
        pt_arena_reset(&arena);
        st = pt_canny_detect(smoothed->buf + x0, smoothed->stride, rw, h,
                             pt_hough_sigma(p->sigma, rw, h), p->canny_high, p->canny_low,
                             &arena, &canny, err);
        for (int y = 0; !st && y < h; y++)
            for (int x = 0; x < rw; x++)
                edges->buf[(size_t)y * edges->stride + x0 + x] = canny.edges[(size_t)y * rw + x] ? 255 : 0;
    }
    pt_arena_free(&arena);
    return st;
}

pt_status pt_draw_stages(const char *dir, const char *name, const pt_image *frame,
                         const pt_config *cfg, pt_algorithm alg, int region_width,
                         const pt_trace *traces, const pt_result *results, int eyes,
                         pt_error *err)
{
    int w = frame->width, h = frame->height;
    pt_auto_params autos;
    pt_resolve_auto(cfg, region_width, h, &autos);
    int kernel = autos.reflection_kernel, dilate = autos.reflection_dilate;
    pt_arena arena;
    pt_arena_init(&arena);
    pt_image *tophat = pt_image_create(w, h), *mask = pt_image_create(w, h);
    pt_image *cleaned = pt_image_copy(frame), *smoothed = pt_image_create(w, h);
    uint8_t *opened = pt_arena_alloc(&arena, (size_t)w * h);
    void *morph = pt_arena_alloc(&arena, pt_morph_scratch_bytes(w, h, kernel));
    void *scratch = pt_arena_alloc(&arena, pt_reflection_scratch_bytes(w, h, kernel, dilate));
    void *fill = pt_arena_alloc(&arena, pt_reflection_fill_scratch_bytes(w, h));
    pt_status st = PT_OK;
    if (!tophat || !mask || !cleaned || !smoothed || !opened || !morph || !scratch || !fill) {
        st = pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the stages");
        goto done;
    }
    /* top-hat: the image minus its grey opening by a kernel x kernel square */
    pt_erode(frame->buf, frame->stride, opened, w, w, h, kernel, morph);
    pt_dilate(opened, w, opened, w, w, h, kernel, morph);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = frame->buf[(size_t)y * frame->stride + x] - opened[(size_t)y * w + x];
            tophat->buf[(size_t)y * tophat->stride + x] = (uint8_t)(v < 0 ? 0 : v);
        }
    /* the mask (threshold, then dilation) and the fill, as the detectors do
     * unless reflection=off; with skip the image is left as it is */
    if (cfg->pre.reflection != PT_REFLECTION_OFF) {
        pt_reflection_mask(frame, kernel, cfg->pre.reflection_threshold, dilate, mask->buf,
                           mask->stride, scratch);
        if (cfg->pre.reflection == PT_REFLECTION_INTERPOLATE)
            pt_reflection_fill(cleaned, mask->buf, mask->stride, kernel + dilate, fill);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                mask->buf[(size_t)y * mask->stride + x] *= 255;
    }
    int size = cfg->pre.smooth_size | 1;
    if (cfg->pre.smooth == PT_SMOOTH_GAUSSIAN && size > 1) {
        void *g = pt_arena_alloc(&arena, pt_gaussian_scratch_bytes(w, h, size));
        if (!g) {
            st = pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the stages");
            goto done;
        }
        pt_gaussian(cleaned, smoothed, size, cfg->pre.smooth_sigma, g);
    } else if (cfg->pre.smooth == PT_SMOOTH_MEDIAN && size > 1) {
        pt_median(cleaned, smoothed, size);
    } else {
        for (int y = 0; y < h; y++)
            memcpy(smoothed->buf + (size_t)y * smoothed->stride,
                   cleaned->buf + (size_t)y * cleaned->stride, (size_t)w);
    }
    if ((st = write_stage(dir, name, "-1-image", frame, err)) ||
        (st = write_stage(dir, name, "-2-tophat", tophat, err)) ||
        (st = write_stage(dir, name, "-3-mask", mask, err)) ||
        (st = write_stage(dir, name, "-4-cleaned", cleaned, err)) ||
        (st = write_stage(dir, name, "-5-smoothed", smoothed, err)))
        goto done;
    if (alg == PT_ALG_HOUGH && region_width > 0) {
        pt_image *edges = pt_image_create(w, h);
        if (!edges)
            st = pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the stages");
        else if (!(st = canny_stage(smoothed, cfg, region_width, edges, err)))
            st = write_stage(dir, name, "-6-canny", edges, err);
        pt_image_destroy(edges);
    }
    if (alg == PT_ALG_TL && traces)
        st = pt_draw_tl_stages(dir, name, frame, smoothed, traces, results, eyes, err);
    if (alg == PT_ALG_STARBURST && traces)
        st = pt_draw_rays(dir, name, frame, traces, eyes, err);
done:
    pt_image_destroy(tophat);
    pt_image_destroy(mask);
    pt_image_destroy(cleaned);
    pt_image_destroy(smoothed);
    pt_arena_free(&arena);
    return st;
}
