/* CUDA border tracking, identical to pt_contours_find_seq (OpenCV findContours).
 * Phases as the border-tracking literature reports them:
 *
 * upload: the image goes to the device through pinned staging;
 * tracing: binarized into a padded 0/1 label image (zero frame, as OpenCV
 *    pads); count pass: one thread per tile traces its border pieces
 *    (lib/contours/contours_tile.h) and counts pieces and direction bytes;
 *    prefix sums of the counts on the host (one small round trip); write
 *    pass: the same tracing, now storing compact pieces (a header and one
 *    byte per state) at those offsets;
 * connection: one thread per piece finds, by binary search among the sorted
 *    entry states of the tile it enters, the piece that continues it; log2
 *    rounds of pointer jumping give every piece whether its cycle examines a
 *    zero (is a border) and the cycle's lowest piece; the other cycles'
 *    pieces (inside solid regions) are dropped and the rest compacted with
 *    their direction bytes (CUB prefix sums);
 * assembly: per border, extent, OpenCV start and discovery key; a radix sort
 *    into OpenCV's order; list ranking rotates every border's directions to
 *    start at its start state (lib/contours/contours_borders.h);
 * download: the chain codes (one byte per point) and per border its start,
 *    flags and offsets;
 * host: points from the chains in parallel, OpenCV's order and, for
 *    CCOMP/TREE, the hierarchy (lib/contours/contours_chains.c). The host
 *    binarizes for that hierarchy while the device works.
 * Each tile's thread writes only its own pixels' visited bits and its own
 * output ranges, so threads never share a written byte; per-border sums of
 * pieces use integer atomics (order-free). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cub/cub.cuh>
#include <omp.h>

#include "lib/contours/contours_borders.h"
#include "lib/contours/contours_chains.h"
#include "lib/contours/contours_pieces.h"
#include "lib/contours/contours_tile.h"
#include "cuda/core/cuda_check.h"
#include "cuda/contours/pt_cuda_contours.h"
#include "cuda/core/pt_cuda.h"

/* Events bracketing the phases: upload, tracing, connection, assembly, download. */
enum { NEV = 6 };

struct pt_cuda_contours {
    cudaStream_t stream;
    cudaEvent_t ev[NEV];
    uint8_t *d_img;
    int8_t *d_lab;
    uint8_t *d_visited;
    pt_ctile_info *d_info;
    pt_cpiece *d_pieces;
    uint8_t *d_dirs;
    int32_t *d_jump;    /* 2 x pieces: double-buffered pointer jumping */
    int32_t *d_low;     /* 2 x pieces: lowest piece of the cycle so far */
    int32_t *d_rep;     /* kept pieces: their cycle's representative */
    int64_t *d_bid;     /* 2 x (kept + 1): representative flags, border numbers */
    pt_cborder *d_borders;
    uint64_t *d_keys;   /* 2 x kept: discovery keys, sorted */
    int32_t *d_index;   /* 3 x kept: border numbers, sorted (order), rank of each */
    int64_t *d_start;   /* per rank: start pixel */
    uint8_t *d_flags;   /* per rank: PT_CCHAIN_* flags */
    int64_t *d_counts;  /* 4 x (kept + 1): states, points, their exclusive sums */
    int32_t *d_link;    /* 2 x kept: list ranking */
    int64_t *d_rsum;    /* 2 x kept */
    uint8_t *d_chain;   /* the chain codes */
    int32_t *d_err;
    uint8_t *d_gap;     /* 2 x pieces */
    int64_t *d_sums;    /* 4 x pieces: keep, bytes, their exclusive prefix sums */
    pt_cpiece *d_kept;  /* compacted border pieces */
    uint8_t *d_kept_dirs;
    int64_t *d_totals;  /* kept pieces, kept bytes */
    void *d_cub;        /* CUB scratch */
    size_t img_cap, lab_cap, visited_cap, info_cap, pieces_cap, dirs_cap; /* bytes */
    size_t jump_cap, gap_cap, sums_cap, kept_cap, kept_dirs_cap, totals_cap, cub_cap;
    size_t low_cap, rep_cap, bid_cap, borders_cap, keys_cap, index_cap, start_cap, flags_cap;
    size_t counts_cap, link_cap, rsum_cap, chain_cap, err_cap;
    int64_t *h_totals;
    size_t h_totals_cap;
    uint8_t *h_img;
    pt_ctile_info *h_info;
    int64_t *h_start, *h_first; /* per rank: start; dfirst then pfirst (2 x (borders + 1)) */
    uint8_t *h_flags, *h_chain;
    size_t h_img_cap, h_info_cap, h_start_cap, h_first_cap, h_flags_cap, h_chain_cap;
    pt_cuda_contours_times times;
};

