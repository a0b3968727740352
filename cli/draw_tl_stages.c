/* --draw-stages, threshold and labeling (cli/draw_tl_stages.h). */
#include "cli/draw_tl_stages.h"

#include <stdlib.h>
#include <string.h>

#include "cli/canvas.h"
#include "cli/draw.h"

/* A colour per label: hues a golden angle apart, never dark (every channel
 * at least 64, so each label stays non-zero in grey). */
static void label_colour(int32_t k, uint8_t rgb[3])
{
    double h = (k * 0.6180339887498949) - (long)(k * 0.6180339887498949);
    double s = h * 6.0;
    int sector = (int)s;
    double f = s - sector, lo = 64.0, hi = 255.0;
    double up = lo + f * (hi - lo), down = hi - f * (hi - lo);
    double r, g, b;
    switch (sector % 6) {
    case 0: r = hi, g = up, b = lo; break;
    case 1: r = down, g = hi, b = lo; break;
    case 2: r = lo, g = hi, b = up; break;
    case 3: r = lo, g = down, b = hi; break;
    case 4: r = up, g = lo, b = hi; break;
    default: r = hi, g = lo, b = down; break;
    }
    rgb[0] = (uint8_t)(r + 0.5);
    rgb[1] = (uint8_t)(g + 0.5);
    rgb[2] = (uint8_t)(b + 0.5);
}

static pt_status write_grey(const char *dir, const char *name, const char *suffix,
                            const pt_image *img, pt_error *err)
{
    char path[4096];
    pt_draw_path(path, sizeof path, dir, name, suffix);
    return pt_png_write_grey(path, img, err);
}

static pt_status write_rgb(const char *dir, const char *name, const char *suffix,
                           const pt_canvas *c, pt_error *err)
{
    char path[4096];
    pt_draw_path(path, sizeof path, dir, name, suffix);
    return pt_canvas_write(c, path, err);
}

/* The eye's region of the trace lies in the frame. */
static int traced(const pt_trace *t, const pt_image *frame)
{
    return t->tl_threshold >= 0 && t->x0 >= 0 && t->y0 >= 0 &&
           t->x0 + t->width <= frame->width && t->y0 + t->height <= frame->height;
}

pt_status pt_draw_tl_stages(const char *dir, const char *name, const pt_image *frame,
                            const pt_image *smoothed, const pt_trace *traces,
                            const pt_result *results, int eyes, pt_error *err)
{
    static const uint8_t green[3] = {0, 230, 0}, red[3] = {255, 40, 40};
    int w = frame->width, h = frame->height;
    pt_image *threshold = pt_image_create(w, h), *blob = pt_image_create(w, h);
    pt_canvas labels = {NULL, w, h}, border = pt_canvas_from_grey(frame);
    labels.rgb = border.rgb ? calloc((size_t)w * h, 3) : NULL;
    pt_status st = PT_OK;
    if (!threshold || !blob || !labels.rgb || !border.rgb) {
        st = pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the stages");
        goto done;
    }
    for (int y = 0; y < h; y++) {
        memset(threshold->buf + (size_t)y * threshold->stride, 0, (size_t)w);
        memset(blob->buf + (size_t)y * blob->stride, 0, (size_t)w);
    }
    for (int e = 0; e < eyes; e++) {
        const pt_trace *t = &traces[e];
        if (!traced(t, frame))
            continue;
        for (int y = 0; y < t->height; y++) {
            int fy = t->y0 + y;
            const uint8_t *src = smoothed->buf + (size_t)fy * smoothed->stride + t->x0;
            const int32_t *lab = t->labels + (size_t)y * t->width;
            uint8_t *thr = threshold->buf + (size_t)fy * threshold->stride + t->x0;
            uint8_t *bl = blob->buf + (size_t)fy * blob->stride + t->x0;
            uint8_t *rgb = labels.rgb + ((size_t)fy * w + t->x0) * 3;
            for (int x = 0; x < t->width; x++) {
                thr[x] = src[x] <= t->tl_threshold ? 255 : 0;
                bl[x] = lab[x] && lab[x] == t->blob ? 255 : 0;
                if (lab[x])
                    label_colour(lab[x], rgb + 3 * x);
            }
        }
        for (int i = 0; i < t->border_count; i++)
            pt_canvas_plot(&border, t->border[i].x, t->border[i].y, green);
        const pt_result *r = &results[e];
        if (r->status == PT_DETECT_OK && r->has_ellipse) {
            pt_canvas_ellipse(&border, &r->ellipse, red);
        } else if (r->status == PT_DETECT_OK && r->has_circle) {
            pt_ellipse c = {r->circle.cx, r->circle.cy, r->circle.r, r->circle.r, 0};
            pt_canvas_ellipse(&border, &c, red);
        }
    }
    if ((st = write_grey(dir, name, "-6-threshold", threshold, err)) ||
        (st = write_rgb(dir, name, "-7-labels", &labels, err)) ||
        (st = write_grey(dir, name, "-8-blob", blob, err)))
        goto done;
    st = write_rgb(dir, name, "-9-border", &border, err);
done:
    pt_image_destroy(threshold);
    pt_image_destroy(blob);
    pt_canvas_free(&labels);
    pt_canvas_free(&border);
    return st;
}
