/* Starburst's inner pass (man page, inner_pass), shared by
 * omp/detect/starburst.c and cuda/detect/ (PT_HD, header-only).
 *
 * On an eye whose iris is nearly as dark as its pupil, the pupil's border
 * rises by fewer grey levels than the edge threshold and the rays walk on
 * to the limbus: the iterations converge on the iris. Such a fit holds a
 * darker disc in its middle: the median level at a quarter of its axes
 * (the core) lies below the median level at 0.55 of them (the inner ring)
 * by about the pupil-to-iris contrast, while inside a pupil the two are
 * one level. A fit holds a darker disc when its core is PT_SB_INNER_MIN or
 * more grey levels darker than its inner ring's lower quartile (a lid
 * across part of a pupil's inner ring does not raise it), or, when its
 * outline confidence reaches PT_CONFIDENCE_MIN, PT_SB_INNER_WEAK or more
 * (pt_sb_fit_dark). Of the iterations' fits, one without a darker disc
 * beats one with it (then fit_choice decides,
 * lib/detect/starburst_choice.h). At the first iteration whose fit holds a
 * darker disc, Starburst goes on iterating inside it (within
 * max_iterations): from its centre, with the threshold lowered to
 * PT_SB_INNER_SHARE of that contrast (not below PT_SB_THRESHOLD_FLOOR,
 * never raised), its rays held within PT_SB_INNER_REACH of its mean radius,
 * so the limbus is out of reach, and the radii RANSAC accepts within
 * PT_SB_INNER_RING of it (the darker disc ends inside the inner ring). The
 * inner pass's fits are judged by their outline confidence with the samples
 * edge_gap px inside and outside the outline (pt_sb_inner_offset). Its
 * best fit (pt_sb_fit_wins) is the answer when it is found (confidence
 * PT_CONFIDENCE_MIN) and its pupil score (lib/detect/pupil_score.h) is at
 * least PT_SB_INNER_SCORE of the first pass's answer's (pt_sb_inner_kept);
 * otherwise the first pass's stays.
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
/* The same in an outline found with confidence PT_CONFIDENCE_MIN or more
 * (pupiltrack(1), inner_pass). Over the iterations' fits on 30 monocular
 * synthetic and real sets, 5 of about 4500 around a pupil have their inner
 * ring's lower quartile 4 or more grey levels above the core, against 28 of
 * about 350 around an iris with 4 or 5 (a pupil a few levels darker than
 * its iris, whose texture darkens part of the ring). An outline with too
 * little support to be found is not judged on so small a step. */
#define PT_SB_INNER_WEAK 4
#define PT_SB_INNER_RING 0.55      /* the inner ring, a share of the axes */
#define PT_SB_INNER_SHARE 0.4      /* the inner pass's threshold: this x that contrast */
#define PT_SB_INNER_REACH 0.7      /* rays within this x the fit's mean radius */
#define PT_SB_INNER_SCORE 0.5      /* the inner answer's pupil score: at least this x the first's */

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
    u = PT_SB_INNER_RING * e->a * cp;
    v = PT_SB_INNER_RING * e->b * sp;
    return pt_confidence_sample_at(img, e->cx + u * ct - v * st, e->cy + u * st + v * ct, inner);
}

/* The rank (0 = the least) of the inner ring's level among n angles: its
 * lower quartile, so a lid or a bright patch over part of a pupil's inner
 * ring does not raise it above the pupil's level. */
static inline PT_HD int pt_sb_inner_rank(int n)
{
    return (n - 1) / 4;
}

/* A fit's levels: its core's median and its inner ring's lower quartile
 * (pt_sb_inner_rank) over the `valid' angles inside the image. */
typedef struct {
    int valid, core, inner;
} pt_sb_levels;

/* Whether a fit with levels v holds a darker disc: at least a quarter of
 * its angles inside the image and the core PT_SB_INNER_MIN or more grey
 * levels below the inner ring. */
static inline PT_HD int pt_sb_dark_core(const pt_sb_levels *v)
{
    return v->valid * 4 >= PT_PUPIL_ANGLES && v->inner - v->core >= PT_SB_INNER_MIN;
}

/* Whether an iteration's fit with levels v and outline confidence conf
 * holds a darker disc: pt_sb_dark_core, or, in an outline found with
 * confidence PT_CONFIDENCE_MIN or more, a core PT_SB_INNER_WEAK or more
 * grey levels below the inner ring (a pupil only a few grey levels darker
 * than its iris, the iris's texture darkening part of the inner ring). */
