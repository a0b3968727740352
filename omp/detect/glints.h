/* Corneal reflections (glints) of one eye region: the bright spots the
 * reflection top-hat finds (the mask the preprocessing removes), as centroids. */
#ifndef PT_OMP_GLINTS_H
#define PT_OMP_GLINTS_H

#include "lib/detect/glints.h"

/* Glints of the region (x0, y0, w, h) of img: components of the top-hat mask
 * (kernel, threshold as the reflection parameters) smaller than the kernel's
 * square whose peak reaches PT_GLINT_MIN_PEAK and PT_GLINT_MIN_CONTRAST above
 * its surroundings, brightest first, at most max. Returns how many, or -1 when out of
 * memory. Allocates from arena. */
int pt_glints_find(const pt_image *img, int x0, int y0, int w, int h, int kernel, int threshold,
                   pt_glint *out, int max, pt_arena *arena);


/* One frame of a sequence: the region's glints, then the tracker (one per
 * eye) gives each a stable id (ids[k], the tracker's track id). Returns the
 * number of glints (at most max), or -1 with err set. */
int pt_glints_track(pt_tracker *tracker, const pt_image *img, int x0, int y0, int w, int h,
                    int kernel, int threshold, pt_glint *out, int *ids, int max,
                    pt_arena *arena, pt_error *err);
#endif
