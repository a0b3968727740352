#include "lib/detect/starburst_config.h"

#include <math.h>

void pt_sb_config_resolve(const pt_config *cfg, pt_sb_config *out)
{
    const pt_starburst_params *sb = &cfg->starburst;
    out->threshold = sb->edge_threshold;
    out->gap = sb->edge_gap > 0 ? sb->edge_gap : 0;
    /* A blurred border spreads over about +-1.5 sigma: a rise measured over a
     * shorter gap sees only part of the step and misses low-contrast pupils. */
    out->gap_min = 1;
    if (cfg->pre.smooth == PT_SMOOTH_GAUSSIAN && (cfg->pre.smooth_size | 1) > 1)
        out->gap_min = (int)ceil(1.5 * cfg->pre.smooth_sigma);
    else if (cfg->pre.smooth == PT_SMOOTH_MEDIAN)
        out->gap_min = (cfg->pre.smooth_size | 1) / 2;
    if (out->gap_min < 1)
        out->gap_min = 1;
    out->edge_level = sb->edge_level > 0 && sb->edge_level <= 1 ? sb->edge_level : 1.0;
    out->circle_tol = sb->circle_tolerance > 0 ? sb->circle_tolerance : 0.0;
    out->inlier = cfg->pre.ransac_inlier;
    out->max_step = sb->glint_step > 0 ? sb->glint_step : 0.0;
    out->edge_offset = sb->edge_offset;
    out->edge_fraction = sb->edge_fraction > 0 && sb->edge_fraction < 1 ? sb->edge_fraction : 0.0;
    out->size_fraction = sb->size_fraction > 0 && sb->size_fraction < 1 ? sb->size_fraction : 0.0;
    out->contrast = sb->edge_contrast > 0 ? sb->edge_contrast : 0.0;
    out->circle_refit = sb->circle_refit;
    out->circle_votes = sb->circle_votes;
    out->ellipse_fit = sb->ellipse_fit;
    out->flat_edges = sb->flat_edges;
    out->flat_band = sb->flat_band > 0 ? sb->flat_band : 1.0;
    out->vote_cos = sb->vote_angle > 0 && sb->vote_angle < 90
                        ? cos(sb->vote_angle * 3.14159265358979323846 / 180.0)
                        : -2.0;
    out->inner_pass = sb->inner_pass;
    out->edge_peak = sb->edge_peak;
    out->fit_choice = sb->fit_choice;
    out->stall = sb->converge_stall > 0 ? sb->converge_stall : 0;
}

void pt_sb_config_mode(pt_sb_config *k, int ellipse)
{
    if (ellipse && !pt_sb_fits_ellipse(k, ellipse))
        k->circle_refit = PT_SB_REFIT_ELLIPSE;
}