#define THREADS 128

__global__ void binarize_kernel(const uint8_t *img, int width, int height, int threshold,
                                int8_t *lab)
{
    int step = width + 2;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t n = (int64_t)step * (height + 2);
    if (i >= n)
        return;
    int x = (int)(i % step), y = (int)(i / step);
    int8_t v = 0;
    if (x >= 1 && x <= width && y >= 1 && y <= height)
        v = img[(int64_t)(y - 1) * width + (x - 1)] > threshold;
    lab[i] = v;
}

__global__ void count_kernel(pt_ctiles t, pt_ctile_info *info, int ntiles)
{
    int tile = blockIdx.x * blockDim.x + threadIdx.x;
    if (tile >= ntiles)
        return;
    pt_ctile_sink sink = {NULL, NULL, 0, 0, 0, 0};
    int64_t entries = pt_ctrace_tile(&t, tile, &sink);
    info[tile].entries = (int32_t)entries;
    info[tile].pieces = sink.npieces;
    info[tile].states = sink.nstates;
    info[tile].status = 0;
}

__global__ void write_kernel(pt_ctiles t, const pt_ctile_info *info, pt_cpiece *pieces,
                             uint8_t *dirs, int ntiles)
{
    int tile = blockIdx.x * blockDim.x + threadIdx.x;
    if (tile >= ntiles)
        return;
    pt_ctile_sink sink = {pieces, dirs, 0, 0, info[tile].piece_base, info[tile].state_base};
    pt_ctrace_tile(&t, tile, &sink);
}

__global__ void join_kernel(pt_ctiles t, pt_cpiece *pieces, const pt_ctile_info *info,
                            int64_t npieces)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= npieces)
        return;
    int32_t next = pt_cjoin_piece(&t, pieces, info, &pieces[i], (int32_t)i);
    pieces[i].next = next;
}

__global__ void jump_init_kernel(const pt_cpiece *pieces, int64_t n, int32_t *jump,
                                 uint8_t *gap, int32_t *low)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cjump_init(pieces, i, jump, gap, low);
}

__global__ void jump_round_kernel(int64_t n, const int32_t *jump_in, const uint8_t *gap_in,
                                  const int32_t *low_in, int32_t *jump_out, uint8_t *gap_out,
                                  int32_t *low_out)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cjump_round(i, jump_in, gap_in, low_in, jump_out, gap_out, low_out);
}

__global__ void keep_kernel(const pt_cpiece *pieces, const uint8_t *gap, int64_t n,
                            int64_t *keep, int64_t *bytes)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_ckeep(pieces, gap, i, keep, bytes);
}

__global__ void compact_kernel(const pt_cpiece *pieces, const uint8_t *dirs, const uint8_t *gap,
                               const int32_t *low, const int64_t *pidx, const int64_t *doff,
                               int64_t n, pt_cpiece *out_pieces, uint8_t *out_dirs,
                               int32_t *out_rep)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_ccompact(pieces, dirs, gap, low, pidx, doff, i, out_pieces, out_dirs, out_rep);
}

/* ---- border assembly (lib/contours/contours_borders.h) ---- */

__global__ void head_kernel(const int32_t *rep, int64_t n, int64_t *flag)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        flag[i] = pt_cborder_head(rep, i);
    else if (i == n)
        flag[i] = 0;
}

__global__ void border_init_kernel(pt_cborder *B, int64_t nb)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb)
        pt_cborder_init(B, b);
}

__global__ void border_add_kernel(const pt_cpiece *pieces, const uint8_t *dirs,
                                  const int32_t *rep, const int64_t *bid, int64_t n, int simple,
                                  pt_cborder *B, int32_t *err)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && pt_cborder_add(pieces, dirs, rep, bid, i, simple, B))
        atomicOr(err, 1);
}

__global__ void border_start_kernel(pt_cborder *B, int64_t nb, const int8_t *lab, int step,
                                    int32_t *err)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb && pt_cborder_start(B, b, lab, step))
        atomicOr(err, 2);
}

