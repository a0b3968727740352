/* The last steps of the parallel border trackers, shared by the OpenMP
 * tracer (omp/contours) and the assembly of the CUDA tracer's pieces
 * (lib/contours/contours_pieces.c): each border is a closed cycle of pieces
 * traced in rectangles; here each cycle gets OpenCV's start point (Suzuki &
 * Abe 1985: the pixel whose raster scan finds the border), the borders
 * OpenCV's order, their points and, for CCOMP and TREE, the hierarchy that
 * OpenCV's scan finds. */
#ifndef PT_CONTOURS_CYCLES_H
#define PT_CONTOURS_CYCLES_H

#include <stdint.h>

#include "lib/contours/contours.h"

typedef struct {
    int64_t key; /* raster index of the pixel whose scan finds the border */
    int64_t start_pixel, start_offset, states, points, first;
    int is_hole, isolated, start_b;
    int32_t any_piece, start_piece;
    int rect[4];
} pt_cycle_border;

/* The bounds of a cycle, summed over its pieces. */
typedef struct {
    int64_t min_pixel, min_right, area2, states;
    int min_x, max_x, min_y, max_y;
} pt_cycle_extent;

void pt_cycle_extent_init(pt_cycle_extent *e);
void pt_cycle_extent_add(pt_cycle_extent *e, int64_t min_pixel, int64_t min_right, int min_x,
                         int max_x, int min_y, int max_y, int64_t area2, int64_t count);
/* A one-pixel border at (min_x, min_y) = min_pixel: its start and size. */
void pt_cycle_border_isolated(pt_cycle_border *b, int64_t min_pixel, int min_x, int min_y);
/* is_hole, start_pixel, key, states and rect of b from its extent: holes
 * start at the first pixel whose right neighbour is background, outer
 * borders at their first pixel. 1 when a hole has no such pixel. */
int pt_cycle_extent_apply(const pt_cycle_extent *e, pt_cycle_border *b);

/* What a tracer supplies: locate finds b's start state (start_b,
 * start_piece, start_offset) and its point count (0, or 1 when it has
 * none); write_points writes b's points from its start; replay labels a
 * border's pixels when the scan of CCOMP/TREE reaches it (border `index`
 * of the sorted array). ctx is passed to all three. */
typedef struct {
    void *ctx;
    int (*locate)(void *ctx, pt_cycle_border *b, int approx);
    void (*write_points)(void *ctx, const pt_cycle_border *b, int approx, pt_contour_point *dst);
    pt_contours_trace_fn replay;
} pt_cycle_source;

/* The contours of nb borders into out: borders are sorted in place into
 * OpenCV's discovery order. lab is the padded binarized image (needed for
 * CCOMP and TREE; labels are written into it). */
pt_status pt_contours_from_cycles(pt_cycle_border *borders, int nb, const pt_cycle_source *src,
                                  int width, int height, int8_t *lab, int mode, int approx,
                                  int threads, pt_contours *out, pt_error *err);

#endif
