/* The presets' values; man/pupiltrack.1 (PRESETS) says why each was chosen. */
#include "lib/params/params_preset.h"

#include <string.h>

#define SB PT_ALG_STARBURST
#define TL PT_ALG_TL
#define HO PT_ALG_HOUGH

/* Mompeán et al., "Design of an accurate and high-speed binocular pupil
 * tracking system based on GPGPUs", J. Supercomputing 74(5), 2018. */
static const pt_preset_value paper_values[] = {
    /* preprocessing shared by the detectors (the paper's Fig. 1): top-hat,
     * threshold, dilation, interpolation; then a 5x5 Gaussian of sigma 2 */
    {"reflection", "interpolate", PT_ALG_ALL},
    {"reflection_kernel", "19", PT_ALG_ALL},
    {"smooth", "gaussian", PT_ALG_ALL},
    {"smooth_size", "5", PT_ALG_ALL},
    {"smooth_sigma", "2", PT_ALG_ALL},
    /* RANSAC: 1024 fits of 5 points, a 2 px band */
    {"ransac_samples", "1024", SB | TL},
    {"ransac_sample_size", "5", SB | TL},
    {"ransac_inlier", "2", SB | TL},
    /* one look, at the frame's size */
    {"half_retry", "0", SB | TL},
    {"glint_retry", "0", SB},
    /* Starburst: 20 rays, second stage within +-50 degrees, restarts until the
     * centre moves less than 10 px; plain RANSAC circle or ellipse */
    {"start", "centre", SB},
    {"rays", "20", SB},
    {"stage2_spread", "50", SB},
    {"max_iterations", "10", SB},
    {"converge_px", "10", SB},
    {"converge_stall", "0", SB},
    {"glint_step", "0", SB},
    {"edge_contrast", "0", SB},
    {"circle_votes", "inlier", SB},
    {"vote_angle", "0", SB},
    {"circle_tolerance", "0", SB},
    {"circle_refit", "circle", SB},
    {"ellipse_fit", "direct", SB},
    {"flat_edges", "keep", SB},
    {"inner_pass", "off", SB},
    {"fit_choice", "confident", SB},
    /* threshold and labeling: thresholds 20..100 by 20, the fit with most
     * votes wins, no refit between thresholds */
    {"tl_range", "fixed", TL},
    {"tl_dark_retry", "0", TL},
    {"tl_min", "20", TL},
    {"tl_max", "100", TL},
    {"tl_step", "20", TL},
    {"tl_circle_band", "0", TL},
    {"tl_score", "votes", TL},
    {"tl_refine", "0", TL},
    {"tl_border", "pixels", TL},
    {"tl_shape", "circle", TL},
    {"tl_pupil_prior", "0", TL},
    {"tl_crossings", "0", TL},
    {"tl_flat", "0", TL},
    /* Canny-Hough: Canny thresholds 80 % / 40 %, votes every angle step over
     * the whole circle, the peak's circle */
    {"canny_high", "0.8", HO},
    {"canny_low", "0.4", HO},
    {"hough_vote", "sampled", HO},
    {"hough_vote_spread", "180", HO},
    {"hough_angle_step", "3.6", HO},
    {"hough_refit", "circle", HO},
    {"hough_dark_spread", "255", HO},
    {"hough_glint_edges", "keep", HO},
    {"hough_edge_offset", "0", HO},
    {"hough_flat_edges", "keep", HO},
    {"hough_dark_vote", "off", HO},
};

static const pt_preset presets[] = {
    {"default", "pupiltrack's defaults", NULL, 0},
    {"paper", "each detector as Mompean et al. 2018 describe it (man pupiltrack, PRESETS)",
     paper_values, (int)(sizeof paper_values / sizeof paper_values[0])},
};

const pt_preset *pt_preset_find(const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].name, name))
            return &presets[i];
    return NULL;
}

const char *pt_preset_names(void)
{
    return "default|paper";
}

pt_status pt_config_apply_preset(pt_config *cfg, const pt_preset *preset, pt_error *err)
{
    for (int i = 0; i < preset->count; i++) {
        if (pt_config_set_value(cfg, preset->values[i].key, preset->values[i].value, err)) {
            char why[sizeof err->what];
            memcpy(why, err->what, sizeof why);
            return pt_error_set(err, PT_ERR_PARAM, "--preset", "%s: %s", preset->name, why);
        }
    }
    return PT_OK;
}
