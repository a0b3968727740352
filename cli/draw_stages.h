/* --draw-stages: the preprocessing of a frame, stage by stage, as PNGs (the
 * pupil paper's Fig. 1: the image, its top-hat, the reflection mask after
 * the threshold and the dilation, the image with the reflections filled in),
 * then the smoothed image the detectors see; for Canny-Hough also its Canny
 * edges (the paper's Fig. 4, beside --draw's circle), for threshold and
 * labeling its stages (Fig. 2), for Starburst its rays (Fig. 3). */
#ifndef PT_CLI_DRAW_STAGES_H
#define PT_CLI_DRAW_STAGES_H

#include "lib/detect/pt_result.h"
#include "lib/detect/pt_trace.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"

/* Writes DIR/<stem>-1-image.png, -2-tophat.png, -3-mask.png, -4-cleaned.png
 * and -5-smoothed.png (stem as --draw names the frame, cli/draw.h), and with
 * alg PT_ALG_HOUGH -6-canny.png (each eye region's edge pixels white). The
 * kernel sides are resolved for an eye region of region_width x height
 * (the frame, or half of it with --binocular), as the detectors resolve them.
 * traces (NULL: none) and results: what the omp detector did on each of the
 * eyes (cli/stage_trace.h), drawn with alg PT_ALG_TL as
 * cli/draw_tl_stages.h and with PT_ALG_STARBURST as cli/draw_rays.h. */
pt_status pt_draw_stages(const char *dir, const char *name, const pt_image *frame,
                         const pt_config *cfg, pt_algorithm alg, int region_width,
                         const pt_trace *traces, const pt_result *results, int eyes,
                         pt_error *err);

#endif
