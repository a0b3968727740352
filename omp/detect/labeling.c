/* Run-based two-pass 8-connected labeling: the first pass finds each row's
 * runs of set pixels and joins every run to the runs of the row above that
 * touch it (overlap, or meet diagonally) in a union-find forest, a new label
 * for a run that touches none; the second pass flattens the forest to
 * consecutive labels in raster order of each component's first pixel and
 * writes each run's label, gathering size and bounding box per component
 * (He, Chao, Suzuki, "A run-based two-scan labeling algorithm", IEEE TIP
 * 17(5), 2008). Only set pixels are visited after the row scan, and only the
 * previous labeling's runs are cleared. */
#include "omp/detect/labeling.h"
#include "lib/core/byte_runs.h"

#include <limits.h>
#include <string.h>

/* Root of label l, halving the path on the way (keeps trees shallow). */
static int32_t find_root(int32_t *parent, int32_t l)
{
    while (parent[l] != l) {
        parent[l] = parent[parent[l]];
        l = parent[l];
    }
    return l;
}

/* Join the sets of a and b; the smaller root wins so roots stay first-seen. */
static int32_t merge(int32_t *parent, int32_t a, int32_t b)
{
    int32_t ra = find_root(parent, a), rb = find_root(parent, b);
    if (ra < rb) {
        parent[rb] = ra;
        return ra;
    }
    parent[ra] = rb;
    return rb;
}

pt_status pt_labeling_reserve(pt_labeling *lab, int width, int height, pt_arena *arena,
                              pt_error *err)
{
    memset(lab, 0, sizeof *lab);
    if (width <= 0 || height <= 0)
        return PT_OK;
    size_t pixels = (size_t)width * (size_t)height;
    if (pixels > INT32_MAX)
        return pt_error_set(err, PT_ERR_NOMEM, "", "labeling: %dx%d mask too large", width,
                            height);
    /* At most one new label per 2x2 block: two would be 8-adjacent. */
    size_t max_labels = (size_t)((width + 1) / 2) * (size_t)((height + 1) / 2) + 1;
    /* Runs are separated by a clear pixel: at most (width + 1) / 2 per row. */
    size_t max_runs = (size_t)((width + 1) / 2) * (size_t)height;
    lab->labels = pt_arena_alloc(arena, pixels * sizeof *lab->labels);
    lab->parent = pt_arena_alloc(arena, max_labels * sizeof *lab->parent);
    lab->blobs = pt_arena_alloc(arena, max_labels * sizeof *lab->blobs);
    lab->run_start = pt_arena_alloc(arena, max_runs * sizeof *lab->run_start);
    lab->run_end = pt_arena_alloc(arena, max_runs * sizeof *lab->run_end);
    lab->run_label = pt_arena_alloc(arena, max_runs * sizeof *lab->run_label);
    lab->run_row = pt_arena_alloc(arena, ((size_t)height + 1) * sizeof *lab->run_row);
    if (!lab->labels || !lab->parent || !lab->blobs || !lab->run_start || !lab->run_end ||
        !lab->run_label || !lab->run_row)
        return pt_error_set(err, PT_ERR_NOMEM, "", "labeling: out of memory");
    memset(lab->labels, 0, pixels * sizeof *lab->labels);
    return PT_OK;
}

void pt_label_components(const uint8_t *mask, int stride, int width, int height,
                         pt_labeling *lab)
{
    if (width <= 0 || height <= 0) {
        lab->width = width;
        lab->height = height;
        lab->count = 0;
        return;
    }
    int32_t *labels = lab->labels, *parent = lab->parent;
    int32_t *rs = lab->run_start, *re = lab->run_end, *rl = lab->run_label, *rrow = lab->run_row;

    /* The previous labeling's runs back to background. */
    for (int32_t i = 0, y = 0; i < lab->runs; i++) {
        while (rrow[y + 1] <= i)
            y++;
        int32_t *row = labels + (size_t)y * (size_t)lab->runs_width;
        for (int32_t x = rs[i]; x < re[i]; x++)
            row[x] = 0;
    }
    lab->width = width;
    lab->height = height;
    lab->count = 0;

    /* First pass: runs [rs, re) per row; row y's runs are rrow[y] .. rrow[y+1]-1. */
    int32_t next = 1, n = 0;
    parent[0] = 0;
    for (int y = 0; y < height; y++) {
        const uint8_t *m = mask + (size_t)y * (size_t)stride;
        rrow[y] = n;
        int32_t up = y ? rrow[y - 1] : 0, up_end = n;
        for (int x = pt_next_set(m, 0, width); x < width; x = pt_next_set(m, x, width)) {
            int end = pt_next_clear(m, x + 1, width);
            /* Runs above touching [x, end): start <= end and end >= x (exclusive ends). */
            while (up < up_end && re[up] < x)
                up++;
            int32_t l = 0;
            for (int32_t k = up; k < up_end && rs[k] <= end; k++)
                l = l ? merge(parent, l, rl[k]) : rl[k];
            if (!l) {
                l = next;
                parent[next] = next;
                next++;
            }
            rs[n] = x;
            re[n] = end;
            rl[n] = l;
            n++;
            x = end;
        }
    }
    rrow[height] = n;
    lab->runs = n;
    lab->runs_width = width;

    /* Flatten: roots get consecutive final labels in first-seen order. */
    int32_t count = 0;
    for (int32_t l = 1; l < next; l++) {
        if (parent[l] == l)
            parent[l] = ++count;
        else
            parent[l] = parent[parent[l]];
    }
    pt_blob *blobs = lab->blobs;
    for (int32_t k = 0; k < count; k++) {
        blobs[k].size = 0;
        blobs[k].x0 = INT_MAX;
        blobs[k].y0 = INT_MAX;
        blobs[k].x1 = -1;
        blobs[k].y1 = -1;
        blobs[k].touches_border = 0;
    }
    for (int y = 0; y < height; y++) {
        int32_t *row = labels + (size_t)y * (size_t)width;
        for (int32_t i = rrow[y]; i < rrow[y + 1]; i++) {
            int32_t k = parent[rl[i]], x0 = rs[i], x1 = re[i];
            rl[i] = k;
            for (int32_t x = x0; x < x1; x++)
                row[x] = k;
            pt_blob *bl = &blobs[k - 1];
            bl->size += x1 - x0;
            if (x0 < bl->x0)
                bl->x0 = x0;
            if (x1 - 1 > bl->x1)
                bl->x1 = x1 - 1;
            if (y < bl->y0)
                bl->y0 = y;
            bl->y1 = y;
        }
    }
    for (int32_t k = 0; k < count; k++) {
        pt_blob *bl = &blobs[k];
        bl->touches_border = bl->x0 == 0 || bl->y0 == 0 || bl->x1 == width - 1 ||
                             bl->y1 == height - 1;
    }
    lab->count = count;
}
