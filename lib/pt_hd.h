/* PT_HD marks functions compiled for both the CPU and CUDA device code:
 * shared maths (fits, RANSAC scoring) is written once and used by both back ends. */
#ifndef PT_HD_H
#define PT_HD_H
#ifdef __CUDACC__
#define PT_HD __host__ __device__
#else
#define PT_HD
#endif
#endif
