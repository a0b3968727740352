/* Benefits to the GPU auction (see auction_upload.h). Pageable copies run at
 * about 7 GB/s against 49 GB/s pinned on the H100 machine (BENCHMARKS.md), and
 * a pinned copy of the whole matrix would cost more to pin than it saves, so
 * a few small pinned buffers are reused: the host team converts chunk k+1
 * while chunk k uploads. */
#include <string.h>

#include "auction_upload.h"

cudaError_t pt_auction_staging_alloc(pt_auction_staging *staging, size_t row_bytes, size_t matrix_bytes)
{
    memset(staging, 0, sizeof *staging);
    size_t rows = matrix_bytes / row_bytes, rows_per_chunk = PT_AUCTION_STAGING_BYTES / row_bytes;
    if (rows_per_chunk < 1)
        rows_per_chunk = 1;
    if (rows_per_chunk > rows)
        rows_per_chunk = rows;
    size_t chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;
    staging->bytes = rows_per_chunk * row_bytes;
    staging->count = chunks < PT_AUCTION_STAGING_BUFFERS ? (int)chunks : PT_AUCTION_STAGING_BUFFERS;
    /* One allocation: each costs about a millisecond besides its bytes. */
    cudaError_t e = cudaHostAlloc(&staging->block, staging->bytes * (size_t)staging->count, cudaHostAllocDefault);
    for (int k = 0; k < staging->count && e == cudaSuccess; k++) {
        staging->buffer[k] = (char *)staging->block + staging->bytes * (size_t)k;
        e = cudaEventCreateWithFlags(&staging->uploaded[k], cudaEventDisableTiming);
    }
    return e;
}

void pt_auction_staging_free(pt_auction_staging *staging)
{
    for (int k = 0; k < PT_AUCTION_STAGING_BUFFERS; k++) {
        if (staging->uploaded[k])
            cudaEventSynchronize(staging->uploaded[k]);
        if (staging->uploaded[k])
            cudaEventDestroy(staging->uploaded[k]);
    }
    if (staging->block)
        cudaFreeHost(staging->block);
    memset(staging, 0, sizeof *staging);
}

cudaError_t pt_auction_upload(const pt_assign_problem *p, const pt_auction_scaling *s, void *device_benefit,
                              pt_auction_staging *staging, cudaStream_t stream)
{
    size_t row_bytes = pt_auction_width(s) * (size_t)s->objects;
    int rows_per_chunk = (int)(staging->bytes / row_bytes);
    char *dst = (char *)device_benefit;
    for (int first = 0, chunk = 0; first < s->persons; first += rows_per_chunk, chunk++) {
        int slot = chunk % staging->count;
        int count = s->persons - first < rows_per_chunk ? s->persons - first : rows_per_chunk;
        cudaError_t e;
        /* The buffer's previous chunk must have left before it is overwritten. */
        if (chunk >= staging->count && (e = cudaEventSynchronize(staging->uploaded[slot])) != cudaSuccess)
            return e;
        if (s->compact)
            pt_auction_convert_compact(p, s, first, count, (uint16_t *)staging->buffer[slot], 0);
        else
            pt_auction_convert(p, s, first, count, staging->buffer[slot], 0);
        if ((e = cudaMemcpyAsync(dst + (size_t)first * row_bytes, staging->buffer[slot], (size_t)count * row_bytes,
                                 cudaMemcpyHostToDevice, stream)) != cudaSuccess ||
            (e = cudaEventRecord(staging->uploaded[slot], stream)) != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
