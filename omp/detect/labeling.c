/* Two-pass 8-connected labeling: the first pass assigns provisional labels with
 * the SAUF decision order (b, then c with a or d, then a, then d) and records
 * equivalences in a union-find forest; the second pass flattens the forest to
 * consecutive labels and gathers size and bounding box per component. */
#include "omp/detect/labeling.h"

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
    lab->labels = pt_arena_alloc(arena, pixels * sizeof *lab->labels);
    lab->parent = pt_arena_alloc(arena, max_labels * sizeof *lab->parent);
    lab->blobs = pt_arena_alloc(arena, max_labels * sizeof *lab->blobs);
    if (!lab->labels || !lab->parent || !lab->blobs)
        return pt_error_set(err, PT_ERR_NOMEM, "", "labeling: out of memory");
    return PT_OK;
}

void pt_label_components(const uint8_t *mask, int stride, int width, int height,
                         pt_labeling *lab)
{
    lab->width = width;
    lab->height = height;
    lab->count = 0;
    if (width <= 0 || height <= 0)
        return;
    int32_t *labels = lab->labels, *parent = lab->parent;
    int32_t next = 1;
    parent[0] = 0;
    for (int y = 0; y < height; y++) {
        const uint8_t *m = mask + (size_t)y * (size_t)stride;
        int32_t *row = labels + (size_t)y * (size_t)width;
        const int32_t *up = y ? row - width : NULL;
        for (int x = 0; x < width; x++) {
            if (!m[x]) {
                row[x] = 0;
                continue;
            }
            int32_t a = 0, b = 0, c = 0;
            if (up) {
                b = up[x];
                a = x ? up[x - 1] : 0;
                c = x + 1 < width ? up[x + 1] : 0;
            }
            int32_t d = x ? row[x - 1] : 0;
            int32_t l;
            if (b)
                l = b; /* b touches a, c and d, so they are already joined to it */
            else if (c)
                l = a ? merge(parent, c, a) : d ? merge(parent, c, d) : c;
            else if (a)
                l = a;
            else if (d)
                l = d;
            else {
                l = next;
                parent[next] = next;
                next++;
            }
            row[x] = l;
        }
    }

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
        for (int x = 0; x < width; x++) {
            if (!row[x])
                continue;
            int32_t k = parent[row[x]];
            row[x] = k;
            pt_blob *bl = &blobs[k - 1];
            bl->size++;
            if (x < bl->x0)
                bl->x0 = x;
            if (x > bl->x1)
                bl->x1 = x;
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
