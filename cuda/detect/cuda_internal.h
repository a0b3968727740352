/* Structures shared by the CUDA back end's host code and kernels. A chunk of
 * frames lives in device buffers with one pitch; each (frame, eye) is a job
 * whose sizes were resolved on the host exactly as the OpenMP back end does. */
#ifndef PT_CUDA_INTERNAL_H
#define PT_CUDA_INTERNAL_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "lib/core/pt_geom.h"
#include "lib/params/pt_params.h"
#include "lib/detect/starburst_ray.h"

/* Per frame of a chunk. */
typedef struct {
    int width, height;
} pt_cuda_frame_dims;

/* Per (frame, eye) of a chunk, resolved on the host. */
typedef struct {
    int frame;              /* index in the chunk */
    int x0, y0, w, h;       /* roi, full-frame pixels */
    int min_r, max_r;       /* radius range */
    int len1, len2;         /* first / second stage ray lengths */
    int gap;                /* half-distance of the ray's intensity difference */
    int start_mode;         /* PT_CUDA_START_* */
    int dark_block;         /* darkest-window cell size */
    float start_x, start_y; /* fixed start, full-frame */
    int slot;               /* --sequence: index of this eye's previous-centre slot */
} pt_cuda_eye_job;

enum { PT_CUDA_START_FIXED = 0, PT_CUDA_START_DARK = 1, PT_CUDA_START_CENTRE = 2 };

/* --sequence: the last found centre of each eye, kept on the device. */
typedef struct {
    int have;
    float x, y;
} pt_cuda_previous;

/* Per (frame, eye) result, written by the detector kernel. */
typedef struct {
    int status; /* PT_DETECT_OK / PT_DETECT_NOTFOUND */
    int has_circle, has_ellipse;
    int npoints; /* edge points of the last iteration (for --draw) */
    int iterating; /* Starburst pipeline: the eye had not converged when the result was made */
    pt_circle circle;
    pt_ellipse ellipse;
    double confidence;
    int darker_core; /* tl: the fit holds a darker disc (lib/detect/tl_retry.h) */
} pt_cuda_eye_result;

/* Per (frame, eye) state of the throughput pipeline between its launches. */
typedef struct {
    pt_point start;  /* where this iteration's rays start */
    double threshold; /* the eye's edge threshold (pt_sb_eye_threshold at the first start) */
    int active;      /* still iterating */
    int found;       /* the last iteration gave a fit */
    int n;           /* edge points of the last iteration */
    double best_conf; /* the best fit over the iterations (pt_sb_fit_wins); < 0: none */
    int best_dark;    /* it holds a darker disc (lib/detect/starburst_inner.h) */
    int stall;        /* iterations in a row without a better fit (converge_stall) */
    pt_circle circle;
    pt_ellipse ellipse;
    /* the inner pass (lib/detect/starburst_inner.h) */
    int inner;        /* iterating inside the first pass's fit */
    double max_r;     /* rays reach this far in the inner pass, px */
    double fit_r;     /* radii RANSAC accepts, px (less in the inner pass) */
    double outer_conf; /* the first pass's answer while the inner pass runs; < 0: none */
    double outer_threshold;
    pt_circle outer_circle;
    pt_ellipse outer_ellipse;
} pt_cuda_sb_state;

/* Device-side parameters the kernels need (copied by value into launches). */
typedef struct {
    int pitch;          /* bytes per row of every image plane */
    size_t plane;       /* bytes per frame plane */
    /* preprocessing */
    int reflection;     /* PT_REFLECTION_* */
    int reflection_threshold;
    int smooth;         /* PT_SMOOTH_* */
    int smooth_size;
    uint32_t gauss_weights[256];
    /* starburst */
    int rays, rays2;
    double threshold;
    double spread;      /* radians */
    int max_iterations;
    double converge_px;
    int ellipse;
    int sequence;
    /* ransac */
    const uint32_t *ransac_values;
    int ransac_rows, sample_size;
    double inlier;
    int points_per_eye; /* capacity of each eye's point buffer */
    /* starburst settings shared with the OpenMP back end: the host fills
     * them with pt_sb_config_resolve(cfg, &p->sb) (lib/detect/starburst_config.h);
     * all zero = the settings before they existed (see pt_cuda_starburst) */
    pt_sb_config sb;
} pt_cuda_params;

/* A RANSAC row's model, as sample_fit() gave it. */
typedef struct {
    pt_circle circle;
    pt_ellipse ellipse;
} pt_cuda_sb_model;

/* Device buffers of one stream's chunk. */
typedef struct {
    uint8_t *raw, *work_a, *work_b, *mask, *smoothed; /* raw: reflections get filled in place */
    pt_point *points;        /* points_per_eye per job */
    pt_point *normals;       /* points_per_eye per job: the points' edge directions (vote_angle) */
    int *scratch_idx;        /* points_per_eye per job */
    pt_cuda_previous *previous; /* --sequence: each eye's last centre (else NULL) */
    int *iterations_done;    /* --sequence graphs: iterations run in the chunk so far */
    /* darkest window per job (sum << 24 | cell index, the least wins;
     * all ones between chunks), and the dark_windows blocks of the job done
     * so far (0 between chunks): the last one starts the job */
    unsigned long long *dark_key;
    unsigned *dark_done;
    pt_cuda_frame_dims *dims;
    pt_cuda_eye_job *jobs;
    pt_cuda_eye_result *results;
    /* throughput pipeline (starburst_pipeline.cu) */
    pt_point *slot_points;   /* points_per_eye per job: ray r's edge at slot r */
    uint8_t *slot_found;     /* points_per_eye per job */
    pt_point *slot_normals;  /* points_per_eye per job: edge directions (flat_edges=reject) */
    pt_cuda_sb_state *state; /* per job */
    int2 *partials;          /* per job: best (votes, row) of each RANSAC block */
    pt_cuda_sb_model *partial_models; /* the model of each of those rows */
    int partials_per_job;
} pt_cuda_buffers;


