/* Registry entries for the Starburst detector (pupiltrack(1), PARAMETERS). */
#include <stddef.h>

#include "lib/params/pt_params.h"

static const char *const start_choices[] = {"dark", "centre", NULL};
static const char *const refit_choices[] = {"circle", "ellipse", NULL};
static const char *const votes_choices[] = {"inlier", "band", NULL};
static const char *const ellipse_fit_choices[] = {"circle", "direct", NULL};
static const char *const flat_choices[] = {"reject", "keep", NULL};
static const char *const inner_choices[] = {"on", "off", NULL};
static const char *const peak_choices[] = {"step", "first", NULL};
static const char *const fit_choices[] = {"larger", "confident", "visible", NULL};

#define SB(field) offsetof(pt_config, starburst.field)

const pt_param_def pt_starburst_param_defs[] = {
    {"rays", PT_PARAM_INT, SB(rays), 20, 3, 1024, NULL, PT_ALG_STARBURST,
     "first-stage rays cast over 360 degrees from the start point"},
    {"edge_threshold", PT_PARAM_DOUBLE, SB(edge_threshold), 12, 1, 255, NULL,
     PT_ALG_STARBURST,
     "grey-level rise (pixel ahead - pixel behind) along a ray that marks the pupil edge"},
    {"stage2_rays", PT_PARAM_INT, SB(stage2_rays), 5, 0, 256, NULL, PT_ALG_STARBURST,
     "second-stage rays cast back towards the start from each first-stage point"},
    {"stage2_spread", PT_PARAM_DOUBLE, SB(stage2_spread), 50, 0, 180, NULL, PT_ALG_STARBURST,
     "second-stage rays lie within +- this many degrees of the direction to the start"},
    {"max_iterations", PT_PARAM_INT, SB(max_iterations), 6, 1, 1000, NULL, PT_ALG_STARBURST,
     "restarts from the fitted centre before giving up on convergence"},
    {"converge_px", PT_PARAM_DOUBLE, SB(converge_px), 10, 0, 1000, NULL, PT_ALG_STARBURST,
     "stop iterating when the fitted centre moves less than this many px"},
    {"converge_stall", PT_PARAM_INT, SB(converge_stall), 3, 0, 1000, NULL, PT_ALG_STARBURST,
     "also stop when this many iterations in a row gave no fit that replaced the best so far (a frame without a pupil, whose fits wander); 0 = off: converge_px and max_iterations only"},
    {"start_x", PT_PARAM_DOUBLE, SB(start_x), -1, -1, 65536, NULL, PT_ALG_STARBURST,
     "start x in px within the eye's region (the right half for eye R); < 0 = per start"},
    {"start_y", PT_PARAM_DOUBLE, SB(start_y), -1, -1, 65536, NULL, PT_ALG_STARBURST,
     "start y in px within the eye's region; < 0 = per start"},
    {"start", PT_PARAM_CHOICE, SB(start), 0, 0, 1, start_choices, PT_ALG_STARBURST,
     "first start point when start_x/y are unset: darkest region of the eye, or its centre"},
    {"ray_length", PT_PARAM_INT, SB(ray_length), 0, 0, 65536, NULL, PT_ALG_STARBURST,
     "first-stage ray length in px; 0 = auto (1.5 x max_radius); rays also stop at the border"},
    {"edge_gap", PT_PARAM_INT, SB(edge_gap), 0, 0, 64, NULL, PT_ALG_STARBURST,
     "rise along a ray is I(t+gap) - I(t-gap); 0 = auto (1 px up to 384 px regions, 4 at 1280x1024)"},
    {"edge_level", PT_PARAM_DOUBLE, SB(edge_level), 1, 0.05, 1, NULL, PT_ALG_STARBURST,
     "edge point where the rise first reaches this share of the step's steepest rise (1 = steepest)"},
    {"circle_tolerance", PT_PARAM_DOUBLE, SB(circle_tolerance), 0.1, 0, 1, NULL,
     PT_ALG_STARBURST,
     "circle fits: inlier band max(ransac_inlier, this x r), so elliptical pupils keep both arcs"},
    {"glint_step", PT_PARAM_DOUBLE, SB(glint_step), 160, 0, 255, NULL, PT_ALG_STARBURST,
     "reflections along rays: a narrow bright spot is walked over; a step rising more than this gives no point; 0 = off"},
    {"edge_offset", PT_PARAM_DOUBLE, SB(edge_offset), 0, -16, 16, NULL, PT_ALG_STARBURST,
     "px each edge point is moved back along its ray (towards the dark side), for ground truth drawn inside the border"},
    {"edge_fraction", PT_PARAM_DOUBLE, SB(edge_fraction), 0, 0, 0.95, NULL, PT_ALG_STARBURST,
     "edge point where the grey level crosses this share of the step from its dark to its bright side (0.5 = midpoint, smaller = towards the dark side; 0.15 matches meye-dev's masks); 0 = off (edge_level)"},
    {"size_fraction", PT_PARAM_DOUBLE, SB(size_fraction), 0, 0, 0.95, NULL, PT_ALG_STARBURST,
     "reported radius (axes) where the grey level across the fitted outline crosses this share of the step from dark to bright (median of 32 normals); the fit and its centre stay on the steepest edge points; 0 = off"},
    {"edge_contrast", PT_PARAM_DOUBLE, SB(edge_contrast), 0.3, 0, 10, NULL, PT_ALG_STARBURST,
     "low-contrast eyes: edge_threshold is lowered to this share of the eye's contrast (10th percentile of a 32x32 grid over the eye minus the grey level at the first start point), at least 3; 0 = off"},
    {"circle_refit", PT_PARAM_CHOICE, SB(circle_refit), PT_SB_REFIT_ELLIPSE, 0, 1, refit_choices,
     PT_ALG_STARBURST,
     "circle fits: report the refitted RANSAC circle, or the centre and mean radius (a+b)/2 of an ellipse refined from its points when credible (elliptical pupils)"},
    {"circle_votes", PT_PARAM_CHOICE, SB(circle_votes), PT_SB_VOTES_INLIER, 0, 1, votes_choices,
     PT_ALG_STARBURST,
     "circle fits: RANSAC scores each sample's circle by the points within ransac_inlier of it (inlier), or within its circle band (band: wide bands favour large circles through lid edges and the iris); the refit takes the band either way"},
    {"ellipse_fit", PT_PARAM_CHOICE, SB(ellipse_fit), PT_SB_ELLIPSE_VIA_CIRCLE, 0, 1,
     ellipse_fit_choices, PT_ALG_STARBURST,
     "--ellipse: fit a RANSAC circle as circle mode does, then the ellipse through the points near it (circle), or a RANSAC ellipse over all points (direct: lid edges and reflections more often pull it flat)"},
    {"flat_edges", PT_PARAM_CHOICE, SB(flat_edges), PT_SB_FLAT_REJECT, 0, 1, flat_choices,
     PT_ALG_STARBURST,
     "reject: edge points on an edge flatter than a pupil of max_radius (two points with the gradient direction within 10 degrees of its own within 1 px of its tangent, farther along it than sqrt(2 max_radius): a lid, a crease; when at least 4 points are) are left out of the fit; keep: fit every edge point"},
    {"flat_band", PT_PARAM_DOUBLE, SB(flat_band), 1, 0.25, 8, NULL, PT_ALG_STARBURST,
     "flat_edges=reject: px off a point's tangent within which its two partners lie (and their least distance along it, sqrt(2 flat_band max_radius)); wider finds lid edges whose points scatter"},
    {"vote_angle", PT_PARAM_DOUBLE, SB(vote_angle), 15, 0, 89, NULL, PT_ALG_STARBURST,
     "circle fits: a point votes for a RANSAC sample's circle only when its edge direction (grey-level gradient) lies within this many degrees of the circle's radius through it, so lid edges and texture crossing the circle do not hold it; 0 = off"},
    {"inner_pass", PT_PARAM_CHOICE, SB(inner_pass), PT_SB_INNER_ON, 0, 1, inner_choices,
     PT_ALG_STARBURST,
     "on: a fit whose core (0.25 of its axes) is 6 or more grey levels darker than its inner ring (0.55, lower quartile), such as the iris of a low-contrast eye, loses to any fit without; the first such fit is searched again from its centre with edge_threshold lowered to 0.4 x that difference and rays and radii within 0.7 x its radius, the inner fit reported when found and its pupil score is at least half the first's; off: no search inside a fit (the paper's)"},
    {"fit_choice", PT_PARAM_CHOICE, SB(fit_choice), PT_SB_CHOICE_VISIBLE, 0, 2, fit_choices,
     PT_ALG_STARBURST,
     "the answer among the iterations' fits: larger: a fit replaces the best so far when more than 3 of the 64 confidence samples more confident, or at most that less confident and larger (fits inside the pupil, tangent to a lid or a reflection, are about as confident as the pupil's); visible: as larger, and a larger fit less confident than that is judged again without its samples covered by something 20 grey levels brighter than the pupil (a lid over the pupil's top or bottom, at most two arcs and half the outline); confident: the most confident; a fit without a darker disc (inner_pass) beats one with it either way"},
    {"edge_peak", PT_PARAM_CHOICE, SB(edge_peak), PT_SB_PEAK_FIRST, 0, 1, peak_choices,
     PT_ALG_STARBURST,
     "step: a step's steepest point is its greatest rise while the rise stays at least half its first peak's (a wide blurred ramp, up to 12 gaps + 8 px past the first peak); first: the first peak of the uphill walk, which a noisy wide ramp stops on its dark side"},
};
const int pt_starburst_param_count =
    (int)(sizeof pt_starburst_param_defs / sizeof pt_starburst_param_defs[0]);
