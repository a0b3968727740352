/* Chain codes to OpenCV-ordered contours (contours_chains.h). */
#include "lib/contours/contours_chains.h"

#include "lib/contours/contours_borders.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* Border r's points: every state (APPROX_NONE), or the states whose
 * direction differs from the one before (APPROX_SIMPLE, as OpenCV's
 * icvFetchContour); coordinates without the padding. */
static void write_points(const pt_contour_chains *ch, int64_t r, int all,
                         pt_contour_point *dst)
{
    const int step = ch->width + 2;
    const int64_t s = ch->start[r];
    int x = (int)(s % step), y = (int)(s / step);
    int flags = ch->flags[r];
    if (flags & PT_CCHAIN_ISOLATED) {
        dst[0].x = x - 1;
        dst[0].y = y - 1;
        return;
    }
    const uint8_t *d = ch->dirs + ch->dfirst[r];
    const int64_t n = ch->dfirst[r + 1] - ch->dfirst[r];
    int prev = ((flags >> PT_CCHAIN_B_SHIFT) & 7) ^ 4;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        int di = d[i];
        if (all || di != prev) {
            dst[k].x = x - 1;
            dst[k].y = y - 1;
            k++;
        }
        prev = di;
        x += pt_cdir_dx(di);
        y += pt_cdir_dy(di);
    }
}

typedef struct {
    const pt_contour_chains *ch;
} replay_ctx;

/* Scan callback (pt_contours_scan): label border `index` as OpenCV's tracer
 * does (label; label | 0x80 where the right neighbour was examined as 0) and
 * give its box. */
static pt_status replay_border(void *ctx, int8_t *lab, ptrdiff_t i0, int index, int is_hole,
                               int label, int rect[4], int64_t *first, int64_t *count,
                               pt_error *err)
{
    const pt_contour_chains *ch = ((replay_ctx *)ctx)->ch;
    if (index >= ch->count || ch->start[index] != i0 ||
        ((ch->flags[index] & PT_CCHAIN_HOLE) != 0) != is_hole)
        return pt_error_set(err, PT_ERR_INTERNAL, "",
                            "contours: traced borders disagree with the scan at border %d",
                            index);
    const int step = ch->width + 2;
    int x = (int)(i0 % step), y = (int)(i0 / step);
    int min_x = x, max_x = x, min_y = y, max_y = y;
    *first = ch->pfirst[index];
    *count = ch->pfirst[index + 1] - ch->pfirst[index];
    if (ch->flags[index] & PT_CCHAIN_ISOLATED) {
        lab[i0] = (int8_t)(label | 0x80);
    } else {
        const uint8_t *d = ch->dirs + ch->dfirst[index];
        const int64_t n = ch->dfirst[index + 1] - ch->dfirst[index];
        int b = (ch->flags[index] >> PT_CCHAIN_B_SHIFT) & 7;
        for (int64_t i = 0; i < n; i++) {
            int di = d[i];
            int64_t q = (int64_t)y * step + x;
            if ((unsigned)(di - 1) < (unsigned)b)
                lab[q] = (int8_t)(label | 0x80);
            else if (lab[q] == 1)
                lab[q] = (int8_t)label;
            x += pt_cdir_dx(di);
            y += pt_cdir_dy(di);
            b = di ^ 4;
            if (x < min_x) min_x = x;
            if (x > max_x) max_x = x;
            if (y < min_y) min_y = y;
            if (y > max_y) max_y = y;
        }
    }
    rect[0] = min_x;
    rect[1] = min_y;
    rect[2] = max_x - min_x + 1;
    rect[3] = max_y - min_y + 1;
    return PT_OK;
}

/* LIST: the links without a scan (pt_contours_list_border). */
static pt_status list_borders(const pt_contour_chains *ch, int threads, pt_contours *out,
                              pt_error *err)
{
    const int n = ch->count;
    pt_status st = pt_contours_reserve_borders(out, n, err);
    if (st)
        return st;
#pragma omp parallel for schedule(static) num_threads(threads) if (n > 4096)
    for (int r = 0; r < n; r++)
        pt_contours_list_border(out, n, r, (ch->flags[r] & PT_CCHAIN_HOLE) != 0, ch->pfirst[r],
                                ch->pfirst[r + 1] - ch->pfirst[r]);
    out->count = n;
    return PT_OK;
}

pt_status pt_contours_from_chains(const pt_contour_chains *ch, int8_t *lab, int mode,
                                  int approx, int threads, pt_contours *out, pt_error *err)
{
    out->count = 0;
    out->point_count = 0;
    if (threads <= 0)
        threads = omp_get_max_threads();
    const int n = ch->count;
    const int64_t total = n > 0 ? ch->pfirst[n] : 0;
    pt_status st = pt_contours_reserve_points(out, total, err);
    if (st)
        return st;
    const int all = approx == PT_CONTOURS_APPROX_NONE;
    /* borders of very different lengths: dynamic chunks of consecutive borders */
#pragma omp parallel for schedule(dynamic, 1024) num_threads(threads) if (n > 1024)
    for (int r = 0; r < n; r++)
        write_points(ch, r, all, out->points + ch->pfirst[r]);
    out->point_count = total;
    if (mode == PT_CONTOURS_LIST)
        return list_borders(ch, threads, out, err);
    if (!lab)
        return pt_error_set(err, PT_ERR_INTERNAL, "", "contours: no label image");
    replay_ctx r = {ch};
    pt_contour_found *found = NULL;
    int scanned = 0;
    st = pt_contours_scan(lab, ch->width, ch->height, mode, approx, replay_border, &r, out,
                          &found, &scanned, err);
    if (!st && scanned != n)
        st = pt_error_set(err, PT_ERR_INTERNAL, "",
                          "contours: scan found %d borders, tracing %d", scanned, n);
    if (!st)
        st = pt_contours_emit(out, found, n, err);
    free(found);
    return st;
}