/* A detector of the CUDA back end other than Starburst (tl, hough): it runs
 * after the shared preprocessing of a chunk, reads b->smoothed (and b->raw,
 * b->mask) and b->jobs, and writes one pt_cuda_eye_result per job to
 * b->results, on the given stream, without host synchronisation and with
 * stream-ordered calls only (the back end captures run's launches in a CUDA
 * graph per chunk shape and replays it; run must enqueue the same work for
 * the same jobs, width and height). Each
 * stream slot owns one instance (its own device buffers, made in create for
 * chunks of up to max_jobs jobs of frames up to width x height). */
typedef struct pt_cuda_detector {
    const char *name;
    cudaError_t (*create)(const pt_config *cfg, int ellipse, const pt_cuda_params *p,
                          int max_jobs, int width, int height, void **instance);
    cudaError_t (*run)(void *instance, const pt_cuda_params *p, const pt_cuda_buffers *b,
                       int jobs, int width, int height, cudaStream_t stream);
    void (*destroy)(void *instance);
} pt_cuda_detector;

/* cuda/detect/tl.cu: threshold-and-labeling (-a tl). */
extern const pt_cuda_detector pt_cuda_detector_tl;

/* stage_graph.cu: a stage of a chunk replayed from a CUDA graph, one per
 * shape for the last PT_CUDA_GRAPH_CACHE shapes (a call's full chunks, the
 * smaller ones at the pipeline's ends and a remainder, a single frame's
 * early look). */
#define PT_CUDA_GRAPH_SHAPE 8
#define PT_CUDA_GRAPH_CACHE 4
typedef struct {
    cudaGraphExec_t exec[PT_CUDA_GRAPH_CACHE];                /* NULL: not captured yet */
    int shape[PT_CUDA_GRAPH_CACHE][PT_CUDA_GRAPH_SHAPE];      /* the shape each was captured for */
    int next;                                                 /* the entry a new shape replaces */
} pt_cuda_stage_graph;

/* Enqueues a stage's launches on stream (no host synchronisation). */
typedef cudaError_t (*pt_cuda_enqueue_fn)(const void *arg, cudaStream_t stream);

#ifdef __cplusplus
extern "C" {
#endif

/* Launch the stage on stream through g: captured from enqueue(arg, ...) on
 * first use and whenever shape[0..nshape) (nshape <= PT_CUDA_GRAPH_SHAPE)
 * differs from the captured one, replayed otherwise. */
cudaError_t pt_cuda_stage_graph_launch(pt_cuda_stage_graph *g, const int *shape, int nshape,
                                       pt_cuda_enqueue_fn enqueue, const void *arg,
                                       cudaStream_t stream);
void pt_cuda_stage_graph_free(pt_cuda_stage_graph *g);
/* hough.cu: the Canny-Hough detector (-a hough). */
extern const pt_cuda_detector pt_cuda_detector_hough;

/* backend.cu: integer Gaussian weights summing to 32768, as omp/preprocess/smooth.c. */
void pt_cuda_gaussian_weights(int size, double sigma, uint32_t *w);

/* preprocess.cu: every stage over `frames` frames of the chunk, in stream. */
cudaError_t pt_cuda_preprocess(const pt_cuda_params *p, const pt_cuda_buffers *b, int frames,
                               int max_width, int max_height, int reflection_kernel,
                               int reflection_dilate, cudaStream_t stream);
/* starburst_pipeline.cu: Starburst over `jobs` (frame, eye) jobs with the
 * same arithmetic as omp/detect/starburst.c, as three grid-wide launches per
 * iteration: block per ray, blocks of RANSAC rows, block per job. With
 * p->sequence (one frame a call, calls in frame order) each eye starts from
 * b->previous and its result updates it.
 * Iterations [from, to) of max_iterations (from 0: the start points first),
 * then the results from the state so far: a later call with from = the
 * earlier to goes on where that one stopped. */
cudaError_t pt_cuda_starburst_pipeline(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                       int jobs, int from, int to, cudaStream_t stream);
/* RANSAC blocks per job the pipeline needs. */
int pt_cuda_ransac_blocks(const pt_cuda_params *p);
/* starburst.cu, the pipeline's steps that need the confidence measure: the
 * per-iteration choice and refit (block per job; with finish, the results
 * too), and the results alone. */
cudaError_t pt_cuda_starburst_select(const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                     int nblocks, int finish, cudaStream_t stream);
cudaError_t pt_cuda_starburst_finish(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                     int jobs, cudaStream_t stream);

/* pupil_score.cu: every job's reported confidence from its result's outline
 * (lib/detect/pupil_score.h), after any detector's launches. */
cudaError_t pt_cuda_pupil_score(const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                                cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
