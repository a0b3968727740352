/* Registry entries of the second look at half resolution (pt_retry_params). */
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
};
const int pt_retry_param_count = (int)(sizeof pt_retry_param_defs / sizeof pt_retry_param_defs[0]);
