/* Whether a CUDA device can be used here. */
#include "cuda/core/cuda_check.h"
#include "cuda/core/pt_cuda.h"

extern "C" pt_status pt_cuda_available(pt_error *err)
{
    int count = 0;
    cudaError_t st = cudaGetDeviceCount(&count);
    if (st != cudaSuccess)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no usable CUDA GPU: %s",
                            cudaGetErrorString(st));
    if (count < 1)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no CUDA GPU found");
    return PT_OK;
}
