/* Parameter sweeps (pupiltrack-sweep(1)): a grid of configurations and
 * the reports drawn from their results.
 *
 * A grid is a product of axes; each axis is one key and its values, given as
 * "key=v1,v2,..." or "key=min:max:step". Keys are detector parameters (see
 * `pupiltrack params`) or the run settings algorithm (starburst|tl|hough),
 * backend (omp|cuda), fit (circle|ellipse), threads (-j) and streams (CUDA).
 * Configurations are numbered 0.. with the last axis varying fastest. */
#ifndef PT_SWEEP_H
#define PT_SWEEP_H

#include "lib/detect/pt_backend.h"
#include "eval/metrics.h"

#define PT_SWEEP_MAX_AXES 16
#define PT_SWEEP_MAX_VALUES 10000    /* values on one axis */
#define PT_SWEEP_MAX_CONFIGS 1000000 /* configurations in a grid */

typedef enum {
    PT_AXIS_PARAM = 0, /* a detector parameter of pt_config */
    PT_AXIS_ALGORITHM,
    PT_AXIS_BACKEND,   /* applied by the caller (the back-end table lives in cli/) */
    PT_AXIS_FIT,
    PT_AXIS_THREADS,
    PT_AXIS_STREAMS
} pt_sweep_axis_kind;

typedef struct {
    char key[64];
    pt_sweep_axis_kind kind;
    int count;
    char **values; /* as they appear in file names and CSV columns */
} pt_sweep_axis;

typedef struct {
    int naxes;
    pt_sweep_axis axes[PT_SWEEP_MAX_AXES];
} pt_sweep_grid;

/* Parse "key=v1,v2" or "key=min:max:step" (ranges for numeric keys; a negative
 * step counts down), check every value, append the axis. err->file = "-g". */
pt_status pt_sweep_grid_add(pt_sweep_grid *g, const char *spec, pt_error *err);
void pt_sweep_grid_free(pt_sweep_grid *g);
/* Number of configurations (1 for an empty grid). */
long pt_sweep_grid_size(const pt_sweep_grid *g);
/* values[a] = the text of axis a in configuration index. */
void pt_sweep_config_values(const pt_sweep_grid *g, long index, const char **values);
/* "key=value key=value", or "default" for an empty grid. */
void pt_sweep_config_label(const pt_sweep_grid *g, long index, char *buf, int size);
/* Set configuration index on cfg and opt; *backend_name receives the backend
 * axis value, or is left alone when the grid has no such axis. */
pt_status pt_sweep_apply(const pt_sweep_grid *g, long index, pt_config *cfg,
                         pt_track_options *opt, const char **backend_name, pt_error *err);

#endif
