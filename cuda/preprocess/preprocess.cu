/* Preprocessing on the GPU, stage for stage the same arithmetic as
 * omp/preprocess/preprocess.c so both back ends see identical smoothed frames: square
 * grey erosion/dilation as column then row passes (pixels outside the image
 * ignored, i.e. padded with the operation's identity), top-hat threshold,
 * mask dilation, inverse-distance reflection fill, separable integer Gaussian
 * (15-bit weights, 8 fractional bits between passes, both passes in one
 * shared-memory tile) or exact median. One
 * launch covers every frame of a chunk (blockIdx.z = frame). Reflections are
 * filled by a block per 32 x 32 tile searching bit masks in shared memory,
 * into a work plane that the Gaussian reads for masked pixels, or in place
 * in the raw planes before the median or no smoothing.
 *
 * The morphology passes work on packed bytes (__vminu4/__vmaxu4: four pixels
 * per instruction) and need O(log r) operations per pixel: the column pass
 * keeps a tile of 16-byte words in shared memory and doubles its windows row
 * by row, the row pass keeps a row segment in shared memory, forms shifted
 * words with __byte_perm and doubles likewise. The top-hat threshold is fused into the last
 * pass of the opening. */
#include <math.h>

#include "cuda/detect/cuda_internal.h"

#define TILE_X 32
#define TILE_Y 8
#define ROW_THREADS 256
#define ROW_SPAN_MAX (4 * ROW_THREADS) /* pixels per row-pass block, at most */

template <bool MAX_OP> __device__ __forceinline__ unsigned op4(unsigned a, unsigned b)
{
    return MAX_OP ? __vmaxu4(a, b) : __vminu4(a, b);
}

template <bool MAX_OP> __device__ __forceinline__ uint4 op16(uint4 a, uint4 b)
{
    return make_uint4(op4<MAX_OP>(a.x, b.x), op4<MAX_OP>(a.y, b.y), op4<MAX_OP>(a.z, b.z),
                      op4<MAX_OP>(a.w, b.w));
}

#include "cuda/preprocess/morph_reg.cuh" /* the register passes, built on op4 */

/* Column pass: 16 pixels per thread, window rows clipped to the image. Pixels
 * at x >= width are computed from padding and never read by later stages. */
template <bool MAX_OP>
__global__ void morph_cols(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                           const pt_cuda_frame_dims *dims, int pitch, size_t plane, int r)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *s = src + f * plane + x;
    int lo = max(y - r, 0), hi = min(y + r, h - 1);
    unsigned id = MAX_OP ? 0u : 0xffffffffu;
    uint4 v = make_uint4(id, id, id, id);
    for (int i = lo; i <= hi; i++)
        v = op16<MAX_OP>(v, *(const uint4 *)(s + (size_t)i * pitch));
    *(uint4 *)(dst + f * plane + (size_t)y * pitch + x) = v;
}

/* Column pass by doubling: a tile of COL_TW pixels x COL_TH output rows with
 * r rows above and below (identity outside the image) in shared memory as
 * 16-byte words; log2(P) doubling steps (row k then holds the extreme of rows
 * k .. k+P-1), then each output is the extreme of two overlapping P-windows.
 * O(log r) per pixel instead of 2r+1, and each input row is read from memory
 * about (COL_TH + 2r) / COL_TH times instead of 2r+1 (the direct pass below
 * was limited by those L2 reads); used for 2 <= r <= 127. */
#define COL_TW 128
#define COL_TH 64
#define COL_THREADS_Y 32
#define COL_ROWS_PER_THREAD 10 /* (COL_TH + 2 * 127) / COL_THREADS_Y, rounded up */
template <bool MAX_OP>
__global__ void __launch_bounds__(256)
morph_cols_doubling(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                    const pt_cuda_frame_dims *dims, int pitch, size_t plane, int r)
{
    extern __shared__ uint4 tile[]; /* nrows x (COL_TW / 16) */
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x0 = blockIdx.x * COL_TW, y0 = blockIdx.y * COL_TH;
    if (x0 >= w || y0 >= h)
        return;
    const int tx = threadIdx.x, ty = threadIdx.y, words = COL_TW / 16;
    const int nrows = COL_TH + 2 * r;
    const unsigned id = MAX_OP ? 0u : 0xffffffffu;
    const uint4 ident = make_uint4(id, id, id, id);
    int x = x0 + 16 * tx;
    const uint8_t *s = src + f * plane;
    for (int k = ty; k < nrows; k += COL_THREADS_Y) {
        int y = y0 - r + k;
        tile[k * words + tx] = (y >= 0 && y < h && x < w)
                                   ? *(const uint4 *)(s + (size_t)y * pitch + x)
                                   : ident;
    }
    __syncthreads();
    int P = 1;
    while (2 * P <= 2 * r + 1)
        P *= 2;
    for (int q = 1; q < P; q *= 2) {
        uint4 next[COL_ROWS_PER_THREAD];
#pragma unroll
        for (int i = 0; i < COL_ROWS_PER_THREAD; i++) {
            int k = ty + i * COL_THREADS_Y;
            if (k < nrows)
                next[i] = op16<MAX_OP>(tile[k * words + tx],
                                       k + q < nrows ? tile[(k + q) * words + tx] : ident);
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < COL_ROWS_PER_THREAD; i++) {
            int k = ty + i * COL_THREADS_Y;
            if (k < nrows)
                tile[k * words + tx] = next[i];
        }
        __syncthreads();
    }
    if (x >= w)
        return;
    for (int t = ty; t < COL_TH && y0 + t < h; t += COL_THREADS_Y) {
        uint4 v = op16<MAX_OP>(tile[t * words + tx], tile[(t + 2 * r + 1 - P) * words + tx]);
        *(uint4 *)(dst + f * plane + (size_t)(y0 + t) * pitch + x) = v;
    }
}

