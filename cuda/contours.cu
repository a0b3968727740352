/* CUDA border tracking, identical to pt_contours_find_seq (OpenCV findContours).
 *
 * 1. the image goes to the device through pinned staging and is binarized
 *    into a padded 0/1 label image (zero frame, as OpenCV pads);
 * 2. count pass: one thread per tile traces its border pieces
 *    (lib/contours_tile.h) and counts pieces and direction bytes;
 * 3. prefix sums of the counts on the host (one small round trip), buffers
 *    grown if needed;
 * 4. write pass: the same tracing, now storing compact pieces (a header and
 *    one byte per state) at those offsets;
 * 5. join: one thread per piece finds, by binary search among the sorted entry
 *    states of the tile it enters, the piece that continues it;
 * 6. pieces and bytes are downloaded and assembled on the host
 *    (lib/contours_pieces.c: closed cycles, OpenCV start points and order,
 *    points, hierarchy). The host binarizes for the CCOMP/TREE hierarchy
 *    while the device works.
 * Each tile's thread writes only its own pixels' visited bits and its own
 * output ranges, so threads never share a written byte. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/contours_pieces.h"
#include "../lib/contours_tile.h"
#include "cuda_check.h"
#include "pt_cuda_contours.h"

struct pt_cuda_contours {
    cudaStream_t stream;
    cudaEvent_t ev[5];
    uint8_t *d_img;
    int8_t *d_lab;
    uint8_t *d_visited;
    pt_ctile_info *d_info;
    pt_cpiece *d_pieces;
    uint8_t *d_dirs;
    size_t img_cap, lab_cap, visited_cap, info_cap, pieces_cap, dirs_cap; /* bytes */
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
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no usable CUDA GPU: %s",
                            cudaGetErrorString(e));
    if (count < 1)
        return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "no CUDA GPU found");
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
    for (int y = 0; y < height; y++)
        memcpy(c->h_img + (size_t)y * width, img->buf + (size_t)y * img->stride, (size_t)width);
    cudaStream_t s = c->stream;
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[0], s));
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->d_img, c->h_img, npix, cudaMemcpyHostToDevice, s));
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[1], s));
    binarize_kernel<<<blocks_for((int64_t)padded), THREADS, 0, s>>>(c->d_img, width, height,
                                                                     threshold, c->d_lab);
    PT_CUDA_TRY(err, cudaGetLastError());
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
    c->times.pieces = np;
    c->times.states = ns;
    const size_t piece_bytes = (size_t)np * sizeof(pt_cpiece);
    if ((st = grow_device((void **)&c->d_pieces, &c->pieces_cap, piece_bytes, err)) ||
        (st = grow_device((void **)&c->d_dirs, &c->dirs_cap, (size_t)ns, err)) ||
        (st = grow_host((void **)&c->h_pieces, &c->h_pieces_cap, piece_bytes, err)) ||
        (st = grow_host((void **)&c->h_dirs, &c->h_dirs_cap, (size_t)ns, err)))
        return st;

    /* 4. write pass, 5. join, 6. download */
    PT_CUDA_TRY(err, cudaMemcpyAsync(c->d_info, c->h_info, info_bytes, cudaMemcpyHostToDevice, s));
    PT_CUDA_TRY(err, cudaMemsetAsync(c->d_visited, 0, padded, s));
    write_kernel<<<blocks_for(ntiles), THREADS, 0, s>>>(t, c->d_info, c->d_pieces, c->d_dirs,
                                                        ntiles);
    PT_CUDA_TRY(err, cudaGetLastError());
    if (np > 0) {
        join_kernel<<<blocks_for(np), THREADS, 0, s>>>(t, c->d_pieces, c->d_info, np);
        PT_CUDA_TRY(err, cudaGetLastError());
    }
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[2], s));
    if (np > 0)
        PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_pieces, c->d_pieces, piece_bytes,
                                         cudaMemcpyDeviceToHost, s));
    if (ns > 0)
        PT_CUDA_TRY(err, cudaMemcpyAsync(c->h_dirs, c->d_dirs, (size_t)ns,
                                         cudaMemcpyDeviceToHost, s));
    PT_CUDA_TRY(err, cudaEventRecord(c->ev[3], s));
    /* the hierarchy replay needs labels on the host: made while the device works */
    if (mode != PT_CONTOURS_LIST && !(*host_lab = pt_contours_binarize(img, threshold)))
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d labels",
                            step, height + 2);
    PT_CUDA_TRY(err, cudaStreamSynchronize(s));
    double t1 = now_ms();

    pt_contour_pieces pc = {c->h_pieces, np, c->h_dirs, width, height};
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
