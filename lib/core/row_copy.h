/* Copies of image rows into memory that no one on this core reads next (a
 * GPU back end's pinned staging buffer, which the device reads by DMA). */
#ifndef PT_ROW_COPY_H
#define PT_ROW_COPY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* rows rows of width bytes from src (stride src_stride) to dst (stride
 * dst_pitch), the same bytes as a memcpy per row. On x86-64 the stores are
 * non-temporal: they go to memory without first reading each destination
 * line into the cache, so a copy moves two bytes of memory traffic per byte
 * instead of three, and evicts nothing; the stores are fenced before the
 * function returns, so another thread or a device may read dst once the
 * caller has synchronised with this one. Elsewhere: memcpy. */
void pt_copy_rows_streaming(uint8_t *dst, size_t dst_pitch, const uint8_t *src,
                            size_t src_stride, size_t width, size_t rows);

#ifdef __cplusplus
}
#endif

#endif
