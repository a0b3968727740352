/* Preprocessing on the GPU, stage for stage the same arithmetic as
 * omp/preprocess.c so both back ends see identical smoothed frames: square
 * grey erosion/dilation as row then column passes (pixels outside the image
 * ignored), top-hat threshold, mask dilation, inverse-distance reflection
 * fill, separable integer Gaussian (15-bit weights, 8 fractional bits between
 * passes) or exact median. One launch covers every frame of a chunk
 * (blockIdx.z = frame). */
#include "cuda_internal.h"

#define TILE_X 32
#define TILE_Y 8

template <bool MAX_OP, bool VERTICAL>
__global__ void morph_pass(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst,
                           const pt_cuda_frame_dims *dims, int pitch, size_t plane, int r)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *s = src + f * plane;
    int lo, hi;
    if (VERTICAL) {
        lo = max(y - r, 0);
        hi = min(y + r, h - 1);
    } else {
        lo = max(x - r, 0);
        hi = min(x + r, w - 1);
    }
    int v = MAX_OP ? 0 : 255;
    for (int i = lo; i <= hi; i++) {
        int p = VERTICAL ? s[(size_t)i * pitch + x] : s[(size_t)y * pitch + i];
        v = MAX_OP ? max(v, p) : min(v, p);
    }
    dst[f * plane + (size_t)y * pitch + x] = (uint8_t)v;
}

/* mask = (image - opening) > threshold */
__global__ void tophat_mask(const uint8_t *__restrict__ raw, const uint8_t *__restrict__ opened,
                            uint8_t *__restrict__ mask, const pt_cuda_frame_dims *dims,
                            int pitch, size_t plane, int threshold)
{
    int f = blockIdx.z;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dims[f].width || y >= dims[f].height)
        return;
    size_t i = f * plane + (size_t)y * pitch + x;
    mask[i] = (int)raw[i] - (int)opened[i] > threshold;
}

/* The nearest unmasked pixel from (x,y) stepping (dx,dy), at most max_search. */
__device__ int nearest_unmasked(const uint8_t *img, const uint8_t *mask, int pitch, int w,
                                int h, int x, int y, int dx, int dy, int max_search, int *value)
{
    for (int d = 1; d <= max_search; d++) {
        int xx = x + d * dx, yy = y + d * dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h)
            return 0;
        if (!mask[(size_t)yy * pitch + xx]) {
            *value = img[(size_t)yy * pitch + xx];
            return d;
        }
    }
    return 0;
}

__global__ void reflection_fill(const uint8_t *__restrict__ raw, const uint8_t *__restrict__ mask,
                                uint8_t *__restrict__ out, const pt_cuda_frame_dims *dims,
                                int pitch, size_t plane, int max_search)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *img = raw + f * plane, *m = mask + f * plane;
    size_t i = (size_t)y * pitch + x;
    uint8_t v = img[i];
    if (m[i]) {
        const int dirs[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        double sum = 0, weight = 0;
        for (int k = 0; k < 4; k++) {
            int value;
            int d = nearest_unmasked(img, m, pitch, w, h, x, y, dirs[k][0], dirs[k][1],
                                     max_search, &value);
            if (d) {
                sum += value / (double)d;
                weight += 1.0 / d;
            }
        }
        if (weight > 0)
            v = (uint8_t)(sum / weight + 0.5);
    }
    out[f * plane + i] = v;
}

/* Gaussian row pass: borders replicated, 15-bit weights, 8 fractional bits kept. */
__global__ void gaussian_rows(const uint8_t *__restrict__ src, uint16_t *__restrict__ rows,
                              const pt_cuda_frame_dims *dims, int pitch, size_t plane, int size,
                              pt_cuda_params p)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint8_t *s = src + f * plane + (size_t)y * pitch;
    int r = size / 2;
    uint32_t acc = p.gauss_weights[r] * (uint32_t)s[x];
    for (int i = 0; i < r; i++) {
        int left = s[min(max(x - r + i, 0), w - 1)];
        int right = s[min(max(x + r - i, 0), w - 1)];
        acc += p.gauss_weights[i] * (uint32_t)(left + right);
    }
    rows[f * plane + (size_t)y * pitch + x] = (uint16_t)((acc + 64u) >> 7);
}

__global__ void gaussian_cols(const uint16_t *__restrict__ rows, uint8_t *__restrict__ dst,
                              const pt_cuda_frame_dims *dims, int pitch, size_t plane, int size,
                              pt_cuda_params p)
{
    int f = blockIdx.z;
    int w = dims[f].width, h = dims[f].height;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    const uint16_t *s = rows + f * plane;
    int r = size / 2;
    uint32_t acc = 0;
    for (int i = 0; i < size; i++) {
        int yy = min(max(y + i - r, 0), h - 1);
        acc += p.gauss_weights[i] * (uint32_t)s[(size_t)yy * pitch + x];
    }
    dst[f * plane + (size_t)y * pitch + x] = (uint8_t)((acc + (1u << 22)) >> 23);
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
    if (p->reflection != PT_REFLECTION_OFF) {
        int r = reflection_kernel / 2;
        morph_pass<false, false><<<grid, block, 0, stream>>>(b->raw, b->work_a, b->dims, pitch, plane, r);
        morph_pass<false, true><<<grid, block, 0, stream>>>(b->work_a, b->work_b, b->dims, pitch, plane, r);
        morph_pass<true, false><<<grid, block, 0, stream>>>(b->work_b, b->work_a, b->dims, pitch, plane, r);
        morph_pass<true, true><<<grid, block, 0, stream>>>(b->work_a, b->work_b, b->dims, pitch, plane, r);
        if (reflection_dilate > 1) {
            tophat_mask<<<grid, block, 0, stream>>>(b->raw, b->work_b, b->work_a, b->dims, pitch,
                                                    plane, p->reflection_threshold);
            int rd = reflection_dilate / 2;
            morph_pass<true, false><<<grid, block, 0, stream>>>(b->work_a, b->work_b, b->dims, pitch, plane, rd);
            morph_pass<true, true><<<grid, block, 0, stream>>>(b->work_b, b->mask, b->dims, pitch, plane, rd);
        } else {
            tophat_mask<<<grid, block, 0, stream>>>(b->raw, b->work_b, b->mask, b->dims, pitch,
                                                    plane, p->reflection_threshold);
        }
        if (p->reflection == PT_REFLECTION_INTERPOLATE) {
            reflection_fill<<<grid, block, 0, stream>>>(b->raw, b->mask, b->filled, b->dims, pitch,
                                                         plane, reflection_kernel + reflection_dilate);
            to_smooth = b->filled;
        }
    }
    int size = p->smooth_size | 1;
    if (p->smooth == PT_SMOOTH_GAUSSIAN && size > 1) {
        gaussian_rows<<<grid, block, 0, stream>>>(to_smooth, b->rows16, b->dims, pitch, plane, size, *p);
        gaussian_cols<<<grid, block, 0, stream>>>(b->rows16, b->smoothed, b->dims, pitch, plane, size, *p);
    } else if (p->smooth == PT_SMOOTH_MEDIAN && size > 1) {
        median_filter<<<grid, block, 0, stream>>>(to_smooth, b->smoothed, b->dims, pitch, plane, size);
    } else {
        copy_plane<<<grid, block, 0, stream>>>(to_smooth, b->smoothed, b->dims, pitch, plane);
    }
    return cudaGetLastError();
}
