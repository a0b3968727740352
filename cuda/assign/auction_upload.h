/* Benefits to the GPU auction: converted on host threads chunk by chunk into
 * pinned staging buffers, each chunk uploaded while the next is converted
 * (cuda/assign/auction_upload.cu). Internal to cuda/auction*.cu. */
#ifndef PT_CUDA_AUCTION_UPLOAD_H
#define PT_CUDA_AUCTION_UPLOAD_H

#include <cuda_runtime.h>

#include "lib/assign/assign.h"

/* Staging buffers in flight, and the bytes of each (at least one benefit row). */
#ifndef PT_AUCTION_STAGING_BUFFERS
#define PT_AUCTION_STAGING_BUFFERS 3
#endif
#ifndef PT_AUCTION_STAGING_BYTES
#define PT_AUCTION_STAGING_BYTES (2u << 20)
#endif

typedef struct {
    void *block;                              /* one pinned allocation ... */
    void *buffer[PT_AUCTION_STAGING_BUFFERS]; /* ... cut into these */
    cudaEvent_t uploaded[PT_AUCTION_STAGING_BUFFERS];
    size_t bytes; /* of each buffer */
    int count;    /* buffers allocated: no more than the chunks need */
} pt_auction_staging;

/* Bytes per benefit on the device: 2 (unscaled, when s->compact), 4 or 8. */
static inline size_t pt_auction_width(const pt_auction_scaling *s)
{
    return s->compact ? sizeof(uint16_t) : s->narrow ? sizeof(int32_t) : sizeof(int64_t);
}

/* Pinned buffers for rows of row_bytes, matrix_bytes in all: each holds at
 * least a row, at most PT_AUCTION_STAGING_BYTES unless a row is larger, and
 * no more of them than chunks (a small problem pins what it uploads, not
 * 12 MB). Free with pt_auction_staging_free (also after a failure). */
cudaError_t pt_auction_staging_alloc(pt_auction_staging *staging, size_t row_bytes, size_t matrix_bytes);
void pt_auction_staging_free(pt_auction_staging *staging);

/* Writes every benefit row of p (scaling s) to device_benefit, persons x
 * objects, queued on stream; returns after the last chunk is queued. */
cudaError_t pt_auction_upload(const pt_assign_problem *p, const pt_auction_scaling *s, void *device_benefit,
                              pt_auction_staging *staging, cudaStream_t stream);

/* Integer costs in 0..65535 with persons as rows (rows <= cols), as they
 * are: one pass converts and uploads them and finds their range, where the
 * scaled forms need a range pass first. *fits 0 (an entry is not such an
 * integer): the team stopped at it, copies may still be in flight on
 * stream, and device_benefit holds nothing usable. Else *least and
 * *largest are the costs' range. */
cudaError_t pt_auction_upload_raw16(const pt_assign_problem *p, void *device_benefit, pt_auction_staging *staging,
                                    cudaStream_t stream, double *least, double *largest, int *fits);

/* The same through one pageable buffer, for problems of at most
 * PT_AUCTION_RAW_PAGEABLE_ENTRIES: the single pass has no range pass to
 * hide the pinning behind (3 x 2 MB: 3.5-5 ms on the H100 machine), and a
 * pageable copy of 8 MB of 16-bit costs takes about 1 ms. Returns after
 * the copy; *fits as above. */
#define PT_AUCTION_RAW_PAGEABLE_ENTRIES (1L << 22)
cudaError_t pt_auction_upload_raw16_pageable(const pt_assign_problem *p, void *device_benefit, cudaStream_t stream,
                                             double *least, double *largest, int *fits);

/* After pt_auction_upload_raw16 (or its pageable form): the raw costs c
 * to the unscaled benefits of the compact form, queued on stream: c - base
 * when maximising (base the least cost), else base - c (base the largest). */
cudaError_t pt_auction_raw_to_unscaled(uint16_t *benefit, size_t entries, int maximize, unsigned base,
                                       cudaStream_t stream);
/* Loads this file's kernel now (CUDA loads modules lazily), for the warm-up. */
cudaError_t pt_auction_upload_load(void);

/* Small problems: pinning costs more (about a millisecond a call, more per
 * MB) than a pageable copy of a few MB. Problems of at most this many
 * entries take pt_auction_upload_pageable and no staging buffers. */
#define PT_AUCTION_PAGEABLE_ENTRIES (1L << 20)

/* The same through one pageable buffer: converted, copied, freed; returns
 * after the copy. */
cudaError_t pt_auction_upload_pageable(const pt_assign_problem *p, const pt_auction_scaling *s, void *device_benefit,
                                       cudaStream_t stream);

#endif
