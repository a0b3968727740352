/* How the CUDA back end cuts a call of frames into chunks and how many
 * Starburst iterations a chunk runs before its results are looked at:
 * plain host arithmetic, apart from the CUDA code so that it is tested
 * without a GPU (tests/test_chunk_plan.c). */
#ifndef PT_CUDA_CHUNK_PLAN_H
#define PT_CUDA_CHUNK_PLAN_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int chunk;          /* frames per full chunk */
    int streams;        /* stream slots the chunks go round */
    int sequence;       /* --sequence: chunks of `chunk` frames, in order */
    int max_iterations; /* Starburst's limit (< 1 counts as 1) */
    int early;          /* iterations before a one-chunk call's early look; 0: none (tl, hough) */
    int submitted;      /* a submitted call: full chunks, no early look */
} pt_chunk_plan;

/* The most frames the chunk that starts at frame i of an n-frame call may
 * hold (the caller also ends it at a frame of another size). */
int pt_chunk_limit(const pt_chunk_plan *plan, int n, int i);

/* Starburst's limit on iterations, max_iterations (< 1 counts as 1). */
int pt_chunk_max_iterations(int max_iterations);

/* The Starburst iterations the chunk of count frames at frame i runs before
 * its results are looked at: all of them, or plan->early for a call that is
 * one chunk and not submitted (the rest then run only for eyes still
 * iterating). */
int pt_chunk_iterations(const pt_chunk_plan *plan, int n, int i, int count);

#ifdef __cplusplus
}
#endif

#endif
