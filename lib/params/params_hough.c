/* Registry entries of the Canny-Hough detector (pt_hough_params). */
#include <stddef.h>

#include "lib/params/pt_params.h"

static const char *const hough_vote_names[] = {"sampled", "gradient", NULL};
static const char *const hough_refit_names[] = {"circle", "ellipse", NULL};
static const char *const hough_glint_names[] = {"keep", "skip", NULL};
static const char *const hough_flat_names[] = {"keep", "reject", NULL};
static const char *const hough_dark_vote_names[] = {"off", "on", NULL};

const pt_param_def pt_hough_param_defs[] = {
    {"hough_angle_step", PT_PARAM_DOUBLE, offsetof(pt_config, hough.angle_step), 3.6, 0.1,
     90, NULL, PT_ALG_HOUGH, "degrees between the votes cast around each edge pixel"},
    {"hough_sigma", PT_PARAM_DOUBLE, offsetof(pt_config, hough.sigma), 1.5, 0.3, 20, NULL,
     PT_ALG_HOUGH, "sigma of the Gaussian and derivative-of-Gaussian filters, px, for an eye "
                   "region whose short side is below 512 px; larger regions: x (short side / "
                   "512), an integer from 1 to 8 (x 2 at 1280x1024)"},
    {"canny_high", PT_PARAM_DOUBLE, offsetof(pt_config, hough.canny_high), 0.8, 0.01,
     0.999, NULL, PT_ALG_HOUGH,
     "Canny high threshold = this quantile of the non-zero gradient magnitudes"},
    {"canny_low", PT_PARAM_DOUBLE, offsetof(pt_config, hough.canny_low), 0.4, 0.01, 1,
     NULL, PT_ALG_HOUGH, "Canny low threshold as a fraction of the high one"},
    {"hough_radius_step", PT_PARAM_INT, offsetof(pt_config, hough.radius_step), 1, 1, 100,
     NULL, PT_ALG_HOUGH, "px between the radii tested"},
    {"hough_vote", PT_PARAM_CHOICE, offsetof(pt_config, hough.vote), PT_HOUGH_VOTE_GRADIENT, 0,
     1, hough_vote_names, PT_ALG_HOUGH,
     "sampled: votes on a circle around each edge pixel (the paper); "
     "gradient: one vote per radius towards the dark side"},
    {"hough_cell", PT_PARAM_INT, offsetof(pt_config, hough.cell), 0, 0, 64, NULL,
     PT_ALG_HOUGH,
     "gradient voting: centre accumulator cell side in px (votes every cell px of radius); "
     "0 = auto: short side / 256, at least 1 (4 at 1280x1024)"},
    {"hough_vote_spread", PT_PARAM_DOUBLE, offsetof(pt_config, hough.vote_spread), 30, 1, 180,
     NULL, PT_ALG_HOUGH,
     "sampled votes only within +- this many degrees of the edge's dark side; "
     "180 = the whole circle (the paper)"},
    {"hough_refit", PT_PARAM_CHOICE, offsetof(pt_config, hough.refit), PT_HOUGH_REFIT_ELLIPSE,
     0, 1, hough_refit_names, PT_ALG_HOUGH,
     "circle mode's estimate: ellipse = the circle refined by a short RANSAC ellipse over "
     "the edges around it, its centre and mean radius (a+b)/2 when credible "
     "(elliptical pupils); circle = the RANSAC circle (faster)"},
    {"hough_edge_offset", PT_PARAM_DOUBLE, offsetof(pt_config, hough.edge_offset), 0, 0, 10,
     NULL, PT_ALG_HOUGH,
     "edge points moved this many px towards the dark side before the fits (0: the "
     "gradient maximum; meye-dev's masks lie about 1.5 px inside it)"},
    {"hough_dark_spread", PT_PARAM_INT, offsetof(pt_config, hough.dark_spread), 12, 0, 255,
     NULL, PT_ALG_HOUGH,
     "the refinement fits only edge points with a pixel at most this many grey levels "
     "above the candidate's inside at 0.1, 0.2 or 0.3 radius in on their dark side "
     "(drops lashes, lid creases, the iris outline); 255 = every edge facing the centre"},
    {"hough_glint_edges", PT_PARAM_CHOICE, offsetof(pt_config, hough.glint_edges),
     PT_HOUGH_GLINT_EDGES_SKIP, 0, 1, hough_glint_names, PT_ALG_HOUGH,
     "skip: the refinement's fits leave out edge pixels on the corneal reflection mask "
     "(the filled-in reflection bends the pupil's border); keep: fit them too; no "
     "effect with reflection=off"},
    {"hough_flat_edges", PT_PARAM_CHOICE, offsetof(pt_config, hough.flat_edges),
     PT_HOUGH_FLAT_REJECT, 0, 1, hough_flat_names, PT_ALG_HOUGH,
     "reject: edge pixels on an edge flatter than a circle of 0.6 x max_radius (2 edge "
     "pixels of the gradient direction within 10 degrees of its own within 1 px of its tangent "
     "at 1, 1.5 or 2 x sqrt(2 max_radius) px along it: a lid, a crease) leave the "
     "refinement's fits, the edge support and the dark-edge vote; keep: every edge pixel"},
    {"hough_dark_vote", PT_PARAM_CHOICE, offsetof(pt_config, hough.dark_vote),
     PT_HOUGH_DARK_VOTE_ON, 0, 1, hough_dark_vote_names, PT_ALG_HOUGH,
     "gradient voting: on: a second centre voted for by the edges that are not flat and "
     "have a pixel at most the darkest box's level + hough_dark_spread at 0.5, 1 or 1.5 x "
     "min_radius in on their dark side (the pupil's border, not a lid's); its 2 strongest "
     "radii are candidates too; off: the voting's and the darkest box's centres only"},
    {"hough_nest_keep", PT_PARAM_DOUBLE, offsetof(pt_config, hough.nest_keep), 0.2, 0, 1, NULL,
     PT_ALG_HOUGH,
     "gradient voting's choice: a candidate holding a clearly darker one with a pupil score "
     ">= 0.4 and a value (confidence x edge support) of at least this share of the best is "
     "left out (the iris around the pupil); 0.25 until 2026-11-26"},
};
const int pt_hough_param_count =
    (int)(sizeof pt_hough_param_defs / sizeof pt_hough_param_defs[0]);
