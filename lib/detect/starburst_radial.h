/* Starburst's radial votes (man page, vote_angle), shared by
 * omp/detect/starburst.c and cuda/detect/ (PT_HD, header-only).
 *
 * Along a pupil's border the grey level rises outwards: the edge direction
 * (the unit grey-level gradient, pt_sb_edge_normal) of a point on it points
 * along the circle's radius through the point. A lid's edge, a lid crease
 * or the border of a reflection crosses a circle that settles tangent to it
 * (a fit shrunk into the visible part of a lid-cut pupil) or one through the
 * iris's texture at other angles: a RANSAC sample's circle then collects
 * only the points whose direction lies within vote_angle of its radius, and
 * the circle through the pupil's own arcs wins. The refit takes the circle
 * band as before. Only IEEE-exact operations (+ - * sqrt, compares): both
 * back ends count the same votes. */
#ifndef PT_STARBURST_RADIAL_H
#define PT_STARBURST_RADIAL_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/fit.h"
#include "lib/detect/starburst_ray.h"

/* Whether RANSAC's circle votes test edge directions: vote_angle > 0 at
 * circle_votes=inlier (the band of circle_votes=band is there to hold both
 * pairs of arcs of a very elliptical pupil, whose edge directions leave the
 * circle's radius by up to 20 degrees at a/b 1.4; man page, vote_angle). */
static inline PT_HD int pt_sb_radial_on(const pt_sb_config *k)
{
    return k->vote_cos > -1.0 && k->circle_votes == PT_SB_VOTES_INLIER;
}

/* Whether point p with edge direction nrm may vote for circle c: its
 * direction within vote_angle of the radius from c's centre through p
 * (cos >= k->vote_cos), or no direction to test (a zero normal: flat grey
 * or next to the region's border; p at the centre), or the test off. The
 * definition: the counts that run (pt_sb_circle_radial_vote below, and
 * pt_ransac_circle_radial_votes on the CPU) make its decision point by
 * point (tests/test_starburst_radial.c). */
static inline PT_HD int pt_sb_radial_vote(const pt_sb_config *k, const pt_circle *c, pt_point p,
                                          pt_point nrm)
{
    if (!pt_sb_radial_on(k) || (nrm.x == 0.0f && nrm.y == 0.0f))
        return 1;
    double dx = p.x - c->cx, dy = p.y - c->cy;
    double len = sqrt(dx * dx + dy * dy);
    if (!(len > 0.0))
        return 1;
    return dx * nrm.x + dy * nrm.y >= k->vote_cos * len;
}

/* pt_sb_circle_vote(k, c, p) && pt_sb_radial_vote(k, c, p, nrm) where the
 * radial test is on (pt_sb_radial_on: circle_votes=inlier) with the one
 * square root both take and no branch (the GPU's RANSAC counts with it):
 * the same comparisons on the same values, a point at the centre passing
 * the radial test as there (0 >= vote_cos x 0). */
static inline PT_HD int pt_sb_circle_radial_vote(const pt_sb_config *k, const pt_circle *c,
                                                 pt_point p, pt_point nrm)
{
    double dx = p.x - c->cx, dy = p.y - c->cy;
    double d = sqrt(dx * dx + dy * dy);
    double nx = nrm.x, ny = nrm.y;
    return (fabs(d - c->r) <= k->inlier) &
           ((dx * nx + dy * ny >= k->vote_cos * d) | ((nx == 0.0) & (ny == 0.0)));
}

#endif
