/* A short reason for a frame without a pupil, from its grey values and the
 * detector (pupiltrack(1), RESULTS: every notfound row says why). */
#ifndef PT_NOTFOUND_REASON_H
#define PT_NOTFOUND_REASON_H

#include "lib/detect/pt_result.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"

/* Fills the message of every notfound result of res[0..eyes) that has none;
 * eyes 2: res[0] is the left half of frame, res[1] the right. */
void pt_explain_notfound(pt_result *res, int eyes, const pt_image *frame, pt_algorithm alg);

#endif
