/* CUDA border tracking as a back-end table for contours (-b cuda), built
 * with or without CUDA: without it, pt_cuda_contours_create says so
 * (cuda/contours/none_contours.c). */
#include "cuda/contours/pt_cuda_contours.h"

static pt_status backend_open(void **state, pt_error *err)
{
    return pt_cuda_contours_create((pt_cuda_contours **)state, err);
}

static void backend_close(void *state) { pt_cuda_contours_destroy((pt_cuda_contours *)state); }

static pt_status backend_find(void *state, const pt_image *img, int threshold, int mode,
                              int approx, int threads, int tile, pt_contours *out,
                              pt_contours_times *times, pt_error *err)
{
    pt_status st = pt_cuda_contours_find((pt_cuda_contours *)state, img, threshold, mode, approx,
                                         tile, threads, out, err);
    if (!st && times)
        pt_cuda_contours_last_times((const pt_cuda_contours *)state, times);
    return st;
}

const pt_contours_backend pt_contours_cuda = {backend_open, backend_close, backend_find};
