/* Registry entries for the preprocessing shared by the detectors (pupiltrack(1), PARAMETERS). */
#include <stddef.h>

#include "lib/params/pt_params.h"

static const char *const reflection_choices[] = {"interpolate", "skip", "off", NULL};
static const char *const smooth_choices[] = {"gaussian", "median", "none", NULL};

#define PRE(field) offsetof(pt_config, pre.field)
#define RANSAC_ALGS (PT_ALG_STARBURST | PT_ALG_TL | PT_ALG_HOUGH)

const pt_param_def pt_preprocess_param_defs[] = {
    {"reflection", PT_PARAM_CHOICE, PRE(reflection), 0, 0, 2, reflection_choices, PT_ALG_ALL,
     "corneal reflections: interpolate over them, skip them along rays (starburst), or off"},
    {"reflection_kernel", PT_PARAM_INT, PRE(reflection_kernel), 0, 0, 255, NULL, PT_ALG_ALL,
     "top-hat square side in px (made odd); 0 = auto: 5.5% of the eye region's short side (57 at 1280x1024), at least 9"},
    {"reflection_threshold", PT_PARAM_INT, PRE(reflection_threshold), 40, 1, 255, NULL,
     PT_ALG_ALL, "top-hat grey level (image - opening) above which a pixel is a reflection"},
    {"reflection_dilate", PT_PARAM_INT, PRE(reflection_dilate), 0, 0, 255, NULL, PT_ALG_ALL,
     "reflection mask dilation square side in px (made odd); 0 = auto (kernel/4)"},
    {"smooth", PT_PARAM_CHOICE, PRE(smooth), 0, 0, 2, smooth_choices, PT_ALG_ALL,
     "smoothing filter applied after reflection removal"},
    {"smooth_size", PT_PARAM_INT, PRE(smooth_size), 5, 1, 63, NULL, PT_ALG_ALL,
     "Gaussian or median kernel side in px (made odd)"},
    {"smooth_sigma", PT_PARAM_DOUBLE, PRE(smooth_sigma), 2, 0.1, 32, NULL, PT_ALG_ALL,
     "Gaussian sigma in px"},
    {"min_radius", PT_PARAM_INT, PRE(min_radius), 0, 0, 16384, NULL, PT_ALG_ALL,
     "smallest pupil radius in px; 0 = auto (2% of the eye region's short side, at least 3)"},
    {"max_radius", PT_PARAM_INT, PRE(max_radius), 0, 0, 16384, NULL, PT_ALG_ALL,
     "largest pupil radius in px; 0 = auto (40% of the eye region's short side)"},
    {"ransac_samples", PT_PARAM_INT, PRE(ransac_samples), 1024, 1, 65536, NULL, RANSAC_ALGS,
     "RANSAC iterations (rows of the precomputed sample table)"},
    {"ransac_sample_size", PT_PARAM_INT, PRE(ransac_sample_size), 5, 3, 16, NULL, RANSAC_ALGS,
     "points per RANSAC sample (ellipse fits need at least 5)"},
    {"ransac_inlier", PT_PARAM_DOUBLE, PRE(ransac_inlier), 2, 0.1, 100, NULL, RANSAC_ALGS,
     "distance from the fitted outline in px within which a point is an inlier"},
};
const int pt_preprocess_param_count =
    (int)(sizeof pt_preprocess_param_defs / sizeof pt_preprocess_param_defs[0]);
