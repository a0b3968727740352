#include "cli/draw.h"

#include "cli/canvas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void draw_result(pt_canvas *c, const pt_result *r, const uint8_t colour[3])
{
    if (r->has_ellipse) {
        pt_canvas_ellipse(c, &r->ellipse, colour);
    } else if (r->has_circle) {
        pt_ellipse e = {r->circle.cx, r->circle.cy, r->circle.r, r->circle.r, 0};
        pt_canvas_ellipse(c, &e, colour);
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
    pt_canvas c = pt_canvas_from_grey(frame);
    if (!c.rgb)
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the frame");
    for (int e = 0; e < eyes; e++) {
        if (truth && truth[e].status == PT_DETECT_OK)
            draw_result(&c, &truth[e], blue);
        if (overlays)
            for (int k = 0; k < overlays[e].count; k++)
                pt_canvas_plot(&c, overlays[e].points[k].x, overlays[e].points[k].y, green);
        if (results[e].status == PT_DETECT_OK)
            draw_result(&c, &results[e], red);
    }
    char path[4096];
    pt_draw_path(path, sizeof path, dir, name, "");

    pt_status st = pt_canvas_write(&c, path, err);
    pt_canvas_free(&c);
    return st;
}
