/* Entry points of the CUDA code other than the tracking back end. Each is
 * implemented in cuda/ .cu files when built with CUDA, and in cuda/none_ .c files (an
 * honest PT_ERR_UNAVAILABLE) when not. They return PT_ERR_UNAVAILABLE too when
 * no usable GPU is present, so callers (CLI, tests) can say so and exit 3 or skip. */
#ifndef PT_CUDA_H
#define PT_CUDA_H

#include <stdint.h>

#include "lib/core/pt_error.h"
#include "lib/io/pt_image.h"
#include "lib/params/pt_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PT_OK when a CUDA device can be used; otherwise err says why. */
pt_status pt_cuda_available(pt_error *err);

/* One frame through the CUDA preprocessing (reflection mask and removal,
 * smoothing) with the given resolved kernel and dilation sides, as a chunk
 * of `copies` copies of it (the kernels' variants depend on the chunk's
 * size): smoothed receives the last copy's result, mask (mask_stride bytes
 * per row, may be NULL) its reflection mask as 0/1 when reflection is not
 * off. For tests: the same kernels the back end runs. */
pt_status pt_cuda_preprocess_image(const pt_preprocess_params *pre, int kernel, int dilate,
                                   const pt_image *src, int copies, pt_image *smoothed,
                                   uint8_t *mask, int mask_stride, pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
