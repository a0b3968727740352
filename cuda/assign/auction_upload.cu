/* Benefits to the GPU auction (see auction_upload.h). Pageable copies run at
 * about 7 GB/s against 49 GB/s pinned on the H100 machine (BENCHMARKS.md), and
 * a pinned copy of the whole matrix would cost more to pin than it saves, so
 * a few small pinned buffers are reused: the host team converts the next
 * chunks while earlier ones upload. Small problems, where pinning even that
 * costs more than the slower copy, take one pageable buffer. */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/assign/auction_upload.h"

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

/* Rows converted by one thread at a time: small enough to share a chunk
 * among the team, large enough that claiming one costs nothing. */
#define UNIT_ROWS_BYTES (256u << 10)

/* The raw form's range, merged over the team (see pt_auction_upload_raw16). */
typedef struct {
    double least, largest;
    int fits;
} raw_range;

/* Rows in the form of s, or (s NULL) the raw 16-bit costs, rows as persons. */
static cudaError_t upload_chunks(const pt_assign_problem *p, const pt_auction_scaling *s, raw_range *raw,
                                 void *device_benefit, pt_auction_staging *staging, cudaStream_t stream)
{
    const size_t row_bytes = s ? pt_auction_width(s) * (size_t)s->objects : sizeof(uint16_t) * (size_t)p->cols;
    const int rows_per_chunk = (int)(staging->bytes / row_bytes), persons = s ? s->persons : p->rows;
    const int chunks = (persons + rows_per_chunk - 1) / rows_per_chunk;
    int unit_rows = (int)(UNIT_ROWS_BYTES / row_bytes);
    if (unit_rows < 1)
        unit_rows = 1;
    if (unit_rows > rows_per_chunk)
        unit_rows = rows_per_chunk;
    const int units_per_chunk = (rows_per_chunk + unit_rows - 1) / unit_rows;
    const long units = (long)chunks * units_per_chunk;
    /* Per chunk: rows converted so far, and whether its copy is queued. */
    int *converted = (int *)calloc(2 * (size_t)chunks, sizeof(int));
    if (!converted)
        return cudaErrorMemoryAllocation;
    int *queued = converted + chunks;
    long next_unit = 0;
    int failure = (int)cudaSuccess; /* the first error (an int: OpenMP atomics take no enum) */
    int misfit = 0;                 /* raw: an entry that does not fit; every thread stops */
    if (raw) {
        raw->least = INFINITY;
        raw->largest = -INFINITY;
    }
    int device = 0;
    cudaError_t e0 = cudaGetDevice(&device);
    if (e0 != cudaSuccess) {
        free(converted);
        return e0;
    }
    char *dst = (char *)device_benefit;
    /* One team for the whole matrix, no barrier per chunk: a thread takes the
     * next unit of rows, converts it into its chunk's staging buffer, and the
     * thread that completes a chunk queues its copy. A preempted thread
     * delays its own chunk only (a team per chunk waited for it at each
     * join: uploads of 20-60 ms instead of 3 on a busy host). Units are
     * taken in order and wait only for earlier chunks, so none waits for
     * itself. */
#pragma omp parallel if (units > 1)
    {
        /* The team's threads queue copies too: on this thread's device. */
        cudaError_t e1 = cudaSetDevice(device);
        if (e1 != cudaSuccess) {
#pragma omp atomic write
            failure = (int)e1;
        }
        double least = INFINITY, largest = -INFINITY;
        for (;;) {
            long unit;
            int failed;
#pragma omp atomic capture
            unit = next_unit++;
#pragma omp atomic read
            failed = failure;
            if (!failed) {
#pragma omp atomic read
                failed = misfit;
            }
            if (unit >= units || failed)
                break;
            int chunk = (int)(unit / units_per_chunk), slot = chunk % staging->count;
            int chunk_first = chunk * rows_per_chunk;
            int chunk_rows = persons - chunk_first < rows_per_chunk ? persons - chunk_first : rows_per_chunk;
            int first = (int)(unit % units_per_chunk) * unit_rows;
            if (first >= chunk_rows)
                continue; /* past the last chunk's rows */
            int count = chunk_rows - first < unit_rows ? chunk_rows - first : unit_rows;
            /* The buffer's previous chunk must have left before it is overwritten. */
            if (chunk >= staging->count) {
                int ready = 0;
                for (;;) {
#pragma omp atomic read seq_cst
                    ready = queued[chunk - staging->count];
#pragma omp atomic read
                    failed = failure;
                    if (!failed) {
#pragma omp atomic read
                        failed = misfit;
                    }
                    /* After a failure the chunk may never be queued. */
                    if (ready || failed)
                        break;
                    sched_yield();
                }
                if (!ready)
                    break;
                cudaError_t e = cudaEventSynchronize(staging->uploaded[slot]);
                if (e != cudaSuccess) {
#pragma omp atomic write
                    failure = (int)e;
                    break;
                }
            }
            char *rows = (char *)staging->buffer[slot] + (size_t)first * row_bytes;
            if (!s) {
                if (!pt_auction_convert_raw16(p, chunk_first + first, count, (uint16_t *)rows, &least, &largest)) {
#pragma omp atomic write
                    misfit = 1;
                    break;
                }
            } else if (s->compact) {
                pt_auction_convert_compact(p, s, chunk_first + first, count, (uint16_t *)rows, 1);
            } else {
                pt_auction_convert(p, s, chunk_first + first, count, rows, 1);
            }
            int done;
            /* seq_cst: the rows this thread wrote are seen by the thread that queues the copy. */
#pragma omp atomic capture seq_cst
            {
                converted[chunk] += count;
                done = converted[chunk];
            }
            if (done == chunk_rows) {
                cudaError_t e = cudaMemcpyAsync(dst + (size_t)chunk_first * row_bytes, staging->buffer[slot],
                                                (size_t)chunk_rows * row_bytes, cudaMemcpyHostToDevice, stream);
                if (e == cudaSuccess)
                    e = cudaEventRecord(staging->uploaded[slot], stream);
                if (e != cudaSuccess) {
#pragma omp atomic write
                    failure = (int)e;
                }
#pragma omp atomic write seq_cst
                queued[chunk] = 1;
            }
        }
        if (raw) {
#pragma omp critical(pt_auction_raw_range)
            {
                raw->least = least < raw->least ? least : raw->least;
                raw->largest = largest > raw->largest ? largest : raw->largest;
            }
        }
    }
    free(converted);
    if (raw)
        raw->fits = !misfit;
    return (cudaError_t)failure;
}