/* Row pass over a segment of span pixels (row_span: the width split evenly,
 * at most ROW_SPAN_MAX) of `lines` rows: each row's segment and r pixels
 * either side (rounded up to whole words, identity outside the image) go to
 * shared memory as words, with identity words after them; log2(2r+1)
 * doubling steps, then each thread makes four outputs per row from two
 * overlapping power-of-two windows. Several rows per block keep more loads
 * in flight and share the barriers; an even split keeps blocks from working
 * on padding (a fixed 1024-pixel span did 2048 pixels' work per 1280-pixel
 * row). With TOPHAT the output is the reflection mask (raw - opened >
 * threshold, as 0/1). */
#define ROW_LINES_MAX 8
#define ROW_ITEMS 6 /* words per thread and step: lines * row_stride(span, r) <= ROW_ITEMS * 256 */

static __host__ __device__ int row_pow2(int r) /* the largest power of two <= 2r + 1 */
{
    int P = 1;
    while (2 * P <= 2 * r + 1)
        P *= 2;
    return P;
}

static __host__ __device__ int row_words(int span, int r)
{
    return (span + 2 * ((r + 3) & ~3)) / 4 + 1;
}

static __host__ __device__ int row_stride(int span, int r)
{
    return row_words(span, r) + row_pow2(r) / 4 + 2;
}

/* Pixels per block: the width split into the fewest segments of at most
 * ROW_SPAN_MAX, rounded up to 32. */
static int row_span(int width)
{
    int blocks = (width + ROW_SPAN_MAX - 1) / ROW_SPAN_MAX;
    int span = (width + blocks - 1) / blocks;
    return (span + 31) & ~31;
}

/* Rows per block: as many as ROW_ITEMS words per thread hold, up to
 * ROW_LINES_MAX (at least 4: 4 * row_stride(ROW_SPAN_MAX, 127) fits). */
static int row_lines(int span, int r)
{
    int lines = ROW_ITEMS * ROW_THREADS / row_stride(span, r);
    return lines < ROW_LINES_MAX ? lines : ROW_LINES_MAX;
}

