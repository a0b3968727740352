#include "lib/params/params_auto.h"

#include <math.h>

static int odd_at_least(double v, int lo)
{
    int k = (int)lround(v);
    if (k < lo)
        k = lo;
    return k | 1;
}

void pt_resolve_auto(const pt_config *cfg, int roi_width, int roi_height,
                     pt_auto_params *out)
{
    int side = roi_width < roi_height ? roi_width : roi_height;
    if (side < 1)
        side = 1;

    out->min_radius = cfg->pre.min_radius > 0 ? cfg->pre.min_radius
                                              : (int)fmax(3.0, lround(0.02 * side));
    out->max_radius = cfg->pre.max_radius > 0 ? cfg->pre.max_radius
                                              : (int)fmax(8.0, lround(0.4 * side));
    if (out->max_radius < out->min_radius)
        out->max_radius = out->min_radius;

    out->reflection_kernel = cfg->pre.reflection_kernel > 0
                                 ? cfg->pre.reflection_kernel | 1
                                 : odd_at_least(0.055 * side, 9);
    out->reflection_dilate = cfg->pre.reflection_dilate > 0
                                 ? cfg->pre.reflection_dilate | 1
                                 : odd_at_least(out->reflection_kernel / 4.0, 3);
    out->ray_length = pt_auto_ray_length(cfg, out->max_radius);
}

int pt_auto_ray_length(const pt_config *cfg, int max_radius)
{
    return cfg->starburst.ray_length > 0 ? cfg->starburst.ray_length
                                         : (int)ceil(1.5 * max_radius);
}

int pt_auto_edge_gap(int roi_width, int roi_height)
{
    int side = roi_width < roi_height ? roi_width : roi_height;
    int gap = (side + 128) / 256;
    return gap < 1 ? 1 : gap;
}