__global__ void border_locate_kernel(const pt_cpiece *pieces, const uint8_t *dirs,
                                     const int32_t *rep, const int64_t *bid, int64_t n, int step,
                                     pt_cborder *B)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cborder_locate(pieces, dirs, rep, bid, i, step, B);
}

__global__ void border_key_kernel(const pt_cborder *B, int64_t nb, uint64_t *keys,
                                  int32_t *index)
{
    int64_t b = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb)
        pt_cborder_key(B, b, keys, index);
}

__global__ void border_rank_kernel(const pt_cborder *B, const int32_t *order, int64_t nb,
                                   int simple, int32_t *rank_of, int64_t *start, uint8_t *flags,
                                   int64_t *states, int64_t *points, int32_t *err)
{
    int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < nb) {
        if (pt_cborder_rank(B, order, r, simple, rank_of, start, flags, states, points))
            atomicOr(err, 4);
    } else if (r == nb) {
        states[r] = 0;
        points[r] = 0;
    }
}

__global__ void rank_init_kernel(const pt_cpiece *pieces, const int32_t *rep, const int64_t *bid,
                                 const pt_cborder *B, int64_t n, int32_t *link, int64_t *sum)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_crank_init(pieces, rep, bid, B, i, link, sum);
}

__global__ void rank_round_kernel(int64_t n, const int32_t *link_in, const int64_t *sum_in,
                                  int32_t *link_out, int64_t *sum_out)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_crank_round(i, link_in, sum_in, link_out, sum_out);
}

__global__ void rotate_kernel(const pt_cpiece *pieces, const uint8_t *dirs, const int32_t *rep,
                              const int64_t *bid, const pt_cborder *B, const int32_t *rank_of,
                              const int64_t *dfirst, const int64_t *sum, int64_t n,
                              uint8_t *chain)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cborder_rotate(pieces, dirs, rep, bid, B, rank_of, dfirst, sum, i, chain);
}

__global__ void totals_kernel(const int64_t *keep, const int64_t *bytes, const int64_t *pidx,
                              const int64_t *doff, int64_t n, int64_t *totals)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        totals[0] = n > 0 ? pidx[n - 1] + keep[n - 1] : 0;
        totals[1] = n > 0 ? doff[n - 1] + bytes[n - 1] : 0;
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static unsigned blocks_for(int64_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }

/* Device buffer of at least `need` bytes (contents not kept). */
static pt_status grow_device(void **p, size_t *cap, size_t need, pt_error *err)
{
    if (need <= *cap && *p)
        return PT_OK;
    if (*p)
        PT_CUDA_TRY(err, cudaFree(*p));
    *p = NULL;
    *cap = 0;
    size_t want = need + need / 4 + 4096;
    PT_CUDA_TRY(err, cudaMalloc(p, want));
    *cap = want;
    return PT_OK;
}

/* Pinned host buffer of at least `need` bytes (contents not kept). */
static pt_status grow_host(void **p, size_t *cap, size_t need, pt_error *err)
{
    if (need <= *cap && *p)
        return PT_OK;
    if (*p)
        PT_CUDA_TRY(err, cudaFreeHost(*p));
    *p = NULL;
    *cap = 0;
    size_t want = need + need / 4 + 4096;
    PT_CUDA_TRY(err, cudaMallocHost(p, want));
    *cap = want;
    return PT_OK;
}

extern "C" pt_status pt_cuda_contours_create(pt_cuda_contours **ctx, pt_error *err)
{
    *ctx = NULL;
    if (pt_cuda_available(err))
        return err->status;
    cudaError_t e;
    pt_cuda_contours *c = (pt_cuda_contours *)calloc(1, sizeof *c);
    if (!c)
        return pt_error_set(err, PT_ERR_NOMEM, "-b cuda", "cannot allocate the CUDA context");
    e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking);
    for (int i = 0; i < NEV && e == cudaSuccess; i++)
        e = cudaEventCreate(&c->ev[i]);
    if (e != cudaSuccess) {
        pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "cannot create a CUDA stream: %s",
                     cudaGetErrorString(e));
        pt_cuda_contours_destroy(c);
        return PT_ERR_UNAVAILABLE;
    }
    *ctx = c;
    return PT_OK;
}

