/* The reported confidence of every detector (lib/detect/pupil_score.h),
 * thread per job, after the detector's launches: the score of the result's
 * outline in the smoothed frame, as the OpenMP back end reports it
 * (omp/detect/backend.c). It reads only the result's status and shape, so
 * running it again after more Starburst iterations gives the final value. */
#include "cuda/detect/cuda_internal.h"

#include "lib/detect/pt_result.h"
#include "lib/detect/pupil_score.h"
#include "lib/io/pt_image.h"

#define SCORE_THREADS 64

__global__ void __launch_bounds__(SCORE_THREADS) pupil_score(pt_cuda_params p, pt_cuda_buffers b,
                                                             int jobs)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= jobs)
        return;
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    pt_cuda_eye_result *r = b.results + j;
    pt_circle circle = r->circle;
    pt_ellipse ellipse = r->ellipse;
    r->confidence = pt_pupil_confidence(&view, r->status == PT_DETECT_OK, r->has_circle,
                                        r->has_ellipse, &circle, &ellipse);
}

extern "C" cudaError_t pt_cuda_pupil_score(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                           int jobs, cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    pupil_score<<<(jobs + SCORE_THREADS - 1) / SCORE_THREADS, SCORE_THREADS, 0, stream>>>(*p, *b,
                                                                                      jobs);
    return cudaGetLastError();
}
