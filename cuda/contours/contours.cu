/* CUDA border tracking, identical to pt_contours_find_seq (OpenCV findContours).
 *
 * 1. the image goes to the device through pinned staging and is binarized
 *    into a padded 0/1 label image (zero frame, as OpenCV pads);
 * 2. count pass: one thread per tile traces its border pieces
 *    (lib/contours/contours_tile.h) and counts pieces and direction bytes;
 * 3. prefix sums of the counts on the host (one small round trip), buffers
 *    grown if needed;
 * 4. write pass: the same tracing, now storing compact pieces (a header and
 *    one byte per state) at those offsets;
 * 5. join: one thread per piece finds, by binary search among the sorted entry
 *    states of the tile it enters, the piece that continues it;
 * 6. log2 rounds of pointer jumping give every piece whether its cycle
 *    examines a zero (is a border); the other cycles' pieces (inside solid
 *    regions) are dropped and the rest compacted with their direction bytes
 *    (CUB prefix sums), so only borders are downloaded;
 * 7. the compact pieces and bytes are downloaded and assembled on the host
 *    (lib/contours/contours_pieces.c: closed cycles, OpenCV start points and order,
 *    points, hierarchy). The host binarizes for the CCOMP/TREE hierarchy
 *    while the device works.
 * Each tile's thread writes only its own pixels' visited bits and its own
 * output ranges, so threads never share a written byte. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cub/cub.cuh>
#include <omp.h>

#include "lib/contours/contours_pieces.h"
#include "lib/contours/contours_tile.h"
#include "cuda/core/cuda_check.h"
#include "cuda/contours/pt_cuda_contours.h"
#include "cuda/core/pt_cuda.h"

struct pt_cuda_contours {
    cudaStream_t stream;
    cudaEvent_t ev[5];
    uint8_t *d_img;
    int8_t *d_lab;
    uint8_t *d_visited;
    pt_ctile_info *d_info;
    pt_cpiece *d_pieces;
    uint8_t *d_dirs;
    int32_t *d_jump;    /* 2 x pieces: double-buffered pointer jumping */
    uint8_t *d_gap;     /* 2 x pieces */
    int64_t *d_sums;    /* 4 x pieces: keep, bytes, their exclusive prefix sums */
    pt_cpiece *d_kept;  /* compacted border pieces */
    uint8_t *d_kept_dirs;
    int64_t *d_totals;  /* kept pieces, kept bytes */
    void *d_cub;        /* CUB scratch */
    size_t img_cap, lab_cap, visited_cap, info_cap, pieces_cap, dirs_cap; /* bytes */
    size_t jump_cap, gap_cap, sums_cap, kept_cap, kept_dirs_cap, totals_cap, cub_cap;
    int64_t *h_totals;
    size_t h_totals_cap;
    uint8_t *h_img;
    pt_ctile_info *h_info;
    pt_cpiece *h_pieces;
    uint8_t *h_dirs;
    size_t h_img_cap, h_info_cap, h_pieces_cap, h_dirs_cap; /* bytes */
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
                                 uint8_t *gap)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cjump_init(pieces, i, jump, gap);
}

__global__ void jump_round_kernel(int64_t n, const int32_t *jump_in, const uint8_t *gap_in,
                                  int32_t *jump_out, uint8_t *gap_out)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_cjump_round(i, jump_in, gap_in, jump_out, gap_out);
}

__global__ void keep_kernel(const pt_cpiece *pieces, const uint8_t *gap, int64_t n,
                            int64_t *keep, int64_t *bytes)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_ckeep(pieces, gap, i, keep, bytes);
}

__global__ void compact_kernel(const pt_cpiece *pieces, const uint8_t *dirs, const uint8_t *gap,
                               const int64_t *pidx, const int64_t *doff, int64_t n,
                               pt_cpiece *out_pieces, uint8_t *out_dirs)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pt_ccompact(pieces, dirs, gap, pidx, doff, i, out_pieces, out_dirs);
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
    for (int i = 0; i < 5 && e == cudaSuccess; i++)
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
    cudaFree(c->d_gap);
    cudaFree(c->d_sums);
    cudaFree(c->d_kept);
    cudaFree(c->d_kept_dirs);
    cudaFree(c->d_totals);
    cudaFree(c->d_cub);
    cudaFreeHost(c->h_totals);
    cudaFreeHost(c->h_img);
    cudaFreeHost(c->h_info);
    cudaFreeHost(c->h_pieces);
    cudaFreeHost(c->h_dirs);
    for (int i = 0; i < 5; i++)
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

/* Stage 6: pointer jumping over the joined pieces marks the cycles that
 * examine a zero pixel (borders); prefix sums and compaction keep their
 * pieces and direction bytes (nk pieces, nd bytes). */
