/* Device code shared by the Starburst kernels (cuda/detect/starburst.cu, one block
 * per eye, used for --sequence; cuda/detect/starburst_pipeline.cu, the throughput
 * path): the warp-parallel ray walk (same answer as lib/detect/starburst_ray.h's
 * pt_sb_cast, which every lane could run alone), RANSAC sample fits and votes. */
#ifndef PT_STARBURST_DEVICE_CUH
#define PT_STARBURST_DEVICE_CUH

#include "cuda/detect/cuda_internal.h"

#include "lib/detect/fit.h"
#include "lib/detect/pt_result.h"
#include "lib/detect/ransac.h"
#include "lib/detect/starburst_flat.h"
#include "lib/detect/starburst_inner.h"
#include "lib/detect/starburst_radial.h"
#include "lib/detect/starburst_ray.h"

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

/* nrm: the points' edge directions when circle votes test them (vote_angle,
 * lib/detect/starburst_radial.h; pt_sb_edge_normal of each point, as the
 * serial detector computes them), else NULL. */
static __device__ int count_votes(const pt_point *pts, int n, const pt_circle *c, const pt_ellipse *e,
                           int ellipse, const pt_sb_config *k, const pt_point *nrm)
{
    double inlier = k->inlier;
    int votes = 0;
    if (ellipse) {
        pt_ellipse_frame f;
        pt_ellipse_frame_init(e, &f);
        for (int k = 0; k < n; k++)
            votes += pt_ellipse_frame_distance(&f, pts[k].x, pts[k].y) <= inlier;
    } else if (nrm) {
        for (int j = 0; j < n; j++)
            votes += pt_sb_circle_radial_vote(k, c, pts[j], nrm[j]);
    } else {
        for (int j = 0; j < n; j++)
            votes += pt_sb_circle_vote(k, c, pts[j].x, pts[j].y);
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
    if (pt_sb_fits_ellipse(&p->sb, p->ellipse))
        return pt_fit_ellipse(pts, idx, p->sample_size, e) &&
               pt_ransac_ellipse_in_range(e, min_r, max_r);
    return pt_fit_circle(pts, idx, p->sample_size, c) &&
           pt_ransac_circle_in_range(c, min_r, max_r);
}

/* The view of job's eye region in the smoothed frame that pt_sb_cast and
 * pt_sb_report_size read (pt_sb_view_init, as omp/detect/starburst.c builds it). */
static __device__ pt_sb_view job_view(const pt_cuda_params &p, const pt_cuda_buffers &b,
                                      const pt_cuda_eye_job &job)
{
    const pt_cuda_frame_dims dims = b.dims[job.frame];
    pt_sb_view c;
    pt_sb_view_init(&c, &p.sb, b.smoothed + job.frame * p.plane,
                    p.reflection == PT_REFLECTION_SKIP ? b.mask + job.frame * p.plane : NULL,
                    dims.width, dims.height, p.pitch, job.x0, job.y0, job.w, job.h, job.gap);
    return c;
}

/* pt_sb_step_peak() with the warp reading 32 consecutive rises at once: the
 * step ends at the first position (by ballot) whose rise is missing or below
 * the hold, and the greatest rise of each 32, the first of equals, comes from
 * a warp reduction (exact compares of floats, any order), so every lane
 * returns the serial walk's peak bit for bit. All 32 lanes must call it
 * with the same arguments. */
static __device__ void pt_sb_step_peak_warp(const pt_sb_view *c, double sx, double sy, double dx,
                                            double dy, int len, int *tb, float *best)
{
    if (c->edge_peak != PT_SB_PEAK_STEP)
        return;
    const unsigned all = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const float hold = PT_SB_PEAK_HOLD * *best;
    const int end = pt_sb_peak_end(*tb, c->gap);
    for (int base = *tb + 1; base <= end; base += 32) {
        int u = base + lane;
        float d = 0;
        int ok = u <= end && pt_sb_rise(c, sx, sy, dx, dy, len, u, &d) && !(d < hold);
        unsigned stop = __ballot_sync(all, !ok);
        int valid = stop ? __ffs(stop) - 1 : 32;
        float v = lane < valid ? d : -1.0f; /* a rise in the step is above hold > 0 */
        int at = u;
        for (int o = 16; o > 0; o >>= 1) {
            float ov = __shfl_xor_sync(all, v, o);
            int oat = __shfl_xor_sync(all, at, o);
            if (ov > v || (ov == v && oat < at)) {
                v = ov;
                at = oat;
            }
        }
        if (v > *best) {
            *best = v;
            *tb = at;
        }
        if (valid < 32)
            break;
    }
}

/* pt_sb_follow() with the warp testing 32 consecutive positions at once in
 * its two walks (uphill to the steepest point; the reflection check up to
 * 12 gaps beyond it), which the serial code takes one position at a time:
 * the first position where the serial loop would stop is found by a ballot,
 * the running maximum of the reflection check by a warp scan (max of floats,
 * exact in any order). Every lane returns pt_sb_follow's answer bit for bit.
 * All 32 lanes must call it with the same arguments. */
static __device__ int pt_sb_follow_warp(const pt_sb_view *c, double sx, double sy, double dx,
                                        double dy, int len, int t, float d, pt_point *edge,
                                        int *resume)
{
    const unsigned all = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    const int g = c->gap;
    int tb = t;
    float best = d;
    for (int base = t + 1;; base += 32) {
        float v = 0;
        int ok = pt_sb_rise(c, sx, sy, dx, dy, len, base + lane, &v);
        float prev = __shfl_up_sync(all, v, 1);
        if (lane == 0)
            prev = best;
        unsigned stop = __ballot_sync(all, !(ok && v > prev));
        if (stop) {
            int first = __ffs(stop) - 1; /* positions base .. base+first-1 went uphill */
            if (first > 0) {
                best = __shfl_sync(all, v, first - 1);
                tb = base + first - 1;
            }
            break;
        }
        best = __shfl_sync(all, v, 31);
        tb = base + 31;
    }
    pt_sb_step_peak_warp(c, sx, sy, dx, dy, len, &tb, &best);
    if (c->max_step > 0) {
        float base_v = 0, top = 0;
        int s0;
        pt_sb_at(c, sx, sy, dx, dy, len, t - g, &base_v, &s0); /* t >= g: inside */
        top = base_v;
        int reach = tb + 12 * g + 8, back = 0, u = tb + 1;
        for (int ub = tb + 1;; ub += 32) {
            float vu = 0;
            int su, uu = ub + lane;
            int ok = uu <= reach && pt_sb_at(c, sx, sy, dx, dy, len, uu, &vu, &su);
            /* top after position uu: the running maximum (inclusive) */
            float run = ok ? vu : top;
            for (int o = 1; o < 32; o <<= 1) {
                float other = __shfl_up_sync(all, run, o);
                if (lane >= o)
                    run = fmaxf(run, other);
            }
            run = fmaxf(run, top);
            unsigned fail = __ballot_sync(all, !ok);
            int valid = fail ? __ffs(fail) - 1 : 32;
            int cond = ok && lane < valid && run - base_v > 2 * c->threshold &&
                       vu < base_v + c->threshold;
            unsigned hit = __ballot_sync(all, cond);
            if (hit) {
                back = 1;
                u = ub + __ffs(hit) - 1;
                break;
            }
            if (valid > 0)
                top = __shfl_sync(all, run, valid - 1);
            if (valid < 32) {
                u = ub + valid;
                break;
            }
        }
        if (back) {
            *resume = u + g;
            return 2;
        }
        if (top - base_v > c->max_step)
            return 0;
    }
    pt_sb_place_edge(c, sx, sy, dx, dy, len, t, g, tb, best, edge);
    return 1;
}

/* pt_sb_cast() with the 32 lanes of a warp testing 32 consecutive steps at
 * once: the first t (in order) where a step starts or the ray ends is the one
 * the serial walk stops at; the warp then follows that step together
 * (pt_sb_follow_warp), so every lane returns pt_sb_cast's answer bit for bit. */
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
        int resume = 0, r = pt_sb_follow_warp(c, sx, sy, dx, dy, len, t, d, edge, &resume);
        if (r != 2)
            return r;
        t0 = resume;
    }
}

/* The surround level of an eye (pt_eye_grid_level at PT_EYE_SURROUND_RANK)
 * read by the whole block: each thread adds its samples to a shared
 * histogram, then thread 0 finds the rank, so the level equals the CPU's
 * and the 1024 reads are not one thread's. Every thread of the block must
 * call it; the level is valid in thread 0. hist: 256 shared counters. */
static __device__ int block_surround_level(const uint8_t *buf, int stride, int x0, int y0, int w,
                                           int h, unsigned *hist)
{
    for (int v = threadIdx.x; v < 256; v += blockDim.x)
        hist[v] = 0;
    __syncthreads();
    for (int s = threadIdx.x; s < PT_EYE_SAMPLES; s += blockDim.x)
        atomicAdd(&hist[pt_eye_grid_sample(buf, stride, x0, y0, w, h, s)], 1u);
    __syncthreads();
    return threadIdx.x == 0 ? pt_eye_level_of_histogram(hist, PT_EYE_SURROUND_RANK) : 0;
}

#endif
