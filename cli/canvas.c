/* RGB drawing for --draw and --draw-stages (cli/canvas.h). */
#include "cli/canvas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pt_canvas pt_canvas_from_grey(const pt_image *img)
{
    pt_canvas c = {malloc((size_t)img->width * img->height * 3), img->width, img->height};
    if (!c.rgb)
        return c;
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            memset(c.rgb + ((size_t)y * img->width + x) * 3, img->buf[(size_t)y * img->stride + x],
                   3);
    return c;
}

void pt_canvas_free(pt_canvas *c)
{
    free(c->rgb);
    c->rgb = NULL;
}

void pt_canvas_plot(pt_canvas *c, double x, double y, const uint8_t colour[3])
{
    if (!(x > -0.5 && y > -0.5 && x < c->width - 0.5 && y < c->height - 0.5))
        return;
    int ix = (int)lround(x), iy = (int)lround(y);
    if (ix < 0 || iy < 0 || ix >= c->width || iy >= c->height)
        return;
    memcpy(c->rgb + ((size_t)iy * c->width + ix) * 3, colour, 3);
}

void pt_canvas_line(pt_canvas *c, double x0, double y0, double x1, double y1,
                    const uint8_t colour[3])
{
    double dx = x1 - x0, dy = y1 - y0;
    double len = fmax(fabs(dx), fabs(dy));
    if (!(len < 1e5)) /* NaN or absurd: nothing to draw */
        return;
    int steps = (int)ceil(len);
    for (int k = 0; k <= steps; k++) {
        double t = steps ? (double)k / steps : 0.0;
        pt_canvas_plot(c, x0 + t * dx, y0 + t * dy, colour);
    }
}

void pt_canvas_dot(pt_canvas *c, double x, double y, int half, const uint8_t colour[3])
{
    for (int dy = -half; dy <= half; dy++)
        for (int dx = -half; dx <= half; dx++)
            pt_canvas_plot(c, x + dx, y + dy, colour);
}

void pt_canvas_cross(pt_canvas *c, double x, double y, int arm, const uint8_t colour[3])
{
    for (int d = -arm; d <= arm; d++) {
        pt_canvas_plot(c, x + d, y, colour);
        pt_canvas_plot(c, x, y + d, colour);
    }
}

void pt_canvas_ellipse(pt_canvas *c, const pt_ellipse *e, const uint8_t colour[3])
{
    if (!(e->a >= 0 && e->a < 1e5 && e->b >= 0))
        return;
    double t = e->theta * M_PI / 180.0, ct = cos(t), st = sin(t);
    int steps = (int)(2 * M_PI * e->a) + 16;
    for (int k = 0; k < steps; k++) {
        double u = 2 * M_PI * k / steps;
        double px = e->a * cos(u), py = e->b * sin(u);
        pt_canvas_plot(c, e->cx + px * ct - py * st, e->cy + px * st + py * ct, colour);
    }
    pt_canvas_cross(c, e->cx, e->cy, 2, colour);
}

pt_status pt_canvas_write(const pt_canvas *c, const char *path, pt_error *err)
{
    return pt_png_write_rgb(path, c->width, c->height, c->rgb, err);
}
