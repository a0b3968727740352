/* Detection confidence shared by every detector and back end: the share of
 * points sampled along the fitted outline where the image just inside is
 * darker than just outside, as it is at a pupil border. */
#ifndef PT_CONFIDENCE_H
#define PT_CONFIDENCE_H

#include "pt_geom.h"
#include "pt_hd.h"
#include "pt_image.h"

#define PT_CONFIDENCE_SAMPLES 64   /* points along the outline */
#define PT_CONFIDENCE_OFFSET 2.0   /* px inside / outside the outline */
#define PT_CONFIDENCE_MARGIN 3     /* grey levels outside must exceed inside by */
#define PT_CONFIDENCE_MIN 0.3      /* detectors report NOTFOUND below this */

/* In [0,1]; samples falling outside the image do not count; 0 when fewer than
 * a quarter of them fall inside. */
PT_HD double pt_confidence_circle(const pt_image *img, const pt_circle *c);
PT_HD double pt_confidence_ellipse(const pt_image *img, const pt_ellipse *e);

/* The pieces of pt_confidence_ellipse, for callers that take the samples in
 * parallel (cuda/starburst.cu, a warp): the outline's cos/sin (0 when the
 * axes are not positive: confidence 0), sample k of PT_CONFIDENCE_SAMPLES
 * (0 when it falls outside the image, else 1 and *dark = inside darker by
 * the margin), and the confidence from the counts, which do not depend on
 * the order the samples were taken in. */
PT_HD int pt_confidence_axes(const pt_ellipse *e, double *ct, double *st);
PT_HD int pt_confidence_sample(const pt_image *img, const pt_ellipse *e, double ct, double st,
                               int k, int *dark);
PT_HD double pt_confidence_from_counts(int valid, int dark_inside);

#endif
