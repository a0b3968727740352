/* The reported confidence of every detector (lib/detect/pupil_score.h),
 * after the detector's launches: the score of each job's result outline in
 * the smoothed frame, as the OpenMP back end reports it
 * (omp/detect/backend.c). Block per job, thread per angle: the angle's
 * samples, the four medians by rank (the ((n-1)/2)-th smallest, the value
 * the CPU's sort gives; one pass over the block's levels for all four),
 * the per-angle tests counted over the block. It
 * reads only the result's status and shape, so running it again after more
 * Starburst iterations gives the final value. */
#include "cuda/detect/cuda_internal.h"

#include "lib/detect/pt_result.h"
#include "lib/detect/pupil_score.h"
#include "lib/io/pt_image.h"

#define SCORE_THREADS PT_PUPIL_ANGLES

/* Levels of an angle whose samples did not all fall inside the image: above
 * every level, so the ranks of the valid ones count only valid ones. */
#define SCORE_NONE 0x7fffffff

/* The ((n-1)/2)-th smallest of the valid levels (0 when none), component c
 * of v[]: the threads whose value has that rank write it, all the same. */
static __device__ void block_median(const int4 *v, int k, int n, int *out)
{
    int4 mine = v[k];
    int less[4] = {0, 0, 0, 0}, upto[4] = {0, 0, 0, 0};
#pragma unroll 16
    for (int i = 0; i < PT_PUPIL_ANGLES; i++) {
        int4 o = v[i];
        less[0] += o.x < mine.x;
        upto[0] += o.x <= mine.x;
        less[1] += o.y < mine.y;
        upto[1] += o.y <= mine.y;
        less[2] += o.z < mine.z;
        upto[2] += o.z <= mine.z;
        less[3] += o.w < mine.w;
        upto[3] += o.w <= mine.w;
    }
    int m = (n - 1) / 2, value[4] = {mine.x, mine.y, mine.z, mine.w};
    for (int c = 0; c < 4; c++)
        if (value[c] != SCORE_NONE && less[c] <= m && m < upto[c])
            out[c] = value[c];
}

__global__ void __launch_bounds__(SCORE_THREADS) pupil_score(pt_cuda_params p, pt_cuda_buffers b)
{
    __shared__ int4 levels[PT_PUPIL_ANGLES]; /* core, inner, ring, far */
    __shared__ int median[4];
    int j = blockIdx.x, k = threadIdx.x;
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
    int valid = pt_pupil_angle_at(&view, &e, &geo, k, &s);
    levels[k] = valid ? make_int4(s.core, s.inner, s.ring, s.far)
                      : make_int4(SCORE_NONE, SCORE_NONE, SCORE_NONE, SCORE_NONE);
    if (k < 4)
        median[k] = 0;
    int n = __syncthreads_count(valid);
    if (valid)
        block_median(levels, k, n, median);
    __syncthreads();
    pt_pupil_features f;
    f.valid = n;
    f.core = median[0];
    f.inner = median[1];
    f.ring = median[2];
    f.far = median[3];
    f.edge = __syncthreads_count(valid && pt_pupil_angle_edge(&s, f.inner));
    f.open = __syncthreads_count(valid && pt_pupil_angle_open(&s, f.inner, f.ring));
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