template <bool MAX_OP, bool TOPHAT>
__global__ void __launch_bounds__(ROW_THREADS)
morph_rows(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
           const uint8_t *__restrict__ raw, const pt_cuda_frame_dims *dims, int pitch,
           size_t plane, int r, int threshold, int span, int block_lines)
{
    extern __shared__ unsigned words[];
    int f = blockIdx.z, y0 = blockIdx.y * block_lines;
    int w = dims[f].width, h = dims[f].height;
    int x0 = blockIdx.x * span;
    if (y0 >= h || x0 >= w)
        return;
    int lines = min(block_lines, h - y0);
    int R = (r + 3) & ~3; /* halo in whole words */
    int nwords = row_words(span, r), stride = row_stride(span, r), P = row_pow2(r);
    int items = lines * stride;
    const unsigned id = MAX_OP ? 0u : 0xffffffffu;
    for (int k = threadIdx.x; k < items; k += ROW_THREADS) {
        int line = k / stride, c = k - line * stride;
        const uint8_t *row = src + f * plane + (size_t)(y0 + line) * pitch;
        int gx = x0 - R + 4 * c;
        unsigned v = id;
        if (c < nwords) {
            if (gx >= 0 && gx + 3 < w) {
                v = *(const unsigned *)(row + gx);
            } else {
                v = 0;
                for (int b = 0; b < 4; b++) {
                    int xx = gx + b;
                    unsigned byte = (xx >= 0 && xx < w) ? row[xx] : (id & 0xffu);
                    v |= byte << (8 * b);
                }
            }
        }
        words[k] = v;
    }
    __syncthreads();
    /* Doubling: after the step for q, byte o holds the extreme of bytes
     * o .. o+2q-1 of its row (van Herk style in log2 P steps instead of 2r+1);
     * the identity words after a row are never updated. */
    unsigned live = 0; /* bit i: this thread's word i is a row's word (updated) */
#pragma unroll
    for (int i = 0; i < ROW_ITEMS; i++) {
        int k = threadIdx.x + i * ROW_THREADS;
        if (k < items && k % stride < nwords)
            live |= 1u << i;
    }
    for (int q = 1; q < P; q *= 2) {
        unsigned next[ROW_ITEMS];
        int a = q >> 2;
        unsigned sel = 0x3210u + 0x1111u * (unsigned)(q & 3);
#pragma unroll
        for (int i = 0; i < ROW_ITEMS; i++) {
            int k = threadIdx.x + i * ROW_THREADS;
            if (live >> i & 1u)
                next[i] = op4<MAX_OP>(words[k], __byte_perm(words[k + a], words[k + a + 1], sel));
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ROW_ITEMS; i++) {
            int k = threadIdx.x + i * ROW_THREADS;
            if (live >> i & 1u)
                words[k] = next[i];
        }
        __syncthreads();
    }
    int x = x0 + 4 * threadIdx.x;
    if (x >= w || 4 * (int)threadIdx.x >= span)
        return;
    /* Output byte x sits at offset R + 4t; its window [x-r, x+r] is the union
     * of the P-windows starting at offsets R + 4t - r and R + 4t + r - P + 1. */
    int o1 = R + 4 * threadIdx.x - r, o2 = R + 4 * threadIdx.x + r - P + 1;
    unsigned sel1 = 0x3210u + 0x1111u * (unsigned)(o1 & 3);
    unsigned sel2 = 0x3210u + 0x1111u * (unsigned)(o2 & 3);
    for (int line = 0; line < lines; line++) {
        const unsigned *lw = words + line * stride;
        unsigned acc = op4<MAX_OP>(__byte_perm(lw[o1 >> 2], lw[(o1 >> 2) + 1], sel1),
                                   __byte_perm(lw[o2 >> 2], lw[(o2 >> 2) + 1], sel2));
        size_t at = f * plane + (size_t)(y0 + line) * pitch + x;
        if (TOPHAT) {
            unsigned image = *(const unsigned *)(raw + at);
            unsigned diff = __vsubus4(image, acc);
            acc = __vcmpgtu4(diff, 0x01010101u * (unsigned)threshold) & 0x01010101u;
        }
        *(unsigned *)(dst + at) = acc;
    }
}

/* Reflection fill (omp/preprocess/reflection.c, pt_reflection_fill): a masked pixel
 * gets the inverse-distance weighted mean of the nearest unmasked pixel in
 * each of the four directions (left, right, up, down) within max_search,
 * a direction that reaches the image's edge first giving none. A block per
 * tile of 32 x 32 pixels; a tile without a masked pixel leaves at once;
 * otherwise the tile's rows and columns, extended by a halo of at least
 * max_search each way (rounded up to whole 32-pixel words), go to shared
 * memory as bit masks: "stops" (unmasked or outside the image) and
 * "outside". The nearest stop in a direction is then a find-first-set over
 * a few words instead of a walk of up to max_search steps (a tenth of a
 * frame's pixels are masked, in blobs tens of pixels wide); it gives the
 * serial search's answer: the first stop at distance d is a fill value when
 * unmasked and d <= max_search, none when outside or farther. The weighted
 * mean is the serial code's arithmetic. Masked pixels are written to out,
 * the others are left alone: with out = img the fill is in place (it reads
 * unmasked pixels only, which nobody writes, so the order does not matter).
 *
 * Every bit mask word comes from 32 bytes that one thread reads with two
 * aligned 16-byte loads: a row word directly; the column words from 32
 * consecutive rows of the tile's 32 columns, one row per lane, transposed
 * by 32 warp ballots. (Reading a column band byte by byte, a lane per row,
 * touched a memory sector per byte.) A max_search beyond FILL_MAX_HALO
 * searches global memory step by step. */
#define FILL_TILE 32
#define FILL_THREADS_Y 8
#define FILL_MAX_HALO 160
#define FILL_WORDS (1 + 2 * FILL_MAX_HALO / 32) /* bit-mask words per line */

/* The halo in whole words (0: searched in global memory). */
static int fill_halo(int max_search)
{
    return max_search <= FILL_MAX_HALO ? (max_search + 31) & ~31 : 0;
}

