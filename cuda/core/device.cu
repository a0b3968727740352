/* Whether a CUDA device can be used here, and if not, why in the user's
 * terms (pupiltrack(1), BACK ENDS): no driver or GPU, a driver older than
 * this build, or the runtime's own reason. */
#include "cuda/core/cuda_check.h"
#include "cuda/core/pt_cuda.h"

extern "C" pt_status pt_cuda_available(pt_error *err)
{
    int count = 0, driver = 0, runtime = 0;
    cudaError_t st = cudaGetDeviceCount(&count);
    if (st == cudaSuccess && count > 0)
        return PT_OK;
    /* 0 when no driver is installed (cudaDriverGetVersion) */
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    if (driver == 0 || st == cudaErrorNoDevice || (st == cudaSuccess && count < 1))
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "no NVIDIA driver or GPU found (use -b omp on this machine)");
    if (st == cudaErrorInsufficientDriver)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                            "the NVIDIA driver supports CUDA %d.%d, older than the CUDA %d.%d "
                            "this program was built with; update the driver or use -b omp",
                            driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no usable CUDA GPU: %s",
                        cudaGetErrorString(st));
}
