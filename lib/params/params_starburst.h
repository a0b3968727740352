#ifndef PT_PARAMS_STARBURST_H
#define PT_PARAMS_STARBURST_H

/* Where the first iteration starts when neither start_x/start_y nor --sequence say. */
enum { PT_START_DARK = 0, PT_START_CENTRE = 1 };

/* Circle mode's final estimate: the refitted RANSAC circle, or the centre and
 * mean radius of an ellipse refined from it (lib/detect/starburst_refit.h). */
enum { PT_SB_REFIT_CIRCLE = 0, PT_SB_REFIT_ELLIPSE = 1 };

/* Circle mode's RANSAC score of a sample's circle: the points within
 * ransac_inlier of it, or within its circle band (circle_tolerance x r). */
enum { PT_SB_VOTES_INLIER = 0, PT_SB_VOTES_BAND = 1 };

/* --ellipse: a RANSAC circle (as circle mode) whose points give the ellipse
 * (lib/detect/starburst_refit.h), or a RANSAC ellipse over all the points. */
enum { PT_SB_ELLIPSE_VIA_CIRCLE = 0, PT_SB_ELLIPSE_DIRECT = 1 };

/* Edge points on edges flatter than the largest pupil (lids, creases):
 * left out of the fit, or kept (lib/detect/starburst_flat.h). */
enum { PT_SB_FLAT_REJECT = 0, PT_SB_FLAT_KEEP = 1 };

/* A converged fit with a darker disc in its middle (the iris of a
 * low-contrast eye): iterate inside it, or keep it (lib/detect/starburst_inner.h). */
enum { PT_SB_INNER_ON = 0, PT_SB_INNER_OFF = 1 };

/* Where a step's steepest point is taken: over the whole step, while its rise
 * stays at least half the first peak's, or at the first peak of the uphill
 * walk, which a noisy wide ramp stops early on its dark side
 * (lib/detect/starburst_ray.h, pt_sb_step_peak). */
enum { PT_SB_PEAK_STEP = 0, PT_SB_PEAK_FIRST = 1 };

/* The answer among the iterations' fits: among about equally confident
 * ones the larger, or the most confident (lib/detect/starburst_choice.h). */
enum { PT_SB_CHOICE_LARGER = 0, PT_SB_CHOICE_CONFIDENT = 1, PT_SB_CHOICE_VISIBLE = 2 };

typedef struct {
    int rays;               /* first-stage rays over 360 degrees */
    double edge_threshold;  /* grey-level step along a ray that counts as the pupil edge */
    int stage2_rays;        /* rays cast back from each first-stage point */
    double stage2_spread;   /* +- degrees around the direction back to the start */
    int max_iterations;     /* restarts from the new centre */
    double converge_px;     /* stop when the centre moves less than this */
    int converge_stall;     /* or when this many iterations in a row did not beat the best; 0 = off */
    double start_x, start_y;/* start point in the eye's region; < 0 = per `start` */
    int start;              /* PT_START_*: darkest region of the eye, or its centre */
    int ray_length;         /* first-stage ray length, px; 0 = auto (1.5 x max radius) */
    int edge_gap;           /* half-distance of the rise along a ray, px; 0 = auto */
    double edge_level;      /* edge where the rise reaches this share of the step's steepest */
    double circle_tolerance;/* circle fits: refit band widened to this share of r */
    double glint_step;      /* a step rising more than this is a reflection; 0 = off */
    double edge_offset;     /* px edge points are moved towards the dark side */
    double edge_fraction;   /* > 0: edge where the grey level crosses this share of the step */
    double size_fraction;   /* > 0: reported size where the grey level crosses this share */
    double edge_contrast;   /* > 0: edge_threshold lowered to this share of the eye's contrast */
    int circle_refit;       /* PT_SB_REFIT_*: circle mode's final estimate */
    int circle_votes;       /* PT_SB_VOTES_*: what a RANSAC circle sample is scored by */
    int ellipse_fit;        /* PT_SB_ELLIPSE_*: how --ellipse fits */
    int flat_edges;         /* PT_SB_FLAT_*: edge points on edges flatter than any pupil */
    double flat_band;       /* px off a point's tangent that count as the same flat edge */
    double vote_angle;      /* degrees: circle votes need the edge direction this close to the radius; 0 = off */
    int inner_pass;         /* PT_SB_INNER_*: a second pass inside a fit with a darker core */
    int edge_peak;          /* PT_SB_PEAK_*: a step's steepest point over the step or its first peak */
    int fit_choice;         /* PT_SB_CHOICE_*: the answer among the iterations' fits */
} pt_starburst_params;

#endif