/* Bit i set where byte i of the 32 mask bytes at row + x (x a multiple of
 * 32, the row's pitch a multiple of 16) is nonzero; bytes at or beyond
 * width count as zero. */
__device__ __forceinline__ unsigned mask_bits32(const uint8_t *row, int x, int width)
{
    unsigned bits = 0;
    if (x + 32 <= width) {
        const uint4 *v = (const uint4 *)(row + x);
        uint4 a = v[0], b = v[1];
        unsigned w[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
#pragma unroll
        for (int k = 0; k < 8; k++) {
            unsigned ones = __vcmpne4(w[k], 0u) & 0x01010101u;
            bits |= ((ones * 0x01020408u) >> 24) << (4 * k);
        }
    } else {
        for (int i = 0; i < 32 && x + i < width; i++)
            bits |= (unsigned)(row[x + i] != 0) << i;
    }
    return bits;
}

/* Distance to the nearest stop below position p (bits of stop, within lim),
 * 0 when there is none or it is outside the image. */
__device__ __forceinline__ int fill_before(const unsigned *stop, const unsigned *out, int p,
                                           int lim)
{
    int q = p - 1;
    for (int wi = q >> 5; wi >= 0; wi--) {
        unsigned word = stop[wi];
        if (wi == q >> 5)
            word &= 0xffffffffu >> (31 - (q & 31));
        if (word) {
            int c = 32 * wi + 31 - __clz(word), d = p - c;
            return d > lim || (out[c >> 5] >> (c & 31) & 1u) ? 0 : d;
        }
        if (32 * wi <= p - lim)
            return 0;
    }
    return 0;
}

/* The same above position p, words [0, nw). */
__device__ __forceinline__ int fill_after(const unsigned *stop, const unsigned *out, int p,
                                          int lim, int nw)
{
    int q = p + 1;
    for (int wi = q >> 5; wi < nw; wi++) {
        unsigned word = stop[wi];
        if (wi == q >> 5)
            word &= 0xffffffffu << (q & 31);
        if (word) {
            int c = 32 * wi + __ffs(word) - 1, d = c - p;
            return d > lim || (out[c >> 5] >> (c & 31) & 1u) ? 0 : d;
        }
        if (32 * wi + 31 >= p + lim)
            return 0;
    }
    return 0;
}

__global__ void __launch_bounds__(FILL_TILE * FILL_THREADS_Y)
reflection_fill(const uint8_t *img_planes, const uint8_t *__restrict__ mask,
                uint8_t *out_planes, const pt_cuda_frame_dims *dims, int pitch, size_t plane,
                int max_search, int halo)
{
    /* line l's bits (row l of the tile: x0 - H + c; column l: y0 - H + c) */
    __shared__ unsigned row_stop[FILL_TILE * FILL_WORDS], row_out[FILL_TILE * FILL_WORDS];
    __shared__ unsigned col_stop[FILL_TILE * FILL_WORDS], col_out[FILL_TILE * FILL_WORDS];
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x0 = blockIdx.x * FILL_TILE, y0 = blockIdx.y * FILL_TILE;
    if (x0 >= w || y0 >= h)
        return;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const uint8_t *img = img_planes + f * plane, *m = mask + f * plane;
    uint8_t *out = out_planes + f * plane;
    int x = x0 + tx, mine = 0;
    for (int i = 0; i < FILL_TILE / FILL_THREADS_Y; i++) {
        int y = y0 + ty + i * FILL_THREADS_Y;
        if (x < w && y < h && m[(size_t)y * pitch + x])
            mine |= 1 << i;
    }
    if (!__syncthreads_or(mine))
        return;
    const int H = halo, nw = 1 + 2 * H / 32;
    if (H) {
        /* Rows: thread (tx, ty) makes words wi = ty, ty + 8, ... of row tx. */
        for (int wi = ty; wi < nw; wi += FILL_THREADS_Y) {
            int yy = y0 + tx, xx = x0 - H + 32 * wi;
            unsigned stop = ~0u, outside = ~0u;
            if (yy < h && xx + 32 > 0 && xx < w) {
                outside = 0;
                if (xx < 0 || xx + 32 > w)
                    for (int i = 0; i < 32; i++)
                        outside |= (unsigned)(xx + i < 0 || xx + i >= w) << i;
                unsigned masked = xx >= 0 ? mask_bits32(m + (size_t)yy * pitch, xx, w)
                                          : 0u; /* xx < 0: the halo is whole words */
                stop = ~masked | outside;
            }
            row_stop[tx * FILL_WORDS + wi] = stop;
            row_out[tx * FILL_WORDS + wi] = outside;
        }
        /* Columns: warp ty reads rows y0 - H + 32 g + lane of the tile's
         * columns (bit c: column x0 + c) and transposes them by ballots. */
        for (int g = ty; g < nw; g += FILL_THREADS_Y) {
            int yy = y0 - H + 32 * g + tx;
            int row_outside = yy < 0 || yy >= h;
            unsigned masked = row_outside ? 0u : mask_bits32(m + (size_t)yy * pitch, x0, w);
            unsigned outside = __ballot_sync(0xffffffffu, row_outside);
            unsigned my_stop = 0;
#pragma unroll 8
            for (int c = 0; c < 32; c++) {
                unsigned stop = __ballot_sync(0xffffffffu, !(masked >> c & 1u));
                if (c == tx)
                    my_stop = stop;
            }
            int col_outside = x0 + tx >= w;
            col_stop[tx * FILL_WORDS + g] = col_outside ? ~0u : my_stop | outside;
            col_out[tx * FILL_WORDS + g] = col_outside ? ~0u : outside;
        }
    }
    __syncthreads();
    const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
    for (int i = 0; i < FILL_TILE / FILL_THREADS_Y; i++) {
        if (!(mine >> i & 1))
            continue;
        int r = ty + i * FILL_THREADS_Y, y = y0 + r;
        size_t at = (size_t)y * pitch + x;
        double sum = 0, weight = 0;
        for (int k = 0; k < 4; k++) {
            int found = 0;
            if (H) {
                int line = (k < 2 ? r : tx) * FILL_WORDS;
                const unsigned *stop = (k < 2 ? row_stop : col_stop) + line;
                const unsigned *outside = (k < 2 ? row_out : col_out) + line;
                int p = H + (k < 2 ? tx : r);
                found = (k & 1) ? fill_after(stop, outside, p, max_search, nw)
                                : fill_before(stop, outside, p, max_search);
            } else {
                for (int d = 1; d <= max_search; d++) {
                    int xx = x + d * dx[k], yy = y + d * dy[k];
                    int state = (xx < 0 || yy < 0 || xx >= w || yy >= h)
                                    ? 2
                                    : m[(size_t)yy * pitch + xx] != 0;
                    if (state == 2)
                        break;
                    if (state == 0) {
                        found = d;
                        break;
                    }
                }
            }
            if (found) {
                int value = img[(size_t)(y + found * dy[k]) * pitch + x + found * dx[k]];
                sum += value / (double)found;
                weight += 1.0 / found;
            }
        }
        int v = img[at];
        if (weight > 0)
            v = (uint8_t)(sum / weight + 0.5);
        out[at] = (uint8_t)v;
    }
}

/* Both Gaussian passes over a GAUSS_TW x GAUSS_TH tile in shared memory: the
 * input tile with a border of whole words (at least r pixels; replicated at
 * the image's edges, which is what the row pass's clamped columns and the
 * column pass's clamped rows read), the row pass into 16-bit values, then the
 * column pass. The tile is read as 4-byte words, all independent, so many
 * loads are in flight. With a mask, a tile holding a masked pixel (a few per
 * frame) then overwrites those pixels with their reflection-filled values,
 * which reflection_fill wrote to the plane `filled` (masked pixels only). */
#define GAUSS_TW 128
#define GAUSS_TH 32
#define GAUSS_THREADS 256

static size_t gaussian_smem(int size)
{
    int r = size / 2, hw = (r + 3) / 4;
    int in_h = GAUSS_TH + 2 * r;
    return (size_t)in_h * GAUSS_TW * 2 + (size_t)in_h * (GAUSS_TW + 8 * hw);
}

/* Byte b of the word at gx (clamped to the row) of one row, as a word. */
__device__ __forceinline__ uint32_t clamped_word(const uint8_t *row, int gx, int w, int nonzero)
{
    uint32_t v = 0;
    for (int b = 0; b < 4; b++) {
        unsigned byte = row[min(max(gx + b, 0), w - 1)];
        v |= (nonzero ? (unsigned)(byte != 0) : byte) << (8 * b);
    }
    return v;
}

#define GAUSS_RUN 8 /* SIZE > 0: output rows per thread in the column pass */
template <int SIZE> /* the kernel side, or 0: size (any odd size up to 63) */
__global__ void __launch_bounds__(GAUSS_THREADS)
gaussian_tile(const uint8_t *__restrict__ src, const uint8_t *__restrict__ mask,
              const uint8_t *__restrict__ filled, uint8_t *__restrict__ dst,
              const pt_cuda_frame_dims *dims, int pitch, size_t plane, int size_arg,
              pt_cuda_params p)
{
    const int size = SIZE ? SIZE : size_arg;
    extern __shared__ uint32_t smem32[];
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x0 = blockIdx.x * GAUSS_TW, y0 = blockIdx.y * GAUSS_TH;
    if (x0 >= w || y0 >= h)
        return;
    int r = size / 2, hw = (r + 3) / 4;
    int in_ww = GAUSS_TW / 4 + 2 * hw, in_w = 4 * in_ww, in_h = GAUSS_TH + 2 * r;
    int left = x0 - 4 * hw; /* image column of the tile's byte 0 */
    uint16_t *rows = (uint16_t *)smem32;                                 /* in_h x GAUSS_TW */
    uint32_t *in32 = smem32 + (size_t)in_h * GAUSS_TW / 2;               /* in_h x in_ww */
    const uint8_t *in = (const uint8_t *)in32;
    __shared__ uint32_t weights[64];
    for (int i = threadIdx.x; i < size; i += blockDim.x)
        weights[i] = p.gauss_weights[i];
    const uint8_t *s = src + f * plane, *m = mask ? mask + f * plane : NULL;
    int any = 0;
    for (int k = threadIdx.x; k < in_h * in_ww; k += GAUSS_THREADS) {
        int ty = k / in_ww, gx = left + 4 * (k - ty * in_ww);
        size_t row = (size_t)min(max(y0 - r + ty, 0), h - 1) * pitch;
        uint32_t v, mv = 0;
        if (gx >= 0 && gx + 3 < w) {
            v = *(const uint32_t *)(s + row + gx);
            if (m)
                mv = *(const uint32_t *)(m + row + gx);
        } else {
            v = clamped_word(s + row, gx, w, 0);
            if (m)
                mv = clamped_word(m + row, gx, w, 1);
        }
        in32[k] = v;
        any |= mv != 0;
    }
    if (__syncthreads_or(any)) {
        uint8_t *fill = (uint8_t *)in32;
        const uint8_t *fv = filled + f * plane;
        for (int k = threadIdx.x; k < in_h * in_w; k += GAUSS_THREADS) {
            int ty = k / in_w;
            int yy = min(max(y0 - r + ty, 0), h - 1), xx = min(max(left + k - ty * in_w, 0), w - 1);
            size_t i = (size_t)yy * pitch + xx;
            if (m[i])
                fill[k] = fv[i];
        }
        __syncthreads();
    }
    int off = 4 * hw - r; /* the row pass's window for tile column tx starts at byte tx + off */
    uint8_t *d = dst + f * plane;
    if constexpr (SIZE > 0) {
        /* The same integer sums (exact in any order) with the weights and a
         * run of pixels in registers: four outputs per thread in the row
         * pass, GAUSS_RUN in the column pass, each input read once. */
        constexpr int R = SIZE / 2;
        uint32_t wt[SIZE];
#pragma unroll
        for (int i = 0; i < SIZE; i++)
            wt[i] = weights[i];
        for (int k = threadIdx.x; k < in_h * (GAUSS_TW / 4); k += GAUSS_THREADS) {
            int ty = k / (GAUSS_TW / 4), q = k % (GAUSS_TW / 4);
            const uint8_t *row = in + ty * in_w + off + 4 * q;
            uint32_t px[4 + 2 * R];
#pragma unroll
            for (int i = 0; i < 4 + 2 * R; i++)
                px[i] = row[i];
#pragma unroll
            for (int o = 0; o < 4; o++) {
                uint32_t acc = wt[R] * px[o + R];
#pragma unroll
                for (int i = 0; i < R; i++)
                    acc += wt[i] * (px[o + i] + px[o + SIZE - 1 - i]);
                rows[ty * GAUSS_TW + 4 * q + o] = (uint16_t)((acc + 64u) >> 7);
            }
        }
        __syncthreads();
        for (int k = threadIdx.x; k < (GAUSS_TH / GAUSS_RUN) * GAUSS_TW; k += GAUSS_THREADS) {
            int tx = k % GAUSS_TW, ty0 = (k / GAUSS_TW) * GAUSS_RUN;
            int x = x0 + tx;
            uint32_t v[GAUSS_RUN + 2 * R];
#pragma unroll
            for (int i = 0; i < GAUSS_RUN + 2 * R; i++)
                v[i] = rows[(ty0 + i) * GAUSS_TW + tx];
#pragma unroll
            for (int o = 0; o < GAUSS_RUN; o++) {
                uint32_t acc = 0;
#pragma unroll
                for (int i = 0; i < SIZE; i++)
                    acc += wt[i] * v[o + i];
                int y = y0 + ty0 + o;
                if (x < w && y < h)
                    d[(size_t)y * pitch + x] = (uint8_t)((acc + (1u << 22)) >> 23);
            }
        }
    } else {
        for (int k = threadIdx.x; k < in_h * GAUSS_TW; k += GAUSS_THREADS) {
            int ty = k / GAUSS_TW, tx = k % GAUSS_TW;
            const uint8_t *row = in + ty * in_w + off + tx;
            uint32_t acc = weights[r] * (uint32_t)row[r];
            for (int i = 0; i < r; i++)
                acc += weights[i] * (uint32_t)(row[i] + row[size - 1 - i]);
            rows[k] = (uint16_t)((acc + 64u) >> 7);
        }
        __syncthreads();
        for (int k = threadIdx.x; k < GAUSS_TH * GAUSS_TW; k += GAUSS_THREADS) {
            int ty = k / GAUSS_TW, tx = k % GAUSS_TW;
            int x = x0 + tx, y = y0 + ty;
            if (x >= w || y >= h)
                continue;
            uint32_t acc = 0;
            for (int i = 0; i < size; i++)
                acc += weights[i] * (uint32_t)rows[(ty + i) * GAUSS_TW + tx];
            d[(size_t)y * pitch + x] = (uint8_t)((acc + (1u << 22)) >> 23);
        }
    }
}

/* Exact median of the size x size window (borders replicated): the value m
 * with fewer than half+1 values below it and at least half+1 at or below it,
 * found bit by bit. */
__global__ void median_filter(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                              const pt_cuda_frame_dims *dims, int pitch, size_t plane, int size)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *s = src + f * plane;
    int r = size / 2, half = size * size / 2;
    int m = 0;
    for (int bit = 7; bit >= 0; bit--) {
        int candidate = m | (1 << bit);
        int below = 0;
        for (int j = -r; j <= r; j++) {
            const uint8_t *row = s + (size_t)min(max(y + j, 0), h - 1) * pitch;
            for (int i = -r; i <= r; i++)
                below += row[min(max(x + i, 0), w - 1)] < candidate;
        }
        if (below <= half)
            m = candidate;
    }
    dst[f * plane + (size_t)y * pitch + x] = (uint8_t)m;
}

