/* Canny-Hough refinement's test of an edge point's dark side, shared by
 * omp/detect/hough.c and cuda/detect/hough_refine.cu (PT_HD, header-only).
 *
 * The edges around a candidate circle that face its centre are not all the
 * pupil's: the lid crease and the lashes above an occluding lid, the iris
 * outline, skin texture. What sets the pupil's own border apart is that a
 * little way in on its dark side lies the pupil, as dark as the candidate's
 * inside (pt_hough_inside_level); behind a lash or a crease lies skin, behind
 * the iris outline iris. So an edge point is kept for the refinement's fits
 * when, at 1, 2 or 3 steps of PT_HOUGH_DARK_REACH x r in from it along its
 * dark direction, the grey level is at most the inside level + the spread
 * (hough_dark_spread), or that point lies outside the image (nothing to
 * tell). Several depths, so that a glint just inside the pupil's border
 * does not hide the pupil behind it. Exact operations only. */
#ifndef PT_HOUGH_DARK_H
#define PT_HOUGH_DARK_H

#include <math.h>

#include "lib/detect/fit.h"
#include "lib/detect/hough_choose.h"
#include "lib/core/pt_hd.h"
#include "lib/io/pt_image.h"

#define PT_HOUGH_DARK_REACH 0.1 /* step in from the edge, share of the radius */
#define PT_HOUGH_DARK_STEPS 3   /* depths tried: 1, 2, 3 steps */

/* The limit for pt_hough_dark_behind: inside level + spread, 255 (no test)
 * when that reaches 255. */
static inline PT_HD int pt_hough_dark_limit(int inside_level, int spread)
{
    int limit = inside_level + spread;
    return limit < 255 ? limit : 255;
}

/* pt_hough_dark_limit for candidate circle c of img: its inside level
 * (pt_hough_inside_level of c as an ellipse) + spread. */
static inline PT_HD int pt_hough_dark_limit_circle(const pt_image *img, const pt_circle *c,
                                                   int spread)
{
    pt_ellipse as_ellipse;
    pt_ellipse_from_circle(c, &as_ellipse);
    return pt_hough_dark_limit(pt_hough_inside_level(img, &as_ellipse), spread);
}

/* Whether the point 1, 2, ... PT_HOUGH_DARK_STEPS steps of reach px in from
 * (x, y) along the unit dark direction (ux, uy), nearest pixel, has a grey
 * level at most limit (pt_hough_dark_limit), the first that lies outside
 * the image ending the test with yes. */
static inline PT_HD int pt_hough_dark_behind(const pt_image *img, double x, double y, double ux,
                                             double uy, double reach, int limit)
{
    for (int k = 1; k <= PT_HOUGH_DARK_STEPS; k++) {
        double px = x + k * reach * ux, py = y + k * reach * uy;
        int xi = (int)floor(px + 0.5), yi = (int)floor(py + 0.5);
        if (xi < 0 || yi < 0 || xi >= img->width || yi >= img->height)
            return 1;
        if (img->buf[(long)yi * img->stride + xi] <= limit)
            return 1;
    }
    return 0;
}

#endif
