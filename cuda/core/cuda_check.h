/* One checking macro for CUDA calls: a failure becomes a pt_error record
 * (file = "-b cuda", what = the call and CUDA's message) and a return. */
#ifndef PT_CUDA_CHECK_H
#define PT_CUDA_CHECK_H

#include <cuda_runtime.h>

#include "lib/core/pt_error.h"

#define PT_CUDA_TRY(err, call)                                                       \
    do {                                                                             \
        cudaError_t pt_cuda_status_ = (call);                                        \
        if (pt_cuda_status_ != cudaSuccess)                                          \
            return pt_error_set((err), PT_ERR_UNAVAILABLE, "-b cuda", "%s: %s (%s:%d)", \
                                #call, cudaGetErrorString(pt_cuda_status_), __FILE__,  \
                                __LINE__);                                           \
    } while (0)

#endif
