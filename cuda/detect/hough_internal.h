/* The CUDA Canny-Hough detector's device buffers and stage launchers, shared
 * by cuda/detect/hough.cu (the detector: buffers, the stage order), cuda/detect/canny.cu
 * (edges and the ordered edge list), cuda/detect/hough_vote.cu (voting and peaks)
 * and cuda/detect/hough_refine.cu (RANSAC refinement, confidence, the result).
 * Every stage works on all jobs of a chunk at once; job j's per-pixel planes
 * start at j * job_px and hold its roi row-major with stride roi width. */
#ifndef PT_CUDA_HOUGH_INTERNAL_H
#define PT_CUDA_HOUGH_INTERNAL_H

#include <stdint.h>

#include "cuda/detect/cuda_internal.h"

#define PT_HOUGH_CANNY_BINS 2048
#define PT_HOUGH_CANNY_MAX_RADIUS 64
#include "lib/detect/hough_dark_vote.h"
#include "lib/detect/hough_seed.h"
#include "lib/detect/hough_sigma.h"

/* gradient voting's radius candidates of its centre, then those of the
 * coarse localisation's seed (lib/detect/hough_seed.h), then those of the
 * dark-edge vote (lib/detect/hough_dark_vote.h) */
#define PT_HOUGH_VOTE_CANDIDATES 6
#define PT_HOUGH_CANDIDATES                                                                    \
    (PT_HOUGH_VOTE_CANDIDATES + PT_HOUGH_SEEDS * PT_HOUGH_SEED_RADII + PT_HOUGH_DARK_RADII)

/* Filter taps as omp/detect/canny.c make_kernels() computes them (on the host). */
typedef struct {
    int radius;
    float g[2 * PT_HOUGH_CANNY_MAX_RADIUS + 1], dg[2 * PT_HOUGH_CANNY_MAX_RADIUS + 1];
} pt_hough_taps;

/* Settings copied by value into the launches. */
typedef struct {
    double canny_high, canny_low; /* quantile, ratio */
    int radius_step;
    int gradient;                 /* hough_vote=gradient */
    int cell;                     /* gradient: accumulator cell (0 = auto per roi) */
    double angle_step, vote_spread;
    int angles;                   /* sampled: samples per circle */
    int table_radii;              /* sampled: offsets for radii 0 .. table_radii-1 */
    int ellipse;
    int refit;                    /* circle mode with hough_refit=ellipse */
    double edge_offset;           /* hough_edge_offset */
    int dark_spread;              /* hough_dark_spread (lib/detect/hough_dark.h) */
    int skip_glints;              /* hough_glint_edges=skip */
    int flat_edges;               /* hough_flat_edges=reject (lib/detect/hough_flat.h) */
    int dark_vote;                /* hough_dark_vote=on (lib/detect/hough_dark_vote.h) */
    double nest_keep;             /* hough_nest_keep (lib/detect/hough_choose.h) */
    int ransac_samples;           /* cfg->pre.ransac_samples */
    double ransac_inlier;
    size_t job_px;                /* plane elements per job */
    int edge_cap;                 /* edge-list capacity per job */
    size_t cells_per_job;         /* gradient accumulator cells per job */
    int hist_len;                 /* radius histogram length per job */
    size_t seed_ii_per_job;       /* seed grid integral entries per job */
} pt_hough_settings;

/* Blocks over which one candidate's points (its annulus, those near its
 * ellipse) are gathered (hough_refine.cu: counted, then written in edge
 * order). */
#define PT_HOUGH_GATHER_BLOCKS 32

/* Per scratch slot: the candidate being refined there (hough_refine.cu's stages). */
typedef struct {
    int active;        /* this job has a candidate of this rank */
    int n;             /* points in pts */
    pt_circle peak;    /* the candidate */
    pt_circle circle;  /* its RANSAC circle; the centre of the annulus gathered */
    int limit;         /* the annulus' dark limit (lib/detect/hough_dark.h) */
    int ok;            /* the ellipse RANSAC found a model */
    int refining;      /* its refits go on (the last one fitted) */
    pt_ellipse ellipse; /* the ellipse RANSAC's model, then each refit's */
} pt_hough_stage;

/* One candidate circle per (job, k), refined by hough_refine.cu. */
typedef struct {
    int ok;       /* refine succeeded */
    double value; /* confidence x support (gradient voting's choice) */
    int inside;   /* pt_hough_inside_level of its outline */
    double shape; /* pt_pupil_score of its outline (gradient voting's choice) */
    pt_circle circle;
    pt_ellipse ellipse;
} pt_hough_task;