extern "C" void pt_cuda_contours_destroy(pt_cuda_contours *c)
{
    if (!c)
        return;
    cudaFree(c->d_img);
    cudaFree(c->d_lab);
    cudaFree(c->d_visited);
    cudaFree(c->d_info);
    cudaFree(c->d_pieces);
    cudaFree(c->d_dirs);
    cudaFree(c->d_jump);
    cudaFree(c->d_low);
    cudaFree(c->d_rep);
    cudaFree(c->d_bid);
    cudaFree(c->d_borders);
    cudaFree(c->d_keys);
    cudaFree(c->d_index);
    cudaFree(c->d_start);
    cudaFree(c->d_flags);
    cudaFree(c->d_counts);
    cudaFree(c->d_link);
    cudaFree(c->d_rsum);
    cudaFree(c->d_chain);
    cudaFree(c->d_err);
    cudaFree(c->d_gap);
    cudaFree(c->d_sums);
    cudaFree(c->d_kept);
    cudaFree(c->d_kept_dirs);
    cudaFree(c->d_totals);
    cudaFree(c->d_cub);
    cudaFreeHost(c->h_totals);
    cudaFreeHost(c->h_img);
    cudaFreeHost(c->h_info);
    cudaFreeHost(c->h_start);
    cudaFreeHost(c->h_first);
    cudaFreeHost(c->h_flags);
    cudaFreeHost(c->h_chain);
    for (int i = 0; i < NEV; i++)
        if (c->ev[i])
            cudaEventDestroy(c->ev[i]);
    if (c->stream)
        cudaStreamDestroy(c->stream);
    free(c);
}

extern "C" void pt_cuda_contours_last_times(const pt_cuda_contours *c,
                                            pt_cuda_contours_times *t)
{
    *t = c->times;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    if (cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
        ms = 0;
    return ms;
}

/* Stage 1: the image to the device through pinned staging in row bands
 * (the host copy of band k overlaps the transfer of band k-1), binarized
 * there into d_lab with a zero frame. Event 0 and 1 bracket the upload. */
static pt_status upload_binarized(pt_cuda_contours *c, const pt_image *img, int threshold,
                                  int threads, pt_error *err)
{
    const int width = img->width, height = img->height;
    const size_t padded = (size_t)(width + 2) * (size_t)(height + 2);
    cudaStream_t s = c->stream;
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[0], s));
    const int bands = height >= 512 ? 8 : 1;
    for (int k = 0; k < bands; k++) {
        int y0 = (int)((int64_t)height * k / bands), y1 = (int)((int64_t)height * (k + 1) / bands);
#pragma omp parallel for schedule(static) num_threads(threads > 0 ? threads : omp_get_max_threads()) if (y1 - y0 >= 256)
        for (int y = y0; y < y1; y++)
            memcpy(c->h_img + (size_t)y * width, img->buf + (size_t)y * img->stride,
                   (size_t)width);
        size_t off = (size_t)y0 * width, len = (size_t)(y1 - y0) * width;
        if (len)
            PT_CUDA_TRY(err, cudaMemcpyAsync(c->d_img + off, c->h_img + off, len,
                                             cudaMemcpyHostToDevice, s));
    }
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[1], s));
    binarize_kernel<<<blocks_for((int64_t)padded), THREADS, 0, s>>>(c->d_img, width, height,
                                                                     threshold, c->d_lab);
    PT_CUDA_TRY(err, cudaGetLastError());
    return PT_OK;
}

/* CUB scratch of at least `need` bytes. */
static pt_status cub_room(pt_cuda_contours *c, size_t need, pt_error *err)
{
    return grow_device(&c->d_cub, &c->cub_cap, need, err);
}

/* Connection, after the join: pointer jumping over the joined pieces marks
 * the cycles that examine a zero pixel (borders) and finds each cycle's
 * lowest piece; prefix sums and compaction keep their pieces and direction
 * bytes (nk pieces, nd bytes). Event 3 ends the phase. */
