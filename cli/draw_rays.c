/* --draw-stages, Starburst's rays per iteration (cli/draw_rays.h). */
#include "cli/draw_rays.h"

#include <stdio.h>
#include <string.h>

#include "cli/canvas.h"
#include "cli/draw.h"

static const uint8_t stage1_ray[3] = {200, 160, 0}, stage1_edge[3] = {255, 230, 0};
static const uint8_t stage2_ray[3] = {0, 130, 180}, stage2_edge[3] = {0, 230, 255};
static const uint8_t flat_edge[3] = {255, 255, 255}, start_mark[3] = {255, 0, 255};
static const uint8_t fit_line[3] = {255, 40, 40};

/* Rays of stage (1 or 2) of iteration it: lines, then their edge points. */
static void draw_stage(pt_canvas *c, const pt_trace *t, const pt_trace_iteration *it, int stage)
{
    const uint8_t *ray = stage == 1 ? stage1_ray : stage2_ray;
    const uint8_t *edge = stage == 1 ? stage1_edge : stage2_edge;
    for (int i = it->first; i < it->first + it->count; i++) {
        const pt_trace_ray *r = &t->rays[i];
        if (r->stage == stage)
            pt_canvas_line(c, r->origin.x, r->origin.y, r->edge.x, r->edge.y, ray);
    }
    for (int i = it->first; i < it->first + it->count; i++) {
        const pt_trace_ray *r = &t->rays[i];
        if (r->stage == stage)
            pt_canvas_dot(c, r->edge.x, r->edge.y, 1, r->fitted ? edge : flat_edge);
    }
}

pt_status pt_draw_rays(const char *dir, const char *name, const pt_image *frame,
                       const pt_trace *traces, int eyes, pt_error *err)
{
    int iterations = 0;
    for (int e = 0; e < eyes; e++)
        if (traces[e].iteration_count > iterations)
            iterations = traces[e].iteration_count;
    for (int n = 0; n < iterations; n++) {
        pt_canvas c = pt_canvas_from_grey(frame);
        if (!c.rgb)
            return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory drawing the rays");
        /* the frame dimmed, so that the rays stand out */
        for (size_t i = 0; i < (size_t)c.width * c.height * 3; i++)
            c.rgb[i] = (uint8_t)(c.rgb[i] * 3 / 5);
        for (int e = 0; e < eyes; e++) {
            const pt_trace *t = &traces[e];
            if (n >= t->iteration_count)
                continue;
            const pt_trace_iteration *it = &t->iterations[n];
            /* second stage under the first: it starts where the first ended */
            draw_stage(&c, t, it, 2);
            draw_stage(&c, t, it, 1);
            if (it->has_fit)
                pt_canvas_ellipse(&c, &it->fit, fit_line);
            pt_canvas_cross(&c, it->start.x, it->start.y, 5, start_mark);
        }
        char suffix[32], path[4096];
        snprintf(suffix, sizeof suffix, "-6-rays-%d", n + 1);
        pt_draw_path(path, sizeof path, dir, name, suffix);
        pt_status st = pt_canvas_write(&c, path, err);
        pt_canvas_free(&c);
        if (st)
            return st;
    }
    return PT_OK;
}
