/* Detection confidence shared by every detector and back end: the share of
 * points sampled along the fitted outline where the image just inside is
 * darker than just outside, as it is at a pupil border. */
#ifndef PT_CONFIDENCE_H
#define PT_CONFIDENCE_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/io/pt_image.h"
#include "lib/detect/starburst_ray.h"

#include <math.h>

#define PT_CONFIDENCE_SAMPLES 64   /* points along the outline */
#define PT_CONFIDENCE_OFFSET 2.0   /* px inside / outside the outline */
#define PT_CONFIDENCE_MARGIN 3     /* grey levels outside must exceed inside by */
#define PT_CONFIDENCE_MIN 0.3      /* detectors report NOTFOUND below this */
/* The reported confidence above which detections are documented to be
 * within 5 px of the pupil centre in at least 95 % of frames (pupiltrack(1),
 * METRICS: confidence); eval's default --confidence-threshold. */
#define PT_CONFIDENCE_FILTER 0.4

/* Defined here, inline, so that the CPU and every CUDA file compile the same
 * code (PT_HD). pt_confidence_circle and pt_confidence_ellipse: in [0,1];
 * samples falling outside the image do not count; 0 when fewer than a
 * quarter of them fall inside. The pieces of pt_confidence_ellipse are for
 * callers that take the samples in parallel (a warp): the outline's cos/sin
 * (0 when the axes are not positive: confidence 0), sample k of
 * PT_CONFIDENCE_SAMPLES (0 when it falls outside the image, else 1 and *dark
 * = inside darker by the margin), and the confidence from the counts, which
 * do not depend on the order the samples were taken in. */
static inline PT_HD int pt_confidence_sample_at(const pt_image *img, double x, double y, int *value)
{
    int xi = (int)floor(x + 0.5), yi = (int)floor(y + 0.5);
    if (xi < 0 || yi < 0 || xi >= img->width || yi >= img->height)
        return 0;
    *value = img->buf[(long)yi * img->stride + xi];
    return 1;
}

/* Sample k's grey levels off px inside and outside the outline; 0 when
 * either falls outside the image. */
static inline PT_HD int pt_confidence_levels_off(const pt_image *img, const pt_ellipse *e,
                                                 double ct, double st, int k, double off,
                                                 int *inside, int *outside)
{
    double phi = 2.0 * 3.14159265358979323846 * k / PT_CONFIDENCE_SAMPLES;
    double cp, sp;
    pt_sb_cos_sin(phi, &cp, &sp);
    double ai = e->a - off, bi = e->b - off;
    double ao = e->a + off, bo = e->b + off;
    if (ai < 0.5)
        ai = 0.5;
    if (bi < 0.5)
        bi = 0.5;
    double ui = ai * cp, vi = bi * sp, uo = ao * cp, vo = bo * sp;
    return pt_confidence_sample_at(img, e->cx + ui * ct - vi * st, e->cy + ui * st + vi * ct,
                                   inside) &&
           pt_confidence_sample_at(img, e->cx + uo * ct - vo * st, e->cy + uo * st + vo * ct,
                                   outside);
}

/* Sample k with the samples off px from the outline: 0 when it falls
 * outside the image, else 1 and *dark = inside darker by the margin. */
static inline PT_HD int pt_confidence_sample_off(const pt_image *img, const pt_ellipse *e,
                                                 double ct, double st, int k, double off,
                                                 int *dark)
{
    int inside, outside;
    if (!pt_confidence_levels_off(img, e, ct, st, k, off, &inside, &outside))
        return 0;
    *dark = outside - inside >= PT_CONFIDENCE_MARGIN;
    return 1;
}

/* The same at the confidence's own offset, PT_CONFIDENCE_OFFSET. */
static inline PT_HD int pt_confidence_levels(const pt_image *img, const pt_ellipse *e, double ct,
                                             double st, int k, int *inside, int *outside)
{
    return pt_confidence_levels_off(img, e, ct, st, k, PT_CONFIDENCE_OFFSET, inside, outside);
}

static inline PT_HD int pt_confidence_sample(const pt_image *img, const pt_ellipse *e, double ct,
                                             double st, int k, int *dark)
{
    return pt_confidence_sample_off(img, e, ct, st, k, PT_CONFIDENCE_OFFSET, dark);
}

static inline PT_HD int pt_confidence_axes(const pt_ellipse *e, double *ct, double *st)
{
    if (!(e->a > 0) || !(e->b > 0))
        return 0;
    double t = e->theta * (3.14159265358979323846 / 180.0);
    /* exact-operation cos/sin: the CPU and the GPU sample the same points */
    pt_sb_cos_sin(t, ct, st);
    return 1;
}

static inline PT_HD double pt_confidence_from_counts(int valid, int dark_inside)
{
    if (valid * 4 < PT_CONFIDENCE_SAMPLES)
        return 0.0;
    return (double)dark_inside / valid;
}

/* The confidence of e with its samples off px from the outline (the
 * inner pass's, lib/detect/starburst_inner.h); serially (a CUDA block or
 * warp takes the samples side by side and sums the counts: the same value). */
static inline PT_HD double pt_confidence_ellipse_off(const pt_image *img, const pt_ellipse *e,
                                                     double off)
{
    double ct, st;
    if (!pt_confidence_axes(e, &ct, &st))
        return 0.0;
    int valid = 0, dark_inside = 0;
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++) {
        int dark;
        if (pt_confidence_sample_off(img, e, ct, st, k, off, &dark)) {
            valid++;
            dark_inside += dark;
        }
    }
    return pt_confidence_from_counts(valid, dark_inside);
}

static inline PT_HD double pt_confidence_ellipse(const pt_image *img, const pt_ellipse *e)
{
    return pt_confidence_ellipse_off(img, e, PT_CONFIDENCE_OFFSET);
}

static inline PT_HD double pt_confidence_circle(const pt_image *img, const pt_circle *c)
{
    pt_ellipse e = {c->cx, c->cy, c->r, c->r, 0.0};
    return pt_confidence_ellipse(img, &e);
}

#endif
