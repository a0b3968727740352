/* The reported confidence of every detector (lib/detect/pupil_score.h),
 * after the detector's launches: the score of each job's result outline in
 * the smoothed frame, as the OpenMP back end reports it
 * (omp/detect/backend.c). Block per job, thread per angle
 * (cuda/detect/pupil_score_block.cuh). It
 * reads only the result's status and shape, so running it again after more
 * Starburst iterations gives the final value. */
#include "cuda/detect/cuda_internal.h"
#include "cuda/detect/pupil_score_block.cuh"
#include "lib/detect/pt_result.h"
#include "lib/detect/pupil_score.h"
#include "lib/io/pt_image.h"

#define SCORE_THREADS PT_PUPIL_ANGLES

__global__ void __launch_bounds__(SCORE_THREADS) pupil_score(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ pupil_score_shared S;
    int j = blockIdx.x;
    pt_cuda_eye_result *r = b.results + j;
    const pt_cuda_eye_result res = *r; /* read once: mapped host memory by default */
    int found = res.status == PT_DETECT_OK && (res.has_circle || res.has_ellipse);
    pt_ellipse e = res.ellipse;
    if (!res.has_ellipse) {
        e.cx = res.circle.cx;
        e.cy = res.circle.cy;
        e.a = e.b = res.circle.r;
        e.theta = 0.0;
    }
    if (!found) {
        if (threadIdx.x == 0)
            r->confidence = 0.0;
        return; /* the whole block: found is the block's */
    }
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    double score = block_pupil_score(&view, &e, &S);
    if (threadIdx.x == 0)
        r->confidence = score;
}

extern "C" cudaError_t pt_cuda_pupil_score(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                           int jobs, cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    pupil_score<<<jobs, SCORE_THREADS, 0, stream>>>(*p, *b);
    return cudaGetLastError();
}
