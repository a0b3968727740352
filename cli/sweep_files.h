/* The output folder of a sweep, shared by sweep and merge:
 *   OUTDIR/sweep.txt                   manifest: what was swept (resume guard)
 *   OUTDIR/results/NNNN.csv            results of configuration NNNN
 *   OUTDIR/results/NNNN.part-K-of-N.csv  the same for shard K of N
 *   OUTDIR/curve.csv, OUTDIR/summary.csv  reports, written when all are done
 * A results file is written as NAME.tmp and renamed when complete, so a file
 * under its final name is always whole. */
#ifndef PT_CLI_SWEEP_FILES_H
#define PT_CLI_SWEEP_FILES_H

#include "eval/sweep.h"
#include "lib/core/output_file.h"

#define PT_SWEEP_MANIFEST "sweep.txt"

/* What merge needs back from a manifest. */
typedef struct {
    char *text; /* the whole manifest */
    pt_sweep_grid grid;
    char gt[4096];
    pt_eval_shape shape;
} pt_sweep_manifest;

/* nshards == 1: NNNN.csv; otherwise NNNN.part-K-of-N.csv. */
void pt_sweep_results_path(char *buf, int size, const char *outdir, long index, int shard,
                           int nshards);
/* mkdir -p OUTDIR/results. */
pt_status pt_sweep_make_dirs(const char *outdir, pt_error *err);
/* Write OUTDIR/sweep.txt, or check that the one there says the same. */
pt_status pt_sweep_manifest_claim(const char *outdir, const char *text, pt_error *err);
pt_status pt_sweep_manifest_read(const char *outdir, pt_sweep_manifest *m, pt_error *err);
void pt_sweep_manifest_free(pt_sweep_manifest *m);
/* Regenerate curve.csv and summary.csv from every configuration's results;
 * *error_rows counts status=error rows. */
pt_status pt_sweep_write_reports(const char *outdir, const pt_sweep_grid *g,
                                 const char *gt_path, pt_eval_shape shape, long *error_rows,
                                 pt_error *err);

#endif
