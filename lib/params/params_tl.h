#ifndef PT_PARAMS_TL_H
#define PT_PARAMS_TL_H

enum { PT_TL_SCORE_VOTES = 0, PT_TL_SCORE_SUPPORT = 1, PT_TL_SCORE_QUALITY = 2 };
/* Which pixels of the chosen blob are fitted. */
enum { PT_TL_BORDER_PIXELS = 0, PT_TL_BORDER_CONTOUR = 1 };
/* Which thresholds are tried: tl_count between each eye's dark and surround
 * levels (lib/detect/eye_levels.h), or tl_min..tl_max by tl_step. */
enum { PT_TL_RANGE_EYE = 0, PT_TL_RANGE_FIXED = 1 };
/* Circle mode's model: the circle or, where the border is clearly not round,
 * the centre and mean radius of its ellipse (lib/detect/tl_shape.h). */
enum { PT_TL_SHAPE_AUTO = 0, PT_TL_SHAPE_CIRCLE = 1 };
/* tl_range=eye: the thresholds evenly between the dark and surround levels,
 * or denser near the dark level (lib/detect/eye_levels.h: pt_eye_threshold's
 * power is the value + 1). */
enum { PT_TL_SPACING_LINEAR = 0, PT_TL_SPACING_SQUARE = 1 };

typedef struct {
    int threshold_min; /* first threshold */
    int threshold_max; /* last threshold (inclusive) */
    int threshold_step;
    int range;         /* PT_TL_RANGE_*: thresholds from each eye's grey levels, or fixed */
    int count;         /* range=eye: thresholds per eye */
    int spacing;       /* range=eye: PT_TL_SPACING_* */
    int dark_retry;    /* range=eye, spacing linear: an answer holding a darker disc is
                          looked at again with square spacing (lib/detect/tl_retry.h) */
    double small_share; /* range=eye: a dark region of the fine grid covering less than
                           this share (%) of the eye is a small pupil the coarse grid
                           missed (lib/detect/eye_levels.h) */
    double small_also;  /* range=eye: where the share lies between small_share and this,
                           the thresholds from both dark levels are tried
                           (lib/detect/tl_small.h) */
    double circle_band; /* circle RANSAC inlier distance as a share of the blob's
                           equivalent radius (at least ransac_inlier); 0 = ransac_inlier */
    int refine;        /* 1: refit at the grey level mid-way between pupil and surround */
    double level_share; /* refine: where between the pupil's (0) and the surround's (1)
                           grey level the refit threshold lies (lib/detect/tl_level.h) */
    double level_gap;  /* refine: px from the fit to the surround's ring, at least */
    int score;         /* PT_TL_SCORE_*: which threshold's fit wins: most RANSAC votes
                          (the paper), or most votes among the fits whose votes per
                          outline pixel are near the best (support) */
    int border;        /* PT_TL_BORDER_*: blob pixels with a 4-neighbour outside it
                          (holes included), or its outer border traced as
                          findContours does (holes such as reflections left out) */
    int shape;         /* PT_TL_SHAPE_*: circle mode's model */
    double shape_confidence; /* shape=auto: the ellipse's circle needs at least this share
                                of the circle's confidence (lib/detect/tl_shape.h); 0: votes
                                alone */
    int pupil_prior;   /* 1: the credible fit a winner encloses wins (the pupil inside
                          the iris, lib/detect/tl_nest.h); 0: the paper's best fit */
    int flat;          /* 1: border pixels on edges flatter than any pupil (a lid's chord)
                          leave the fit (lib/detect/tl_flat.h); 0: every border pixel */
    int crossings;     /* 1: the outline fitted again on its border's mid-level crossings
                          (lib/detect/border_crossings.h); 0: the border pixels' fit */
} pt_tl_params;

#endif
