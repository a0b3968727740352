/* Registry entries of the second looks (pt_retry_params). */
#include <stddef.h>

#include "lib/params/pt_params.h"

#define RETRY_ALGS (PT_ALG_STARBURST | PT_ALG_TL)

const pt_param_def pt_retry_param_defs[] = {
    {"half_retry", PT_PARAM_DOUBLE, offsetof(pt_config, retry.below), 0.4, 0, 1, NULL,
     RETRY_ALGS,
     "an eye reported with a confidence below this, or with no pupil, is detected again in "
     "the frame reduced to half size (2x2 means), and the second pupil (scaled back) is "
     "kept when it is more confident by more than half_retry_margin; 0 = off; not with "
     "--sequence"},
    {"half_retry_margin", PT_PARAM_DOUBLE, offsetof(pt_config, retry.margin), 0.05, 0, 1, NULL,
     RETRY_ALGS, "half_retry: the confidence the second look must add to be kept"},
    {"glint_retry", PT_PARAM_DOUBLE, offsetof(pt_config, retry.glint), 0, 0, 1, NULL,
     PT_ALG_STARBURST,
     "an eye reported with a confidence below this (0.5 suggested) whose reflection mask "
     "reaches into the ring from 0.5 to 1.5 radii around its pupil is detected again in a "
     "cut of the frame around it where those reflections are refilled along circles around "
     "the pupil's centre, and the second pupil kept when it is more confident by more than "
     "glint_retry_margin; 0 = off (the default: the look runs on the host and costs -b "
     "cuda most of its rate); not with --sequence"},
    {"glint_retry_margin", PT_PARAM_DOUBLE, offsetof(pt_config, retry.glint_margin), 0.2, 0, 1,
     NULL, PT_ALG_STARBURST, "glint_retry: the confidence the second look must add to be kept"},
};
const int pt_retry_param_count = (int)(sizeof pt_retry_param_defs / sizeof pt_retry_param_defs[0]);
