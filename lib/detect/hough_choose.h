/* The Canny-Hough detector's final steps shared by omp/detect/hough.c and
 * cuda/detect/hough_refine.cu (PT_HD, header-only): the darkness inside a
 * candidate outline and the choice among the refined candidates.
 *
 * Gradient voting offers several radii around one centre; the iris around
 * the pupil is concentric with it and its outline (iris against sclera) is
 * as strong and as credible (confidence x edge support) as the pupil's.
 * What tells them apart is the inside: the pupil is the darkest region of
 * the eye, the inside of the iris circle is mostly iris. So the choice
 * first keeps the credible candidates (value at least PT_HOUGH_CHOICE_KEEP
 * of the best), then those whose inside is nearly as dark as the darkest of
 * them (at most 5/4 of its grey level + PT_HOUGH_DARK_MARGIN: the iris of
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
#include "lib/detect/starburst_ray.h"

#define PT_HOUGH_INSIDE_RINGS 3    /* rings of samples at 0.45, 0.6, 0.75 of the outline */
#define PT_HOUGH_INSIDE_ANGLES 16  /* samples per ring */
#define PT_HOUGH_INSIDE_SAMPLES (PT_HOUGH_INSIDE_RINGS * PT_HOUGH_INSIDE_ANGLES)
#define PT_HOUGH_CHOICE_KEEP 0.5   /* candidates at least this share of the best value */
#define PT_HOUGH_DARK_MARGIN 2     /* grey levels beyond 5/4 of the darkest inside */
#define PT_HOUGH_NEST_RATIO 0.75   /* pt_hough_holds_darker: inner radius / outer at most */
#define PT_HOUGH_NEST_SLACK 0.1    /* pt_hough_holds_darker: outer disc widened by this x r */

/* Median grey level of the samples inside ellipse e (rings at 0.45, 0.6 and
 * 0.75 of its axes; bright reflections and a lid over part of the pupil
 * stay a minority); 255 when fewer than a quarter fall in the image.
 * Exact operations only (pt_sb_cos_sin): host and device sample alike. */
static inline PT_HD int pt_hough_inside_level(const pt_image *img, const pt_ellipse *e)
{
    int level[PT_HOUGH_INSIDE_SAMPLES], n = 0;
    double ct, st;
    pt_sb_cos_sin(e->theta * (3.14159265358979323846 / 180.0), &ct, &st);
    for (int ring = 0; ring < PT_HOUGH_INSIDE_RINGS; ring++) {
        double scale = 0.45 + 0.15 * ring;
        for (int k = 0; k < PT_HOUGH_INSIDE_ANGLES; k++) {
            double cp, sp;
            pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_HOUGH_INSIDE_ANGLES, &cp, &sp);
            double u = scale * e->a * cp, v = scale * e->b * sp;
            double x = e->cx + u * ct - v * st, y = e->cy + u * st + v * ct;
            int xi = (int)floor(x + 0.5), yi = (int)floor(y + 0.5);
            if (xi < 0 || yi < 0 || xi >= img->width || yi >= img->height)
                continue;
            int g = img->buf[(long)yi * img->stride + xi], j = n++;
            /* insertion: level[0..n) stays sorted */
            while (j > 0 && level[j - 1] > g) {
                level[j] = level[j - 1];
                j--;
            }
            level[j] = g;
        }
    }
    if (n * 4 < PT_HOUGH_INSIDE_SAMPLES)
        return 255;
    return level[n / 2];
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

/* Whether candidate k's disc holds a credible candidate (ok, value at least
 * keep) that is clearly darker inside (pt_hough_nested,
 * pt_hough_clearly_darker). Such a k is the iris around the pupil (or the
 * eye around it), however strong its outline: the pupil is the innermost
 * dark disc. A smaller circle within the pupil is as dark as the pupil and
 * leaves it be. */
static inline PT_HD int pt_hough_holds_darker(int n, int k, const int *ok, const double *value,
                                              double keep, const int *inside,
                                              const pt_circle *c)
{
    for (int m = 0; m < n; m++)
        if (m != k && ok[m] && value[m] >= keep && pt_hough_clearly_darker(inside[m], inside[k]) &&
            pt_hough_nested(&c[m], &c[k]))
            return 1;
    return 0;
}

/* Index of the chosen candidate among n (ok[k]: refined; value[k]:
 * confidence x support; inside[k]: pt_hough_inside_level; c[k]: the circle
 * it reports), -1 when none is ok. Candidates holding a darker one
 * (pt_hough_holds_darker) are left out. Ties go to the lower index (the
 * smaller radius). */
static inline PT_HD int pt_hough_choose(int n, const int *ok, const double *value,
                                        const int *inside, const pt_circle *c)
{
    double best = -1.0;
    for (int k = 0; k < n; k++)
        if (ok[k] && value[k] > best)
            best = value[k];
    if (best < 0.0)
        return -1;
    double keep = PT_HOUGH_CHOICE_KEEP * best;
    int darkest = 256;
    for (int k = 0; k < n; k++)
        if (ok[k] && value[k] >= keep && inside[k] < darkest)
            darkest = inside[k];
    int chosen = -1;
    for (int k = 0; k < n; k++)
        if (ok[k] && value[k] >= keep &&
            4 * inside[k] <= 5 * darkest + 4 * PT_HOUGH_DARK_MARGIN &&
            (chosen < 0 || value[k] > value[chosen]) &&
            !pt_hough_holds_darker(n, k, ok, value, keep, inside, c))
            chosen = k;
    return chosen;
}

#endif
