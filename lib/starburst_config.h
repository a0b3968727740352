/* Host-side resolution of Starburst's per-run settings into the plain struct
 * both back ends use (lib/starburst_ray.h's pt_sb_config). */
#ifndef PT_STARBURST_CONFIG_H
#define PT_STARBURST_CONFIG_H

#include "pt_params.h"
#include "starburst_ray.h"

#ifdef __cplusplus
extern "C" {
#endif

void pt_sb_config_resolve(const pt_config *cfg, pt_sb_config *out);

#ifdef __cplusplus
}
#endif

#endif
