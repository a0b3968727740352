/* Named presets: a list of parameter values applied over the defaults.
 * "paper" runs each detector as Mompeán et al. (2018) describe it, wherever
 * pupiltrack has the switch; the man page's PRESETS section gives the reason
 * for each value. "default" is the defaults themselves. */
#ifndef PT_PARAMS_PRESET_H
#define PT_PARAMS_PRESET_H

#include "lib/params/pt_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *key;     /* a registry name (pupiltrack params) */
    const char *value;   /* as -p takes it */
    unsigned algorithms; /* the detectors it is chosen for (pt_algorithm bits) */
} pt_preset_value;

typedef struct {
    const char *name;
    const char *help; /* one line */
    const pt_preset_value *values;
    int count;
} pt_preset;

/* NULL when unknown. */
const pt_preset *pt_preset_find(const char *name);
/* "default|paper": the names for a usage message. */
const char *pt_preset_names(void);
/* Set every value of the preset on cfg (over whatever cfg holds). */
pt_status pt_config_apply_preset(pt_config *cfg, const pt_preset *preset, pt_error *err);

#ifdef __cplusplus
}
#endif

#endif
