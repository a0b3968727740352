/* PT_HD marks functions compiled for both the CPU and CUDA device code:
 * shared maths (fits, RANSAC scoring) is written once and used by both back ends. */
#ifndef PT_HD_H
#define PT_HD_H
#ifdef __CUDACC__
#define PT_HD __host__ __device__
#else
#define PT_HD
#endif

/* PT_DEV_NOINLINE keeps a large shared function one call in device code (the
 * host build inlines as usual). For the long float64 chains that a kernel
 * reaches from several places (the ellipse fit's solve, the ellipse
 * distance): one copy of the instructions instead of one per call site, so
 * the second call finds them in the instruction cache. */
#ifdef __CUDA_ARCH__
#define PT_DEV_NOINLINE __noinline__
#else
#define PT_DEV_NOINLINE
#endif
#endif
