/* Starburst's inner pass (man page, inner_pass), shared by
 * omp/detect/starburst.c and cuda/detect/ (PT_HD, header-only).
 *
 * On an eye whose iris is nearly as dark as its pupil, the pupil's border
 * rises by fewer grey levels than the edge threshold and the rays walk on
 * to the limbus: the iterations converge on the iris. Such a fit holds a
 * darker disc in its middle: the median level at a quarter of its axes
 * (the core) lies below the median level at 0.55 of them (the inner ring)
 * by about the pupil-to-iris contrast, while inside a pupil the two are
 * one level. When the converged fit's core is PT_SB_INNER_MIN or more grey
 * levels darker than its inner ring, Starburst iterates once more inside
 * it: from its centre, with the threshold lowered to PT_SB_INNER_SHARE of
 * that contrast (not below PT_SB_THRESHOLD_FLOOR, never raised), its rays
 * and the radii RANSAC accepts held within PT_SB_INNER_REACH of its mean
 * radius, so the limbus is out of reach. The inner pass's most confident
 * fit is the answer when it is found (confidence PT_CONFIDENCE_MIN) and
 * looks more like a pupil than the first pass's answer (the pupil score of
 * lib/detect/pupil_score.h, which is low for an outline around a darker
 * core and for one inside the pupil); otherwise the first pass's stays.
 *
 * The levels are the smoothed frame's pixels at PT_PUPIL_ANGLES angles
 * (pt_sb_cos_sin, exact operations): both back ends read the same pixels,
 * and the medians do not depend on the order the angles were taken in. */
#ifndef PT_STARBURST_INNER_H
#define PT_STARBURST_INNER_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/confidence.h"
#include "lib/detect/pupil_score.h"
#include "lib/detect/starburst_ray.h"

#define PT_SB_INNER_MIN 6          /* grey levels the core lies below the inner ring */
#define PT_SB_INNER_SHARE 0.4      /* the inner pass's threshold: this x that contrast */
#define PT_SB_INNER_REACH 0.7      /* rays and radii within this x the fit's mean radius */

/* The core (0.25 of the axes) and inner ring (0.55) levels of ellipse e at
 * angle k of PT_PUPIL_ANGLES: 0 when either falls outside the image. */
static inline PT_HD int pt_sb_inner_angle(const pt_image *img, const pt_ellipse *e, double ct,
                                          double st, int k, int *core, int *inner)
{
    double cp, sp;
    pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_PUPIL_ANGLES, &cp, &sp);
    double u = 0.25 * e->a * cp, v = 0.25 * e->b * sp;
    if (!pt_confidence_sample_at(img, e->cx + u * ct - v * st, e->cy + u * st + v * ct, core))
        return 0;
    u = 0.55 * e->a * cp;
    v = 0.55 * e->b * sp;
    return pt_confidence_sample_at(img, e->cx + u * ct - v * st, e->cy + u * st + v * ct, inner);
}

/* The rank (0 = the least) of the inner ring's level among n angles: its
 * lower quartile, so a lid or a bright patch over part of a pupil's inner
 * ring does not raise it above the pupil's level. */
static inline PT_HD int pt_sb_inner_rank(int n)
{
    return (n - 1) / 4;
}

/* The settings of an inner pass. */
typedef struct {
    double threshold; /* the edge threshold */
    double reach;     /* rays and radii at most this long, px */
} pt_sb_inner;

/* Whether the fit e, whose core and inner ring medians are core and inner
 * over `valid` angles, wants an inner pass, and its settings (threshold:
 * the first pass's). */
static inline PT_HD int pt_sb_inner_wanted(const pt_ellipse *e, int valid, int core, int inner,
                                           double threshold, pt_sb_inner *out)
{
    if (valid * 4 < PT_PUPIL_ANGLES || inner - core < PT_SB_INNER_MIN)
        return 0;
    double t = PT_SB_INNER_SHARE * (inner - core);
    if (t < PT_SB_THRESHOLD_FLOOR)
        t = PT_SB_THRESHOLD_FLOOR;
    out->threshold = t < threshold ? t : threshold;
    out->reach = PT_SB_INNER_REACH * 0.5 * (e->a + e->b);
    return 1;
}

/* A ray length len limited in the inner pass (inner != 0) to reach px. */
static inline PT_HD int pt_sb_inner_len(int len, int inner, double reach)
{
    return inner && reach < len ? (int)reach : len;
}

/* Whether the inner pass's answer (confidence conf, < 0: none; pupil
 * score inner_score) replaces the first pass's (pupil score outer_score,
 * lib/detect/pupil_score.h): a confidence a detection is reported at, and
 * more like a pupil. */
static inline PT_HD int pt_sb_inner_kept(double conf, double inner_score, double outer_score)
{
    return conf >= PT_CONFIDENCE_MIN && inner_score > outer_score;
}

/* Whether the inner pass's answer (confidence conf, < 0: none; ellipse e)
 * replaces the first pass's (outer_conf, < 0: none; ellipse outer), by
 * pt_sb_inner_kept on their pupil scores over img. */
static inline PT_HD int pt_sb_inner_answer(const pt_image *img, double conf, const pt_ellipse *e,
                                           double outer_conf, const pt_ellipse *outer)
{
    if (!(conf >= 0))
        return 0;
    return pt_sb_inner_kept(conf, pt_pupil_score(img, e),
                            outer_conf >= 0 ? pt_pupil_score(img, outer) : -1.0);
}

/* The same, serially: the fit's medians read here. */
static inline PT_HD int pt_sb_inner_of(const pt_image *img, const pt_ellipse *e, double threshold,
                                       pt_sb_inner *out)
{
    double ct, st;
    if (!pt_confidence_axes(e, &ct, &st))
        return 0;
    int core[PT_PUPIL_ANGLES], inner[PT_PUPIL_ANGLES], n = 0;
    for (int k = 0; k < PT_PUPIL_ANGLES; k++)
        n += pt_sb_inner_angle(img, e, ct, st, k, &core[n], &inner[n]);
    if (n == 0)
        return 0;
    int core_level = pt_pupil_median(core, n);
    pt_pupil_median(inner, n); /* sorts */
    return pt_sb_inner_wanted(e, n, core_level, inner[pt_sb_inner_rank(n)], threshold, out);
}

#endif
