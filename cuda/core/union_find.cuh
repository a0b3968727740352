/* Lock-free union-find over a label array (global or shared memory), shared
 * by the Canny hysteresis (cuda/detect/canny.cu) and the tl labeling
 * (cuda/detect/tl_label.cu).
 *
 * A label is its own parent at a root. Unions always hang the larger root
 * under the smaller (atomicMin), so a component's root is its smallest
 * index: its first pixel in raster order. */
#ifndef PT_CUDA_UNION_FIND_CUH
#define PT_CUDA_UNION_FIND_CUH

#include <stdint.h>

/* Root of i: follow parents until a label is its own parent. The reads are
 * volatile: other threads move roots while we walk. */
static __device__ __forceinline__ int32_t pt_uf_find(const volatile int32_t *label, int32_t i)
{
    int32_t parent = label[i];
    while (parent != i) {
        i = parent;
        parent = label[i];
    }
    return i;
}

/* Join the trees of a and b: the larger root goes under the smaller; when
 * another thread moved that root first, try again from where it went. */
static __device__ void pt_uf_unite(int32_t *label, int32_t a, int32_t b)
{
    const volatile int32_t *vl = label;
    for (;;) {
        a = pt_uf_find(vl, a);
        b = pt_uf_find(vl, b);
        if (a == b)
            return;
        if (a > b) {
            int32_t c = a;
            a = b;
            b = c;
        }
        int32_t old = atomicMin(&label[b], a);
        if (old == b)
            return;
        b = old;
    }
}

#endif
