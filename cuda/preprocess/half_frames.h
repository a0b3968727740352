/* Frames reduced to half size and gathered on the device (half_frames.cu). */
#ifndef PT_CUDA_HALF_FRAMES_H
#define PT_CUDA_HALF_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

/* Frames of one gather: as many as a chunk holds at most. */
#define PT_CUDA_GATHER_MAX 64

/* Where each frame of a gather lies on the device (a kernel argument). */
typedef struct {
    const uint8_t *frame[PT_CUDA_GATHER_MAX];
} pt_cuda_frame_sources;

/* frames planes of width x height at src (pitch a multiple of 8, planes
 * src_plane apart) reduced to (width/2) x (height/2), each output pixel
 * (a + b + c + d + 2) >> 2 of its 2x2 block as pt_image_halve, into planes
 * dst_plane apart at dst (pitch and plane multiples of 4). */
cudaError_t pt_cuda_halve_frames(const uint8_t *src, int src_pitch, size_t src_plane, int frames,
                                 int width, int height, uint8_t *dst, int dst_pitch,
                                 size_t dst_plane, cudaStream_t stream);

/* frames (at most PT_CUDA_GATHER_MAX) of width x height from device memory
 * (rows src_pitch apart, a multiple of 4) into consecutive planes at dst. */
cudaError_t pt_cuda_gather_frames(const pt_cuda_frame_sources *src, int frames, int src_pitch,
                                  int width, int height, uint8_t *dst, int dst_pitch,
                                  size_t dst_plane, cudaStream_t stream);

/* bytes (a multiple of 4) from mapped page-locked host memory to dst, by a
 * kernel: it reads across the bus instead of queueing on the copy engine. */
cudaError_t pt_cuda_fetch_mapped(void *dst, const void *mapped_src, size_t bytes,
                                 cudaStream_t stream);

#endif
