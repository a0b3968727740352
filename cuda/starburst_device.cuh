/* Device code shared by the Starburst kernels (cuda/starburst.cu, one block
 * per eye, used for --sequence; cuda/starburst_pipeline.cu, the throughput
 * path): the warp-parallel ray walk (same answer as lib/starburst_ray.h's
 * pt_sb_cast, which every lane could run alone), RANSAC sample fits and votes. */
#ifndef PT_STARBURST_DEVICE_CUH
#define PT_STARBURST_DEVICE_CUH

#include "cuda_internal.h"

#include "../lib/fit.h"
#include "../lib/pt_result.h"
#include "../lib/ransac.h"
#include "../lib/starburst_ray.h"

static __device__ pt_point clamp_point(const pt_sb_view *c, pt_point p)
{
    if (!(p.x >= c->xmin))
        p.x = (float)c->xmin;
    if (p.x > c->xmax)
        p.x = (float)c->xmax;
    if (!(p.y >= c->ymin))
        p.y = (float)c->ymin;
    if (p.y > c->ymax)
        p.y = (float)c->ymax;
    return p;
}

static __device__ int count_votes(const pt_point *pts, int n, const pt_circle *c, const pt_ellipse *e,
                           int ellipse, const pt_sb_config *k)
{
    double inlier = k->inlier;
    int votes = 0;
    if (ellipse) {
        pt_ellipse_frame f;
        pt_ellipse_frame_init(e, &f);
        for (int k = 0; k < n; k++)
            votes += pt_ellipse_frame_distance(&f, pts[k].x, pts[k].y) <= inlier;
    } else {
        for (int j = 0; j < n; j++)
            votes += pt_sb_circle_inlier(k, c, pts[j].x, pts[j].y);
    }
    return votes;
}

/* Fit of table row s; 0 when its indices repeat, the fit fails or leaves the range. */
static __device__ int sample_fit(const pt_cuda_params *p, const pt_point *pts, int n, int s, double min_r,
                          double max_r, pt_circle *c, pt_ellipse *e)
{
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    if (!pt_ransac_sample_indices(p->ransac_values, p->sample_size, s, n, idx))
        return 0;
    if (p->ellipse)
        return pt_fit_ellipse(pts, idx, p->sample_size, e) &&
               pt_ransac_ellipse_in_range(e, min_r, max_r);
    return pt_fit_circle(pts, idx, p->sample_size, c) &&
           pt_ransac_circle_in_range(c, min_r, max_r);
}

/* pt_sb_cast() with the 32 lanes of a warp testing 32 consecutive steps at
 * once: the first t (in order) where a step starts or the ray ends is the one
 * the serial walk stops at; every lane then follows that step with the same
 * serial code, so every lane returns pt_sb_cast's answer bit for bit. */
static __device__ int pt_sb_cast_warp(const pt_sb_view *c, double sx, double sy, double dx,
                                      double dy, int len, pt_point *edge)
{
    const unsigned all = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    if (len > PT_SB_RAY_MAX)
        len = PT_SB_RAY_MAX;
    for (int t0 = c->gap;;) {
        int t = 0, step = 0;
        float d = 0;
        for (int base = t0;; base += 32) {
            float dl = 0;
            int s = pt_sb_step_at(c, sx, sy, dx, dy, len, base + lane, &dl);
            unsigned ballot = __ballot_sync(all, s != 0);
            if (ballot) {
                int first = __ffs(ballot) - 1;
                step = __shfl_sync(all, s, first);
                d = __shfl_sync(all, dl, first);
                t = base + first;
                break;
            }
        }
        if (step < 0)
            return 0;
        int resume = 0, r = pt_sb_follow(c, sx, sy, dx, dy, len, t, d, edge, &resume);
        if (r != 2)
            return r;
        t0 = resume;
    }
}

#endif
