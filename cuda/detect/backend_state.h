/* The CUDA back end's state for one device (cuda/detect/backend.cu): its
 * streams, each with the buffers and graphs of one chunk in flight. Set up
 * and torn down in backend_setup.cu; chunks launched and harvested in
 * backend_chunks.cu. */
#ifndef PT_CUDA_BACKEND_STATE_H
#define PT_CUDA_BACKEND_STATE_H

#include "lib/detect/pt_backend.h"
#include "cuda/detect/cuda_internal.h"


#define DEFAULT_STREAMS 4
#define SEQUENCE_CHUNK 1        /* --sequence: frames per chunk (each starts from the last) */
#define MAX_CHUNK 64            /* frames per chunk of the throughput pipeline */
#define CHUNK_BYTES (96u << 20) /* at most this much of each image plane per stream */
/* Starburst iterations of a one-chunk call before its results are looked
 * at; the rest follow only for eyes still iterating. Most eyes converge
 * within three (synth 1280 x 1024 frames, OpenMP back end: 59 of 64 eyes,
 * 56 within two), and the launches after that, which find no active eye,
 * cost ~6.5 us per iteration on the H100; an eye that goes on costs one
 * more host round trip. Two or four gave the same latency (BENCHMARKS.md);
 * graph conditional nodes and programmatic dependent launch did not remove
 * the idle launches' cost. */
#define EARLY_ITERATIONS 3

/* Fail with a pt_error that names the call (internal failures: exit 1). */
#define CUDA_OR_FAIL(err, call)                                                          \
    do {                                                                                 \
        cudaError_t st_ = (call);                                                        \
        if (st_ != cudaSuccess)                                                          \
            return pt_error_set((err), PT_ERR_INTERNAL, "-b cuda", "%s: %s (%s:%d)", #call, \
                                cudaGetErrorString(st_), __FILE__, __LINE__);            \
    } while (0)

typedef struct {
    cudaStream_t stream;
    cudaEvent_t begin, end, copied, preprocessed, detected;
    pt_cuda_buffers dev;
    uint8_t *host_frames;          /* pinned staging for frames not already pinned, */
    size_t host_frames_bytes;      /* allocated at the first chunk that needs it */
    pt_cuda_frame_dims *host_dims; /* pinned: what dev.dims holds (uploaded_frames) */
    pt_cuda_eye_job *host_jobs;    /* pinned: what dev.jobs holds (uploaded_jobs) */
    pt_cuda_frame_dims *mapped_dims; /* the same two as device pointers (mapped), */
    pt_cuda_eye_job *mapped_jobs;    /* for uploads by a kernel (frames on the device) */
    int uploaded_frames, uploaded_jobs;
    pt_cuda_frame_dims *next_dims; /* the next chunk's, built here and uploaded when */
    pt_cuda_eye_job *next_jobs;    /* they differ from what the device holds */
    /* pinned and mapped: dev.results points here, so the kernels write the
     * results straight into host memory (no copy back to wait for); with
     * --cuda-off mapped, dev.results is a device buffer copied here after
     * each chunk (results_copied) */
    pt_cuda_eye_result *host_results;
    int results_copied;
    void *detector;                   /* the tl/hough detector's instance, or NULL */
    /* preprocessing and the Starburst pipeline of a chunk, as CUDA graphs */
    pt_cuda_stage_graph graph_pre, graph_sb, graph_det; /* graph_det: tl / hough */
    pt_cuda_stage_graph graph_sb_rest; /* the Starburst iterations after an early look */
    /* The chunk in flight on this stream: where its results go, and the
     * Starburst iterations it runs before its results are looked at
     * (fewer than max_iterations: the rest follow if an eye needs them). */
    int busy, first_frame, frames, jobs, iterations;
    pt_result *results;   /* the call's results and overlays (first_frame is */
    pt_overlay *overlays; /* an index into them) */
    long batch;           /* the call it belongs to (cuda_state.batch) */
} stream_slot;

typedef struct cuda_state {
    int device; /* CUDA device of every buffer and stream below */
    pt_config cfg;
    pt_track_options opt;
    pt_cuda_params params;
    const pt_cuda_detector *detector; /* NULL: Starburst */
    int width, height, eyes, chunk, nstreams, next_stream;
    int last_copy; /* slot of the chunk copied last (-1: none yet) */
    int last_detect; /* --sequence: slot of the chunk detected last (-1: none yet) */
    stream_slot *slots;
    uint32_t *ransac_values; /* device copy of the shared table */
    pt_cuda_previous *previous;
    long batch; /* calls so far; each chunk in flight knows its own */
    /* opt.keep_halves: each call's frames also reduced to half size, kept
     * for the two latest calls (by the parity of their batch): frame i of
     * the call whose results array is halves_of[p] at halves[p] + i *
     * half_plane, rows half_pitch apart (backend_chunks.cu). */
    uint8_t *halves[2];
    int halves_cap[2], halves_n[2];
    const pt_result *halves_of[2];
    long halves_batch[2];
    int half_pitch;
    size_t half_plane;
    /* look_ahead: the half-size state that makes the second look, started
     * at each chunk's harvest for its wanted frames (below: half_retry);
     * frame i of the call of parity p has its results at look_results[p]
     * + look_at[p][i] * eyes, or look_at[p][i] = -1 when not looked at */
    struct cuda_state *look;
    double look_below;
    pt_result *look_results[2];
    int *look_at[2];
    int look_cap[2];
    long look_batch[2]; /* the call whose looks look_at lists */
    /* stage times summed over harvested chunks, ms; frames counted */
    double stage_ms[4];
    long stage_frames;
} cuda_state;

/* One device's state for frames up to width x height (backend_setup.cu). */
pt_status pt_cuda_state_create(const pt_config *cfg, const pt_track_options *opt, int width,
                               int height, int device, cuda_state **out, pt_error *err);
void pt_cuda_state_destroy(cuda_state *s);

/* A call of n frames on one device, waited for (track) or left in flight
 * (submit); harvest_before waits for the chunks of calls before batch
 * (backend_chunks.cu). */
pt_status pt_cuda_state_track(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                              pt_overlay *overlays, pt_error *err);
pt_status pt_cuda_state_submit(cuda_state *s, pt_image *const *frames, int n, pt_result *results,
                               pt_overlay *overlays, pt_error *err);
pt_status pt_cuda_state_harvest_before(cuda_state *s, long batch, pt_error *err);
/* pt_backend.track_halves on one device: frames which[0..m) of full's call
 * `of`, from the reduced frames full kept, tracked by half (backend_chunks.cu). */
pt_status pt_cuda_state_track_halves(cuda_state *half, const cuda_state *full,
                                     const pt_result *of, pt_image *const *frames,
                                     const int *which, int m, pt_result *results,
                                     pt_overlay *overlays, pt_error *err);

#endif
