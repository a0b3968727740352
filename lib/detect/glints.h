/* Corneal reflections (glints) as track --glints reports them
 * (pupiltrack(1), "--glints"): the glint record and the function a back end
 * offers to find an eye region's glints and number them through a sequence. */
#ifndef PT_GLINTS_H
#define PT_GLINTS_H

#include "lib/assign/mtt.h"
#include "lib/core/pt_arena.h"
#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/io/pt_image.h"

/* Grey level a glint's brightest pixel reaches (corneal reflections of the
 * illuminator are near saturation). */
#define PT_GLINT_MIN_PEAK 200
/* ... and how far it rises above the mean of the pixels around it. */
#define PT_GLINT_MIN_CONTRAST 100

typedef struct {
    double x, y; /* intensity-weighted centroid, full-frame px */
    int area;    /* masked pixels */
} pt_glint;

/* One frame of a sequence: the glints of the region (x0, y0, w, h) of img
 * (w = 0: the whole image), then the tracker (one per eye) gives each a
 * stable id (ids[k], the tracker's track id). Returns the number of glints
 * (at most max), or -1 with err set. */
typedef int (*pt_glints_track_fn)(pt_tracker *tracker, const pt_image *img, int x0, int y0,
                                  int w, int h, int kernel, int threshold, pt_glint *out,
                                  int *ids, int max, pt_arena *arena, pt_error *err);

typedef struct {
    pt_glints_track_fn track;
} pt_glints_backend;

/* Glints are found on the host by the reflection top-hat of the OpenMP
 * preprocessing (omp/detect/glints.c), for every back end that tracks: the
 * work is a few hundred pixels an eye. */
extern const pt_glints_backend pt_glints_host;

#endif
