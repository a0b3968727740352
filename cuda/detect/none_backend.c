/* The CUDA back end's entry when pupiltrack is built without CUDA (CUDA=0 or no
 * nvcc): selecting it reports that plainly (exit 3), never falls back. */
#include "lib/detect/pt_backend.h"

static pt_status cuda_unavailable(const pt_config *cfg, const pt_track_options *opt,
                                  int width, int height, void **state, pt_error *err)
{
    (void)cfg, (void)opt, (void)width, (void)height;
    *state = NULL;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}

static pt_status cuda_track_none(void *state, pt_image *const *frames, int n,
                                 pt_result *results, pt_overlay *overlays, pt_error *err)
{
    (void)state, (void)frames, (void)n, (void)results, (void)overlays;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda", "built without CUDA");
}

static void cuda_destroy_none(void *state) { (void)state; }

const pt_backend pt_backend_cuda = {.name = "cuda",
                                    .create = cuda_unavailable,
                                    .track = cuda_track_none,
                                    .destroy = cuda_destroy_none,
                                    .gpu_options = 1};

#include "cuda/core/pt_cuda.h"

pt_status pt_cuda_available(pt_error *err)
{
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "-b cuda",
                        "this pupiltrack was built without CUDA (rebuild with 'make CUDA=1')");
}

pt_status pt_cuda_preprocess_image(const pt_preprocess_params *pre, int kernel, int dilate,
                                   const pt_image *src, int copies, pt_image *smoothed,
                                   uint8_t *mask, int mask_stride, pt_error *err)
{
    (void)pre, (void)kernel, (void)dilate, (void)src, (void)copies, (void)smoothed, (void)mask,
        (void)mask_stride;
    return pt_cuda_available(err);
}