typedef struct {
    pt_hough_settings s;
    /* Canny's filter taps of step k (lib/detect/hough_sigma.h) at [k - 1],
     * PT_HOUGH_SIGMA_STEPS of them */
    pt_hough_taps *taps;
    /* Canny, per pixel */
    float *gx, *gy;
    int32_t *label;   /* union-find parent within the job, -1: not a candidate */
    uint8_t *state;   /* 0 none, 1 candidate, 2 strong; | 4 root of a strong set; | 8 edge */
    /* Canny, per job */
    unsigned *vmax;   /* float bits of the largest magnitude */
    int *hist;        /* PT_HOUGH_CANNY_BINS */
    float *high, *low;
    int *row_count;   /* max height + 1 per job: edges per row, then row offsets */
    int *edge_count;  /* edges (clamped to edge_cap) */
    int *overflow;    /* 1 when the edge list was cut at edge_cap */
    /* edge list, edge_cap per job, raster order as omp/detect/hough.c collect_edges */
    int32_t *exy;     /* y << 16 | x, roi coordinates */
    float *eux, *euy, *emag;
    uint8_t *eflat;   /* on a flat edge (lib/detect/hough_flat.h), 0 with keep */
    uint8_t *eskip;   /* not a voter of the dark-edge vote */
    /* gradient voting */
    float *acc;                  /* cells_per_job */
    unsigned long long *peak;    /* per job: best 3x3 sum key */
    long long *rhist;            /* hist_len per job (radius histograms too long for shared memory) */
    double *score;               /* hist_len per job */
    int32_t *seed_ii;            /* seed_ii_per_job per job (lib/detect/hough_seed.h) */
    /* sampled voting */
    uint32_t *planes;            /* batch planes of job_px per job */
    int batch;                   /* radii per voting launch */
    unsigned long long *radius_peak; /* per job per radius index: (votes, ~index) */
    int max_radii;               /* radius_peak entries per job */
    int *off_first;              /* table_radii + 1 */
    int *off_by_angle;           /* table_radii * (angles + 1) */
    short2 *off_dxy;             /* offsets */
    /* candidates and refinement */
    pt_circle *cand;             /* PT_HOUGH_CANDIDATES per job, full-frame */
    int *ncand;
    int *nvote;                  /* per job: the first nvote candidates are the voting's */
    int *ndark;                  /* per job: the dark-edge vote's candidates start here */
    double *seed_level;          /* per job: the seed box's mean level, -1: none */
    double *rcentre;             /* per job: the seed's centre (roi x, y) for its radius histogram */
    int *rlo;                    /* per job: the seed's smallest candidate radius, -1: no seed
                                    candidates */
    pt_hough_task *task;         /* PT_HOUGH_CANDIDATES per job */
    /* refinement scratch: `slots` of each (a chunk's jobs x the candidate
     * ranks refined at once, hough_refine.cu) */
    pt_point *pts;               /* edge_cap per slot */
    int *idx;                    /* edge_cap per slot */
    pt_hough_stage *stage;       /* per slot */
    int2 *partials;              /* partials_per_job per slot: best (votes, row) per block */
    int *gathered;               /* PT_HOUGH_GATHER_BLOCKS per slot: points each block keeps */
    pt_ellipse *models;          /* ransac_rows per slot: each row's model (a circle's r in a;
                                    a = -1: none, as tl's) */
    int model_rows;              /* ransac_rows */
    int partials_per_job;
    int slots;                   /* the chunk's most jobs */
} pt_hough_dev;

/* canny.cu: the ordered edge list of every job's roi of b->smoothed, each
 * filtered with the taps of its step (d->taps); max_radius: the largest
 * taps radius of any job of the chunk (width x height at most). */
cudaError_t pt_cuda_hough_canny(const pt_hough_dev *d, int max_radius,
                                const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                int width, int height, cudaStream_t stream);
/* hough_vote.cu: candidate circles (d->cand, d->ncand) by gradient voting. */
cudaError_t pt_cuda_hough_vote_gradient(const pt_hough_dev *d, const pt_cuda_params *p,
                                        const pt_cuda_buffers *b, int jobs, int width,
                                        int height, cudaStream_t stream);
/* hough_vote.cu: the best (centre, radius) by sampled voting, radii planes
 * `radii` at most (the host's bound over the chunk's jobs). */
cudaError_t pt_cuda_hough_vote_sampled(const pt_hough_dev *d, const pt_cuda_buffers *b,
                                       int jobs, int width, int height, int radii,
                                       cudaStream_t stream);
/* hough_refine.cu: RANSAC blocks per job for rows table rows. */
int pt_cuda_hough_ransac_blocks(int rows);
/* hough_refine.cu: refine every candidate, choose, write b->results
 * (height: the one pt_cuda_hough_canny laid the row offsets out for). */
cudaError_t pt_cuda_hough_refine(const pt_hough_dev *d, const pt_cuda_params *p,
                                 const pt_cuda_buffers *b, int jobs, int height,
                                 cudaStream_t stream);

/* Radius range of a job as omp/detect/hough.c resolves it; 0 when it votes nothing. */
static inline __host__ __device__ int pt_hough_radii(const pt_cuda_eye_job *job, int step,
                                                     int *min_r, int *max_r)
{
    int lo = job->min_r < 1 ? 1 : job->min_r, hi = job->max_r;
    /* ceil(hypot(w, h)): sqrt of an exact integer is correctly rounded */
    int diagonal = (int)ceil(sqrt((double)job->w * job->w + (double)job->h * job->h));
    if (hi > diagonal)
        hi = diagonal;
    if (hi > INT16_MAX)
        hi = INT16_MAX;
    *min_r = lo;
    *max_r = hi;
    if (job->w <= 0 || job->h <= 0 || hi < lo)
        return 0;
    return (hi - lo) / (step < 1 ? 1 : step) + 1;
}

#endif
