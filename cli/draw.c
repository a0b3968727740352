#include "cli/draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *rgb;
    int width, height;
} canvas;

static void plot(canvas *c, double x, double y, const uint8_t colour[3])
{
    int ix = (int)lround(x), iy = (int)lround(y);
    if (ix < 0 || iy < 0 || ix >= c->width || iy >= c->height)
        return;
    memcpy(c->rgb + ((size_t)iy * c->width + ix) * 3, colour, 3);
}

static void draw_ellipse(canvas *c, const pt_ellipse *e, const uint8_t colour[3])
{
    double t = e->theta * M_PI / 180.0, ct = cos(t), st = sin(t);
    int steps = (int)(2 * M_PI * e->a) + 16;
    for (int k = 0; k < steps; k++) {
        double u = 2 * M_PI * k / steps;
        double px = e->a * cos(u), py = e->b * sin(u);
        plot(c, e->cx + px * ct - py * st, e->cy + px * st + py * ct, colour);
    }
    for (int d = -2; d <= 2; d++) {
        plot(c, e->cx + d, e->cy, colour);
        plot(c, e->cx, e->cy + d, colour);
    }
}

static void draw_result(canvas *c, const pt_result *r, const uint8_t colour[3])
{
    if (r->has_ellipse) {
        draw_ellipse(c, &r->ellipse, colour);
    } else if (r->has_circle) {
        pt_ellipse e = {r->circle.cx, r->circle.cy, r->circle.r, r->circle.r, 0};
        draw_ellipse(c, &e, colour);
    }
}

void pt_draw_path(char *path, int size, const char *dir, const char *name, const char *suffix)
{
    /* "dir/eye.png#3" -> DIR/dir_eye_3.png: the image's own extension dropped. */
    const char *page = strchr(name, '#');
    const char *file_end = page ? page : name + strlen(name);
    const char *ext = NULL;
    for (const char *s = name; s < file_end; s++)
        if (*s == '.')
            ext = s;
        else if (*s == '/' || *s == '\\')
            ext = NULL;
    if (ext == name)
        ext = NULL;
    int room = size - 5 - (int)strlen(suffix);
    int n = snprintf(path, (size_t)size, "%s/", dir);
    if (n > room)
        n = room > 0 ? room : 0;
    for (const char *s = name; *s && n < room; s++) {
        if (ext && s >= ext && s < file_end)
            continue;
        path[n++] = (*s == '/' || *s == '#' || *s == '\\') ? '_' : *s;
    }
    snprintf(path + n, (size_t)(size - n), "%s.png", suffix);
}

pt_status pt_draw_frame(const char *dir, const char *name, const pt_image *frame,
                        const pt_result *results, const pt_overlay *overlays,
                        const pt_result *truth, int eyes, pt_error *err)
{
    static const uint8_t green[3] = {0, 230, 0}, red[3] = {255, 40, 40},
                         blue[3] = {60, 120, 255};
    canvas c = {malloc((size_t)frame->width * frame->height * 3), frame->width,
                frame->height};
    if (!c.rgb)
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the frame");
    for (int y = 0; y < frame->height; y++)
        for (int x = 0; x < frame->width; x++)
            memset(c.rgb + ((size_t)y * frame->width + x) * 3,
                   frame->buf[(size_t)y * frame->stride + x], 3);
    for (int e = 0; e < eyes; e++) {
        if (truth && truth[e].status == PT_DETECT_OK)
            draw_result(&c, &truth[e], blue);
        if (overlays)
            for (int k = 0; k < overlays[e].count; k++)
                plot(&c, overlays[e].points[k].x, overlays[e].points[k].y, green);
        if (results[e].status == PT_DETECT_OK)
            draw_result(&c, &results[e], red);
    }
    char path[4096];
    pt_draw_path(path, sizeof path, dir, name, "");

    pt_status st = pt_png_write_rgb(path, c.width, c.height, c.rgb, err);
    free(c.rgb);
    return st;
}
