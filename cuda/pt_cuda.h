/* Entry points of the CUDA code other than the tracking back end. Each is
 * implemented in cuda/ .cu files when built with CUDA, and in cuda/none_ .c files (an
 * honest PT_ERR_UNAVAILABLE) when not. They return PT_ERR_UNAVAILABLE too when
 * no usable GPU is present, so callers (CLI, tests) can say so and exit 3 or skip. */
#ifndef PT_CUDA_H
#define PT_CUDA_H

#include "../lib/pt_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PT_OK when a CUDA device can be used; otherwise err says why. */
pt_status pt_cuda_available(pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
