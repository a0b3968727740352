/* --draw-stages with -a tl: the threshold-and-labeling stages of the
 * threshold the detector fitted (the pupil paper's Fig. 2). */
#ifndef PT_CLI_DRAW_TL_STAGES_H
#define PT_CLI_DRAW_TL_STAGES_H

#include "lib/detect/pt_result.h"
#include "lib/detect/pt_trace.h"
#include "lib/io/pt_image.h"

/* Writes DIR/<stem>-6-threshold.png (grey: white where the smoothed frame is
 * at or below the eye's chosen threshold), -7-labels.png (RGB: each
 * connected component of those pixels in a colour of its own, black
 * elsewhere), -8-blob.png (grey: the blob whose border was fitted, white)
 * and -9-border.png (RGB: the frame, that blob's border points green, the
 * reported fit red), for each of the eyes traced; an eye where no threshold
 * was chosen stays black (the frame, in -9-border). */
pt_status pt_draw_tl_stages(const char *dir, const char *name, const pt_image *frame,
                            const pt_image *smoothed, const pt_trace *traces,
                            const pt_result *results, int eyes, pt_error *err);

#endif
