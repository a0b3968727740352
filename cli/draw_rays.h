/* --draw-stages with -a starburst: the rays of each iteration, both stages
 * told apart (the pupil paper's Fig. 3). */
#ifndef PT_CLI_DRAW_RAYS_H
#define PT_CLI_DRAW_RAYS_H

#include "lib/detect/pt_trace.h"
#include "lib/io/pt_image.h"

/* Writes DIR/<stem>-6-rays-N.png for each iteration N = 1, 2, ... that ran
 * on some eye traced (RGB, over the dimmed frame): first-stage rays from the
 * start point to their edge points yellow, second-stage rays from a
 * first-stage edge point to theirs cyan, edge points left out of the fit as
 * flat edges white, the start point a magenta cross, the iteration's fit
 * red. */
pt_status pt_draw_rays(const char *dir, const char *name, const pt_image *frame,
                       const pt_trace *traces, int eyes, pt_error *err);

#endif
