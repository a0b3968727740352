/* Closed cycles of border pieces to OpenCV-ordered contours (contours_cycles.h). */
#include "lib/contours/contours_cycles.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

void pt_cycle_extent_init(pt_cycle_extent *e)
{
    e->min_pixel = e->min_right = INT64_MAX;
    e->area2 = e->states = 0;
    e->min_x = e->min_y = INT32_MAX;
    e->max_x = e->max_y = INT32_MIN;
}

void pt_cycle_extent_add(pt_cycle_extent *e, int64_t min_pixel, int64_t min_right, int min_x,
                         int max_x, int min_y, int max_y, int64_t area2, int64_t count)
{
    if (min_pixel < e->min_pixel) e->min_pixel = min_pixel;
    if (min_right < e->min_right) e->min_right = min_right;
    if (min_x < e->min_x) e->min_x = min_x;
    if (max_x > e->max_x) e->max_x = max_x;
    if (min_y < e->min_y) e->min_y = min_y;
    if (max_y > e->max_y) e->max_y = max_y;
    e->area2 += area2;
    e->states += count;
}

void pt_cycle_border_isolated(pt_cycle_border *b, int64_t min_pixel, int min_x, int min_y)
{
    b->start_piece = b->any_piece;
    b->start_offset = 0;
    b->start_pixel = b->key = min_pixel;
    b->states = b->points = 1;
    b->rect[0] = min_x;
    b->rect[1] = min_y;
    b->rect[2] = b->rect[3] = 1;
}

int pt_cycle_extent_apply(const pt_cycle_extent *e, pt_cycle_border *b)
{
    /* holes run clockwise on screen: positive area with y pointing down */
    b->is_hole = e->area2 > 0;
    if (b->is_hole && e->min_right == INT64_MAX)
        return 1;
    b->start_pixel = b->is_hole ? e->min_right : e->min_pixel;
    b->key = b->is_hole ? e->min_right + 1 : e->min_pixel;
    b->states = e->states;
    b->rect[0] = e->min_x;
    b->rect[1] = e->min_y;
    b->rect[2] = e->max_x - e->min_x + 1;
    b->rect[3] = e->max_y - e->min_y + 1;
    return 0;
}

typedef struct {
    int64_t key;
    int64_t index;
} keyed;

/* borders into ascending key order: keys are pixel indices (unique: at most
 * one outer and one hole border start at a pixel, the hole's key one
 * higher), so a least-significant-digit radix sort of (key, index) pairs,
 * 11 bits a pass, orders a million borders in a few passes where a
 * comparison sort of the whole records took most of the ordering time. */
static pt_status sort_by_key(pt_cycle_border *borders, int nb, int threads, pt_error *err)
{
    enum { DIGIT = 11, BUCKETS = 1 << DIGIT };
    int64_t max_key = 0;
    for (int i = 0; i < nb; i++)
        if (borders[i].key > max_key)
            max_key = borders[i].key;
    keyed *a = malloc(2 * (size_t)nb * sizeof *a);
    pt_cycle_border *sorted = malloc((size_t)nb * sizeof *sorted);
    size_t *count = malloc(BUCKETS * sizeof *count);
    if (!a || !sorted || !count) {
        free(a);
        free(sorted);
        free(count);
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate the border order");
    }
    keyed *from = a, *to = a + nb;
    for (int i = 0; i < nb; i++) {
        from[i].key = borders[i].key;
        from[i].index = i;
    }
    for (int shift = 0; shift < 63 && (max_key >> shift) > 0; shift += DIGIT) {
        memset(count, 0, BUCKETS * sizeof *count);
        for (int i = 0; i < nb; i++)
            count[(from[i].key >> shift) & (BUCKETS - 1)]++;
        size_t sum = 0;
        for (int d = 0; d < BUCKETS; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (int i = 0; i < nb; i++)
            to[count[(from[i].key >> shift) & (BUCKETS - 1)]++] = from[i];
        keyed *t = from;
        from = to;
        to = t;
    }
#pragma omp parallel num_threads(threads) if (nb > 4096)
    {
#pragma omp for schedule(static)
        for (int i = 0; i < nb; i++)
            sorted[i] = borders[from[i].index];
#pragma omp for schedule(static)
        for (int i = 0; i < nb; i++)
            borders[i] = sorted[i];
    }
    free(a);
    free(sorted);
    free(count);
    return PT_OK;
}

pt_status pt_contours_from_cycles(pt_cycle_border *borders, int nb, const pt_cycle_source *src,
                                  int width, int height, int8_t *lab, int mode, int approx,
                                  int threads, pt_contours *out, pt_error *err)
{
    if (threads <= 0)
        threads = omp_get_max_threads();
    int broken = 0;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) reduction(+ : broken)
    for (int i = 0; i < nb; i++)
        broken += src->locate(src->ctx, &borders[i], approx) != 0;
    if (broken)
        return pt_error_set(err, PT_ERR_INTERNAL, "", "contours: %d borders without a start",
                            broken);
    pt_status st = nb > 1 ? sort_by_key(borders, nb, threads, err) : PT_OK;
    if (st)
        return st;
    int64_t total = 0;
    for (int i = 0; i < nb; i++) {
        borders[i].first = total;
        total += borders[i].points;
    }
    if ((st = pt_contours_reserve_points(out, total, err)))
        return st;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int i = 0; i < nb; i++)
        src->write_points(src->ctx, &borders[i], approx, out->points + borders[i].first);
    out->point_count = total;

    if (mode == PT_CONTOURS_LIST) { /* the links without a scan */
        if ((st = pt_contours_reserve_borders(out, nb, err)))
            return st;
#pragma omp parallel for schedule(static) num_threads(threads) if (nb > 4096)
        for (int i = 0; i < nb; i++)
            pt_contours_list_border(out, nb, i, borders[i].is_hole, borders[i].first,
                                    borders[i].points);
        out->count = nb;
        return PT_OK;
    }
    pt_contour_found *found = NULL;
    if (!lab) {
        st = pt_error_set(err, PT_ERR_INTERNAL, "", "contours: no label image");
    } else {
        int scanned = 0;
        st = pt_contours_scan(lab, width, height, mode, approx, src->replay, src->ctx, out,
                              &found, &scanned, err);
        if (!st && scanned != nb)
            st = pt_error_set(err, PT_ERR_INTERNAL, "",
                              "contours: scan found %d borders, tracing %d", scanned, nb);
    }
    if (!st)
        st = pt_contours_emit(out, found, nb, err);
    free(found);
    return st;
}
