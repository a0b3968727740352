/* The square morphology's passes in registers, for half-widths r <= 31
 * (included by preprocess.cu after op4, which uses them instead of the
 * shared-memory passes whenever r allows).
 *
 * Rows: a thread makes 32 outputs of one row, x0 .. x0+31 (x0 a multiple of 32),
 * from the 96 bytes x0-32 .. x0+63: six aligned 16-byte loads, with the
 * operation's identity for bytes outside the image. The words are realigned
 * so that byte 0 is x0 - r, split into even and odd pixels as 16-bit lanes
 * and doubled in place (after the step for q, pixel o holds the extreme of
 * pixels o .. o+2q-1), and output pixel x is the extreme of the two
 * power-of-two windows starting at x - r and x + r - P + 1, as in the
 * shared-memory pass. No shared memory and no barriers: the loads and a few
 * hundred lane-parallel instructions per 32 pixels; neighbouring threads'
 * overlapping loads meet in L1.
 *
 * r only varies between launches, but the word offsets it implies index the
 * register arrays, so they are resolved by a switch over compile-time
 * offsets (uniform across the launch) instead of runtime indexing, which
 * would put the arrays in local memory. */
#ifndef PT_CUDA_MORPH_REG_CUH
#define PT_CUDA_MORPH_REG_CUH

#define RROW_PX 32                                /* outputs per thread */
#define RROW_HALO 32                              /* bytes loaded either side: r <= RROW_HALO */
#define RROW_LOADED ((RROW_PX + 2 * RROW_HALO) / 4) /* 24 words */
#define RROW_USED (RROW_PX / 4 + RROW_HALO / 2)   /* 24 words from x0 - r: bytes 0 .. 31 + 2r */
#define RROW_THREADS 256
#define RROW_MAX_R (RROW_HALO - 1) /* so the doubling stops at P = 32 */

/* u[i] = the word at byte 4 (i + M) + shift of v (sel: the shift's
 * __byte_perm selector), for the M equal to m; v holds at least
 * COUNT + MAX_M + 1 words. */
template <int M, int COUNT, int N, int K>
__device__ __forceinline__ void rrow_realign(const unsigned (&v)[N], unsigned (&u)[K], int m,
                                             unsigned sel)
{
    static_assert(K >= COUNT && N >= COUNT + M + 1, "realignment outside the arrays");
    if (m == M) {
#pragma unroll
        for (int i = 0; i < COUNT; i++)
            u[i] = __byte_perm(v[i + M], v[i + M + 1], sel);
    } else if constexpr (M > 0) {
        rrow_realign<M - 1, COUNT>(v, u, m, sel);
    }
}

/* The extreme of each 16-bit lane. */
template <bool MAX_OP> __device__ __forceinline__ unsigned lane_op(unsigned a, unsigned b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned r;
    if (MAX_OP)
        asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    else
        asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return MAX_OP ? __vmaxu2(a, b) : __vminu2(a, b);
#endif
}

