/* Canny-Hough's flat edges (pupiltrack(1), hough_flat_edges), shared by
 * omp/detect/hough.c and cuda/detect/canny.cu (PT_HD, header-only).
 *
 * A lid across the pupil, a lid crease or the straight shadow of lashes is
 * dark on the pupil's side and bright on the other, as the pupil's own
 * border is. A circle refined among its edge pixels settles tangent to the
 * lid, shrunk into the pupil's visible part, and gets edge support from
 * it; its pixels with the pupil behind them would vote for the dark-edge
 * centre (lib/detect/hough_dark_vote.h) too. Such an edge is flatter than
 * any pupil: on a circle of radius r, the point s px along the tangent of
 * one of its points lies s^2 / (2 r) px off that tangent, so a circle of
 * radius below max_radius has no edge pixels within PT_HOUGH_FLAT_BAND px
 * of a point's tangent at sqrt(2 band max_radius) px along it or farther
 * (a lid's edge pixels do); reading the nearest pixel of samples half a px
 * apart across the tangent, circles up to 0.6 x max_radius keep every
 * pixel (tests/test_hough_flat.c; the auto max_radius, 40 % of the eye
 * region's short side, is several times a pupil's radius). An edge pixel
 * with PT_HOUGH_FLAT_PARTNERS such
 * pixels, of a gradient within 10 degrees of its own, at 1, 1.5 or 2 times
 * that distance on either side (a lash or a reflection across a lid's edge
 * breaks it here and there) lies on a flat edge; flat edge pixels leave
 * the refinement's fits, the edge support and the dark-edge vote
 * (pupiltrack(1), hough_flat_edges).
 *
 * The edge map is read at the tangent's points offset by -1, -0.5, 0, 0.5,
 * 1 px along the gradient, nearest pixel. IEEE-exact operations only
 * (+ - * / sqrt, floor): both back ends flag the same pixels. */
#ifndef PT_HOUGH_FLAT_H
#define PT_HOUGH_FLAT_H

#include <math.h>
#include <stdint.h>

#include "lib/core/pt_hd.h"

#define PT_HOUGH_FLAT_BAND 1.0                  /* px off the tangent */
#define PT_HOUGH_FLAT_DEPTHS 3                  /* distances looked at per side */
#define PT_HOUGH_FLAT_PARTNERS 2                /* hits that make a pixel flat */
#define PT_HOUGH_FLAT_COS2 0.96984631039295421  /* cos^2 of 10 degrees */

/* The least distance along the tangent at which the edge is looked for:
 * sqrt(2 PT_HOUGH_FLAT_BAND max_r), at least 2 px. */
static inline PT_HD double pt_hough_flat_reach(int max_r)
{
    double r = sqrt(2.0 * PT_HOUGH_FLAT_BAND * (max_r > 0 ? max_r : 0));
    return r > 2.0 ? r : 2.0;
}

/* Whether the w x h map (row stride w; an edge where map[i] & bit) has an
 * edge pixel of a gradient within 10 degrees of (g0x, g0y) (squared length
 * m2) within PT_HOUGH_FLAT_BAND px of the point (ax, ay) along the unit
 * gradient (nx, ny). */
static inline PT_HD int pt_hough_flat_hit(const uint8_t *map, uint8_t bit, const float *gx,
                                          const float *gy, int w, int h, double ax, double ay,
                                          double nx, double ny, double g0x, double g0y,
                                          double m2)
{
    for (int k = -2; k <= 2; k++) {
        double off = 0.5 * PT_HOUGH_FLAT_BAND * k;
        int xi = (int)floor(ax + off * nx + 0.5), yi = (int)floor(ay + off * ny + 0.5);
        if (xi < 0 || yi < 0 || xi >= w || yi >= h)
            continue;
        long j = (long)yi * w + xi;
        if (!(map[j] & bit))
            continue;
        double gjx = gx[j], gjy = gy[j];
        double dot = g0x * gjx + g0y * gjy;
        if (dot > 0.0 && dot * dot >= PT_HOUGH_FLAT_COS2 * m2 * (gjx * gjx + gjy * gjy))
            return 1;
    }
    return 0;
}

/* Whether edge pixel (x, y) of gradient (gx, gy) lies on a flat edge:
 * pt_hough_flat_hit at PT_HOUGH_FLAT_PARTNERS of the points reach, 1.5
 * reach, 2 reach (PT_HOUGH_FLAT_DEPTHS of them) along its tangent on
 * either side. */
static inline PT_HD int pt_hough_flat_edge(const uint8_t *map, uint8_t bit, const float *gx,
                                           const float *gy, int w, int h, int x, int y,
                                           double reach)
{
    double g0x = gx[(long)y * w + x], g0y = gy[(long)y * w + x];
    double m2 = g0x * g0x + g0y * g0y;
    if (!(m2 > 0.0))
        return 0;
    double m = sqrt(m2), nx = g0x / m, ny = g0y / m;
    int found = 0;
    for (int k = 0; k < PT_HOUGH_FLAT_DEPTHS && found < PT_HOUGH_FLAT_PARTNERS; k++) {
        double along = reach * (1.0 + 0.5 * k);
        for (int s = -1; s <= 1 && found < PT_HOUGH_FLAT_PARTNERS; s += 2)
            found += pt_hough_flat_hit(map, bit, gx, gy, w, h, x - s * along * ny,
                                       y + s * along * nx, nx, ny, g0x, g0y, m2);
    }
    return found >= PT_HOUGH_FLAT_PARTNERS;
}

#endif
