/* Grey erosion and dilation with a k x k square as two separable passes.
 * Rows: the window extremum by doubling on an identity-padded line: after
 * pass i, t[j] holds the extremum of line[j, j + 2^i); with P the largest
 * power of two <= k the window [j, j + k - 1] is op(t[j], t[j + k - P]).
 * That is log2(k) + 1 whole-line passes, each vectorised across the line.
 * Columns: van Herk/Gil-Werman over whole rows at a time (running extrema
 * forward and backward within blocks of k rows; the window is then
 * op(back[j], fwd[j + k - 1])), so every step vectorises across the row;
 * block after block, so the backward rows kept are two blocks' worth. */
#include <string.h>

#include "omp/preprocess/preprocess.h"

#define MIN_U8(a, b) ((a) < (b) ? (a) : (b))
#define MAX_U8(a, b) ((a) > (b) ? (a) : (b))

size_t pt_morph_scratch_bytes(int width, int height, int k)
{
    (void)height; /* the column pass keeps two blocks of k rows, whatever the height */
    size_t r = (size_t)(k / 2);
    size_t rowbuf = 3 * ((size_t)width + 2 * r) + 64;
    size_t colbuf = (2 * (size_t)k + 1) * (size_t)width; /* the ring and the forward row */
    return rowbuf + colbuf + 64;
}

/* One generator per operation keeps the inner loops branch-free. */
#define MORPH_PASSES(NAME, OP, IDENT)                                                     \
    PT_VECTOR_CLONES static void NAME##_rows(const uint8_t *src, int src_stride, uint8_t *dst,            \
                            int dst_stride, int width, int height, int k,                \
                            uint8_t *restrict line, uint8_t *restrict ping,              \
                            uint8_t *restrict pong)                                      \
    {                                                                                    \
        int r = k / 2, padded = width + 2 * r;                                           \
        int span = 1;                                                                    \
        while (span * 2 <= k)                                                            \
            span *= 2;                                                                   \
        for (int y = 0; y < height; y++) {                                               \
            const uint8_t *s = src + (size_t)y * src_stride;                             \
            uint8_t *restrict d = dst + (size_t)y * dst_stride;                          \
            memset(line, IDENT, (size_t)r);                                              \
            memcpy(line + r, s, (size_t)width);                                          \
            memset(line + r + width, IDENT, (size_t)r);                                  \
            /* t = line; t[j] = op(t[j], t[j + w]) doubles the window w. */              \
            const uint8_t *t = line;                                                     \
            uint8_t *next = ping;                                                        \
            int valid = padded;                                                          \
            for (int w = 1; w < span; w *= 2) {                                          \
                valid -= w;                                                              \
                _Pragma("omp simd") for (int j = 0; j < valid; j++) next[j] =            \
                    OP(t[j], t[j + w]);                                                  \
                t = next;                                                                \
                next = next == ping ? pong : ping;                                       \
            }                                                                            \
            const uint8_t *restrict tail = t + (k - span);                               \
            _Pragma("omp simd") for (int x = 0; x < width; x++) d[x] = OP(t[x], tail[x]); \
        }                                                                                \
    }                                                                                    \
    /* In place on img, block by block of k padded rows: a block's backward    \
     * extrema, then the forward pass through it, whose outputs need the       \
     * backward rows of this block and the one before; so back is a ring of   \
     * 2k rows of width (it stays in L2) and fwd one row. */                    \
    PT_VECTOR_CLONES static void NAME##_cols(uint8_t *img, int stride, int width, int height,  \
                                             int k, uint8_t *back, uint8_t *fwd)              \
    {                                                                                    \
        int r = k / 2, padded = height + 2 * r, ring = 2 * k;                            \
        for (int j0 = 0; j0 < padded; j0 += k) {                                         \
            int j1 = j0 + k < padded ? j0 + k : padded; /* block [j0, j1) */             \
            for (int j = j1 - 1; j >= j0; j--) {                                         \
                int y = j - r;                                                           \
                uint8_t *b = back + (size_t)(j % ring) * width;                          \
                const uint8_t *nb = back + (size_t)((j + 1) % ring) * width;             \
                int block_end = j == j1 - 1;                                             \
                if (y < 0 || y >= height) {                                              \
                    if (block_end)                                                       \
                        memset(b, IDENT, (size_t)width);                                 \
                    else                                                                 \
                        memcpy(b, nb, (size_t)width);                                    \
                } else {                                                                 \
                    const uint8_t *s = img + (size_t)y * stride;                         \
                    if (block_end) {                                                     \
                        memcpy(b, s, (size_t)width);                                     \
                    } else {                                                             \
                        _Pragma("omp simd") for (int x = 0; x < width; x++) b[x] =       \
                            OP(s[x], nb[x]);                                             \
                    }                                                                    \
                }                                                                        \
            }                                                                            \
            /* Forward: reading row j-r while writing row j-2r, so in place is safe. */  \
            for (int j = j0; j < j1; j++) {                                              \
                int y = j - r;                                                           \
                if (y < 0 || y >= height) {                                              \
                    if (j == j0)                                                         \
                        memset(fwd, IDENT, (size_t)width);                               \
                } else {                                                                 \
                    const uint8_t *s = img + (size_t)y * stride;                         \
                    if (j == j0) {                                                       \
                        memcpy(fwd, s, (size_t)width);                                   \
                    } else {                                                             \
                        _Pragma("omp simd") for (int x = 0; x < width; x++) fwd[x] =     \
                            OP(fwd[x], s[x]);                                            \
                    }                                                                    \
                }                                                                        \
                int out = j - (k - 1);                                                   \
                if (out >= 0) {                                                          \
                    uint8_t *d = img + (size_t)out * stride;                             \
                    const uint8_t *b = back + (size_t)(out % ring) * width;              \
                    _Pragma("omp simd") for (int x = 0; x < width; x++) d[x] =           \
                        OP(b[x], fwd[x]);                                                \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    }

MORPH_PASSES(erode, MIN_U8, 255)
MORPH_PASSES(dilate, MAX_U8, 0)

typedef struct {
    uint8_t *line, *line_ping, *line_pong, *col_back, *col_fwd;
} morph_scratch;

static morph_scratch split_scratch(void *scratch, int width, int height, int k)
{
    int r = k / 2;
    morph_scratch m;
    uint8_t *p = scratch;
    m.line = p;
    m.line_ping = p + width + 2 * r;
    m.line_pong = m.line_ping + width + 2 * r;
    m.col_fwd = m.line_pong + width + 2 * r;
    m.col_back = m.col_fwd + width + 64;
    (void)height;
    return m;
}

void pt_erode(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride, int width,
              int height, int k, void *scratch)
{
    if (k < 1)
        k = 1;
    morph_scratch m = split_scratch(scratch, width, height, k);
    erode_rows(src, src_stride, dst, dst_stride, width, height, k, m.line, m.line_ping, m.line_pong);
    erode_cols(dst, dst_stride, width, height, k, m.col_back, m.col_fwd);
}

void pt_dilate(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride,
               int width, int height, int k, void *scratch)
{
    if (k < 1)
        k = 1;
    morph_scratch m = split_scratch(scratch, width, height, k);
    dilate_rows(src, src_stride, dst, dst_stride, width, height, k, m.line, m.line_ping, m.line_pong);
    dilate_cols(dst, dst_stride, width, height, k, m.col_back, m.col_fwd);
}