template <bool MAX_OP, bool TOPHAT>
__global__ void __launch_bounds__(RROW_THREADS)
morph_rows_reg(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
               const uint8_t *__restrict__ raw, const pt_cuda_frame_dims *dims, int pitch,
               size_t plane, int r, int threshold, int segments)
{
    const int f = blockIdx.z;
    const int w = dims[f].width, h = dims[f].height;
    const int t = blockIdx.x * RROW_THREADS + threadIdx.x;
    const int y = t / segments, x0 = (t - y * segments) * RROW_PX;
    if (y >= h || x0 >= w)
        return;
    const unsigned id = MAX_OP ? 0u : 0xffffffffu;
    const size_t at = f * plane + (size_t)y * pitch;
    const uint8_t *row = src + at;
    /* Loaded words, then identity words so that every realignment below
     * reads inside the array. */
    unsigned v[RROW_LOADED + RROW_HALO / 4 + 1];
#pragma unroll
    for (int q = 0; q < RROW_LOADED / 4; q++) {
        int gx = x0 - RROW_HALO + 16 * q; /* a multiple of 16: inside the pitch when < w */
        uint4 word = make_uint4(id, id, id, id);
        if (gx >= 0 && gx < w)
            word = *(const uint4 *)(row + gx);
        v[4 * q] = word.x;
        v[4 * q + 1] = word.y;
        v[4 * q + 2] = word.z;
        v[4 * q + 3] = word.w;
    }
#pragma unroll
    for (int i = RROW_LOADED; i < RROW_LOADED + RROW_HALO / 4 + 1; i++)
        v[i] = id;
    if (x0 + RROW_PX + RROW_HALO > w) {
        /* Bytes at or beyond the width are padding: the identity. */
#pragma unroll
        for (int i = 0; i < RROW_LOADED; i++) {
            int valid = min(max(w - (x0 - RROW_HALO + 4 * i), 0), 4);
            unsigned keep = valid == 4 ? 0xffffffffu : (1u << (8 * valid)) - 1u;
            v[i] = (v[i] & keep) | (id & ~keep);
        }
    }
    /* u: byte 0 is x0 - r; identity words after it for the doubling's reads. */
    unsigned u[RROW_USED + 5];
    const int a = RROW_HALO - r;
    rrow_realign<RROW_HALO / 4, RROW_USED>(v, u, a >> 2, 0x3210u + 0x1111u * (unsigned)(a & 3));
#pragma unroll
    for (int i = RROW_USED; i < RROW_USED + 5; i++)
        u[i] = id;
    /* Even and odd pixels as 16-bit lanes: E[i] = pixels 4i and 4i + 2,
     * O[i] = 4i + 1 and 4i + 3 (sm_90 has 16-bit-lane min and max
     * instructions; byte lanes take about seven instructions each). */
    unsigned E[RROW_USED + 5], O[RROW_USED + 5];
#pragma unroll
    for (int i = 0; i < RROW_USED + 5; i++) {
        E[i] = __byte_perm(u[i], 0u, 0x4240u);
        O[i] = __byte_perm(u[i], 0u, 0x4341u);
    }
    int P = 1;
    while (2 * P <= 2 * r + 1)
        P *= 2;
    /* Doubling in place, ascending, so word i + k is still the previous
     * step's. Output words 0 .. 7 need words 0 .. 16 of the last step, which
     * need words below RROW_USED of every earlier one; the words above are
     * never used. A shift by one pixel turns odd lanes into even ones and
     * even lanes, moved by one lane, into odd ones. */
    if (P > 1)
#pragma unroll
        for (int i = 0; i < RROW_USED; i++) {
            unsigned e = E[i], o = O[i];
            E[i] = lane_op<MAX_OP>(e, o);
            O[i] = lane_op<MAX_OP>(o, __byte_perm(e, E[i + 1], 0x5432u));
        }
    if (P > 2)
#pragma unroll
        for (int i = 0; i < RROW_USED; i++) {
            E[i] = lane_op<MAX_OP>(E[i], __byte_perm(E[i], E[i + 1], 0x5432u));
            O[i] = lane_op<MAX_OP>(O[i], __byte_perm(O[i], O[i + 1], 0x5432u));
        }
    if (P > 4)
#pragma unroll
        for (int i = 0; i < RROW_USED; i++) {
            E[i] = lane_op<MAX_OP>(E[i], E[i + 1]);
            O[i] = lane_op<MAX_OP>(O[i], O[i + 1]);
        }
    if (P > 8)
#pragma unroll
        for (int i = 0; i < RROW_USED; i++) {
            E[i] = lane_op<MAX_OP>(E[i], E[i + 2]);
            O[i] = lane_op<MAX_OP>(O[i], O[i + 2]);
        }
    if (P > 16)
#pragma unroll
        for (int i = 0; i < RROW_USED; i++) {
            E[i] = lane_op<MAX_OP>(E[i], E[i + 4]);
            O[i] = lane_op<MAX_OP>(O[i], O[i + 4]);
        }
    /* The second window starts c = 2r + 1 - P pixels after the first (c < P):
     * for even c, both parities move by c / 2 lanes; for odd c, even pixels
     * take odd lanes moved by (c - 1) / 2 and odd pixels even lanes moved by
     * (c + 1) / 2. A move by m lanes is m / 2 words and, for odd m, half a
     * word. */
    const int c = 2 * r + 1 - P;
    unsigned second_e[RROW_PX / 4], second_o[RROW_PX / 4];
    if (c & 1) {
        const int me = (c - 1) / 2, mo = (c + 1) / 2;
        rrow_realign<8, RROW_PX / 4>(O, second_e, me >> 1, (me & 1) ? 0x5432u : 0x3210u);
        rrow_realign<8, RROW_PX / 4>(E, second_o, mo >> 1, (mo & 1) ? 0x5432u : 0x3210u);
    } else {
        const int m = c / 2;
        rrow_realign<8, RROW_PX / 4>(E, second_e, m >> 1, (m & 1) ? 0x5432u : 0x3210u);
        rrow_realign<8, RROW_PX / 4>(O, second_o, m >> 1, (m & 1) ? 0x5432u : 0x3210u);
    }
    unsigned out[RROW_PX / 4];
#pragma unroll
    for (int k = 0; k < RROW_PX / 4; k++)
        out[k] = __byte_perm(lane_op<MAX_OP>(E[k], second_e[k]), lane_op<MAX_OP>(O[k], second_o[k]), 0x6240u);
    if (TOPHAT) {
        /* The reflection mask: raw - opened > threshold, as 0/1. */
        const uint4 *image = (const uint4 *)(raw + at + x0);
        uint4 i0 = image[0], i1 = image[1];
        unsigned img[RROW_PX / 4] = {i0.x, i0.y, i0.z, i0.w, i1.x, i1.y, i1.z, i1.w};
        const unsigned thr = 0x01010101u * (unsigned)threshold;
#pragma unroll
        for (int k = 0; k < RROW_PX / 4; k++)
            out[k] = __vcmpgtu4(__vsubus4(img[k], out[k]), thr) & 0x01010101u;
    }
    uint4 *o = (uint4 *)(dst + at + x0); /* x0 + 32 <= pitch (a multiple of 128) */
    o[0] = make_uint4(out[0], out[1], out[2], out[3]);
    o[1] = make_uint4(out[4], out[5], out[6], out[7]);
}