static pt_status compact_borders(pt_cuda_contours *c, int64_t np, int64_t ns,
                                 size_t piece_bytes, int64_t *nk_out, int64_t *nd_out,
                                 pt_error *err)
{
    cudaStream_t s = c->stream;
    pt_status st;
    size_t cub_bytes = 0;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(NULL, cub_bytes, c->d_sums, c->d_sums,
                                                   (int)np, s));
    if ((st = grow_device((void **)&c->d_jump, &c->jump_cap, 2 * (size_t)np * 4, err)) ||
        (st = grow_device((void **)&c->d_low, &c->low_cap, 2 * (size_t)np * 4, err)) ||
        (st = grow_device((void **)&c->d_gap, &c->gap_cap, 2 * (size_t)np, err)) ||
        (st = grow_device((void **)&c->d_sums, &c->sums_cap, 4 * (size_t)np * 8, err)) ||
        (st = grow_device((void **)&c->d_kept, &c->kept_cap, piece_bytes, err)) ||
        (st = grow_device((void **)&c->d_rep, &c->rep_cap, (size_t)np * 4, err)) ||
        (st = grow_device((void **)&c->d_kept_dirs, &c->kept_dirs_cap, (size_t)ns, err)) ||
        (st = grow_device((void **)&c->d_totals, &c->totals_cap, 16, err)) ||
        (st = grow_host((void **)&c->h_totals, &c->h_totals_cap, 16, err)) ||
        (st = cub_room(c, cub_bytes, err)))
        return st;
    jump_init_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, np, c->d_jump, c->d_gap,
                                                         c->d_low);
    PT_CUDA_TRY(err, cudaGetLastError());
    int rounds = pt_cjump_rounds(np);
    for (int r = 0; r < rounds; r++) {
        size_t in = (size_t)(r & 1) * (size_t)np, o = (size_t)((r + 1) & 1) * (size_t)np;
        jump_round_kernel<<<blocks_for(np), THREADS, 0, s>>>(
            np, c->d_jump + in, c->d_gap + in, c->d_low + in, c->d_jump + o, c->d_gap + o,
            c->d_low + o);
        PT_CUDA_TRY(err, cudaGetLastError());
    }
    const uint8_t *gfinal = c->d_gap + (size_t)(rounds & 1) * (size_t)np;
    const int32_t *lfinal = c->d_low + (size_t)(rounds & 1) * (size_t)np;
    int64_t *keep = c->d_sums, *bytes = c->d_sums + np;
    int64_t *pidx = c->d_sums + 2 * np, *doff = c->d_sums + 3 * np;
    keep_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, gfinal, np, keep, bytes);
    PT_CUDA_TRY(err, cudaGetLastError());
    size_t tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, keep, pidx, (int)np, s));
    tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, bytes, doff, (int)np, s));
    compact_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, c->d_dirs, gfinal, lfinal,
                                                       pidx, doff, np, c->d_kept,
                                                       c->d_kept_dirs, c->d_rep);
    PT_CUDA_TRY(err, cudaGetLastError());
    totals_kernel<<<1, 32, 0, s>>>(keep, bytes, pidx, doff, np, c->d_totals);
    PT_CUDA_TRY(err, cudaGetLastError());
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[3], s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_totals, c->d_totals, 16, cudaMemcpyDeviceToHost,
                                     s));
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));
    *nk_out = c->h_totals[0];
    *nd_out = c->h_totals[1];
    if (*nk_out < 0 || *nk_out > np || *nd_out < 0 || *nd_out > ns)
        return pt_error_set(err, PT_ERR_INTERNAL, "-b cuda",
                            "contours: compaction kept %lld of %lld pieces",
                            (long long)*nk_out, (long long)np);
    return PT_OK;
}

/* Bits of the largest discovery key (a padded pixel index, + 1 for holes). */
static int key_bits(size_t padded)
{
    int bits = 1;
    while (bits < 63 && ((uint64_t)1 << bits) <= (uint64_t)padded + 1)
        bits++;
    return bits;
}

/* Assembly over nk kept pieces (nd direction bytes): border numbers (one
 * small round trip for their count), extents, starts, start states,
 * discovery order (CUB radix sort), offsets (prefix sums), list ranking and
 * rotated chains; then the download. Events 4 and 5 end the phases. */
