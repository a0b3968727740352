/* Streaming row copies (lib/core/row_copy.h): the same bytes as a memcpy per
 * row, whatever the alignments, widths and strides, and nothing written
 * outside the rows. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/row_copy.h"
#include "tests/pt_test.h"

#define GUARD 0xA5

/* Copies rows x width from src + src_off (stride src_stride) to dst + dst_off
 * (stride dst_pitch) and compares with the reference copy, the bytes between
 * and around the rows included. */
static void check_copy(size_t width, size_t rows, size_t src_stride, size_t dst_pitch,
                       size_t src_off, size_t dst_off)
{
    size_t src_bytes = src_off + rows * src_stride + 64;
    size_t dst_bytes = dst_off + rows * dst_pitch + 64;
    uint8_t *src = aligned_alloc(64, (src_bytes + 63) & ~(size_t)63);
    uint8_t *got = aligned_alloc(64, (dst_bytes + 63) & ~(size_t)63);
    uint8_t *want = malloc(dst_bytes);
    if (!src || !got || !want) {
        PT_CHECK(0, "out of memory");
        free(src);
        free(got);
        free(want);
        return;
    }
    uint32_t seed = (uint32_t)(width * 131 + rows * 7 + src_off * 3 + dst_off);
    for (size_t i = 0; i < src_bytes; i++) {
        seed = seed * 1664525u + 1013904223u;
        src[i] = (uint8_t)(seed >> 24);
    }
    memset(got, GUARD, dst_bytes);
    memset(want, GUARD, dst_bytes);
    for (size_t y = 0; y < rows; y++)
        memcpy(want + dst_off + y * dst_pitch, src + src_off + y * src_stride, width);
    pt_copy_rows_streaming(got + dst_off, dst_pitch, src + src_off, src_stride, width, rows);
    PT_CHECK(memcmp(got, want, dst_bytes) == 0,
             "width %zu, %zu rows, strides %zu/%zu, offsets %zu/%zu: bytes differ", width, rows,
             src_stride, dst_pitch, src_off, dst_off);
    free(src);
    free(got);
    free(want);
}

int main(void)
{
    /* every width from 0 to 200 (the 64- and 16-byte steps and their
     * tails), each misalignment of either side */
    for (size_t width = 0; width <= 200; width++)
        for (size_t off = 0; off < 17; off += 4)
            check_copy(width, 3, width + 5, width + 11, off, (off * 5) % 17);
    /* rows that follow each other on both sides (one run of bytes) */
    check_copy(1280, 16, 1280, 1280, 0, 0);
    check_copy(1280, 16, 1280, 1280, 3, 0);
    check_copy(1280, 16, 1280, 1280, 0, 9);
    /* rows that follow each other on one side only */
    check_copy(640, 8, 700, 640, 0, 0);
    check_copy(640, 8, 640, 704, 0, 0);
    /* a frame into a staging buffer of wider pitch, and a narrower one */
    check_copy(1279, 33, 1279, 1280, 0, 0);
    check_copy(640, 24, 1280, 768, 1, 0);
    /* one row, and none */
    check_copy(1000, 1, 1000, 1000, 0, 0);
    check_copy(64, 0, 64, 64, 0, 0);
    return PT_TEST_SUMMARY("test_row_copy");
}
