/* An RGB drawing surface for the PNGs of --draw and --draw-stages. */
#ifndef PT_CLI_CANVAS_H
#define PT_CLI_CANVAS_H

#include <stdint.h>

#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/io/pt_image.h"

typedef struct {
    uint8_t *rgb; /* width * height * 3 bytes, row-major */
    int width, height;
} pt_canvas;

/* A canvas holding the grey image, or (rgb NULL) none when out of memory. */
pt_canvas pt_canvas_from_grey(const pt_image *img);
void pt_canvas_free(pt_canvas *c);

/* One pixel at (x, y) rounded; outside the canvas is ignored. */
void pt_canvas_plot(pt_canvas *c, double x, double y, const uint8_t colour[3]);
/* A one-pixel line from (x0, y0) to (x1, y1). */
void pt_canvas_line(pt_canvas *c, double x0, double y0, double x1, double y1,
                    const uint8_t colour[3]);
/* A filled square of side 2 * half + 1 centred on (x, y). */
void pt_canvas_dot(pt_canvas *c, double x, double y, int half, const uint8_t colour[3]);
/* A cross of arms `arm` px on (x, y). */
void pt_canvas_cross(pt_canvas *c, double x, double y, int arm, const uint8_t colour[3]);
/* The outline of e (theta in degrees) and a small cross on its centre. */
void pt_canvas_ellipse(pt_canvas *c, const pt_ellipse *e, const uint8_t colour[3]);

pt_status pt_canvas_write(const pt_canvas *c, const char *path, pt_error *err);

#endif
