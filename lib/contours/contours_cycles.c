/* Closed cycles of border pieces to OpenCV-ordered contours (contours_cycles.h). */
#include "lib/contours/contours_cycles.h"

#include <omp.h>
#include <stdlib.h>

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

static int compare_key(const void *x, const void *y)
{
    int64_t kx = ((const pt_cycle_border *)x)->key, ky = ((const pt_cycle_border *)y)->key;
    return (kx > ky) - (kx < ky);
}

/* LIST mode: the borders as found, no parents. */
static pt_status list_found(const pt_cycle_border *borders, int nb, pt_contour_found **found,
                            pt_error *err)
{
    *found = malloc((size_t)(nb ? nb : 1) * sizeof **found);
    if (!*found)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate borders");
    for (int i = 0; i < nb; i++) {
        (*found)[i].is_hole = borders[i].is_hole;
        (*found)[i].parent = -1;
        (*found)[i].first = borders[i].first;
        (*found)[i].count = borders[i].points;
    }
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
    if (nb > 1)
        qsort(borders, (size_t)nb, sizeof *borders, compare_key);
    int64_t total = 0;
    for (int i = 0; i < nb; i++) {
        borders[i].first = total;
        total += borders[i].points;
    }
    pt_status st = pt_contours_reserve_points(out, total, err);
    if (st)
        return st;
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (int i = 0; i < nb; i++)
        src->write_points(src->ctx, &borders[i], approx, out->points + borders[i].first);
    out->point_count = total;

    pt_contour_found *found = NULL;
    if (mode == PT_CONTOURS_LIST) {
        st = list_found(borders, nb, &found, err);
    } else if (!lab) {
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
