/* Chunks of a CUDA call (see chunk_plan.h and cuda/detect/backend.cu). */
#include "cuda/detect/chunk_plan.h"

/* The pipeline fills and drains with half chunks: the call's first chunk,
 * so kernels start after a shorter copy, and those of its last `chunk`
 * frames, so its last kernels start sooner after the last copy (H100,
 * bench: batch 256 24.4k -> 25.2k fps); and those end chunks hold at most a
 * stream's share of the call, so a small call is spread over every stream
 * and its copies overlap kernels (batch 32, track's calls: four chunks of
 * 8, 15.4k -> 16.8k fps; 16-frame first or last chunks at batch 256 were no
 * faster or slower; BENCHMARKS.md). A submitted call keeps full chunks:
 * its first copy follows the previous call's and its last kernels overlap
 * the next call's copies. */
int pt_chunk_limit(const pt_chunk_plan *plan, int n, int i)
{
    int limit = plan->chunk > 0 ? plan->chunk : 1;
    if (!plan->sequence && !plan->submitted && limit >= 8 && (i == 0 || n - i <= limit)) {
        int streams = plan->streams > 0 ? plan->streams : 1;
        int per_stream = (n + streams - 1) / streams;
        limit /= 2;
        if (limit > per_stream)
            limit = per_stream;
    }
    return limit;
}

int pt_chunk_max_iterations(int max_iterations)
{
    return max_iterations > 0 ? max_iterations : 1;
}

/* A call of one chunk (one frame: bench's latency mode, track of a single
 * image; or a small call on one stream) is waited for at once, so its
 * results can be looked at after a few iterations. A submitted call is not
 * waited for: a look would hold up the next call. */
int pt_chunk_iterations(const pt_chunk_plan *plan, int n, int i, int count)
{
    int all = pt_chunk_max_iterations(plan->max_iterations);
    if (plan->early > 0 && !plan->sequence && !plan->submitted && i == 0 && count == n &&
        all > plan->early)
        return plan->early;
    return all;
}