cudaError_t pt_auction_upload(const pt_assign_problem *p, const pt_auction_scaling *s, void *device_benefit,
                              pt_auction_staging *staging, cudaStream_t stream)
{
    return upload_chunks(p, s, NULL, device_benefit, staging, stream);
}

cudaError_t pt_auction_upload_raw16(const pt_assign_problem *p, void *device_benefit, pt_auction_staging *staging,
                                    cudaStream_t stream, double *least, double *largest, int *fits)
{
    raw_range raw = {0.0, 0.0, 0};
    cudaError_t e = upload_chunks(p, NULL, &raw, device_benefit, staging, stream);
    *least = raw.least;
    *largest = raw.largest;
    *fits = raw.fits && e == cudaSuccess;
    return e;
}

cudaError_t pt_auction_upload_raw16_pageable(const pt_assign_problem *p, void *device_benefit, cudaStream_t stream,
                                             double *least, double *largest, int *fits)
{
    const size_t row = (size_t)p->cols, entries = row * (size_t)p->rows;
    uint16_t *host = (uint16_t *)malloc(sizeof(uint16_t) * entries);
    if (!host)
        return cudaErrorMemoryAllocation;
    /* Units of rows of at least 64 K entries: large enough that claiming one costs nothing. */
    const int unit = (int)((65536 + row - 1) / row), units = (p->rows + unit - 1) / unit;
    double lo = INFINITY, hi = -INFINITY;
    int fit = 1;
#pragma omp parallel for schedule(dynamic) reduction(min : lo) reduction(max : hi) reduction(&& : fit) if (units > 1)
    for (int u = 0; u < units; u++) {
        if (!fit)
            continue; /* this thread met a misfit: the rest is of no use */
        int first = u * unit, count = p->rows - first < unit ? p->rows - first : unit;
        double l = INFINITY, h = -INFINITY;
        fit = pt_auction_convert_raw16(p, first, count, host + (size_t)first * row, &l, &h) && fit;
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
    }
    cudaError_t e = cudaSuccess;
    if (fit) {
        e = cudaMemcpyAsync(device_benefit, host, sizeof(uint16_t) * entries, cudaMemcpyHostToDevice, stream);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(stream); /* before the buffer goes */
    }
    free(host);
    *least = lo;
    *largest = hi;
    *fits = fit && e == cudaSuccess;
    return e;
}

cudaError_t pt_auction_upload_pageable(const pt_assign_problem *p, const pt_auction_scaling *s, void *device_benefit,
                                       cudaStream_t stream)
{
    size_t bytes = pt_auction_width(s) * (size_t)s->persons * (size_t)s->objects;
    void *host = malloc(bytes);
    if (!host)
        return cudaErrorMemoryAllocation;
    if (s->compact)
        pt_auction_convert_compact(p, s, 0, s->persons, (uint16_t *)host, 0);
    else
        pt_auction_convert(p, s, 0, s->persons, host, 0);
    cudaError_t e = cudaMemcpyAsync(device_benefit, host, bytes, cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream); /* before the buffer goes */
    free(host);
    return e;
}

/* Raw costs c (pt_auction_upload_raw16) to the unscaled benefits the
 * compact form holds: c - base when maximising (base the least cost), else
 * base - c (base the largest). */
static __global__ void raw_to_unscaled(uint16_t *benefit, size_t entries, int maximize, unsigned base)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < entries; k += (size_t)gridDim.x * blockDim.x) {
        unsigned c = benefit[k];
        benefit[k] = (uint16_t)(maximize ? c - base : base - c);
    }
}

cudaError_t pt_auction_raw_to_unscaled(uint16_t *benefit, size_t entries, int maximize, unsigned base,
                                       cudaStream_t stream)
{
    raw_to_unscaled<<<1024, 256, 0, stream>>>(benefit, entries, maximize, base);
    return cudaGetLastError();
}

cudaError_t pt_auction_upload_load(void)
{
    cudaFuncAttributes attr;
    return cudaFuncGetAttributes(&attr, raw_to_unscaled);
}
