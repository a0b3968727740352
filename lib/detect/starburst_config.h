/* Host-side resolution of Starburst's per-run settings into the plain struct
 * both back ends use (lib/detect/starburst_ray.h's pt_sb_config). */
#ifndef PT_STARBURST_CONFIG_H
#define PT_STARBURST_CONFIG_H

#include "lib/params/pt_params.h"
#include "lib/detect/starburst_ray.h"

#ifdef __cplusplus
extern "C" {
#endif

void pt_sb_config_resolve(const pt_config *cfg, pt_sb_config *out);

/* The settings for --ellipse (ellipse != 0) or circle mode: --ellipse with
 * ellipse_fit=circle refines its RANSAC circle into an ellipse whatever
 * circle_refit says. Call after pt_sb_config_resolve. */
void pt_sb_config_mode(pt_sb_config *k, int ellipse);

#ifdef __cplusplus
}
#endif

#endif
