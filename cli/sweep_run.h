/* Running one configuration of a sweep over this process's share of the
 * images: batches to the back end, results rows, checkpoints for resuming. */
#ifndef PT_CLI_SWEEP_RUN_H
#define PT_CLI_SWEEP_RUN_H

#include "cli/inputs.h"
#include "cli/sweep_files.h"
#include "cli/track_options.h"

#define PT_SWEEP_MAX_BATCH 4096

typedef struct {
    pt_frames frames; /* kept in memory when the cache had room */
    char *error;      /* why the file could not be loaded, once known */
    int cached;
} pt_sweep_file;

/* A sweep as this process runs it (see pupiltrack-sweep(1)). */
typedef struct {
    pt_detector_setup base;
    pt_sweep_grid grid;
    const char *outdir, *gt_path;
    pt_eval_shape shape;
    int shard, nshards, batch;
    long cache_max, cache_used;
    pt_input_list inputs;
    int first, last; /* this shard's files: [first, last) */
    pt_sweep_file *files; /* last - first of them */
    long error_rows;
    long work_done, work_total; /* files x configurations, for the progress line */
    double started;
} pt_sweep_job;

/* Run configuration index (of ncfg) into final_path: written as final_path.tmp,
 * checkpointed, renamed when whole. Returns 0 or an exit status (reported). */
int pt_sweep_run_config(pt_sweep_job *job, long index, long ncfg, const char *final_path);
double pt_sweep_clock(void);

#endif
