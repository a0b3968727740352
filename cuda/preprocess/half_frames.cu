/* Frames reduced to half size on the device, for the second look at half
 * resolution (pupiltrack(1), half_retry): the 2x2 means of
 * pt_image_halve (lib/detect/half_retry.c), byte for byte, from a chunk's
 * copy already on the device; frames gathered from device memory into a
 * chunk's planes; and small host tables read by a kernel from mapped
 * page-locked memory, so that none of them waits behind the copy engine's
 * queue of frames. */
#include "cuda/preprocess/half_frames.h"

#define HALVE_THREADS 128
#define HALVE_PIXELS 4 /* output pixels per thread */

static __device__ __forceinline__ unsigned mean4(unsigned a0, unsigned a1, unsigned b0, unsigned b1)
{
    return (a0 + a1 + b0 + b1 + 2) >> 2;
}

/* blockIdx.z: frame; blockIdx.y: output row; x: HALVE_PIXELS outputs a thread. */
static __global__ void halve_kernel(const uint8_t *__restrict__ src, int src_pitch, size_t src_plane,
                             int half_w, uint8_t *__restrict__ dst, int dst_pitch,
                             size_t dst_plane)
{
    int y = blockIdx.y, f = blockIdx.z;
    int x = (blockIdx.x * HALVE_THREADS + threadIdx.x) * HALVE_PIXELS;
    if (x >= half_w)
        return;
    const uint8_t *a = src + f * src_plane + (size_t)(2 * y) * src_pitch;
    const uint8_t *b = a + src_pitch;
    uint8_t *o = dst + f * dst_plane + (size_t)y * dst_pitch;
    if (x + HALVE_PIXELS <= half_w) {
        /* 8 source bytes a row: 2x is a multiple of 8, the pitch of 128 */
        uint2 ra = *(const uint2 *)(a + 2 * x), rb = *(const uint2 *)(b + 2 * x);
        unsigned out = 0;
        for (int k = 0; k < HALVE_PIXELS; k++) {
            unsigned wa = k < 2 ? ra.x : ra.y, wb = k < 2 ? rb.x : rb.y;
            int s = (k & 1) * 16;
            unsigned m = mean4((wa >> s) & 255, (wa >> (s + 8)) & 255, (wb >> s) & 255,
                               (wb >> (s + 8)) & 255);
            out |= m << (8 * k);
        }
        *(unsigned *)(o + x) = out; /* x and the pitch are multiples of 4 */
        return;
    }
    for (; x < half_w; x++)
        o[x] = (uint8_t)mean4(a[2 * x], a[2 * x + 1], b[2 * x], b[2 * x + 1]);
}

cudaError_t pt_cuda_halve_frames(const uint8_t *src, int src_pitch, size_t src_plane, int frames,
                                 int width, int height, uint8_t *dst, int dst_pitch,
                                 size_t dst_plane, cudaStream_t stream)
{
    int half_w = width / 2, half_h = height / 2;
    if (frames < 1 || half_w < 1 || half_h < 1)
        return cudaSuccess;
    int per_block = HALVE_THREADS * HALVE_PIXELS;
    dim3 grid((unsigned)((half_w + per_block - 1) / per_block), (unsigned)half_h,
              (unsigned)frames);
    halve_kernel<<<grid, HALVE_THREADS, 0, stream>>>(src, src_pitch, src_plane, half_w, dst,
                                                     dst_pitch, dst_plane);
    return cudaGetLastError();
}

#define GATHER_THREADS 128

/* blockIdx.z: frame; blockIdx.y: row; words of 4 bytes, the row's tail bytewise. */
static __global__ void gather_kernel(pt_cuda_frame_sources src, int src_pitch, int width,
                              uint8_t *__restrict__ dst, int dst_pitch, size_t dst_plane)
{
    int y = blockIdx.y, f = blockIdx.z;
    const uint8_t *s = src.frame[f] + (size_t)y * src_pitch;
    uint8_t *d = dst + f * dst_plane + (size_t)y * dst_pitch;
    int words = width / 4;
    for (int k = blockIdx.x * GATHER_THREADS + threadIdx.x; k < words;
         k += gridDim.x * GATHER_THREADS)
        ((unsigned *)d)[k] = ((const unsigned *)s)[k];
    if (blockIdx.x == 0 && threadIdx.x < (unsigned)(width - 4 * words))
        d[4 * words + threadIdx.x] = s[4 * words + threadIdx.x];
}

cudaError_t pt_cuda_gather_frames(const pt_cuda_frame_sources *src, int frames, int src_pitch,
                                  int width, int height, uint8_t *dst, int dst_pitch,
                                  size_t dst_plane, cudaStream_t stream)
{
    if (frames < 1 || frames > PT_CUDA_GATHER_MAX || width < 1 || height < 1)
        return frames > PT_CUDA_GATHER_MAX ? cudaErrorInvalidValue : cudaSuccess;
    int words = width / 4;
    int blocks = (words + GATHER_THREADS - 1) / GATHER_THREADS;
    dim3 grid((unsigned)(blocks > 0 ? blocks : 1), (unsigned)height, (unsigned)frames);
    gather_kernel<<<grid, GATHER_THREADS, 0, stream>>>(*src, src_pitch, width, dst, dst_pitch,
                                                      dst_plane);
    return cudaGetLastError();
}

static __global__ void fetch_kernel(const unsigned *__restrict__ src, unsigned *__restrict__ dst,
                             size_t words)
{
    for (size_t k = blockIdx.x * blockDim.x + threadIdx.x; k < words;
         k += (size_t)gridDim.x * blockDim.x)
        dst[k] = src[k];
}

cudaError_t pt_cuda_fetch_mapped(void *dst, const void *mapped_src, size_t bytes,
                                 cudaStream_t stream)
{
    size_t words = bytes / 4;
    if (words * 4 != bytes)
        return cudaErrorInvalidValue;
    if (!words)
        return cudaSuccess;
    unsigned blocks = (unsigned)((words + 255) / 256);
    fetch_kernel<<<blocks < 64 ? blocks : 64, 256, 0, stream>>>((const unsigned *)mapped_src,
                                                                 (unsigned *)dst, words);
    return cudaGetLastError();
}
