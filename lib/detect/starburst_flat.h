/* Starburst's rejection of edge points on flat edges (man page, flat_edges),
 * shared by omp/detect/starburst.c and cuda/detect/ (PT_HD, header-only).
 *
 * A lid, a lid crease or the straight shadow of lashes gives a border that
 * is dark inside and bright outside along the rays, as the pupil's is, and
 * the rays from a start inside a lid-cut pupil find many points on it: the
 * RANSAC circle then settles tangent to it and the fit shrinks into the
 * visible part of the pupil. Such an edge is flatter than any pupil: on a
 * circle of radius r, a point at distance s from point i along i's tangent
 * lies s^2 / (2 r) off that tangent, so no point of a pupil of radius at
 * most max_radius lies within `band` px (man page, flat_band) of the
 * tangent farther than sqrt(2 band max_radius) along it. A wider band
 * also finds a lid whose edge points scatter about it (noise, a soft or
 * low-contrast edge) and reaches farther along it. A point with PT_SB_FLAT_PARTNERS such
 * partners (their own edge direction within 10 degrees of i's) lies on an
 * edge flatter than the largest pupil; when at least PT_SB_FLAT_MIN points
 * do (a lid gives many, scattered points in the iris's texture line up by
 * chance in ones and twos), they are left out of the fit.
 *
 * The edge direction of a point is the unit grey-level gradient of the
 * smoothed frame by central differences over the rays' gap. Only
 * IEEE-exact operations (+ - * / sqrt): both back ends keep the same
 * points. */
#ifndef PT_STARBURST_FLAT_H
#define PT_STARBURST_FLAT_H

#include <stdint.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/starburst_ray.h"

#define PT_SB_FLAT_COS 0.984807753012208 /* cos 10 degrees: the same edge direction */
#define PT_SB_FLAT_PARTNERS 2   /* partners that make a point flat */
#define PT_SB_FLAT_MIN 4        /* flat points that make an edge: fewer are chance alignments */

/* The unit gradient at edge point e (0, 0 where it is flat or a sample would
 * leave the roi). */
static inline PT_HD pt_point pt_sb_edge_normal(const pt_sb_view *c, pt_point e)
{
    pt_point n = {0.0f, 0.0f};
    double x = e.x, y = e.y, g = c->gap;
    if (!(x - g >= c->xmin && x + g <= c->xmax && y - g >= c->ymin && y + g <= c->ymax))
        return n;
    double gx = pt_sb_sample(c, x + g, y) - pt_sb_sample(c, x - g, y);
    double gy = pt_sb_sample(c, x, y + g) - pt_sb_sample(c, x, y - g);
    double len = sqrt(gx * gx + gy * gy);
    if (!(len > 0.0))
        return n;
    n.x = (float)(gx / len);
    n.y = (float)(gy / len);
    return n;
}

/* The least distance along a point's tangent at which a partner within
 * band px of it counts: sqrt(2 band max_r), at least 2 band. */
static inline PT_HD double pt_sb_flat_reach(double max_r, double band)
{
    double r = sqrt(2.0 * band * (max_r > 0.0 ? max_r : 0.0));
    return r > 2.0 * band ? r : 2.0 * band;
}

/* Whether point j is a partner of point i (normals ni, nj; reach from
 * pt_sb_flat_reach with the same band). */
static inline PT_HD int pt_sb_flat_partner(pt_point pi, pt_point ni, pt_point pj, pt_point nj,
                                           double reach, double band)
{
    double cosang = (double)ni.x * nj.x + (double)ni.y * nj.y;
    if (!(cosang >= PT_SB_FLAT_COS))
        return 0;
    double dx = (double)pj.x - pi.x, dy = (double)pj.y - pi.y;
    double off = dx * ni.x + dy * ni.y, along = dy * ni.x - dx * ni.y;
    return off <= band && off >= -band &&
           (along >= reach || along <= -reach);
}

/* Whether point i of pts[0..n) (normals nrm) lies on a flat edge, among
 * the points j with found[j] != 0 (found NULL: all of them; the CUDA
 * pipeline tests its ray slots before compacting them); band and reach as
 * pt_sb_flat_partner takes them. */
static inline PT_HD int pt_sb_flat_point(const pt_point *pts, const pt_point *nrm,
                                         const uint8_t *found, int n, int i, double reach,
                                         double band)
{
    if (nrm[i].x == 0.0f && nrm[i].y == 0.0f)
        return 0;
    int partners = 0;
    for (int j = 0; j < n && partners < PT_SB_FLAT_PARTNERS; j++)
        partners += j != i && (!found || found[j]) &&
                    pt_sb_flat_partner(pts[i], nrm[i], pts[j], nrm[j], reach, band);
    return partners >= PT_SB_FLAT_PARTNERS;
}

/* Whether the flat points, `flat` of them, leave the fit. */
static inline PT_HD int pt_sb_flat_drops(int flat)
{
    return flat >= PT_SB_FLAT_MIN;
}

#endif
