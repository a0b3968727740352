/* The Canny-Hough detector's final steps shared by omp/detect/hough.c and
 * cuda/detect/hough_refine.cu (PT_HD, header-only): the darkness inside a
 * candidate outline and the choice among the refined candidates.
 *
 * Gradient voting offers several radii around one centre; the iris around
 * the pupil is concentric with it and its outline (iris against sclera) is
 * as strong and as credible (confidence x edge support) as the pupil's.
 * What tells them apart is the inside: the pupil is the darkest region of
 * the eye, the inside of the iris circle is mostly iris. So the choice
 * first leaves out the candidates that hold a clearly darker pupil-like one
 * (pt_hough_holds_darker), then keeps the credible ones (value at least
 * PT_HOUGH_CHOICE_KEEP of the best left), then those whose inside is nearly
 * as dark as the darkest of them (at most 5/4 of its grey level +
 * PT_HOUGH_DARK_MARGIN: the iris of
 * the synthetic and meye-dev eyes is at least 1.5 times as bright as the
 * pupil; on dim remote-camera frames pupil and iris may lie only a few grey
 * levels apart, so the margin stays small), and of these takes the most
 * credible. */
#ifndef PT_HOUGH_CHOOSE_H
#define PT_HOUGH_CHOOSE_H

#include <stdint.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/io/pt_image.h"
#include "lib/detect/confidence.h"
#include "lib/detect/starburst_ray.h"

#define PT_HOUGH_INSIDE_RINGS 3    /* rings of samples at 0.45, 0.6, 0.75 of the outline */
#define PT_HOUGH_INSIDE_ANGLES 16  /* samples per ring */
#define PT_HOUGH_INSIDE_SAMPLES (PT_HOUGH_INSIDE_RINGS * PT_HOUGH_INSIDE_ANGLES)
#define PT_HOUGH_CHOICE_KEEP 0.5   /* candidates at least this share of the best value */
#define PT_HOUGH_DARK_MARGIN 2     /* grey levels beyond 5/4 of the darkest inside */
#define PT_HOUGH_NEST_RATIO 0.75   /* pt_hough_holds_darker: inner radius / outer at most */
#define PT_HOUGH_NEST_SLACK 0.1    /* pt_hough_holds_darker: outer disc widened by this x r */
#define PT_HOUGH_NEST_KEEP 0.25    /* pt_hough_choose: a darker pupil-shaped inner candidate
                                      counts from this share of the best value
                                      (pt_hough_choose_nest: hough_nest_keep) */
#define PT_HOUGH_CHOICE_MAX 16     /* pt_hough_choose looks at this many candidates at most */

/* Darkness inside ellipse e: at each of PT_HOUGH_INSIDE_ANGLES angles the
 * brightest of its samples on rings at 0.45, 0.6 and 0.75 of the axes, and
 * of these angle levels the lower quartile (the PT_HOUGH_INSIDE_ANGLES / 4
 * + 1-th darkest); 255 when fewer than a quarter of the angles have a
 * sample in the image. A pupil is dark along whole radii: a lid over up to
 * three quarters of its angles (or bright reflections) leaves it as dark as
 * a smaller circle in its visible part. The iris around the pupil is bright
 * on its outer rings at every angle, however large the pupil in it.
 * Exact operations only (pt_sb_cos_sin): host and device sample alike. */
static inline PT_HD int pt_hough_inside_level(const pt_image *img, const pt_ellipse *e)
{
    int level[PT_HOUGH_INSIDE_ANGLES], n = 0;
    double ct, st;
    pt_sb_cos_sin(e->theta * (3.14159265358979323846 / 180.0), &ct, &st);
    for (int k = 0; k < PT_HOUGH_INSIDE_ANGLES; k++) {
        double cp, sp;
        pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_HOUGH_INSIDE_ANGLES, &cp, &sp);
        int top = -1;
        for (int ring = 0; ring < PT_HOUGH_INSIDE_RINGS; ring++) {
            double scale = 0.45 + 0.15 * ring;
            double u = scale * e->a * cp, v = scale * e->b * sp;
            double x = e->cx + u * ct - v * st, y = e->cy + u * st + v * ct;
            int xi = (int)floor(x + 0.5), yi = (int)floor(y + 0.5);
            if (xi < 0 || yi < 0 || xi >= img->width || yi >= img->height)
                continue;
            int g = img->buf[(long)yi * img->stride + xi];
            top = g > top ? g : top;
        }
        if (top < 0)
            continue;
        /* insertion: level[0..n) stays sorted */
        int j = n++;
        while (j > 0 && level[j - 1] > top) {
            level[j] = level[j - 1];
            j--;
        }
        level[j] = top;
    }
    if (n * 4 < PT_HOUGH_INSIDE_ANGLES)
        return 255;
    return level[n / 4];
}

/* Whether circle in lies within circle out's disc widened by slack x its
 * radius. */
static inline PT_HD int pt_hough_within(const pt_circle *in, const pt_circle *out, double slack)
{
    double dx = in->cx - out->cx, dy = in->cy - out->cy;
    double reach = (1.0 + slack) * out->r - in->r;
    return reach > 0.0 && dx * dx + dy * dy <= reach * reach;
}

/* Whether circle in lies within out (pt_hough_within, slack
 * PT_HOUGH_NEST_SLACK) with at most PT_HOUGH_NEST_RATIO of its radius. */
static inline PT_HD int pt_hough_nested(const pt_circle *in, const pt_circle *out)
{
    return in->r <= PT_HOUGH_NEST_RATIO * out->r && pt_hough_within(in, out, PT_HOUGH_NEST_SLACK);
}