__global__ void copy_plane(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                           const pt_cuda_frame_dims *dims, int pitch, size_t plane)
{
    int f = blockIdx.z;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dims[f].width || y >= dims[f].height)
        return;
    size_t i = f * plane + (size_t)y * pitch + x;
    dst[i] = src[i];
}

/* One square morphology operation (columns, then rows) over the chunk. */
template <bool MAX_OP, bool TOPHAT>
static void morph_square(const uint8_t *src, uint8_t *tmp, uint8_t *dst, const uint8_t *raw,
                         const pt_cuda_buffers *b, int pitch, size_t plane, int r, int threshold,
                         int frames, int max_width, int max_height, cudaStream_t stream)
{
    dim3 cblock(TILE_X, TILE_Y);
    dim3 cgrid((max_width + 16 * TILE_X - 1) / (16 * TILE_X), (max_height + TILE_Y - 1) / TILE_Y,
               frames);
    if (r >= CROW_MIN_R && r <= RROW_MAX_R && frames >= CROW_MIN_FRAMES) {
        dim3 rblock(32, CROW_WARPS);
        dim3 rgrid((max_width + 127) / 128, (max_height + CROW_WARPS * CROW_RUN - 1) / (CROW_WARPS * CROW_RUN),
                   frames);
        morph_cols_reg<MAX_OP><<<rgrid, rblock, 0, stream>>>(src, tmp, b->dims, pitch, plane, r);
    } else if (r >= 2 && r <= 127) {
        dim3 dblock(COL_TW / 16, COL_THREADS_Y);
        dim3 dgrid((max_width + COL_TW - 1) / COL_TW, (max_height + COL_TH - 1) / COL_TH, frames);
        size_t smem = (size_t)(COL_TH + 2 * r) * COL_TW;
        morph_cols_doubling<MAX_OP><<<dgrid, dblock, smem, stream>>>(src, tmp, b->dims, pitch,
                                                                      plane, r);
    } else {
        morph_cols<MAX_OP><<<cgrid, cblock, 0, stream>>>(src, tmp, b->dims, pitch, plane, r);
    }
    if (r <= RROW_MAX_R) {
        int segments = (max_width + RROW_PX - 1) / RROW_PX;
        dim3 rgrid((segments * max_height + RROW_THREADS - 1) / RROW_THREADS, 1, frames);
        morph_rows_reg<MAX_OP, TOPHAT><<<rgrid, RROW_THREADS, 0, stream>>>(
            tmp, dst, raw, b->dims, pitch, plane, r, threshold, segments);
        return;
    }
    int span = row_span(max_width), lines = row_lines(span, r);
    dim3 rgrid((max_width + span - 1) / span, (max_height + lines - 1) / lines, frames);
    size_t smem = (size_t)lines * row_stride(span, r) * sizeof(unsigned);
    morph_rows<MAX_OP, TOPHAT><<<rgrid, ROW_THREADS, smem, stream>>>(
        tmp, dst, raw, b->dims, pitch, plane, r, threshold, span, lines);
}