static pt_status assemble_borders(pt_cuda_contours *c, int64_t nk, int64_t nd, int step,
                                  size_t padded, int approx, int64_t *nb_out, pt_error *err)
{
    cudaStream_t s = c->stream;
    const int simple = approx == PT_CONTOURS_APPROX_SIMPLE;
    const size_t n1 = (size_t)nk + 1;
    pt_status st;
    size_t scan_bytes = 0, sort_bytes = 0;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, c->d_bid, c->d_bid,
                                                   (int)n1, s));
    PT_CUDA_TRY(err, cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, c->d_keys, c->d_keys,
                                                     c->d_index, c->d_index, (int)nk, 0,
                                                     key_bits(padded), s));
    if ((st = grow_device((void **)&c->d_bid, &c->bid_cap, 2 * n1 * 8, err)) ||
        (st = grow_device((void **)&c->d_borders, &c->borders_cap, n1 * sizeof(pt_cborder),
                          err)) ||
        (st = grow_device((void **)&c->d_keys, &c->keys_cap, 2 * n1 * 8, err)) ||
        (st = grow_device((void **)&c->d_index, &c->index_cap, 3 * n1 * 4, err)) ||
        (st = grow_device((void **)&c->d_start, &c->start_cap, n1 * 8, err)) ||
        (st = grow_device((void **)&c->d_flags, &c->flags_cap, n1, err)) ||
        (st = grow_device((void **)&c->d_counts, &c->counts_cap, 4 * n1 * 8, err)) ||
        (st = grow_device((void **)&c->d_link, &c->link_cap, 2 * n1 * 4, err)) ||
        (st = grow_device((void **)&c->d_rsum, &c->rsum_cap, 2 * n1 * 8, err)) ||
        (st = grow_device((void **)&c->d_chain, &c->chain_cap, (size_t)nd, err)) ||
        (st = grow_device((void **)&c->d_err, &c->err_cap, 4, err)) ||
        (st = cub_room(c, scan_bytes > sort_bytes ? scan_bytes : sort_bytes, err)))
        return st;
    int64_t *flag = c->d_bid, *bid = c->d_bid + n1;
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_err, 0, 4, s));
    head_kernel<<<blocks_for((int64_t)n1), THREADS, 0, s>>>(c->d_rep, nk, flag);
    PT_CUDA_TRY(err, cudaGetLastError());
    size_t tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, flag, bid, (int)n1, s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_totals, bid + nk, 8, cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));
    const int64_t nb = c->h_totals[0];
    if (nb < 1 || nb > nk)
        return pt_error_set(err, PT_ERR_INTERNAL, "-b cuda", "contours: %lld borders of %lld "
                            "pieces", (long long)nb, (long long)nk);
    const size_t b1 = (size_t)nb + 1;
    pt_cborder *B = c->d_borders;
    border_init_kernel<<<blocks_for(nb), THREADS, 0, s>>>(B, nb);
    border_add_kernel<<<blocks_for(nk), THREADS, 0, s>>>(c->d_kept, c->d_kept_dirs, c->d_rep,
                                                          bid, nk, simple, B, c->d_err);
    border_start_kernel<<<blocks_for(nb), THREADS, 0, s>>>(B, nb, c->d_lab, step, c->d_err);
    border_locate_kernel<<<blocks_for(nk), THREADS, 0, s>>>(c->d_kept, c->d_kept_dirs, c->d_rep,
                                                             bid, nk, step, B);
    border_key_kernel<<<blocks_for(nb), THREADS, 0, s>>>(B, nb, c->d_keys, c->d_index);
    PT_CUDA_TRY(err, cudaGetLastError());
    int32_t *order = c->d_index + n1, *rank_of = c->d_index + 2 * n1;
    tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceRadixSort::SortPairs(c->d_cub, tb, c->d_keys, c->d_keys + n1,
                                                     c->d_index, order, (int)nb, 0,
                                                     key_bits(padded), s));
    int64_t *states = c->d_counts, *points = c->d_counts + n1;
    int64_t *dfirst = c->d_counts + 2 * n1, *pfirst = c->d_counts + 3 * n1;
    border_rank_kernel<<<blocks_for((int64_t)b1), THREADS, 0, s>>>(
        B, order, nb, simple, rank_of, c->d_start, c->d_flags, states, points, c->d_err);
    PT_CUDA_TRY(err, cudaGetLastError());
    tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, states, dfirst, (int)b1, s));
    tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, points, pfirst, (int)b1, s));
    rank_init_kernel<<<blocks_for(nk), THREADS, 0, s>>>(c->d_kept, c->d_rep, bid, B, nk,
                                                         c->d_link, c->d_rsum);
    PT_CUDA_TRY(err, cudaGetLastError());
    int rounds = pt_cjump_rounds(nk);
    for (int r = 0; r < rounds; r++) {
        size_t in = (size_t)(r & 1) * n1, o = (size_t)((r + 1) & 1) * n1;
        rank_round_kernel<<<blocks_for(nk), THREADS, 0, s>>>(nk, c->d_link + in, c->d_rsum + in,
                                                              c->d_link + o, c->d_rsum + o);
        PT_CUDA_TRY(err, cudaGetLastError());
    }
    rotate_kernel<<<blocks_for(nk), THREADS, 0, s>>>(
        c->d_kept, c->d_kept_dirs, c->d_rep, bid, B, rank_of, dfirst,
        c->d_rsum + (size_t)(rounds & 1) * n1, nk, c->d_chain);
    PT_CUDA_TRY(err, cudaGetLastError());
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[4], s));

    /* download: chains, starts, flags, offsets, error flags */
    if ((st = grow_host((void **)&c->h_start, &c->h_start_cap, (size_t)nb * 8, err)) ||
        (st = grow_host((void **)&c->h_first, &c->h_first_cap, 2 * b1 * 8, err)) ||
        (st = grow_host((void **)&c->h_flags, &c->h_flags_cap, (size_t)nb, err)) ||
        (st = grow_host((void **)&c->h_chain, &c->h_chain_cap, (size_t)nd, err)))
        return st;
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_chain, c->d_chain, (size_t)nd,
                                     cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_start, c->d_start, (size_t)nb * 8,
                                     cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_flags, c->d_flags, (size_t)nb,
                                     cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_first, dfirst, b1 * 8, cudaMemcpyDeviceToHost, s));
    if (simple) /* else every border has one point a state: the same offsets */
        PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_first + b1, pfirst, b1 * 8,
                                         cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_totals + 1, c->d_err, 4, cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[5], s));
    *nb_out = nb;
    return PT_OK;
}

