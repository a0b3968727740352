/* Joining the shards of one sweep (pupiltrack-merge(1)) into what an
 * unsharded run writes: every part is checked before anything is written. */
#ifndef PT_SWEEP_MERGE_H
#define PT_SWEEP_MERGE_H

#include <stddef.h>

#include "eval/sweep_report.h"
#include "eval/sweep_run.h"

typedef struct {
    char *const *dirs; /* folders holding the parts (results/NNNN.part-K-of-N.csv) */
    int ndirs;
    const char *outdir;  /* where the merged results and reports go */
    int outdir_locked;   /* 1: the caller holds OUTDIR's lock already */
} pt_sweep_merge_job;

/* Check that the folders hold one sweep, that no shard is still running and
 * that each part is whole and made for its shard: header, rows for exactly
 * the shard's images (in order, each frame once per eye) and one timing line
 * at the end; a part found in two folders must be the same file. Then write
 * OUTDIR/results/NNNN.csv and the reports. */
/* Check one part's text (path names it): whole (the results header, one
 * timing line, at its end) and holding rows, eyes per frame, for exactly
 * files_expected input files, whose paths (page suffixes "#P" dropped)
 * continue the FNV-1a *hash; *t receives the timing line. */
pt_status pt_sweep_part_check(const char *path, const char *text, size_t len, int eyes,
                              int files_expected, unsigned long long *hash, pt_sweep_timing *t,
                              pt_error *err);

pt_status pt_sweep_merge(const pt_sweep_merge_job *job, pt_sweep_outcome *outcome,
                         pt_error *err);

#endif