static pt_status compact_borders(pt_cuda_contours *c, int64_t np, int64_t ns,
                                 size_t piece_bytes, int64_t *nk_out, int64_t *nd_out,
                                 pt_error *err)
{
    cudaStream_t s = c->stream;
    pt_status st;
    /* 6. pointer jumping, prefix sums, compaction */
    size_t cub_bytes = 0;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(NULL, cub_bytes, c->d_sums, c->d_sums,
                                                   (int)np, s));
    if ((st = grow_device((void **)&c->d_jump, &c->jump_cap, 2 * (size_t)np * 4, err)) ||
        (st = grow_device((void **)&c->d_gap, &c->gap_cap, 2 * (size_t)np, err)) ||
        (st = grow_device((void **)&c->d_sums, &c->sums_cap, 4 * (size_t)np * 8, err)) ||
        (st = grow_device((void **)&c->d_kept, &c->kept_cap, piece_bytes, err)) ||
        (st = grow_device((void **)&c->d_kept_dirs, &c->kept_dirs_cap, (size_t)ns, err)) ||
        (st = grow_device((void **)&c->d_totals, &c->totals_cap, 16, err)) ||
        (st = grow_host((void **)&c->h_totals, &c->h_totals_cap, 16, err)) ||
        (st = grow_device(&c->d_cub, &c->cub_cap, cub_bytes, err)))
        return st;
    jump_init_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, np, c->d_jump,
                                                         c->d_gap);
    PT_CUDA_TRY(err, cudaGetLastError());
    int rounds = pt_cjump_rounds(np);
    for (int r = 0; r < rounds; r++) {
        size_t in = (size_t)(r & 1) * (size_t)np, o = (size_t)((r + 1) & 1) * (size_t)np;
        jump_round_kernel<<<blocks_for(np), THREADS, 0, s>>>(
            np, c->d_jump + in, c->d_gap + in, c->d_jump + o, c->d_gap + o);
        PT_CUDA_TRY(err, cudaGetLastError());
    }
    const uint8_t *gfinal = c->d_gap + (size_t)(rounds & 1) * (size_t)np;
    int64_t *keep = c->d_sums, *bytes = c->d_sums + np;
    int64_t *pidx = c->d_sums + 2 * np, *doff = c->d_sums + 3 * np;
    keep_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, gfinal, np, keep, bytes);
    PT_CUDA_TRY(err, cudaGetLastError());
    size_t tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, keep, pidx, (int)np, s));
    tb = c->cub_cap;
    PT_CUDA_TRY(err, cub::DeviceScan::ExclusiveSum(c->d_cub, tb, bytes, doff, (int)np, s));
    compact_kernel<<<blocks_for(np), THREADS, 0, s>>>(c->d_pieces, c->d_dirs, gfinal, pidx,
                                                       doff, np, c->d_kept, c->d_kept_dirs);
    PT_CUDA_TRY(err, cudaGetLastError());
    totals_kernel<<<1, 32, 0, s>>>(keep, bytes, pidx, doff, np, c->d_totals);
    PT_CUDA_TRY(err, cudaGetLastError());
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

    /* 1. upload and binarize */
    if ((st = grow_host((void **)&c->h_img, &c->h_img_cap, npix, err)) ||
        (st = grow_device((void **)&c->d_img, &c->img_cap, npix, err)) ||
        (st = grow_device((void **)&c->d_lab, &c->lab_cap, padded, err)) ||
        (st = grow_device((void **)&c->d_visited, &c->visited_cap, padded, err)) ||
        (st = grow_device((void **)&c->d_info, &c->info_cap, info_bytes, err)) ||
        (st = grow_host((void **)&c->h_info, &c->h_info_cap, info_bytes, err)))
        return st;
    if ((st = upload_binarized(c, img, threshold, threads, err)))
        return st;
    cudaStream_t s = c->stream;
    t.lab = c->d_lab;
    t.visited = c->d_visited;

    /* 2. count pass */
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_visited, 0, padded, s));
    count_kernel<<<blocks_for(ntiles), THREADS, 0, s>>>(t, c->d_info, ntiles);
    PT_CUDA_TRY(err, cudaGetLastError());
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_info, c->d_info, info_bytes, cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));

    /* 3. prefix sums and room */
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

    /* 4. write pass, 5. join */
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->d_info, c->h_info, info_bytes, cudaMemcpyHostToDevice, s));
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_visited, 0, padded, s));
    write_kernel<<<blocks_for(ntiles), THREADS, 0, s>>>(t, c->d_info, c->d_pieces, c->d_dirs,
                                                        ntiles);
    PT_CUDA_TRY(err, cudaGetLastError());
    int64_t nk = 0, nd = 0;
    if (np > 0) {
        join_kernel<<<blocks_for(np), THREADS, 0, s>>>(t, c->d_pieces, c->d_info, np);
        PT_CUDA_TRY(err, cudaGetLastError());

        if ((st = compact_borders(c, np, ns, piece_bytes, &nk, &nd, err)))
            return st;
    }
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[2], s));

    /* 7. download the borders' pieces */
    if ((st = grow_host((void **)&c->h_pieces, &c->h_pieces_cap, (size_t)nk * sizeof(pt_cpiece),
                        err)) ||
        (st = grow_host((void **)&c->h_dirs, &c->h_dirs_cap, (size_t)nd, err)))
        return st;
    if (nk > 0)
        PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_pieces, c->d_kept, (size_t)nk * sizeof(pt_cpiece),
                                         cudaMemcpyDeviceToHost, s));
    if (nd > 0)
        PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_dirs, c->d_kept_dirs, (size_t)nd,
                                         cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[3], s));
    /* the hierarchy replay needs labels on the host: made while the device works */
    if (mode != PT_CONTOURS_LIST && !(*host_lab = pt_contours_binarize(img, threshold)))
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d labels",
                            step, height + 2);
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));
    double t1 = now_ms();

    c->times.pieces = nk;
    c->times.states = nd;
    pt_contour_pieces pc = {c->h_pieces, nk, c->h_dirs, width, height};
    st = pt_contours_assemble(&pc, img, threshold, *host_lab, mode, approx, threads, out, err);
    double t2 = now_ms();
    c->times.upload_ms = elapsed(c->ev[0], c->ev[1]);
    c->times.trace_ms = elapsed(c->ev[1], c->ev[2]);
    c->times.download_ms = elapsed(c->ev[2], c->ev[3]);
    c->times.assemble_ms = t2 - t1;
    c->times.total_ms = t2 - t0;
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
