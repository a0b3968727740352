/* Grey erosion and dilation with a k x k square as two separable passes, each
 * by van Herk/Gil-Werman: split the (identity-padded) line into blocks of k,
 * take running extrema forward (g) and backward (h) within each block; the
 * window [j, j+k-1] is then op(h[j], g[j+k-1]): 3 comparisons per pixel.
 * The column pass works on whole rows at a time so it vectorises. */
#include <string.h>

#include "preprocess.h"

#define MIN_U8(a, b) ((a) < (b) ? (a) : (b))
#define MAX_U8(a, b) ((a) > (b) ? (a) : (b))

size_t pt_morph_scratch_bytes(int width, int height, int k)
{
    size_t r = (size_t)(k / 2);
    size_t rowbuf = 3 * ((size_t)width + 2 * r) + 64;
    size_t colbuf = ((size_t)height + 2 * r + 1) * (size_t)width;
    return rowbuf + colbuf + 64;
}

/* One generator per operation keeps the inner loops branch-free. */
#define MORPH_PASSES(NAME, OP, IDENT)                                                     \
    PT_VECTOR_CLONES static void NAME##_rows(const uint8_t *src, int src_stride, uint8_t *dst,            \
                            int dst_stride, int width, int height, int k,                \
                            uint8_t *restrict line, uint8_t *restrict back,              \
                            uint8_t *restrict fwd)                                       \
    {                                                                                    \
        int r = k / 2, padded = width + 2 * r;                                           \
        for (int y = 0; y < height; y++) {                                               \
            const uint8_t *s = src + (size_t)y * src_stride;                             \
            uint8_t *restrict d = dst + (size_t)y * dst_stride;                          \
            memset(line, IDENT, (size_t)r);                                              \
            memcpy(line + r, s, (size_t)width);                                          \
            memset(line + r + width, IDENT, (size_t)r);                                  \
            /* Running extrema forward and backward within each block of k. */           \
            for (int b = 0; b < padded; b += k) {                                        \
                int end = b + k < padded ? b + k : padded;                               \
                uint8_t acc = line[b];                                                   \
                fwd[b] = acc;                                                            \
                for (int j = b + 1; j < end; j++)                                        \
                    fwd[j] = acc = OP(acc, line[j]);                                     \
                acc = line[end - 1];                                                     \
                back[end - 1] = acc;                                                     \
                for (int j = end - 2; j >= b; j--)                                       \
                    back[j] = acc = OP(acc, line[j]);                                    \
            }                                                                            \
            const uint8_t *restrict fk = fwd + (k - 1);                                  \
            _Pragma("omp simd") for (int x = 0; x < width; x++) d[x] = OP(back[x], fk[x]); \
        }                                                                                \
    }                                                                                    \
    /* In place on img; back holds (height + 2r) rows of width, fwd one row. */          \
    PT_VECTOR_CLONES static void NAME##_cols(uint8_t *img, int stride, int width, int height, int k,      \
                            uint8_t *back, uint8_t *fwd)                                 \
    {                                                                                    \
        int r = k / 2, padded = height + 2 * r;                                          \
        for (int j = padded - 1; j >= 0; j--) {                                          \
            int y = j - r;                                                               \
            uint8_t *b = back + (size_t)j * width;                                       \
            int block_end = (j % k == k - 1) || j == padded - 1;                         \
            if (y < 0 || y >= height) {                                                  \
                if (block_end)                                                           \
                    memset(b, IDENT, (size_t)width);                                     \
                else                                                                     \
                    memcpy(b, b + width, (size_t)width);                                 \
            } else {                                                                     \
                const uint8_t *s = img + (size_t)y * stride;                             \
                if (block_end) {                                                         \
                    memcpy(b, s, (size_t)width);                                         \
                } else {                                                                 \
                    const uint8_t *nb = b + width;                                       \
                    _Pragma("omp simd") for (int x = 0; x < width; x++) b[x] =           \
                        OP(s[x], nb[x]);                                                 \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        /* Forward pass: reading row j-r while writing row j-2r, so in place is safe. */ \
        for (int j = 0; j < padded; j++) {                                               \
            int y = j - r;                                                               \
            int block_start = j % k == 0;                                                \
            if (y < 0 || y >= height) {                                                  \
                if (block_start)                                                         \
                    memset(fwd, IDENT, (size_t)width);                                   \
            } else {                                                                     \
                const uint8_t *s = img + (size_t)y * stride;                             \
                if (block_start) {                                                       \
                    memcpy(fwd, s, (size_t)width);                                       \
                } else {                                                                 \
                    _Pragma("omp simd") for (int x = 0; x < width; x++) fwd[x] =         \
                        OP(fwd[x], s[x]);                                                \
                }                                                                        \
            }                                                                            \
            int out = j - (k - 1);                                                       \
            if (out >= 0) {                                                              \
                uint8_t *d = img + (size_t)out * stride;                                 \
                const uint8_t *b = back + (size_t)out * width;                           \
                _Pragma("omp simd") for (int x = 0; x < width; x++) d[x] =               \
                    OP(b[x], fwd[x]);                                                    \
            }                                                                            \
        }                                                                                \
    }

MORPH_PASSES(erode, MIN_U8, 255)
MORPH_PASSES(dilate, MAX_U8, 0)

typedef struct {
    uint8_t *line, *line_back, *line_fwd, *col_back, *col_fwd;
} morph_scratch;

static morph_scratch split_scratch(void *scratch, int width, int height, int k)
{
    int r = k / 2;
    morph_scratch m;
    uint8_t *p = scratch;
    m.line = p;
    m.line_back = p + width + 2 * r;
    m.line_fwd = m.line_back + width + 2 * r;
    m.col_fwd = m.line_fwd + width + 2 * r;
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
    erode_rows(src, src_stride, dst, dst_stride, width, height, k, m.line, m.line_back, m.line_fwd);
    erode_cols(dst, dst_stride, width, height, k, m.col_back, m.col_fwd);
}

void pt_dilate(const uint8_t *src, int src_stride, uint8_t *dst, int dst_stride,
               int width, int height, int k, void *scratch)
{
    if (k < 1)
        k = 1;
    morph_scratch m = split_scratch(scratch, width, height, k);
    dilate_rows(src, src_stride, dst, dst_stride, width, height, k, m.line, m.line_back, m.line_fwd);
    dilate_cols(dst, dst_stride, width, height, k, m.col_back, m.col_fwd);
}
