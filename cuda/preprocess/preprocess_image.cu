/* pt_cuda_preprocess_image(): one frame (as a chunk of copies of it) through
 * the back end's preprocessing kernels, synchronously, for tests that
 * compare it with omp/preprocess/preprocess.c. */
#include <stdlib.h>
#include <string.h>

#include "cuda/detect/cuda_internal.h"
#include "cuda/core/pt_cuda.h"

#define FAIL_IF(err, call)                                                                   \
    do {                                                                                     \
        cudaError_t st_ = (call);                                                            \
        if (st_ != cudaSuccess) {                                                            \
            status = pt_error_set((err), PT_ERR_INTERNAL, "-b cuda", "%s: %s", #call,        \
                                  cudaGetErrorString(st_));                                  \
            goto done;                                                                       \
        }                                                                                    \
    } while (0)

extern "C" pt_status pt_cuda_preprocess_image(const pt_preprocess_params *pre, int kernel,
                                              int dilate, const pt_image *src, int copies,
                                              pt_image *smoothed, uint8_t *mask,
                                              int mask_stride, pt_error *err)
{
    if (pt_cuda_available(err))
        return err->status;
    if (copies < 1)
        return pt_error_set(err, PT_ERR_PARAM, "-b cuda", "copies must be at least 1 (%d)", copies);
    pt_status status = PT_OK;
    int w = src->width, h = src->height;
    pt_cuda_params p;
    memset(&p, 0, sizeof p);
    p.pitch = (w + 127) & ~127;
    p.plane = (size_t)p.pitch * h;
    p.reflection = pre->reflection;
    p.reflection_threshold = pre->reflection_threshold;
    p.smooth = pre->smooth;
    p.smooth_size = pre->smooth_size | 1;
    pt_cuda_gaussian_weights(p.smooth_size, pre->smooth_sigma > 0 ? pre->smooth_sigma : 1e-6,
                             p.gauss_weights);
    pt_cuda_buffers b;
    memset(&b, 0, sizeof b);
    pt_cuda_frame_dims *dims = (pt_cuda_frame_dims *)malloc(sizeof *dims * (size_t)copies);
    uint8_t **planes[] = {&b.raw, &b.work_a, &b.work_b, &b.mask, &b.smoothed};
    const size_t last = p.plane * (size_t)(copies - 1);
    if (!dims) {
        status = pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "out of memory");
        goto done;
    }
    for (int i = 0; i < copies; i++)
        dims[i] = pt_cuda_frame_dims{w, h};
    for (size_t i = 0; i < sizeof planes / sizeof *planes; i++)
        FAIL_IF(err, cudaMalloc((void **)planes[i], p.plane * (size_t)copies));
    FAIL_IF(err, cudaMalloc((void **)&b.dims, sizeof *dims * (size_t)copies));
    FAIL_IF(err, cudaMemcpy(b.dims, dims, sizeof *dims * (size_t)copies, cudaMemcpyHostToDevice));
    for (int i = 0; i < copies; i++)
        FAIL_IF(err, cudaMemcpy2D(b.raw + p.plane * (size_t)i, p.pitch, src->buf, src->stride, w, h,
                                  cudaMemcpyHostToDevice));
    FAIL_IF(err, pt_cuda_preprocess(&p, &b, copies, w, h, kernel, dilate, 0));
    FAIL_IF(err, cudaMemcpy2D(smoothed->buf, smoothed->stride, b.smoothed + last, p.pitch, w, h,
                              cudaMemcpyDeviceToHost));
    if (mask && pre->reflection != PT_REFLECTION_OFF)
        FAIL_IF(err, cudaMemcpy2D(mask, mask_stride, b.mask + last, p.pitch, w, h,
                                  cudaMemcpyDeviceToHost));
done:
    for (size_t i = 0; i < sizeof planes / sizeof *planes; i++)
        cudaFree(*planes[i]);
    cudaFree(b.dims);
    free(dims);
    return status;
}
