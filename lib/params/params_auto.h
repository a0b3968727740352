/* Parameters whose value 0 means "auto": resolved from the size of the eye's
 * region so defaults work from 128x128 crops to 1280x1024 frames. Shared by
 * the OpenMP and CUDA back ends so both resolve identically. */
#ifndef PT_PARAMS_AUTO_H
#define PT_PARAMS_AUTO_H

#include "lib/params/pt_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int min_radius, max_radius; /* pupil radius range searched, px */
    int reflection_kernel;      /* top-hat square side, odd */
    int reflection_dilate;      /* reflection-mask dilation square side, odd */
    int ray_length;             /* starburst first-stage ray length, px */
} pt_auto_params;

/* Explicit (non-zero) parameters are kept (kernel sides forced odd); zeros are
 * scaled from roi_width x roi_height, with 1280x1024 as the seed paper's reference. */
void pt_resolve_auto(const pt_config *cfg, int roi_width, int roi_height,
                     pt_auto_params *out);
/* The first-stage ray length for a given (resolved) max radius. */
int pt_auto_ray_length(const pt_config *cfg, int max_radius);
/* Half-distance of Starburst's intensity difference along a ray: 1 px up to
 * 384 px regions, growing with the region's short side (4 at 1280x1024), so
 * a blurred edge gives the same step on small crops and large frames. */
int pt_auto_edge_gap(int roi_width, int roi_height);

#ifdef __cplusplus
}
#endif

#endif
