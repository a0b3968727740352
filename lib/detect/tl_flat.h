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

/* Pixel i's partner search (pt_tl_flat_point): its position and edge
 * direction, the distances along its tangent a partner lies between, the
 * rows its tangent band crosses there (rows row_lo..row_hi of the border,
 * less the gap (gap_lo, gap_hi) nearer than the reach) and the columns. */
typedef struct {
    pt_point p, normal;
    double reach, far, xlo, xhi;
    int row_lo, row_hi, gap_lo, gap_hi;
    const pt_point *normals; /* every border pixel's pt_tl_flat_normal, or NULL: taken as needed */
} pt_tl_flat_probe;

/* Sets up pixel i's search; 0 where it has no edge direction (not flat). */
static inline PT_HD int pt_tl_flat_probe_init(const pt_point *pts, int y0, int rows,
                                              const uint8_t *buf, int stride, int w, int h,
                                              int i, double reach, pt_tl_flat_probe *q)
{
    q->p = pts[i];
    q->normals = NULL;
    q->normal = pt_tl_flat_normal(buf, stride, w, h, (int)q->p.x, (int)q->p.y);
    if (q->normal.x == 0.0f && q->normal.y == 0.0f)
        return 0;
    q->reach = reach;
    q->far = PT_TL_FLAT_SPAN * reach;
    /* A partner's row offset is off ny + along nx: at most band + far |nx|
     * and at least reach |nx| - band away (one row of margin each). */
    double ax = q->normal.x < 0.0f ? -(double)q->normal.x : (double)q->normal.x;
    int y = (int)q->p.y - y0, near = (int)(reach * ax - PT_TL_FLAT_BAND) - 1,
        span = (int)(PT_TL_FLAT_BAND + q->far * ax) + 1;
    q->row_lo = y - span < 0 ? 0 : y - span;
    q->row_hi = y + span >= rows ? rows - 1 : y + span;
    q->gap_lo = near > 0 ? y - near : y; /* rows strictly between are skipped */
    q->gap_hi = near > 0 ? y + near : y;
    /* Its column offset is off nx - along ny: at most band + far |ny| away
     * (a pixel of margin for the normal's rounding). */
    double ay = q->normal.y < 0.0f ? -(double)q->normal.y : (double)q->normal.y;
    double xspan = PT_TL_FLAT_BAND + q->far * ay + 1.0;
    q->xlo = q->p.x - xspan;
    q->xhi = q->p.x + xspan;
    return 1;
}

/* Whether border row r is one the probe searches. */
static inline PT_HD int pt_tl_flat_probe_row(const pt_tl_flat_probe *q, int r)
{
    return r >= q->row_lo && r <= q->row_hi && !(r > q->gap_lo && r < q->gap_hi);
}

/* The partners of the probe's pixel in border row r, at most `limit`. Each
 * row's pixels are in column order, so only the probe's columns are read. */
static inline PT_HD int pt_tl_flat_row_partners(const pt_tl_flat_probe *q, const pt_point *pts,
                                                const int *row_start, int rows, int n,
                                                const uint8_t *buf, int stride, int w, int h,
                                                int r, int limit)
{
    int lo = row_start[r], end = r + 1 < rows ? row_start[r + 1] : n, partners = 0;
    for (int hi = end; lo < hi;) { /* the row's first pixel at or right of xlo */
        int mid = lo + (hi - lo) / 2;
        if (pts[mid].x < q->xlo)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int k = lo; k < end && pts[k].x <= q->xhi; k++) {
        double dx = (double)pts[k].x - q->p.x, dy = (double)pts[k].y - q->p.y;
        double off = dx * q->normal.x + dy * q->normal.y, along = dy * q->normal.x - dx * q->normal.y;
        if (!(off <= PT_TL_FLAT_BAND && off >= -PT_TL_FLAT_BAND) ||
            !((along >= q->reach && along <= q->far) || (along <= -q->reach && along >= -q->far)))
            continue;
        pt_point nk = q->normals ? q->normals[k]
                                 : pt_tl_flat_normal(buf, stride, w, h, (int)pts[k].x, (int)pts[k].y);
        if ((double)q->normal.x * nk.x + (double)q->normal.y * nk.y >= PT_TL_FLAT_COS &&
            ++partners >= limit)
            break;
    }
    return partners;
}

/* Whether border pixel i of pts[0..n) (raster order; row_start[r]: the
 * index of the first pixel of row y0 + r, r < rows) lies on a flat edge of
 * the frame plane buf (w x h): PT_TL_FLAT_PARTNERS partners in any rows.
 * normals: each pixel's pt_tl_flat_normal, taken once for all the pixels'
 * searches (a pixel is a candidate partner of many), or NULL. */
static inline PT_HD int pt_tl_flat_point(const pt_point *pts, const int *row_start, int y0,
                                         int rows, int n, const uint8_t *buf, int stride,
                                         int w, int h, int i, double reach,
                                         const pt_point *normals)
{
    pt_tl_flat_probe q;
    if (!pt_tl_flat_probe_init(pts, y0, rows, buf, stride, w, h, i, reach, &q))
        return 0;
    q.normals = normals;
    int partners = 0;
    for (int r = q.row_lo; r <= q.row_hi; r++)
        if (pt_tl_flat_probe_row(&q, r) &&
            (partners += pt_tl_flat_row_partners(&q, pts, row_start, rows, n, buf, stride, w, h,
                                                 r, PT_TL_FLAT_PARTNERS - partners)) >=
                PT_TL_FLAT_PARTNERS)
            return 1;
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
