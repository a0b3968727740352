/* CUDA contours entry points when pupiltrack is built without CUDA: an honest
 * PT_ERR_UNAVAILABLE (exit 3 in the CLI), never a fallback. */
#include <string.h>

#include "cuda/contours/pt_cuda_contours.h"

pt_status pt_cuda_contours_create(pt_cuda_contours **ctx, pt_error *err)
{
    *ctx = NULL;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}

void pt_cuda_contours_destroy(pt_cuda_contours *ctx) { (void)ctx; }

pt_status pt_cuda_contours_find(pt_cuda_contours *ctx, const pt_image *img, int threshold,
                                int mode, int approx, int tile, int threads,
                                pt_contours *out, pt_error *err)
{
    (void)ctx, (void)img, (void)threshold, (void)mode, (void)approx, (void)tile,
        (void)threads, (void)out;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "built without CUDA");
}

void pt_cuda_contours_last_times(const pt_cuda_contours *ctx, pt_cuda_contours_times *t)
{
    (void)ctx;
    memset(t, 0, sizeof *t);
}
