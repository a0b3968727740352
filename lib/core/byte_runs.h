/* Runs of set (non-zero) bytes in a row of a mask, found 8 bytes at a time
 * over the bytes that cannot end the search (header-only). */
#ifndef PT_BYTE_RUNS_H
#define PT_BYTE_RUNS_H

#include <stdint.h>
#include <string.h>

/* Whether any of the 8 bytes of v is zero. */
static inline int pt_has_zero_byte(uint64_t v)
{
    return ((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull) != 0;
}

/* First set byte of m[0..w) at or after x (w if none). */
static inline int pt_next_set(const uint8_t *m, int x, int w)
{
    while (x + 8 <= w) {
        uint64_t v;
        memcpy(&v, m + x, sizeof v);
        if (v)
            break;
        x += 8;
    }
    while (x < w && !m[x])
        x++;
    return x;
}

/* First clear byte of m[0..w) at or after x (w if none). */
static inline int pt_next_clear(const uint8_t *m, int x, int w)
{
    while (x + 8 <= w) {
        uint64_t v;
        memcpy(&v, m + x, sizeof v);
        if (pt_has_zero_byte(v))
            break;
        x += 8;
    }
    while (x < w && m[x])
        x++;
    return x;
}

#endif
