/* The CUDA back end's Canny-Hough detector (-a hough -b cuda): the same
 * answers as omp/detect/hough.c for every job of a chunk, in a fixed sequence of
 * grid-wide launches on the chunk's stream (no host synchronisation):
 * Canny and the ordered edge list (canny.cu), voting (hough_vote.cu: the
 * gradient accumulator or the paper's sampled circles), refinement and the
 * result (hough_refine.cu). Every buffer is allocated once, in create, for
 * chunks of up to max_jobs jobs of frames up to width x height. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/params/params_auto.h"
#include "cuda/detect/hough_internal.h"

/* Device memory for the sampled planes of one instance (batches of radii). */
#define PLANE_BUDGET ((size_t)256 << 20)
#define MAX_BATCH 64

typedef struct {
    pt_config cfg;
    pt_hough_taps taps[PT_HOUGH_SIGMA_STEPS]; /* of step k at [k - 1] (lib/detect/hough_sigma.h) */
    pt_hough_dev dev;
} hough_instance;

/* omp/detect/canny.c make_kernels(): the Gaussian and its derivative, in double. */
static void make_taps(double sigma, pt_hough_taps *t)
{
    if (sigma < 0.3)
        sigma = 0.3;
    int radius = (int)ceil(3.0 * sigma);
    if (radius > PT_HOUGH_CANNY_MAX_RADIUS)
        radius = PT_HOUGH_CANNY_MAX_RADIUS;
    double sum = 0.0, dsum = 0.0;
    for (int i = -radius; i <= radius; i++) {
        double v = exp(-0.5 * i * i / (sigma * sigma));
        t->g[i + radius] = (float)v;
        sum += v;
    }
    for (int i = -radius; i <= radius; i++) {
        t->g[i + radius] = (float)(t->g[i + radius] / sum);
        t->dg[i + radius] = (float)(i * (double)t->g[i + radius]);
        dsum += i * (double)t->dg[i + radius];
    }
    for (int i = 0; i < 2 * radius + 1; i++)
        t->dg[i] = (float)(t->dg[i] / dsum);
    t->radius = radius;
}

/* omp/detect/hough.c make_offsets() for every radius 0 .. radii-1 (each radius's
 * list depends on it alone), copied to the device. */
static cudaError_t make_offsets(int radii, int angles, double angle_step, pt_hough_dev *d)
{
    size_t total = (size_t)radii * angles;
    int *first = (int *)malloc((size_t)(radii + 1) * sizeof *first);
    int *by_angle = (int *)malloc((size_t)radii * (angles + 1) * sizeof *by_angle);
    short2 *dxy = (short2 *)malloc((total ? total : 1) * sizeof *dxy);
    cudaError_t st = cudaErrorMemoryAllocation;
    if (first && by_angle && dxy) {
        int n = 0;
        for (int r = 0; r < radii; r++) {
            first[r] = n;
            int *ba = by_angle + (size_t)r * (angles + 1);
            for (int a = 0; a < angles; a++) {
                ba[a] = n;
                double t = a * angle_step * (M_PI / 180.0);
                int dx = (int)lround(r * cos(t)), dy = (int)lround(r * sin(t));
                int repeat = 0;
                for (int k = n - 1; k >= first[r] && k >= n - 4; k--)
                    repeat |= dxy[k].x == dx && dxy[k].y == dy;
                if (n > first[r] && a == angles - 1)
                    repeat |= dxy[first[r]].x == dx && dxy[first[r]].y == dy;
                if (repeat)
                    continue;
                dxy[n].x = (short)dx;
                dxy[n].y = (short)dy;
                n++;
            }
            ba[angles] = n;
        }
        first[radii] = n;
        st = cudaMalloc((void **)&d->off_first, (size_t)(radii + 1) * sizeof *first);
        if (st == cudaSuccess)
            st = cudaMalloc((void **)&d->off_by_angle, (size_t)radii * (angles + 1) * sizeof *by_angle);
        if (st == cudaSuccess)
            st = cudaMalloc((void **)&d->off_dxy, (n ? n : 1) * sizeof *dxy);
        if (st == cudaSuccess)
            st = cudaMemcpy(d->off_first, first, (size_t)(radii + 1) * sizeof *first,
                            cudaMemcpyHostToDevice);
        if (st == cudaSuccess)
            st = cudaMemcpy(d->off_by_angle, by_angle, (size_t)radii * (angles + 1) * sizeof *by_angle,
                            cudaMemcpyHostToDevice);
        if (st == cudaSuccess && n)
            st = cudaMemcpy(d->off_dxy, dxy, n * sizeof *dxy, cudaMemcpyHostToDevice);
    }
    free(first);
    free(by_angle);
    free(dxy);
    return st;
}

