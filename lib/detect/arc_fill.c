/* Reflections refilled along circles around a centre (arc_fill.h). */
#include "lib/detect/arc_fill.h"

#include <math.h>

/* The nearest integer to v (halves up), for |v| within the window's reach:
 * floor(v + 0.5) without a library call. */
static inline long nearest(double v)
{
    double t = v + 0.5;
    long k = (long)t;
    return k - ((double)k > t);
}

/* The first unmasked pixel along the circle through (dx, dy) around (cx,
 * cy), stepping the way (c, sn) turns (the cosine and sine of one step,
 * sn < 0 turning back): its grey level and step count in *level and
 * *steps; 0 when none within reach steps. */
static int arc_neighbour(const pt_image *img, const pt_arc_window *win, double cx, double cy,
                         double dx, double dy, double c, double sn, int reach, int *level,
                         int *steps)
{
    double u = dx, v = dy;
    for (int k = 1; k <= reach; k++) {
        double nu = u * c - v * sn, nv = u * sn + v * c;
        u = nu;
        v = nv;
        long xi = nearest(cx + u), yi = nearest(cy + v);
        if (xi < win->x0 || yi < win->y0 || xi >= win->x0 + win->width ||
            yi >= win->y0 + win->height)
            return 0;
        if (!win->mask[(size_t)(yi - win->y0) * win->mask_stride + (size_t)(xi - win->x0)]) {
            *level = img->buf[(size_t)yi * img->stride + (size_t)xi];
            *steps = k;
            return 1;
        }
    }
    return 0;
}

void pt_arc_fill(const pt_image *src, const pt_arc_window *win, double cx, double cy,
                 double limit, int reach, int step, pt_image *dst, int dx0, int dy0)
{
    if (step < 1)
        step = 1;
    int steps_max = (reach + step - 1) / step;
    for (int y = win->y0; y < win->y0 + win->height; y++) {
        const uint8_t *m = win->mask + (size_t)(y - win->y0) * win->mask_stride;
        for (int x = win->x0; x < win->x0 + win->width; x++) {
            if (!m[x - win->x0] || fabs(x - cx) > limit || fabs(y - cy) > limit ||
                x - dx0 < 0 || y - dy0 < 0 || x - dx0 >= dst->width || y - dy0 >= dst->height)
                continue;
            double dx = x - cx, dy = y - cy, rho = sqrt(dx * dx + dy * dy);
            if (rho < 3.0)
                continue;
            /* the rotation by step pixels of arc, step / rho rad: the series of
             * its cosine and sine to the fifth power (within 1e-4 from rho = 3
             * on for steps up to 2 px; the same on every machine) */
            double a = step / rho, a2 = a * a;
            double c = 1.0 - a2 / 2 * (1.0 - a2 / 12), sn = a * (1.0 - a2 / 6 * (1.0 - a2 / 20));
            double sum = 0.0, weight = 0.0;
            for (int side = -1; side <= 1; side += 2) {
                int level, steps;
                if (arc_neighbour(src, win, cx, cy, dx, dy, c, side * sn, steps_max, &level,
                                  &steps)) {
                    sum += level / (double)steps;
                    weight += 1.0 / steps;
                }
            }
            if (weight > 0.0)
                dst->buf[(size_t)(y - dy0) * dst->stride + (size_t)(x - dx0)] =
                    (uint8_t)(sum / weight + 0.5);
        }
    }
}
