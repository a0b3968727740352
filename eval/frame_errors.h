/* Each scored frame's errors as CSV (pupiltrack(1), eval --frames; FILES:
 * frame errors CSV). */
#ifndef PT_FRAME_ERRORS_H
#define PT_FRAME_ERRORS_H

#include <stdio.h>

#include "eval/metrics.h"

/* Header "image,eye,outcome,px_error,rel_error,confidence", then a row per
 * frame in f: the ground truth's image and eye, detected / notfound / error /
 * missing, the centre error in px and the relative error (empty where the
 * frame has none: not detected, or no true radius), the result's confidence.
 * Returns 0, or -1 on a write error. */
int pt_eval_frames_write(FILE *out, const pt_eval_frames *f);

#endif
