/* The reported confidence of every detector (lib/detect/pupil_score.h),
 * after the detector's launches: the score of each job's result outline in
 * the smoothed frame, as the OpenMP back end reports it
 * (omp/detect/backend.c). Block per job, thread per angle: the angle's
 * samples, the four medians by rank (the ((n-1)/2)-th smallest, the value
 * the CPU's sort gives), the per-angle tests counted over the block. It
 * reads only the result's status and shape, so running it again after more
 * Starburst iterations gives the final value. */
#include "cuda/detect/cuda_internal.h"

#include "lib/detect/pt_result.h"
#include "lib/detect/pupil_score.h"
#include "lib/io/pt_image.h"

#define SCORE_THREADS PT_PUPIL_ANGLES

/* The ((n-1)/2)-th smallest of the valid levels v[] (0 when none): the
 * threads whose value has that rank write it, all the same value. */
static __device__ void block_median(const int *v, const int *valid, int k, int n, int *out)
{
    if (!valid[k])
        return;
    int less = 0, equal_or_less = 0, m = (n - 1) / 2;
    for (int i = 0; i < PT_PUPIL_ANGLES; i++) {
        if (!valid[i])
            continue;
        less += v[i] < v[k];
        equal_or_less += v[i] <= v[k];
    }
    if (less <= m && m < equal_or_less)
        *out = v[k];
}

__global__ void __launch_bounds__(SCORE_THREADS) pupil_score(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ int valid[PT_PUPIL_ANGLES], core[PT_PUPIL_ANGLES], inner[PT_PUPIL_ANGLES];
    __shared__ int ring[PT_PUPIL_ANGLES], far[PT_PUPIL_ANGLES];
    __shared__ int median[4];
    int j = blockIdx.x, k = threadIdx.x;
    pt_cuda_eye_result *r = b.results + j;
    int found = r->status == PT_DETECT_OK && (r->has_circle || r->has_ellipse);
    pt_ellipse e = r->ellipse;
    if (!r->has_ellipse) {
        e.cx = r->circle.cx;
        e.cy = r->circle.cy;
        e.a = e.b = r->circle.r;
        e.theta = 0.0;
    }
    pt_pupil_geometry geo;
    if (!found || !pt_pupil_geometry_of(&e, &geo)) {
        if (k == 0)
            r->confidence = 0.0;
        return; /* the whole block: found and the geometry are the block's */
    }
    const pt_cuda_eye_job job = b.jobs[j];
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_image view = {dims.width, dims.height, p.pitch, b.smoothed + job.frame * p.plane};
    pt_pupil_angle s = {0, 0, 0, 0, 0, 0};
    valid[k] = pt_pupil_angle_at(&view, &e, &geo, k, &s);
    core[k] = s.core;
    inner[k] = s.inner;
    ring[k] = s.ring;
    far[k] = s.far;
    if (k < 4)
        median[k] = 0;
    int n = __syncthreads_count(valid[k]);
    block_median(core, valid, k, n, &median[0]);
    block_median(inner, valid, k, n, &median[1]);
    block_median(ring, valid, k, n, &median[2]);
    block_median(far, valid, k, n, &median[3]);
    __syncthreads();
    pt_pupil_features f;
    f.valid = n;
    f.core = median[0];
    f.inner = median[1];
    f.ring = median[2];
    f.far = median[3];
    f.edge = __syncthreads_count(valid[k] && pt_pupil_angle_edge(&s, f.inner));
    f.open = __syncthreads_count(valid[k] && pt_pupil_angle_open(&s, f.inner, f.ring));
    if (k == 0)
        r->confidence = n > 0 ? pt_pupil_score_of(&f) : 0.0;
}

extern "C" cudaError_t pt_cuda_pupil_score(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                           int jobs, cudaStream_t stream)
{
    if (jobs <= 0)
        return cudaSuccess;
    pupil_score<<<jobs, SCORE_THREADS, 0, stream>>>(*p, *b);
    return cudaGetLastError();
}
