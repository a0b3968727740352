/* tl's removal of border pixels on flat edges (pupiltrack(1), tl_flat),
 * shared by omp/detect/tl.c and cuda/detect/tl_border.cu (PT_HD,
 * header-only, IEEE-exact operations only: both back ends keep the same
 * points).
 *
 * A lid cuts the dark blob of a pupil along a nearly straight chord, and a
 * straight shadow of lashes or a lid crease adds straight runs to it; the
 * circle band (tl_circle_band) takes in the chord's pixels near its ends,
 * pulling the circle off the pupil. No part of a pupil's outline is that
 * flat: on a circle of radius r, a point at distance s from pixel i along
 * i's tangent lies s^2 / (2 r) off that tangent, so no pixel of a pupil of
 * radius at most max_radius lies within PT_TL_FLAT_BAND px of the tangent
 * farther than sqrt(2 PT_TL_FLAT_MARGIN max_radius) along it (the margin
 * leaves room for the pixel grid). A border pixel with PT_TL_FLAT_PARTNERS
 * such partners within PT_TL_FLAT_SPAN times that distance, their own edge
 * direction within 10 degrees of i's, lies on an edge flatter than the
 * largest pupil. Where at least PT_TL_FLAT_MIN pixels do and at least
 * PT_TL_FLAT_KEEP of the border stays, the flat pixels leave the border.
 *
 * The edge direction of a pixel is the unit grey-level gradient of the
 * smoothed frame (Sobel's weights on samples PT_TL_FLAT_GAP px apart). The
 * border is in raster order with its rows' first indices, so a pixel's
 * partners are sought only in the rows where its tangent band runs between
 * the reach and PT_TL_FLAT_SPAN times it. */
#ifndef PT_TL_FLAT_H
#define PT_TL_FLAT_H

#include <math.h>
#include <stdint.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/fit.h"

#define PT_TL_FLAT_BAND 2.0   /* px off pixel i's tangent */
#define PT_TL_FLAT_MARGIN 3.0 /* a pupil's pixel at the reach lies this many px off it */
#define PT_TL_FLAT_SPAN 2.0   /* partners lie within this many times the reach */
#define PT_TL_FLAT_COS 0.984807753012208 /* cos 10 degrees: the same edge direction */
#define PT_TL_FLAT_PARTNERS 2 /* partners that make a pixel flat */
#define PT_TL_FLAT_MIN 8      /* flat pixels that make an edge: fewer are chance alignments */
#define PT_TL_FLAT_KEEP 0.3   /* share of the border that must stay */
#define PT_TL_FLAT_GAP 3      /* px between the gradient's samples */

/* The least distance along a pixel's tangent at which a partner counts. */
static inline PT_HD double pt_tl_flat_reach(double max_r)
{
    double r = sqrt(2.0 * PT_TL_FLAT_MARGIN * (max_r > 0.0 ? max_r : 0.0));
    return r > 2.0 * PT_TL_FLAT_MARGIN ? r : 2.0 * PT_TL_FLAT_MARGIN;
}

/* The unit gradient of the 8-bit plane buf (w x h, stride bytes per row) at
 * pixel (x, y), by Sobel's weights on samples PT_TL_FLAT_GAP px apart; (0, 0)
 * where it is flat or a sample leaves the plane. */
static inline PT_HD pt_point pt_tl_flat_normal(const uint8_t *buf, int stride, int w, int h,
                                               int x, int y)
{
    pt_point n = {0.0f, 0.0f};
    const int g = PT_TL_FLAT_GAP;
    if (x - g < 0 || y - g < 0 || x + g >= w || y + g >= h)
        return n;
    const uint8_t *up = buf + (long)(y - g) * stride, *mid = buf + (long)y * stride,
                  *down = buf + (long)(y + g) * stride;
    int gx = (int)up[x + g] + 2 * (int)mid[x + g] + (int)down[x + g] - (int)up[x - g] -
             2 * (int)mid[x - g] - (int)down[x - g];
    int gy = (int)down[x - g] + 2 * (int)down[x] + (int)down[x + g] - (int)up[x - g] -
             2 * (int)up[x] - (int)up[x + g];
    if (gx == 0 && gy == 0)
        return n;
    double len = sqrt((double)(gx * gx + gy * gy));
    n.x = (float)(gx / len);
    n.y = (float)(gy / len);
    return n;
}

