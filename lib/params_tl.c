/* Registry entries of the threshold-and-labeling detector (pt_tl_params). */
#include <stddef.h>

#include "pt_params.h"

static const char *const tl_score_names[] = {"votes", "support", NULL};

const pt_param_def pt_tl_param_defs[] = {
    {"tl_min", PT_PARAM_INT, offsetof(pt_config, tl.threshold_min), 20, 0, 255,
     NULL, PT_ALG_TL, "first grey-level threshold (pupil = pixels <= threshold)"},
    {"tl_max", PT_PARAM_INT, offsetof(pt_config, tl.threshold_max), 100, 0, 255,
     NULL, PT_ALG_TL, "last grey-level threshold, inclusive"},
    {"tl_step", PT_PARAM_INT, offsetof(pt_config, tl.threshold_step), 20, 1, 255,
     NULL, PT_ALG_TL, "step between thresholds"},
    {"tl_score", PT_PARAM_CHOICE, offsetof(pt_config, tl.score), PT_TL_SCORE_SUPPORT, 0, 1,
     tl_score_names, PT_ALG_TL,
     "votes: the fit with most RANSAC votes wins (the paper); "
     "support: most votes among fits covering >= 90% of the best outline share"},
};
const int pt_tl_param_count = (int)(sizeof pt_tl_param_defs / sizeof pt_tl_param_defs[0]);
