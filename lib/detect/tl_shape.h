/* Circle mode of tl (pupiltrack(1), tl_shape): which model describes the
 * chosen blob's border, shared by both back ends (PT_HD, header-only).
 *
 * A circle cannot follow an elongated pupil: its RANSAC band must be wide
 * (tl_circle_band) to keep such an outline whole, and a wide band also
 * takes in a lid's or lashes' edge across a lid-cut pupil, pulling the
 * circle off. So the border is also fitted by an ellipse RANSAC with the
 * narrow band (ransac_inlier), and both models are scored by the border
 * pixels within that band. Where the ellipse explains PT_TL_ELLIPSE_GAIN
 * times as many as the circle (the outline is clearly not round) and may
 * stand for the same pupil (axis ratio and centre shift below), circle
 * mode reports the ellipse's centre and mean radius (a + b) / 2, the
 * circle of the ground-truth convention; otherwise the circle stays. */
#ifndef PT_TL_SHAPE_H
#define PT_TL_SHAPE_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/confidence.h"

#define PT_TL_ELLIPSE_GAIN 1.4  /* ellipse votes over circle votes to take the ellipse */
#define PT_TL_ELLIPSE_RATIO 1.5 /* a / b above this is not taken for a pupil */
#define PT_TL_ELLIPSE_SHIFT 0.35 /* the ellipse centre within this x r of the circle's */
/* share of the border pixels on the ellipse that makes the border a clean
 * outline (tl_shape_confidence does not apply) */
#define PT_TL_ELLIPSE_CLEAN 0.75
/* The ellipse's RANSAC samples and votes with every k-th border point, at
 * most this many (its cost is rows x points; the outline needs no more to be
 * found); the best sample's ellipse is refitted on its inliers among all the
 * border points, and the vote that compares it with the circle counts every
 * border point. */
#define PT_TL_ELLIPSE_POINTS 256

/* k: the step between the border points the ellipse's RANSAC uses. */
static inline PT_HD int pt_tl_ellipse_step(int n)
{
    return n <= PT_TL_ELLIPSE_POINTS ? 1 : (n + PT_TL_ELLIPSE_POINTS - 1) / PT_TL_ELLIPSE_POINTS;
}

/* Whether circle mode reports ellipse e (ellipse_votes border pixels within
 * ransac_inlier) instead of circle c (circle_votes within the same band);
 * exact operations only, so both back ends agree. */
static inline PT_HD int pt_tl_prefer_ellipse(const pt_circle *c, int circle_votes,
                                             const pt_ellipse *e, int ellipse_votes)
{
    double dx = e->cx - c->cx, dy = e->cy - c->cy, shift = PT_TL_ELLIPSE_SHIFT * c->r;
    return e->b > 0.0 && e->a <= PT_TL_ELLIPSE_RATIO * e->b &&
           dx * dx + dy * dy <= shift * shift &&
           (double)ellipse_votes > PT_TL_ELLIPSE_GAIN * (double)circle_votes;
}

/* Whether an ellipse can be preferred at all to a circle with circle_votes
 * of n border points: its votes are at most n. Where it cannot, the CPU
 * skips the ellipse's RANSAC (the result is the same). */
static inline PT_HD int pt_tl_ellipse_may_win(int circle_votes, int n)
{
    return PT_TL_ELLIPSE_GAIN * (double)circle_votes < (double)n;
}

/* Whether the ellipse's circle may replace the circle (confidence
 * circle_conf), tl_shape_confidence = share (0: always), the ellipse holding
 * ellipse_votes of the n border pixels: the ellipse's own outline
 * (confidence ellipse_conf) describes the dark region at least share times
 * as well as the circle, and the circle reported for it (confidence
 * reported_conf) is not below the reporting minimum where the circle is
 * not. The ellipse is judged on its own outline: the circle of its mean
 * radius crosses an elongated border, and its samples there fail. Where the
 * ellipse holds PT_TL_ELLIPSE_CLEAN of the border pixels the border is a
 * clean outline and it stands whatever the confidences; exact operations
 * only, so both back ends agree. */
static inline PT_HD int pt_tl_ellipse_credible(double circle_conf, double ellipse_conf,
                                               double reported_conf, double share,
                                               int ellipse_votes, int n)
{
    if (share <= 0.0 || (double)ellipse_votes >= PT_TL_ELLIPSE_CLEAN * (double)n)
        return 1;
    return ellipse_conf >= share * circle_conf &&
           (reported_conf >= PT_CONFIDENCE_MIN || circle_conf < PT_CONFIDENCE_MIN);
}

/* The circle circle mode reports for ellipse e: its centre and mean radius. */
static inline PT_HD pt_circle pt_tl_ellipse_circle(const pt_ellipse *e)
{
    pt_circle c;
    c.cx = e->cx;
    c.cy = e->cy;
    c.r = 0.5 * (e->a + e->b);
    return c;
}

#endif