/* Whether border pixel i of pts[0..n) (raster order; row_start[r]: the
 * index of the first pixel of row y0 + r, r < rows) lies on a flat edge of
 * the frame plane buf (w x h). */
static inline PT_HD int pt_tl_flat_point(const pt_point *pts, const int *row_start, int y0,
                                         int rows, int n, const uint8_t *buf, int stride,
                                         int w, int h, int i, double reach)
{
    pt_point pi = pts[i];
    pt_point ni = pt_tl_flat_normal(buf, stride, w, h, (int)pi.x, (int)pi.y);
    if (ni.x == 0.0f && ni.y == 0.0f)
        return 0;
    double far = PT_TL_FLAT_SPAN * reach;
    /* A partner's row offset is off ny + along nx: at most band + far |nx|
     * and at least reach |nx| - band away (one row of margin each). */
    double ax = ni.x < 0.0f ? -(double)ni.x : (double)ni.x;
    int y = (int)pi.y - y0, near = (int)(reach * ax - PT_TL_FLAT_BAND) - 1,
        span = (int)(PT_TL_FLAT_BAND + far * ax) + 1;
    if (near < 0)
        near = 0;
    /* Its column offset is off nx - along ny: at most band + far |ny| away
     * (a pixel of margin for the normal's rounding). Each row's pixels are
     * in column order, so only that span of a row is read: the partners and
     * the order they are met in are the same. */
    double ay = ni.y < 0.0f ? -(double)ni.y : (double)ni.y;
    double xspan = PT_TL_FLAT_BAND + far * ay + 1.0;
    double xlo = pi.x - xspan, xhi = pi.x + xspan;
    int partners = 0;
    for (int side = near > 0 ? -1 : 1; side <= 1; side += 2) {
        /* rows y - span .. y - near, then y + near .. y + span (one range when near is 0) */
        int ya = side < 0 || near == 0 ? y - span : y + near;
        int yb = side < 0 ? y - near : y + span;
        ya = ya < 0 ? 0 : ya;
        yb = yb >= rows ? rows - 1 : yb;
        for (int r = ya; r <= yb; r++) {
            int lo = row_start[r], end = r + 1 < rows ? row_start[r + 1] : n;
            for (int hi = end; lo < hi;) { /* the row's first pixel at or right of xlo */
                int mid = lo + (hi - lo) / 2;
                if (pts[mid].x < xlo)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (int k = lo; k < end && pts[k].x <= xhi; k++) {
                double dx = (double)pts[k].x - pi.x, dy = (double)pts[k].y - pi.y;
                double off = dx * ni.x + dy * ni.y, along = dy * ni.x - dx * ni.y;
                if (!(off <= PT_TL_FLAT_BAND && off >= -PT_TL_FLAT_BAND) ||
                    !((along >= reach && along <= far) || (along <= -reach && along >= -far)))
                    continue;
                pt_point nk = pt_tl_flat_normal(buf, stride, w, h, (int)pts[k].x, (int)pts[k].y);
                if ((double)ni.x * nk.x + (double)ni.y * nk.y >= PT_TL_FLAT_COS &&
                    ++partners >= PT_TL_FLAT_PARTNERS)
                    return 1;
            }
        }
    }
    return 0;
}

/* Whether `flat` flat pixels of a border of n leave it: at least
 * PT_TL_FLAT_MIN and as many as the reach (a flat edge runs at least twice
 * the reach, so its pixels are more), with PT_TL_FLAT_KEEP of the border
 * left. */
static inline PT_HD int pt_tl_flat_drops(int flat, int n, double reach)
{
    return flat >= PT_TL_FLAT_MIN && (double)flat >= reach &&
           (double)(n - flat) >= PT_TL_FLAT_KEEP * (double)n;
}


#endif