/* Column pass: a thread makes CROW_RUN output rows of one 4-byte column
 * group from the rows y0 - r .. y0 + CROW_RUN - 1 + r (identity outside the
 * image), doubled in place as in the row pass (row j then holds the extreme
 * of rows j .. j+P-1); output row t is the extreme of rows t and t + c,
 * c = 2r + 1 - P, of the doubled column. Lanes of a warp take neighbouring
 * column groups (128-byte rows per warp); the warps of a block take
 * consecutive runs, whose overlapping rows meet in L1. The move by c rows
 * is up to five moves by powers of two, each a uniform branch over
 * compile-time indices (runtime indices would put the column in local
 * memory). Measured on the H100 (64 frames of 1280 x 1024): 143 us against
 * the shared-memory pass's 159 us at r = 28, but 111 against 101 us at
 * r = 7, so preprocess.cu uses it from r = CROW_MIN_R; and for one frame its
 * 40 blocks take 11.2 us against 6.7, so only for chunks of CROW_MIN_FRAMES
 * frames or more. Holding the pixels as 16-bit lanes (two per thread,
 * native lane min/max) was slower: 202 us, with 25 % occupancy at 118
 * registers; a van Herk / Gil-Werman stream down each column (three
 * operations per pixel) slower still: 212 us, latency-bound. */
#define CROW_RUN 32
#define CROW_WARPS 8
#define CROW_MIN_R 16
#define CROW_MIN_FRAMES 8
#define CROW_LOADED (CROW_RUN + 2 * RROW_MAX_R) /* 94 rows at most */

/* One doubling step (window Q to 2Q) when P needs it. */
template <bool MAX_OP, int Q> __device__ __forceinline__ void crow_double(unsigned (&d)[CROW_LOADED], int P)
{
    if (P > Q) {
#pragma unroll
        for (int j = 0; j + Q < CROW_LOADED; j++)
            d[j] = op4<MAX_OP>(d[j], d[j + Q]);
    }
}

/* Moves the column up by B rows when bit B of c is set. */
template <int B> __device__ __forceinline__ void crow_shift(unsigned (&d)[CROW_LOADED], int c)
{
    if (c & B) {
#pragma unroll
        for (int j = 0; j + B < CROW_RUN + 32; j++)
            d[j] = d[j + B];
    }
}

template <bool MAX_OP>
__global__ void __launch_bounds__(32 * CROW_WARPS)
morph_cols_reg(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
               const pt_cuda_frame_dims *dims, int pitch, size_t plane, int r)
{
    const int f = blockIdx.z;
    const int w = dims[f].width, h = dims[f].height;
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x);
    const int y0 = (blockIdx.y * CROW_WARPS + threadIdx.y) * CROW_RUN;
    if (x >= w || y0 >= h)
        return;
    const unsigned id = MAX_OP ? 0u : 0xffffffffu;
    const uint8_t *col = src + f * plane + x;
    const int rows = CROW_RUN + 2 * r, top = y0 - r;
    unsigned d[CROW_LOADED];
#pragma unroll
    for (int j = 0; j < CROW_LOADED; j++) {
        int y = top + j;
        d[j] = (j < rows && y >= 0 && y < h) ? *(const unsigned *)(col + (size_t)y * pitch) : id;
    }
    int P = 1;
    while (2 * P <= 2 * r + 1)
        P *= 2;
    /* Outputs need rows below CROW_RUN + 32 of the last step, which need
     * rows below CROW_LOADED of every earlier one. */
    crow_double<MAX_OP, 1>(d, P);
    crow_double<MAX_OP, 2>(d, P);
    crow_double<MAX_OP, 4>(d, P);
    crow_double<MAX_OP, 8>(d, P);
    crow_double<MAX_OP, 16>(d, P);
    unsigned out[CROW_RUN];
#pragma unroll
    for (int t = 0; t < CROW_RUN; t++)
        out[t] = d[t];
    const int c = 2 * r + 1 - P; /* < P <= 32 */
    crow_shift<1>(d, c);
    crow_shift<2>(d, c);
    crow_shift<4>(d, c);
    crow_shift<8>(d, c);
    crow_shift<16>(d, c);
    uint8_t *o = dst + f * plane + x;
#pragma unroll
    for (int t = 0; t < CROW_RUN; t++)
        if (y0 + t < h)
            *(unsigned *)(o + (size_t)(y0 + t) * pitch) = op4<MAX_OP>(out[t], d[t]);
}
#endif