static inline PT_HD int pt_sb_fit_dark(const pt_sb_levels *v, double conf)
{
    return pt_sb_dark_core(v) || (v->valid * 4 >= PT_PUPIL_ANGLES && conf >= PT_CONFIDENCE_MIN &&
                                  v->inner - v->core >= PT_SB_INNER_WEAK);
}

/* Whether an iteration's fit (confidence conf, dark: pt_sb_fit_dark)
 * replaces the best so far (best_conf, < 0: none; best_dark): a fit
 * without a darker disc beats one with it; otherwise the more confident,
 * the first of equals. */
static inline PT_HD int pt_sb_fit_better(double conf, int dark, double best_conf, int best_dark)
{
    if (!(best_conf >= 0))
        return 1;
    if (dark != best_dark)
        return !dark;
    return conf > best_conf;
}

/* The settings of an inner pass. */
typedef struct {
    double threshold; /* the edge threshold */
    double reach;     /* rays at most this long, px */
    double radius;    /* radii RANSAC accepts at most this long, px */
} pt_sb_inner;

/* Whether fit e (levels v, outline confidence conf) wants an inner pass,
 * and its settings (threshold: the first pass's). */
static inline PT_HD int pt_sb_inner_wanted(const pt_ellipse *e, const pt_sb_levels *v,
                                           double conf, double threshold, pt_sb_inner *out)
{
    if (!pt_sb_fit_dark(v, conf))
        return 0;
    double t = PT_SB_INNER_SHARE * (v->inner - v->core);
    if (t < PT_SB_THRESHOLD_FLOOR)
        t = PT_SB_THRESHOLD_FLOOR;
    out->threshold = t < threshold ? t : threshold;
    out->reach = PT_SB_INNER_REACH * 0.5 * (e->a + e->b);
    out->radius = PT_SB_INNER_RING * 0.5 * (e->a + e->b);
    return 1;
}

/* The inner pass's outline confidence (pupiltrack(1), inner_pass) is
 * pt_confidence_ellipse_off with its samples this far inside and outside
 * the outline: the edge gap, at least PT_CONFIDENCE_OFFSET. The border
 * the lowered threshold looks for rises by a few grey levels across the
 * smoothing's width, the rise pt_sb_cast measures over 2 edge_gap px: 2 px
 * either side of it often see less than PT_CONFIDENCE_MARGIN of it, and the
 * pupil found there would fall below PT_CONFIDENCE_MIN. */
static inline PT_HD double pt_sb_inner_offset(int gap)
{
    return gap > PT_CONFIDENCE_OFFSET ? (double)gap : PT_CONFIDENCE_OFFSET;
}

/* A ray length len limited in the inner pass (inner != 0) to reach px. */
static inline PT_HD int pt_sb_inner_len(int len, int inner, double reach)
{
    return inner && reach < len ? (int)reach : len;
}

/* Whether the inner pass's answer (confidence conf, < 0: none; pupil
 * score inner_score) replaces the first pass's (pupil score outer_score,
 * lib/detect/pupil_score.h): a confidence a detection is reported at, and a
 * score at least PT_SB_INNER_SCORE of the first's. The first pass's outline
 * holds a darker disc, which its score's `even' share counts only in part
 * on a low-contrast eye (the step from the pupil to the iris is small
 * against the one from the iris to the sclera), while the inner outline's
 * small step weakens its `edge' share: a lower score than the first's
 * still marks the pupil. An outline inside the pupil scores far lower
 * (`whole', `closed'). */
static inline PT_HD int pt_sb_inner_kept(double conf, double inner_score, double outer_score)
{
    return conf >= PT_CONFIDENCE_MIN && inner_score >= PT_SB_INNER_SCORE * outer_score;
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

/* The levels of fit e, serially (the CUDA back end reads the angles over
 * a block and ranks them: the same levels). */
static inline PT_HD void pt_sb_levels_of(const pt_image *img, const pt_ellipse *e,
                                         pt_sb_levels *out)
{
    out->valid = out->core = out->inner = 0;
    double ct, st;
    if (!pt_confidence_axes(e, &ct, &st))
        return;
    int core[PT_PUPIL_ANGLES], inner[PT_PUPIL_ANGLES], n = 0;
    for (int k = 0; k < PT_PUPIL_ANGLES; k++)
        n += pt_sb_inner_angle(img, e, ct, st, k, &core[n], &inner[n]);
    out->valid = n;
    if (n == 0)
        return;
    out->core = pt_pupil_median(core, n);
    pt_pupil_median(inner, n); /* sorts */
    out->inner = inner[pt_sb_inner_rank(n)];
}

#endif
