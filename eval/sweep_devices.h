/* sweep --devices D: D copies of the program, each a shard on its own GPU. */
#ifndef PT_SWEEP_DEVICES_H
#define PT_SWEEP_DEVICES_H

#include "eval/sweep_run.h"

/* Run D copies of this program (argv without --devices and --shard), copy d
 * as shard d of D (or the matching sub-shard of the job's K/N) with
 * CUDA_VISIBLE_DEVICES=d, holding the folder's lock meanwhile; *worst is the
 * worst exit status of the copies (they report their own errors). Then,
 * unsharded and when no copy failed worse than status=error rows, merge. */
/* Set in the copies' environment when this process merges their shards,
 * so that they give no hint to run merge. */
#define PT_SWEEP_PARENT_MERGES "PUPILTRACK_SWEEP_PARENT_MERGES"

pt_status pt_sweep_run_devices(const pt_sweep_job *job, int argc, char **argv, int devices,
                               int *worst, pt_sweep_outcome *outcome, pt_error *err);

#endif
