/* Registry entries of the threshold-and-labeling detector (pt_tl_params). */
#include <stddef.h>

#include "lib/params/pt_params.h"

static const char *const tl_score_names[] = {"votes", "support", "quality", NULL};
static const char *const tl_border_names[] = {"pixels", "contour", NULL};
static const char *const tl_range_names[] = {"eye", "fixed", NULL};
static const char *const tl_shape_names[] = {"auto", "circle", NULL};
static const char *const tl_spacing_names[] = {"linear", "square", NULL};

const pt_param_def pt_tl_param_defs[] = {
    {"tl_range", PT_PARAM_CHOICE, offsetof(pt_config, tl.range), PT_TL_RANGE_EYE, 0, 1,
     tl_range_names, PT_ALG_TL,
     "eye: tl_count thresholds evenly between each eye's dark level (the 11th least of a 32x32 "
     "grid of samples, or half-way down to a small darker patch of a 128x128 grid that it "
     "misses) and its surround level (their 10th percentile), or from tl_min by "
     "tl_step where the dark level is not 20 % below the surround; fixed: tl_min..tl_max by "
     "tl_step (the paper)"},
    {"tl_count", PT_PARAM_INT, offsetof(pt_config, tl.count), 5, 1, 64, NULL, PT_ALG_TL,
     "tl_range=eye: thresholds tried per eye"},
    {"tl_spacing", PT_PARAM_CHOICE, offsetof(pt_config, tl.spacing), PT_TL_SPACING_LINEAR, 0, 1,
     tl_spacing_names, PT_ALG_TL,
     "tl_range=eye: linear: the thresholds evenly between the dark and surround levels; "
     "square: at ((i + 1) / (tl_count + 1))^2 of the way, denser near the dark level, so a "
     "pupil a few grey levels darker than its iris gets a threshold between the two"},
    {"tl_dark_retry", PT_PARAM_INT, offsetof(pt_config, tl.dark_retry), 1, 0, 1, NULL, PT_ALG_TL,
     "tl_range=eye, tl_spacing=linear: 1: an eye whose answer holds a disc 6 or more grey "
     "levels darker than its inner ring (the iris around a low-contrast pupil) is detected "
     "again with tl_spacing=square, and that answer kept when it finds a pupil; 0: off"},
    {"tl_small_share", PT_PARAM_DOUBLE, offsetof(pt_config, tl.small_share), 0.5, 0, 100,
     NULL, PT_ALG_TL,
     "tl_range=eye: the 128x128 grid's darkest patch is a small pupil that the 32x32 grid "
     "missed where fewer than this share (%) of its samples lie half-way down to it or "
     "darker; 1.07 (the 32x32 grid's dark rank, 11 of its 1024 samples) also finds pupils "
     "covering 0.5-1.07 % of the eye, but starts the thresholds lower on some it found"},
    {"tl_small_also", PT_PARAM_DOUBLE, offsetof(pt_config, tl.small_also), 1.07, 0, 100,
     NULL, PT_ALG_TL,
     "tl_range=eye: where at least tl_small_share but fewer than this share (%) of the "
     "128x128 grid's samples lie half-way down to its darkest patch (a small pupil, or the "
     "darker core of a pupil the 32x32 grid found), tl_count more thresholds from that "
     "half-way level are tried after those from the 32x32 grid's dark level; the winner "
     "is chosen among the first (tl_score), and the fits of all may win as the pupil "
     "inside it (tl_pupil_prior); at most tl_small_share: the first tl_count only"},
    {"tl_min", PT_PARAM_INT, offsetof(pt_config, tl.threshold_min), 20, 0, 255,
     NULL, PT_ALG_TL, "tl_range=fixed: first grey-level threshold (pupil = pixels <= threshold)"},
    {"tl_max", PT_PARAM_INT, offsetof(pt_config, tl.threshold_max), 100, 0, 255,
     NULL, PT_ALG_TL, "tl_range=fixed: last grey-level threshold, inclusive"},
    {"tl_step", PT_PARAM_INT, offsetof(pt_config, tl.threshold_step), 20, 1, 255,
     NULL, PT_ALG_TL, "tl_range=fixed: step between thresholds"},
    {"tl_circle_band", PT_PARAM_DOUBLE, offsetof(pt_config, tl.circle_band), 0.1, 0, 1, NULL,
     PT_ALG_TL,
     "circle fits: RANSAC inlier distance = this share of the blob's equivalent radius "
     "(at least ransac_inlier), so elliptical pupils fit whole; 0 = ransac_inlier only"},
    {"tl_refine", PT_PARAM_INT, offsetof(pt_config, tl.refine), 1, 0, 1, NULL, PT_ALG_TL,
     "1: refit the winner at the grey level mid-way between the pupil (median at half its "
     "radius) and its surround, kept when as credible; 0: the paper's thresholds only"},
    {"tl_level_share", PT_PARAM_DOUBLE, offsetof(pt_config, tl.level_share), 0.35, 0, 1, NULL,
     PT_ALG_TL,
     "tl_refine: the refit threshold lies this share of the way from the pupil's grey level "
     "(0) to its surround's (1); lower values fit the dark side of a blurred border"},
    {"tl_level_gap", PT_PARAM_DOUBLE, offsetof(pt_config, tl.level_gap), 8, 0, 64, NULL,
     PT_ALG_TL,
     "tl_refine: the surround's grey level is read a quarter radius and at least this many px "
     "outside the fit, beyond a blurred border, so small pupils are not fitted small; smaller "
     "gaps read it on the border and fit small pupils on its dark side"},
    {"tl_score", PT_PARAM_CHOICE, offsetof(pt_config, tl.score), PT_TL_SCORE_QUALITY, 0, 2,
     tl_score_names, PT_ALG_TL,
     "votes: the fit with most RANSAC votes wins (the paper); "
     "support: most votes among fits covering >= 90% of the best outline share; "
     "quality: most votes among fits with >= 90% of the best (border share on the fit "
     "x confidence)"},
    {"tl_border", PT_PARAM_CHOICE, offsetof(pt_config, tl.border), PT_TL_BORDER_PIXELS, 0, 1,
     tl_border_names, PT_ALG_TL,
     "pixels: fit every blob pixel with a 4-neighbour outside the blob (hole borders too); "
     "contour: fit the blob's outer border traced as OpenCV findContours does, so holes "
     "(reflections inside the pupil) add no points"},
    {"tl_pupil_prior", PT_PARAM_INT, offsetof(pt_config, tl.pupil_prior), 1, 0, 1, NULL,
     PT_ALG_TL,
     "1: a credible fit of another threshold that the winner encloses (the pupil inside the "
     "iris) wins instead; 0: the best fit (the paper)"},
    {"tl_shape", PT_PARAM_CHOICE, offsetof(pt_config, tl.shape), PT_TL_SHAPE_AUTO, 0, 1,
     tl_shape_names, PT_ALG_TL,
     "circle mode: auto: the chosen border is also fitted by an ellipse (ransac_inlier band); "
     "where it holds 1.4 times the circle's border pixels within that band and passes "
     "tl_shape_confidence, its centre and mean radius are reported (elongated or lid-cut "
     "pupils); circle: the circle (the paper)"},
    {"tl_shape_confidence", PT_PARAM_DOUBLE, offsetof(pt_config, tl.shape_confidence), 0.95,
     0, 2, NULL, PT_ALG_TL,
     "tl_shape=auto: the ellipse's centre and mean radius are reported only where the "
     "confidence of the ellipse's own outline is at least this share of the circle's (and "
     "the circle reported for it not below the reporting minimum where the circle's is "
     "not), or where the ellipse holds 3/4 of the border pixels; 0: the border pixels' "
     "votes alone decide"},
    {"tl_flat", PT_PARAM_INT, offsetof(pt_config, tl.flat), 1, 0, 1, NULL, PT_ALG_TL,
     "1: border pixels on an edge flatter than a pupil of max_radius (a lid's chord, a straight "
     "shadow) leave the fit (tl_border=pixels); 0: every border pixel (the paper)"},
    {"tl_crossings", PT_PARAM_INT, offsetof(pt_config, tl.crossings), 1, 0, 1, NULL, PT_ALG_TL,
     "1: the outline is fitted again (an ellipse; its centre and mean radius in circle mode) "
     "on the points where 128 rays from its centre cross the middle level between the pupil "
     "and the border's outer side; 0: the border pixels' fit (the paper)"},
};
const int pt_tl_param_count = (int)(sizeof pt_tl_param_defs / sizeof pt_tl_param_defs[0]);