/* Whether inside level a is clearly darker than b: a x 9/8 + 1 < b. */
static inline PT_HD int pt_hough_clearly_darker(int a, int b)
{
    return 9 * a + 8 < 8 * b;
}

/* Whether candidate m may stand for a pupil inside another candidate: ok,
 * and either credible (value at least keep) or, from weak_keep up, shaped
 * like a pupil by itself (shape, its pupil score (lib/detect/pupil_score.h),
 * at least PT_CONFIDENCE_FILTER, the documented confidence threshold). */
static inline PT_HD int pt_hough_inner_credible(int m, const int *ok, const double *value,
                                                double keep, double weak_keep,
                                                const double *shape)
{
    return ok[m] && (value[m] >= keep || (value[m] >= weak_keep && shape[m] >= PT_CONFIDENCE_FILTER));
}

/* Whether an inner candidate of pupil score inner may stand for the pupil
 * inside an outline of score outer: shaped like a pupil by itself (at least
 * PT_CONFIDENCE_FILTER, the documented confidence threshold) or more so
 * than the outline. */
static inline PT_HD int pt_hough_more_pupil(double inner, double outer)
{
    return inner >= PT_CONFIDENCE_FILTER || inner > outer;
}

/* Whether candidate k's disc holds a candidate that may stand for a pupil
 * (pt_hough_inner_credible) and looks like one (pt_hough_more_pupil) and is
 * clearly darker inside (pt_hough_nested, pt_hough_clearly_darker). Such a k is the iris around the pupil (or the
 * eye around it), however strong its outline: the pupil is the innermost
 * dark disc. A smaller circle within the pupil is as dark as the pupil and
 * leaves it be; one in a darker part of the pupil (a shadow, a lid over the
 * rest) has dark on both sides of part of its outline and a low pupil
 * score, and leaves it be unless its own outline is credible. The inner
 * one must also look like a pupil (pt_hough_more_pupil): pupil-shaped by
 * itself, or more so than the outline, which holding a darker pupil in its
 * middle lowers the outline's own score (lib/detect/pupil_score.h, even);
 * a pupil cut by a lid keeps a higher score than a circle in its darker
 * visible part, while around a pupil barely darker than its iris the iris
 * outline may score as high as the pupil's. */
static inline PT_HD int pt_hough_holds_darker(int n, int k, const int *ok, const double *value,
                                              double keep, double weak_keep, const int *inside,
                                              const double *shape, const pt_circle *c)
{
    for (int m = 0; m < n; m++)
        if (m != k && pt_hough_inner_credible(m, ok, value, keep, weak_keep, shape) &&
            pt_hough_more_pupil(shape[m], shape[k]) &&
            pt_hough_clearly_darker(inside[m], inside[k]) && pt_hough_nested(&c[m], &c[k]))
            return 1;
    return 0;
}

/* Index of the chosen candidate among n (ok[k]: refined; value[k]:
 * confidence x support; inside[k]: pt_hough_inside_level; shape[k]: pupil
 * score of its outline; c[k]: the circle it reports), -1 when none is ok.
 * Candidates holding a darker one (pt_hough_holds_darker: credible at
 * PT_HOUGH_CHOICE_KEEP of the best value, or pupil-shaped from nest_keep
 * of it, hough_nest_keep) are left out first: the pupil's outline may be far
 * weaker than the iris's (a dark iris, little contrast at the pupil's
 * border) and still be the pupil. Of the others, those of at least
 * PT_HOUGH_CHOICE_KEEP of their best value whose inside is nearly as dark
 * as the darkest of them; of these the most credible. Ties go to the lower
 * index (the smaller radius). */
static inline PT_HD int pt_hough_choose_nest(int n, const int *ok, const double *value,
                                             const int *inside, const double *shape,
                                             const pt_circle *c, double nest_keep)
{
    if (n > PT_HOUGH_CHOICE_MAX)
        n = PT_HOUGH_CHOICE_MAX;
    double best = -1.0;
    for (int k = 0; k < n; k++)
        if (ok[k] && value[k] > best)
            best = value[k];
    if (best < 0.0)
        return -1;
    double strong = PT_HOUGH_CHOICE_KEEP * best, weak = nest_keep * best;
    double best_left = -1.0;
    int outer[PT_HOUGH_CHOICE_MAX];
    for (int k = 0; k < n; k++) {
        outer[k] = ok[k] && pt_hough_holds_darker(n, k, ok, value, strong, weak, inside, shape, c);
        if (ok[k] && !outer[k] && value[k] > best_left)
            best_left = value[k];
    }
    if (best_left < 0.0)
        return -1;
    double keep = PT_HOUGH_CHOICE_KEEP * best_left;
    int darkest = 256;
    for (int k = 0; k < n; k++)
        if (ok[k] && !outer[k] && value[k] >= keep && inside[k] < darkest)
            darkest = inside[k];
    int chosen = -1;
    for (int k = 0; k < n; k++)
        if (ok[k] && !outer[k] && value[k] >= keep &&
            4 * inside[k] <= 5 * darkest + 4 * PT_HOUGH_DARK_MARGIN &&
            (chosen < 0 || value[k] > value[chosen]))
            chosen = k;
    return chosen;
}

/* pt_hough_choose_nest with a darker pupil-shaped inner candidate counting
 * from PT_HOUGH_NEST_KEEP of the best value. */
static inline PT_HD int pt_hough_choose(int n, const int *ok, const double *value,
                                        const int *inside, const double *shape,
                                        const pt_circle *c)
{
    return pt_hough_choose_nest(n, ok, value, inside, shape, c, PT_HOUGH_NEST_KEEP);
}

#endif