static void hough_destroy(void *instance)
{
    hough_instance *h = (hough_instance *)instance;
    if (!h)
        return;
    pt_hough_dev *d = &h->dev;
    void *bufs[] = {d->taps,      d->gx,         d->gy,       d->label,      d->state,
                    d->vmax,      d->hist,       d->high,     d->low,        d->row_count,
                    d->edge_count, d->overflow,  d->exy,      d->eux,        d->euy,
                    d->emag,      d->eflat,      d->eskip,    d->peak,       d->rhist,
                    d->score,     d->planes,     d->radius_peak, d->off_first, d->off_by_angle,
                    d->off_dxy,   d->cand,       d->ncand,    d->task,       d->pts,
                    d->seed_ii,   d->nvote,      d->ndark,    d->seed_level, d->idx,
                    d->stage,     d->partials,   d->rcentre,  d->rlo,        d->gathered,
                    d->models};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        cudaFree(bufs[i]);
    free(h);
}

#define ALLOC(ptr, count)                                                                 \
    do {                                                                                  \
        size_t n_ = (size_t)(count);                                                      \
        if (st == cudaSuccess)                                                            \
            st = cudaMalloc((void **)&(ptr), (n_ > 0 ? n_ : 1) * sizeof *(ptr));         \
    } while (0)

static cudaError_t hough_create(const pt_config *cfg, int ellipse, const pt_cuda_params *p,
                                int max_jobs, int width, int height, void **instance)
{
    *instance = NULL;
    hough_instance *h = (hough_instance *)calloc(1, sizeof *h);
    if (!h)
        return cudaErrorMemoryAllocation;
    h->cfg = *cfg;
    for (int k = 1; k <= PT_HOUGH_SIGMA_STEPS; k++)
        make_taps(cfg->hough.sigma * k, &h->taps[k - 1]);
    pt_hough_dev *d = &h->dev;
    pt_hough_settings *s = &d->s;
    const pt_hough_params *hp = &cfg->hough;
    s->canny_high = hp->canny_high;
    s->canny_low = hp->canny_low;
    s->radius_step = hp->radius_step < 1 ? 1 : hp->radius_step;
    s->gradient = hp->vote == PT_HOUGH_VOTE_GRADIENT;
    s->cell = hp->cell;
    s->angle_step = hp->angle_step;
    s->vote_spread = hp->vote_spread;
    s->angles = hp->angle_step > 0.0 ? (int)lround(360.0 / hp->angle_step) : 1;
    if (s->angles < 1)
        s->angles = 1;
    s->ellipse = ellipse;
    s->refit = !ellipse && hp->refit == PT_HOUGH_REFIT_ELLIPSE;
    s->edge_offset = hp->edge_offset;
    s->dark_spread = hp->dark_spread;
    s->skip_glints = hp->glint_edges == PT_HOUGH_GLINT_EDGES_SKIP;
    s->flat_edges = hp->flat_edges == PT_HOUGH_FLAT_REJECT;
    s->dark_vote = hp->dark_vote == PT_HOUGH_DARK_VOTE_ON;
    s->nest_keep = hp->nest_keep;
    s->ransac_samples = cfg->pre.ransac_samples;
    s->ransac_inlier = cfg->pre.ransac_inlier;
    s->job_px = (size_t)width * height;
    /* non-maximum suppression keeps at most about half of the pixels (noisy
     * 1280x1024 synth frames: a quarter); a job beyond it reports notfound */
    s->edge_cap = (int)(s->job_px / 2 > 64 ? s->job_px / 2 : 64);
    /* the accumulator aliases the label plane: at most one cell per pixel */
    s->cells_per_job = s->job_px;
    int diagonal = (int)ceil(sqrt((double)width * width + (double)height * height));
    s->hist_len = diagonal + 2;
    size_t jobs = (size_t)max_jobs, px = jobs * s->job_px, edges = jobs * s->edge_cap;
    cudaError_t st = cudaSuccess;
    ALLOC(d->taps, PT_HOUGH_SIGMA_STEPS);
    if (st == cudaSuccess)
        st = cudaMemcpy(d->taps, h->taps, sizeof h->taps, cudaMemcpyHostToDevice);
    ALLOC(d->gx, px);
    ALLOC(d->gy, px);
    ALLOC(d->label, px);
    ALLOC(d->state, (px + 3) & ~(size_t)3);
    ALLOC(d->vmax, jobs);
    ALLOC(d->hist, jobs * PT_HOUGH_CANNY_BINS);
    ALLOC(d->high, jobs);
    ALLOC(d->low, jobs);
    ALLOC(d->row_count, jobs * (height + 1));
    ALLOC(d->edge_count, jobs);
    ALLOC(d->overflow, jobs);
    ALLOC(d->exy, edges);
    ALLOC(d->eux, edges);
    ALLOC(d->euy, edges);
    ALLOC(d->emag, edges);
    ALLOC(d->eflat, edges);
    ALLOC(d->eskip, edges);
    ALLOC(d->peak, jobs);
    ALLOC(d->rhist, jobs * s->hist_len);
    ALLOC(d->score, jobs * s->hist_len);
    s->seed_ii_per_job = (size_t)(width + 1) * (height + 1);
    ALLOC(d->seed_ii, jobs * s->seed_ii_per_job);
    ALLOC(d->cand, jobs * PT_HOUGH_CANDIDATES);
    ALLOC(d->ncand, jobs);
    ALLOC(d->nvote, jobs);
    ALLOC(d->ndark, jobs);
    ALLOC(d->seed_level, jobs);
    ALLOC(d->rcentre, 2 * jobs);
    ALLOC(d->rlo, jobs);
    ALLOC(d->task, jobs * PT_HOUGH_CANDIDATES);
    ALLOC(d->pts, edges);
    ALLOC(d->idx, edges);
    ALLOC(d->stage, jobs);
    d->slots = max_jobs;
    d->partials_per_job = pt_cuda_hough_ransac_blocks(p->ransac_rows);
    ALLOC(d->partials, jobs * d->partials_per_job);
    ALLOC(d->gathered, jobs * PT_HOUGH_GATHER_BLOCKS);
    d->model_rows = p->ransac_rows;
    ALLOC(d->models, jobs * p->ransac_rows);
    d->acc = (float *)d->label;
    if (!s->gradient && st == cudaSuccess) {
        int radii = (diagonal < INT16_MAX ? diagonal : INT16_MAX) + 1;
        s->table_radii = radii;
        d->max_radii = radii;
        size_t plane_bytes = jobs * s->job_px * sizeof(uint32_t);
        size_t batch = PLANE_BUDGET / (plane_bytes ? plane_bytes : 1);
        d->batch = (int)(batch < 1 ? 1 : batch > MAX_BATCH ? MAX_BATCH : batch);
        ALLOC(d->planes, (size_t)d->batch * px);
        ALLOC(d->radius_peak, jobs * radii);
        if (st == cudaSuccess)
            st = cudaMemset(d->planes, 0, (size_t)d->batch * px * sizeof *d->planes);
        if (st == cudaSuccess)
            st = make_offsets(radii, s->angles, s->angle_step, d);
    }
    if (st != cudaSuccess) {
        hough_destroy(h);
        return st;
    }
    *instance = h;
    return cudaSuccess;
}

