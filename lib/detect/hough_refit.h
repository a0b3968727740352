/* Canny-Hough circle mode's ellipse refinement (hough_refit=ellipse), shared
 * by omp/detect/hough.c and cuda/detect/hough_refine.cu (PT_HD, header-only).
 *
 * The synthetic and real pupils are elliptical (a/b up to 1.25) and a circle
 * fitted to one settles on the arcs of one side, its centre off by up to
 * (a - b) / 2 (Starburst met the same problem: lib/detect/starburst_refit.h). Circle
 * mode therefore runs ellipse mode's refinement too (a RANSAC ellipse over
 * the edges around the circle, refitted twice on the edges near it) and
 * reports that ellipse's centre and mean radius (a + b) / 2 when it is
 * credible as the same pupil: a / b at most PT_HOUGH_REFIT_RATIO and its
 * centre within PT_HOUGH_REFIT_SHIFT x r of the circle's. Otherwise the
 * circle stays. */
#ifndef PT_HOUGH_REFIT_H
#define PT_HOUGH_REFIT_H

#include <math.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"

#define PT_HOUGH_REFIT_RATIO 1.5  /* a / b above this is not taken for a pupil */
#define PT_HOUGH_REFIT_SHIFT 0.35 /* the ellipse centre within this x r of the circle's */
/* the ellipse RANSAC votes with at most this many annulus points */
#define PT_HOUGH_ELLIPSE_POINTS 1200

/* Whether ellipse e may stand for circle c's pupil (exact operations only). */
static inline PT_HD int pt_hough_refit_credible(const pt_circle *c, const pt_ellipse *e)
{
    double dx = e->cx - c->cx, dy = e->cy - c->cy, shift = PT_HOUGH_REFIT_SHIFT * c->r;
    return e->b > 0.0 && e->a <= PT_HOUGH_REFIT_RATIO * e->b && dx * dx + dy * dy <= shift * shift;
}

/* Circle c replaced by ellipse e's centre and mean radius. */
static inline PT_HD pt_circle pt_hough_refit_circle(const pt_ellipse *e)
{
    pt_circle c;
    c.cx = e->cx;
    c.cy = e->cy;
    c.r = 0.5 * (e->a + e->b);
    return c;
}

/* The annulus points pts[0..n) the ellipse RANSAC samples and votes with,
 * thinned in place to every k-th (k = ceil(n / PT_HOUGH_ELLIPSE_POINTS))
 * when there are more than PT_HOUGH_ELLIPSE_POINTS: the RANSAC costs rows x
 * points, and a large pupil's outline (or one among many other edges) needs
 * no more to be found; the refits that follow take every edge near the
 * ellipse. Keeps the points' order. Returns the new count. */
static inline PT_HD int pt_hough_thin_annulus(pt_point *pts, int n)
{
    if (n <= PT_HOUGH_ELLIPSE_POINTS)
        return n;
    int stride = (n + PT_HOUGH_ELLIPSE_POINTS - 1) / PT_HOUGH_ELLIPSE_POINTS, m = 0;
    for (int k = 0; k < n; k += stride)
        pts[m++] = pts[k];
    return m;
}

#endif