static pt_status find(pt_cuda_contours *c, const pt_image *img, int threshold, int mode,
                      int approx, int tile, int threads, pt_contours *out, int8_t **host_lab,
                      pt_error *err)
{
    double t0 = now_ms();
    memset(&c->times, 0, sizeof c->times);
    const int width = img->width, height = img->height;
    const int step = width + 2;
    const size_t npix = (size_t)width * (size_t)height;
    const size_t padded = (size_t)step * (size_t)(height + 2);
    if (tile <= 0)
        tile = pt_contours_gpu_tile(width, height);
    pt_ctiles t;
    memset(&t, 0, sizeof t);
    t.step = step;
    t.width = width;
    t.height = height;
    t.tile = tile;
    t.grid_x = (width + tile - 1) / tile;
    t.grid_y = (height + tile - 1) / tile;
    int64_t ntiles64 = (int64_t)t.grid_x * t.grid_y;
    if (ntiles64 > INT32_MAX / 2)
        return pt_error_set(err, PT_ERR_PARAM, "-b cuda", "contours: tile %d too small", tile);
    const int ntiles = (int)ntiles64;
    const size_t info_bytes = (size_t)ntiles * sizeof(pt_ctile_info);
    pt_status st;

    /* upload and binarize */
    if ((st = grow_host((void **)&c->h_img, &c->h_img_cap, npix, err)) ||
        (st = grow_device((void **)&c->d_img, &c->img_cap, npix, err)) ||
        (st = grow_device((void **)&c->d_lab, &c->lab_cap, padded, err)) ||
        (st = grow_device((void **)&c->d_visited, &c->visited_cap, padded, err)) ||
        (st = grow_device((void **)&c->d_info, &c->info_cap, info_bytes, err)) ||
        (st = grow_host((void **)&c->h_info, &c->h_info_cap, info_bytes, err)) ||
        (st = grow_host((void **)&c->h_totals, &c->h_totals_cap, 16, err)))
        return st;
    if ((st = upload_binarized(c, img, threshold, threads, err)))
        return st;
    cudaStream_t s = c->stream;
    t.lab = c->d_lab;
    t.visited = c->d_visited;

    /* tracing: count pass */
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_visited, 0, padded, s));
    count_kernel<<<blocks_for(ntiles), THREADS, 0, s>>>(t, c->d_info, ntiles);
    PT_CUDA_TRY(err, cudaGetLastError());
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_info, c->d_info, info_bytes, cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));

    /* prefix sums and room */
    int64_t np = 0, ns = 0;
    for (int i = 0; i < ntiles; i++) {
        c->h_info[i].piece_base = np;
        c->h_info[i].state_base = ns;
        np += c->h_info[i].pieces;
        ns += c->h_info[i].states;
    }
    int64_t limit = out->max_points > 0 ? out->max_points : PT_CONTOURS_DEFAULT_MAX_POINTS;
    if (ns > 2 * limit + 4096)
        return pt_error_set(err, PT_ERR_NOMEM, "",
                            "contours: more than %lld traced states (limit)",
                            (long long)(2 * limit + 4096));
    if (np > INT32_MAX / 2)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many border pieces");
    const size_t piece_bytes = (size_t)np * sizeof(pt_cpiece);
    if ((st = grow_device((void **)&c->d_pieces, &c->pieces_cap, piece_bytes, err)) ||
        (st = grow_device((void **)&c->d_dirs, &c->dirs_cap, (size_t)ns, err)))
        return st;

    /* tracing: write pass */
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->d_info, c->h_info, info_bytes, cudaMemcpyHostToDevice, s));
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_visited, 0, padded, s));
    write_kernel<<<blocks_for(ntiles), THREADS, 0, s>>>(t, c->d_info, c->d_pieces, c->d_dirs,
                                                        ntiles);
    PT_CUDA_TRY(err, cudaGetLastError());
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[2], s));
    /* the hierarchy replay needs labels on the host: made while the device works */
    if (mode != PT_CONTOURS_LIST && !(*host_lab = pt_contours_binarize(img, threshold)))
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d labels",
                            step, height + 2);
    /* connection, assembly, download */
    int64_t nk = 0, nd = 0, nb = 0;
    if (np > 0) {
        join_kernel<<<blocks_for(np), THREADS, 0, s>>>(t, c->d_pieces, c->d_info, np);
        PT_CUDA_TRY(err, cudaGetLastError());
        if ((st = compact_borders(c, np, ns, piece_bytes, &nk, &nd, err)))
            return st;
    } else {
        PT_CUDA_TRY(err, cudaEventRecord(c->ev[3], s));
    }
    if (nk > 0) {
        if ((st = assemble_borders(c, nk, nd, step, padded, approx, &nb, err)))
            return st;
    } else {
        PT_CUDA_TRY(err, cudaEventRecord(c->ev[4], s));
        PT_CUDA_TRY(err, cudaEventRecord(c->ev[5], s));
    }
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));
    double t1 = now_ms();
    c->times.upload_ms = elapsed(c->ev[0], c->ev[1]);
    c->times.trace_ms = elapsed(c->ev[1], c->ev[2]);
    c->times.connect_ms = elapsed(c->ev[2], c->ev[3]);
    c->times.assemble_ms = elapsed(c->ev[3], c->ev[4]);
    c->times.download_ms = elapsed(c->ev[4], c->ev[5]);
    c->times.pieces = nk;
    c->times.states = nd;
    if (nb > 0) {
        int32_t flags = ((int32_t *)(c->h_totals + 1))[0];
        if (flags || c->h_first[nb] != nd)
            return pt_error_set(err, PT_ERR_INTERNAL, "-b cuda",
                                "contours: border pieces do not close (%d)", flags);
    }
    const int64_t *pfirst = approx == PT_CONTOURS_APPROX_SIMPLE && nb > 0 ? c->h_first + nb + 1
                                                                          : c->h_first;
    pt_contour_chains ch = {(int)nb, c->h_start, c->h_flags, c->h_first, pfirst, c->h_chain,
                            width, height};
    st = pt_contours_from_chains(&ch, *host_lab, mode, approx, threads, out, err);
    double t2 = now_ms();
    c->times.host_ms = t2 - t1;
    c->times.total_ms = t2 - t0;
    c->times.phases = PT_CONTOURS_PHASE_UPLOAD | PT_CONTOURS_PHASE_TRACE |
                      PT_CONTOURS_PHASE_CONNECT | PT_CONTOURS_PHASE_ASSEMBLE |
                      PT_CONTOURS_PHASE_DOWNLOAD | PT_CONTOURS_PHASE_HOST;
    return st;
}

extern "C" pt_status pt_cuda_contours_find(pt_cuda_contours *c, const pt_image *img,
                                           int threshold, int mode, int approx, int tile,
                                           int threads, pt_contours *out, pt_error *err)
{
    pt_status st = pt_contours_check_args(img, mode, approx, err);
    if (st)
        return st;
    if (tile > 0 && (tile & (tile - 1)))
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: tile side %d not a power of two",
                            tile);
    if (!c)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no CUDA context");
    out->count = 0;
    out->point_count = 0;
    int8_t *host_lab = NULL;
    st = find(c, img, threshold, mode, approx, tile, threads, out, &host_lab, err);
    free(host_lab);
    if (st) {
        /* leave the stream idle for the next call */
        cudaStreamSynchronize(c->stream);
        out->count = 0;
        out->point_count = 0;
    }
    return st;
}