/* The most radii any job of a width x height chunk tests: its rois are the
 * frame or its two halves (backend.cu make_job). */
static int radii_bound(const pt_config *cfg, int width, int height)
{
    int widths[3] = {width, width / 2, width - width / 2}, most = 0;
    for (int k = 0; k < 3; k++) {
        pt_auto_params autos;
        pt_resolve_auto(cfg, widths[k], height, &autos);
        pt_cuda_eye_job job;
        memset(&job, 0, sizeof job);
        job.w = widths[k];
        job.h = height;
        job.min_r = autos.min_radius;
        job.max_r = autos.max_radius;
        int lo, hi, radii = pt_hough_radii(&job, cfg->hough.radius_step, &lo, &hi);
        most = radii > most ? radii : most;
    }
    return most;
}

static cudaError_t hough_run(void *instance, const pt_cuda_params *p, const pt_cuda_buffers *b,
                             int jobs, int width, int height, cudaStream_t stream)
{
    hough_instance *h = (hough_instance *)instance;
    const pt_hough_dev *d = &h->dev;
    if (jobs <= 0)
        return cudaSuccess;
    /* every roi of the chunk lies within width x height: its step is at most theirs */
    int max_radius = h->taps[pt_hough_sigma_step(width, height) - 1].radius;
    cudaError_t st = pt_cuda_hough_canny(d, max_radius, p, b, jobs, width, height, stream);
    if (st == cudaSuccess && h->cfg.hough.angle_step <= 0.0)
        st = cudaMemsetAsync(d->ncand, 0, jobs * sizeof *d->ncand, stream);
    else if (st == cudaSuccess && d->s.gradient)
        st = pt_cuda_hough_vote_gradient(d, p, b, jobs, width, height, stream);
    else if (st == cudaSuccess)
        st = pt_cuda_hough_vote_sampled(d, b, jobs, width, height,
                                        radii_bound(&h->cfg, width, height), stream);
    if (st == cudaSuccess)
        st = pt_cuda_hough_refine(d, p, b, jobs, height, stream);
    return st;
}

extern "C" const pt_cuda_detector pt_cuda_detector_hough = {"hough", hough_create, hough_run,
                                                            hough_destroy};
