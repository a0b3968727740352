/* lib/detect/pupil_score.h's score of one outline over a block: thread k <
 * PT_PUPIL_ANGLES takes angle k's samples, the four medians are found by
 * rank (the ((n-1)/2)-th smallest, the value the CPU's sort gives; one pass
 * over the block's levels for all four) and the per-angle tests counted
 * over the block, so the score is the serial one. */
#ifndef PT_CUDA_PUPIL_SCORE_BLOCK_CUH
#define PT_CUDA_PUPIL_SCORE_BLOCK_CUH

#include "lib/detect/pupil_score.h"
#include "lib/io/pt_image.h"

/* Levels of an angle whose samples did not all fall inside the image: above
 * every level, so the ranks of the valid ones count only valid ones. */
#define PUPIL_SCORE_NONE 0x7fffffff

typedef struct {
    int4 levels[PT_PUPIL_ANGLES]; /* core, inner, ring, far */
    int median[4];
} pupil_score_shared;

/* The ((n-1)/2)-th smallest of the valid levels (0 when none), component c
 * of v[]: the threads whose value has that rank write it, all the same. */
static __device__ void pupil_score_median(const int4 *v, int k, int n, int *out)
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
        if (value[c] != PUPIL_SCORE_NONE && less[c] <= m && m < upto[c])
            out[c] = value[c];
}

/* pt_pupil_score(view, e), to every thread. Every thread of a block of at
 * least PT_PUPIL_ANGLES threads calls it with the same arguments. */
static __device__ double block_pupil_score(const pt_image *view, const pt_ellipse *e,
                                           pupil_score_shared *S)
{
    pt_pupil_geometry geo;
    if (!pt_pupil_geometry_of(e, &geo))
        return 0.0;
    const int k = threadIdx.x;
    pt_pupil_angle s = {0, 0, 0, 0, 0, 0};
    int valid = k < PT_PUPIL_ANGLES && pt_pupil_angle_at(view, e, &geo, k, &s);
    if (k < PT_PUPIL_ANGLES)
        S->levels[k] = valid ? make_int4(s.core, s.inner, s.ring, s.far)
                             : make_int4(PUPIL_SCORE_NONE, PUPIL_SCORE_NONE, PUPIL_SCORE_NONE,
                                         PUPIL_SCORE_NONE);
    if (k < 4)
        S->median[k] = 0;
    int n = __syncthreads_count(valid);
    if (valid)
        pupil_score_median(S->levels, k, n, S->median);
    __syncthreads();
    pt_pupil_features f;
    f.valid = n;
    f.core = S->median[0];
    f.inner = S->median[1];
    f.ring = S->median[2];
    f.far = S->median[3];
    f.edge = __syncthreads_count(valid && pt_pupil_angle_edge(&s, f.inner));
    f.open = __syncthreads_count(valid && pt_pupil_angle_open(&s, f.inner, f.ring));
    return n > 0 ? pt_pupil_score_of(&f) : 0.0;
}

#endif
