/* What a CPU detector did on one eye, stage by stage, for track --draw-stages
 * (man pupiltrack): the threshold-and-labeling stages of the chosen threshold
 * (the pupil paper's Fig. 2) and Starburst's rays per stage and iteration
 * (its Fig. 3). A detector fills it only when the caller hands one over
 * (pt_overlay's trace); it never reads it back, so the detection is the same
 * with or without it. */
#ifndef PT_TRACE_H
#define PT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/pt_geom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One Starburst ray that found an edge. */
typedef struct {
    pt_point origin; /* stage 1: the iteration's start; stage 2: the stage-1 edge point cast from */
    pt_point edge;   /* the edge point it found */
    int stage;       /* 1 or 2 */
    int fitted;      /* 0: left out of the fit as a point on a flat edge (flat_edges=reject) */
} pt_trace_ray;

/* One Starburst iteration: rays[first .. first + count) of pt_trace. */
typedef struct {
    pt_point start;
    int first, count;
    int has_fit;        /* 0: too few edge points, or no fit: the search stopped here */
    pt_ellipse fit;     /* the iteration's fit (a circle has a == b) */
    double confidence;  /* its confidence; the reported fit: man page, fit_choice */
} pt_trace_iteration;

typedef struct pt_trace {
    /* threshold and labeling: the labeling of the threshold that was fitted */
    int tl_threshold;          /* grey level; -1 when no threshold was chosen */
    int x0, y0, width, height; /* the eye region labelled (full-frame coordinates) */
    int32_t *labels;           /* width x height, 0 = above the threshold, 1..label_count */
    int label_count;
    int blob;                  /* the label of the blob whose border was fitted */
    pt_point *border;          /* its border points, full-frame coordinates */
    int border_count;
    /* Starburst */
    pt_trace_ray *rays;
    int ray_count;
    pt_trace_iteration *iterations;
    int iteration_count;
    int failed;                /* out of memory while recording: incomplete */
    /* capacities (element counts) of the arrays above */
    size_t labels_capacity;
    int border_capacity, ray_capacity, iteration_capacity;
} pt_trace;

/* Empty it for the next eye (buffers kept); pt_trace_free releases them.
 * A zeroed pt_trace is a valid empty one. */
void pt_trace_reset(pt_trace *t);
void pt_trace_free(pt_trace *t);

/* Threshold and labeling: the chosen threshold's labels (the region's
 * x0, y0, width x height, row-major, stride width), their number and the
 * fitted blob's border points (n > 0; the blob is the label under the first).
 * t may be NULL (nothing recorded). */
void pt_trace_tl(pt_trace *t, int threshold, const int32_t *labels, int label_count, int x0,
                 int y0, int width, int height, const pt_point *border, int n);

/* Starburst: stage 1 of a new iteration from start (edges[0..n)), stage-2
 * rays cast from the stage-1 edge point origin, the points kept for the fit
 * after dropping flat edges (pts[0..n), a subsequence of the iteration's
 * edges in order), and the iteration's fit. t may be NULL. */
void pt_trace_sb_stage1(pt_trace *t, pt_point start, const pt_point *edges, int n);
void pt_trace_sb_stage2(pt_trace *t, pt_point origin, const pt_point *edges, int n);
void pt_trace_sb_fitted(pt_trace *t, const pt_point *pts, int n);
void pt_trace_sb_fit(pt_trace *t, const pt_ellipse *fit, double confidence);

#ifdef __cplusplus
}
#endif

#endif
