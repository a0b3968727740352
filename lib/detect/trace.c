/* Recording a CPU detector's stages (lib/detect/pt_trace.h). */
#include "lib/detect/pt_trace.h"

#include <stdlib.h>
#include <string.h>

void pt_trace_reset(pt_trace *t)
{
    if (!t)
        return;
    t->tl_threshold = -1;
    t->x0 = t->y0 = t->width = t->height = 0;
    t->label_count = t->blob = 0;
    t->border_count = t->ray_count = t->iteration_count = 0;
    t->failed = 0;
}

void pt_trace_free(pt_trace *t)
{
    if (!t)
        return;
    free(t->labels);
    free(t->border);
    free(t->rays);
    free(t->iterations);
    memset(t, 0, sizeof *t);
    t->tl_threshold = -1;
}

/* *buf holds at least need elements of size bytes afterwards; 0 when out of memory. */
static int grow(void **buf, size_t *capacity, size_t need, size_t size)
{
    if (need <= *capacity)
        return 1;
    size_t cap = *capacity ? *capacity : 64;
    while (cap < need)
        cap *= 2;
    void *p = realloc(*buf, cap * size);
    if (!p)
        return 0;
    *buf = p;
    *capacity = cap;
    return 1;
}

static int grow_int(void **buf, int *capacity, int need, size_t size)
{
    size_t cap = (size_t)*capacity;
    if (!grow(buf, &cap, (size_t)need, size))
        return 0;
    *capacity = (int)cap;
    return 1;
}

void pt_trace_tl(pt_trace *t, int threshold, const int32_t *labels, int label_count, int x0,
                 int y0, int width, int height, const pt_point *border, int n)
{
    if (!t || t->failed || width <= 0 || height <= 0 || n <= 0)
        return;
    size_t pixels = (size_t)width * (size_t)height;
    if (!grow((void **)&t->labels, &t->labels_capacity, pixels, sizeof *t->labels) ||
        !grow_int((void **)&t->border, &t->border_capacity, n, sizeof *t->border)) {
        t->failed = 1;
        return;
    }
    memcpy(t->labels, labels, pixels * sizeof *labels);
    memcpy(t->border, border, (size_t)n * sizeof *border);
    t->tl_threshold = threshold;
    t->x0 = x0;
    t->y0 = y0;
    t->width = width;
    t->height = height;
    t->label_count = label_count;
    t->border_count = n;
    int bx = (int)border[0].x - x0, by = (int)border[0].y - y0;
    t->blob = bx >= 0 && by >= 0 && bx < width && by < height
                  ? labels[(size_t)by * width + bx]
                  : 0;
}

static void add_rays(pt_trace *t, int stage, pt_point origin, const pt_point *edges, int n)
{
    if (t->iteration_count == 0 || n <= 0)
        return;
    if (!grow_int((void **)&t->rays, &t->ray_capacity, t->ray_count + n, sizeof *t->rays)) {
        t->failed = 1;
        return;
    }
    for (int i = 0; i < n; i++) {
        pt_trace_ray *r = &t->rays[t->ray_count++];
        r->origin = origin;
        r->edge = edges[i];
        r->stage = stage;
        r->fitted = 1;
    }
    t->iterations[t->iteration_count - 1].count += n;
}

void pt_trace_sb_stage1(pt_trace *t, pt_point start, const pt_point *edges, int n)
{
    if (!t || t->failed)
        return;
    if (!grow_int((void **)&t->iterations, &t->iteration_capacity, t->iteration_count + 1,
                  sizeof *t->iterations)) {
        t->failed = 1;
        return;
    }
    pt_trace_iteration *it = &t->iterations[t->iteration_count++];
    memset(it, 0, sizeof *it);
    it->start = start;
    it->first = t->ray_count;
    add_rays(t, 1, start, edges, n);
}

void pt_trace_sb_stage2(pt_trace *t, pt_point origin, const pt_point *edges, int n)
{
    if (t && !t->failed)
        add_rays(t, 2, origin, edges, n);
}

void pt_trace_sb_fitted(pt_trace *t, const pt_point *pts, int n)
{
    if (!t || t->failed || t->iteration_count == 0)
        return;
    const pt_trace_iteration *it = &t->iterations[t->iteration_count - 1];
    int k = 0;
    for (int i = it->first; i < it->first + it->count; i++) {
        pt_trace_ray *r = &t->rays[i];
        r->fitted = k < n && pts[k].x == r->edge.x && pts[k].y == r->edge.y;
        k += r->fitted;
    }
}

void pt_trace_sb_fit(pt_trace *t, const pt_ellipse *fit, double confidence)
{
    if (!t || t->failed || t->iteration_count == 0)
        return;
    pt_trace_iteration *it = &t->iterations[t->iteration_count - 1];
    it->has_fit = 1;
    it->fit = *fit;
    it->confidence = confidence;
}