extern "C" cudaError_t pt_cuda_preprocess(const pt_cuda_params *p, const pt_cuda_buffers *b,
                                          int frames, int max_width, int max_height,
                                          int reflection_kernel, int reflection_dilate,
                                          cudaStream_t stream)
{
    dim3 block(TILE_X, TILE_Y);
    dim3 grid((max_width + TILE_X - 1) / TILE_X, (max_height + TILE_Y - 1) / TILE_Y, frames);
    int pitch = p->pitch;
    size_t plane = p->plane;
    const uint8_t *to_smooth = b->raw;
    const uint8_t *fill_mask = NULL;
    int max_search = reflection_kernel + reflection_dilate;
    if (p->reflection != PT_REFLECTION_OFF) {
        int r = reflection_kernel / 2, thr = p->reflection_threshold;
        /* Opening (erosion, dilation); the last pass thresholds the top-hat. */
        morph_square<false, false>(b->raw, b->work_a, b->work_b, NULL, b, pitch, plane, r, 0,
                                   frames, max_width, max_height, stream);
        if (reflection_dilate > 1) {
            morph_square<true, true>(b->work_b, b->work_a, b->work_b, b->raw, b, pitch, plane, r,
                                     thr, frames, max_width, max_height, stream);
            morph_square<true, false>(b->work_b, b->work_a, b->mask, NULL, b, pitch, plane,
                                      reflection_dilate / 2, 0, frames, max_width, max_height,
                                      stream);
        } else {
            morph_square<true, true>(b->work_b, b->work_a, b->mask, b->raw, b, pitch, plane, r,
                                     thr, frames, max_width, max_height, stream);
        }
        if (p->reflection == PT_REFLECTION_INTERPOLATE) {
            /* With the Gaussian, the filled values go to work_a (free once
             * the mask is made) and the Gaussian reads them there for masked
             * pixels; otherwise the raw planes are filled in place. */
            int gauss = p->smooth == PT_SMOOTH_GAUSSIAN && (p->smooth_size | 1) > 1;
            dim3 fgrid((max_width + FILL_TILE - 1) / FILL_TILE,
                       (max_height + FILL_TILE - 1) / FILL_TILE, frames);
            reflection_fill<<<fgrid, dim3(FILL_TILE, FILL_THREADS_Y), 0, stream>>>(
                b->raw, b->mask, gauss ? b->work_a : b->raw, b->dims, pitch, plane, max_search,
                fill_halo(max_search));
            if (gauss)
                fill_mask = b->mask;
        }
    }
    int size = p->smooth_size | 1;
    if (p->smooth == PT_SMOOTH_GAUSSIAN && size > 1) {
        dim3 tiles((max_width + GAUSS_TW - 1) / GAUSS_TW, (max_height + GAUSS_TH - 1) / GAUSS_TH,
                   frames);
        if (size == 5) /* the default */
            gaussian_tile<5><<<tiles, GAUSS_THREADS, gaussian_smem(size), stream>>>(
                to_smooth, fill_mask, b->work_a, b->smoothed, b->dims, pitch, plane, size, *p);
        else
            gaussian_tile<0><<<tiles, GAUSS_THREADS, gaussian_smem(size), stream>>>(
                to_smooth, fill_mask, b->work_a, b->smoothed, b->dims, pitch, plane, size, *p);
    } else if (p->smooth == PT_SMOOTH_MEDIAN && size > 1) {
        median_filter<<<grid, block, 0, stream>>>(to_smooth, b->smoothed, b->dims, pitch, plane, size);
    } else {
        copy_plane<<<grid, block, 0, stream>>>(to_smooth, b->smoothed, b->dims, pitch, plane);
    }
    return cudaGetLastError();
}

/* Integer Gaussian weights summing to 32768: the same as omp/preprocess/smooth.c. */
void pt_cuda_gaussian_weights(int size, double sigma, uint32_t *w)
{
    const int total_weight = 32768;
    int r = size / 2;
    double g[256], total = 0;
    for (int i = 0; i < size; i++) {
        double d = i - r;
        g[i] = exp(-d * d / (2 * sigma * sigma));
        total += g[i];
    }
    int sum = 0;
    for (int i = 0; i < size; i++) {
        w[i] = (uint32_t)lround((double)total_weight * g[i] / total);
        sum += (int)w[i];
    }
    w[r] = (uint32_t)((int)w[r] + total_weight - sum);
}
