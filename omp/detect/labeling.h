/* 8-connected connected-component labeling of a binary mask (threshold-and-
 * labeling detector, pupiltrack(1), PARAMETERS): two raster passes with union-find. */
#ifndef PT_OMP_LABELING_H
#define PT_OMP_LABELING_H

#include <stdint.h>

#include "lib/core/pt_arena.h"
#include "lib/core/pt_error.h"

typedef struct {
    int size;                /* pixels */
    int x0, y0, x1, y1;      /* inclusive bounding box, mask coordinates */
    int touches_border;      /* a pixel lies on the mask's outer row or column */
} pt_blob;

typedef struct {
    int width, height;
    int32_t *labels; /* width*height, row-major (stride = width); 0 = background, 1..count */
    int count;       /* number of components */
    pt_blob *blobs;  /* blobs[k-1] describes label k */
    int32_t *parent; /* union-find forest (workspace) */
    /* workspace: the runs of the last labeling (row-major order), so the next
     * one clears only the labels they set */
    int32_t *run_start, *run_end, *run_label, *run_row;
    int32_t runs, runs_width; /* the last labeling's run count and width */
} pt_labeling;

/* Reserve buffers for masks up to width x height from arena, so repeated
 * labelings (one per threshold) reuse them. Fails only when out of memory. */
pt_status pt_labeling_reserve(pt_labeling *lab, int width, int height, pt_arena *arena,
                              pt_error *err);

/* Label the non-zero pixels of mask (width x height, at most the reserved
 * size; row y at mask + y*stride) into lab, overwriting its previous labels.
 * lab->labels is read-only for the caller: a labeling clears only the
 * labels the previous one set. */
void pt_label_components(const uint8_t *mask, int stride, int width, int height,
                         pt_labeling *lab);

#endif
