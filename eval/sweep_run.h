/* Running a sweep (pupiltrack-sweep(1)): every configuration of a grid over
 * this process's share of the images, into OUTDIR/results, then the reports.
 * The caller parses the options and prints; the run reports through hooks. */
#ifndef PT_SWEEP_RUN_H
#define PT_SWEEP_RUN_H

#include "eval/metrics.h"
#include "eval/sweep.h"
#include "lib/detect/pt_backend.h"

#define PT_SWEEP_MAX_BATCH 4096

/* How the run speaks: a file that could not be decoded (the run goes on and
 * records status=error rows), and progress (configuration label, files x
 * configurations done and in all, seconds since the start). Either may be NULL. */
typedef struct {
    void (*report)(void *ctx, const pt_error *err);
    void (*progress)(void *ctx, const char *label, long done, long total, double elapsed_s);
    void *ctx;
} pt_sweep_hooks;

/* What to sweep. */
typedef struct {
    pt_track_options track; /* the detector's run settings before the grid's */
    pt_config config;       /* the detector's parameters before the grid's */
    pt_load_options load;
    const pt_backend *backend;         /* when the grid has no backend axis */
    const pt_backend *const *backends; /* one per value of the backend axis, or NULL */
    pt_sweep_grid grid;
    const char *outdir, *gt_path;
    pt_eval_shape shape;
    int shard, nshards; /* 1-based shard of nshards equal shares of the images */
    int batch;          /* frames per back-end call */
    long cache_max;     /* bytes of decoded frames kept between configurations */
    char *const *paths; /* the images, in order */
    int npaths;
    char *const *input_args; /* the files and folders as given (for the manifest) */
    int ninput_args;
} pt_sweep_job;

/* What a finished run found. */
typedef struct {
    long error_rows; /* status=error rows in this run's results (all configurations) */
    int reports;     /* 1 when curve.csv and summary.csv were written (unsharded) */
} pt_sweep_outcome;

/* Check the inputs (ground truth, folder, lock, manifest), then run every
 * configuration not yet complete (resuming one interrupted at a checkpoint)
 * and, unsharded, write the reports. PT_ERR_PARAM: the folder holds another
 * sweep; PT_ERR_UNAVAILABLE: a back end cannot run here. */
pt_status pt_sweep_execute(const pt_sweep_job *job, const pt_sweep_hooks *hooks,
                           pt_sweep_outcome *outcome, pt_error *err);

/* The manifest text: everything that decides the results. A resumed sweep
 * or a shard must produce the same text, or it refuses to write into the
 * folder. NULL when out of memory. */
char *pt_sweep_manifest_text(const pt_sweep_job *job);

#endif
