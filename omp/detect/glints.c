#include "omp/detect/glints.h"

#include <stdlib.h>

#include "omp/detect/labeling.h"
#include "omp/preprocess/preprocess.h"

typedef struct {
    double sx, sy, sw; /* intensity-weighted sums */
    int area, peak;
} glint_sum;

static int brighter_first(const void *a, const void *b)
{
    const glint_sum *p = a, *q = b;
    if (p->peak != q->peak)
        return q->peak - p->peak;
    return q->area - p->area;
}

int pt_glints_find(const pt_image *img, int x0, int y0, int w, int h, int kernel, int threshold,
                   pt_glint *out, int max, pt_arena *arena)
{
    if (w < 1 || h < 1 || max < 1)
        return 0;
    pt_image roi = {w, h, img->stride, img->buf + (size_t)y0 * img->stride + x0};
    uint8_t *mask = pt_arena_calloc(arena, (size_t)w * h);
    void *scratch = pt_arena_alloc(arena, pt_reflection_scratch_bytes(w, h, kernel, 1));
    pt_labeling lab;
    pt_error err;
    if (!mask || !scratch || pt_labeling_reserve(&lab, w, h, arena, &err))
        return -1;
    if (pt_reflection_mask(&roi, kernel, threshold, 1, mask, w, scratch) == 0)
        return 0;
    pt_label_components(mask, w, w, h, &lab);
    glint_sum *sums = pt_arena_calloc(arena, (size_t)(lab.count + 1) * sizeof *sums);
    if (!sums)
        return -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int32_t l = lab.labels[(size_t)y * w + x];
            if (!l)
                continue;
            int v = roi.buf[(size_t)y * roi.stride + x];
            glint_sum *s = &sums[l - 1];
            s->sx += (double)v * x;
            s->sy += (double)v * y;
            s->sw += v;
            s->area++;
            if (v > s->peak)
                s->peak = v;
        }
    /* A reflection is small, near saturation and stands out from the iris or
     * pupil around it: larger bright areas (sclera, skin), noise peaks and
     * sclera seen between lashes are not glints. */
    int n = 0;
    for (int k = 0; k < lab.count; k++) {
        glint_sum s = sums[k];
        if (s.area > kernel * kernel || s.sw <= 0 || s.peak < PT_GLINT_MIN_PEAK)
            continue;
        const pt_blob *b = &lab.blobs[k];
        double ring = 0;
        int count = 0;
        for (int y = b->y0 - 2; y <= b->y1 + 2; y++)
            for (int x = b->x0 - 2; x <= b->x1 + 2; x++)
                if (x >= 0 && y >= 0 && x < w && y < h && lab.labels[(size_t)y * w + x] != k + 1) {
                    ring += roi.buf[(size_t)y * roi.stride + x];
                    count++;
                }
        if (count && s.peak - ring / count < PT_GLINT_MIN_CONTRAST)
            continue;
        sums[n++] = s;
    }
    qsort(sums, (size_t)n, sizeof *sums, brighter_first);
    if (n > max)
        n = max;
    for (int k = 0; k < n; k++) {
        out[k].x = x0 + sums[k].sx / sums[k].sw;
        out[k].y = y0 + sums[k].sy / sums[k].sw;
        out[k].area = sums[k].area;
    }
    return n;
}

int pt_glints_track(pt_tracker *tracker, const pt_image *img, int x0, int y0, int w, int h,
                    int kernel, int threshold, pt_glint *out, int *ids, int max,
                    pt_arena *arena, pt_error *err)
{
    int n = pt_glints_find(img, x0, y0, w, h, kernel, threshold, out, max, arena);
    if (n < 0) {
        pt_error_set(err, PT_ERR_NOMEM, "", "out of memory finding glints");
        return -1;
    }
    double *xy = pt_arena_alloc(arena, (size_t)(2 * n + 2) * sizeof *xy);
    if (!xy) {
        pt_error_set(err, PT_ERR_NOMEM, "", "out of memory tracking glints");
        return -1;
    }
    for (int k = 0; k < n; k++) {
        xy[2 * k] = out[k].x;
        xy[2 * k + 1] = out[k].y;
    }
    if (pt_tracker_step(tracker, xy, n, ids, err))
        return -1;
    return n;
}

const pt_glints_backend pt_glints_host = {pt_glints_track};
