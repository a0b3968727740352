/* Reflections refilled along circles around a pupil's centre (pupiltrack(1),
 * PARAMETERS: glint_retry).
 *
 * The preprocessing refills a reflection from the nearest unmasked pixels
 * left, right, above and below it. A glint that lies on the pupil's border
 * then takes pupil from one side and iris from the other, and the filled
 * patch is a grey step inside the border: the fit shrinks towards it. Around
 * a known centre the border is a circle, so a masked pixel takes the
 * unmasked pixels at its own distance from the centre on either side of the
 * glint: inside the border pupil, outside it iris, and the border goes on
 * through the glint. */
#ifndef PT_ARC_FILL_H
#define PT_ARC_FILL_H

#include <stdint.h>

#include "lib/io/pt_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The window of img that mask covers (mask[(y - y0) * mask_stride + x - x0]
 * for x0 <= x < x0 + width, y0 <= y < y0 + height; 1: a reflection). */
typedef struct {
    const uint8_t *mask;
    int mask_stride;
    int x0, y0, width, height;
} pt_arc_window;

/* Each masked pixel (x, y) of src's window at least 3 px from (cx, cy),
 * within limit px of it along x and y, is written to dst at (x - dx0,
 * y - dy0) where dst holds that pixel: the inverse-distance mean of the
 * first unmasked pixel of src on each side along its circle around (cx,
 * cy), rounded. The circle is walked in steps of step px of arc (1 or 2),
 * at most reach px, within the window; the weight of a side is 1 / its
 * steps. A pixel with none on either side is not written. dst may be src
 * (dx0 = dy0 = 0): only masked pixels are written and only unmasked ones
 * read. */
void pt_arc_fill(const pt_image *src, const pt_arc_window *win, double cx, double cy,
                 double limit, int reach, int step, pt_image *dst, int dx0, int dy0);

#ifdef __cplusplus
}
#endif

#endif
