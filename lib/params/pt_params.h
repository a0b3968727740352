/* Parameter registry: every detector parameter is typed, named, has a default,
 * a range and one line of help, so `-p key=value` is validated in one place and
 * `pupiltrack params` lists them. Values live in a pt_config; each definition
 * says where (offset) and which detectors use it. */
#ifndef PT_PARAMS_H
#define PT_PARAMS_H

#include <stddef.h>

#include "lib/core/pt_error.h"
#include "lib/params/params_preprocess.h"
#include "lib/params/params_starburst.h"
#include "lib/params/params_tl.h"
#include "lib/params/params_hough.h"
#include "lib/params/params_retry.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PT_ALG_STARBURST = 1,
    PT_ALG_TL = 2,
    PT_ALG_HOUGH = 4,
    PT_ALG_ALL = 7
} pt_algorithm;

/* "starburst", "tl", "hough"; returns 0 when unknown. */
pt_algorithm pt_algorithm_from_name(const char *name);
const char *pt_algorithm_name(pt_algorithm alg);

typedef struct {
    pt_preprocess_params pre;
    pt_starburst_params starburst;
    pt_tl_params tl;
    pt_hough_params hough;
    pt_retry_params retry;
} pt_config;

typedef enum { PT_PARAM_INT, PT_PARAM_DOUBLE, PT_PARAM_CHOICE } pt_param_type;

typedef struct {
    const char *name;           /* key used with -p and -g */
    pt_param_type type;         /* INT and CHOICE are stored as int, DOUBLE as double */
    size_t offset;              /* offsetof(pt_config, ...) */
    double def, min, max;       /* default and inclusive range (CHOICE: index) */
    const char *const *choices; /* CHOICE: NULL-terminated names */
    unsigned algorithms;        /* bitmask of pt_algorithm using it */
    const char *help;           /* one line; says what 0 ("auto") means where it applies */
} pt_param_def;

/* Each group lives beside its struct (params_*.c). */
extern const pt_param_def pt_preprocess_param_defs[];
extern const int pt_preprocess_param_count;
extern const pt_param_def pt_starburst_param_defs[];
extern const int pt_starburst_param_count;
extern const pt_param_def pt_tl_param_defs[];
extern const int pt_tl_param_count;
extern const pt_param_def pt_hough_param_defs[];
extern const int pt_hough_param_count;
extern const pt_param_def pt_retry_param_defs[];
extern const int pt_retry_param_count;

/* All definitions in listing order; *count receives their number. */
const pt_param_def *pt_param_def_at(int index);
int pt_param_count(void);
const pt_param_def *pt_param_find(const char *name);

void pt_config_default(pt_config *cfg);
/* Parse "key=value", validate type and range, store. err->file = "-p". */
pt_status pt_config_set(pt_config *cfg, const char *assignment, pt_error *err);
pt_status pt_config_set_value(pt_config *cfg, const char *key, const char *value,
                              pt_error *err);
/* Checks that hold between parameters (one -p at a time cannot see them):
 * min_radius <= max_radius when both are set. PT_ERR_PARAM, err->file "-p". */
pt_status pt_config_check(const pt_config *cfg, pt_error *err);
/* Current value as text ("%g" or the choice name). */
void pt_config_get_text(const pt_config *cfg, const pt_param_def *def, char *buf,
                        int size);

#ifdef __cplusplus
}
#endif

#endif
