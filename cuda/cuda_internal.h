/* Structures shared by the CUDA back end's host code and kernels. A chunk of
 * frames lives in device buffers with one pitch; each (frame, eye) is a job
 * whose sizes were resolved on the host exactly as the OpenMP back end does. */
#ifndef PT_CUDA_INTERNAL_H
#define PT_CUDA_INTERNAL_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "../lib/pt_geom.h"
#include "../lib/pt_params.h"
#include "../lib/starburst_ray.h"

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
    pt_circle circle;
    pt_ellipse ellipse;
    double confidence;
} pt_cuda_eye_result;

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
     * them with pt_sb_config_resolve(cfg, &p->sb) (lib/starburst_config.h);
     * all zero = the settings before they existed (see pt_cuda_starburst) */
    pt_sb_config sb;
} pt_cuda_params;

/* Device buffers of one stream's chunk. */
typedef struct {
    uint8_t *raw, *work_a, *work_b, *mask, *filled, *smoothed;
    uint16_t *rows16;
    pt_point *points;        /* points_per_eye per job */
    int *scratch_idx;        /* points_per_eye per job */
    uint32_t *cells;         /* darkest-point cell sums, per job */
    size_t cells_per_job;
    pt_cuda_frame_dims *dims;
    pt_cuda_eye_job *jobs;
    pt_cuda_eye_result *results;
} pt_cuda_buffers;

#ifdef __cplusplus
extern "C" {
#endif

/* preprocess.cu: every stage over `frames` frames of the chunk, in stream. */
cudaError_t pt_cuda_preprocess(const pt_cuda_params *p, const pt_cuda_buffers *b, int frames,
                               int max_width, int max_height, int reflection_kernel,
                               int reflection_dilate, cudaStream_t stream);
/* starburst.cu: detector over `jobs` (frame, eye) jobs; with p->sequence the
 * jobs are launched one at a time in order, reading and updating previous. */
cudaError_t pt_cuda_starburst(const pt_cuda_params *p, const pt_cuda_buffers *b, int jobs,
                              pt_cuda_previous *previous, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
