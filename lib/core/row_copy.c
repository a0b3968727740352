/* Row copies with non-temporal stores (row_copy.h). */
#include <string.h>

#include "lib/core/row_copy.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>

/* One row: bytes up to dst's first 16-byte boundary by memcpy, then 64 bytes
 * a step (four unaligned loads, four streaming stores), the rest by memcpy. */
static void copy_row(uint8_t *dst, const uint8_t *src, size_t width)
{
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    if (head > width)
        head = width;
    memcpy(dst, src, head);
    size_t x = head;
    for (; x + 64 <= width; x += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(src + x));
        __m128i b = _mm_loadu_si128((const __m128i *)(src + x + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + x + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(src + x + 48));
        _mm_stream_si128((__m128i *)(dst + x), a);
        _mm_stream_si128((__m128i *)(dst + x + 16), b);
        _mm_stream_si128((__m128i *)(dst + x + 32), c);
        _mm_stream_si128((__m128i *)(dst + x + 48), d);
    }
    for (; x + 16 <= width; x += 16)
        _mm_stream_si128((__m128i *)(dst + x), _mm_loadu_si128((const __m128i *)(src + x)));
    memcpy(dst + x, src + x, width - x);
}

void pt_copy_rows_streaming(uint8_t *dst, size_t dst_pitch, const uint8_t *src,
                            size_t src_stride, size_t width, size_t rows)
{
    /* rows that follow each other on both sides are one run of bytes */
    if (rows > 1 && dst_pitch == width && src_stride == width) {
        width *= rows;
        rows = 1;
    }
    for (size_t y = 0; y < rows; y++)
        copy_row(dst + y * dst_pitch, src + y * src_stride, width);
    _mm_sfence();
}

#else

void pt_copy_rows_streaming(uint8_t *dst, size_t dst_pitch, const uint8_t *src,
                            size_t src_stride, size_t width, size_t rows)
{
    for (size_t y = 0; y < rows; y++)
        memcpy(dst + y * dst_pitch, src + y * src_stride, width);
}

#endif
