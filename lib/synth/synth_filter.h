/* Lens and motion blurs for the synthetic eye renderer (pupiltrack(1), synth
 * --hazard motion-blur and defocus). Both kernels are point-symmetric, so an
 * object's centre stays where it was; borders are replicated. */
#ifndef PT_SYNTH_FILTER_H
#define PT_SYNTH_FILTER_H

#include "lib/core/pt_error.h"

/* Average of img along a centred line segment of `length` px at `angle`
 * radians (bilinear samples 1 px or less apart): a camera exposure during
 * which the scene moved by `length`. img is width x height (row stride =
 * width); tmp holds as many floats. length < 1 leaves img alone. */
pt_status pt_synth_motion_blur(float *img, float *tmp, int width, int height, float length,
                               float angle, pt_error *err);

/* Average of img over a disc of `radius` px (anti-aliased along each row): an
 * out-of-focus lens. radius < 1 leaves img alone; radius is at most 256. */
pt_status pt_synth_disc_blur(float *img, int width, int height, float radius,
                             pt_error *err);

#endif
