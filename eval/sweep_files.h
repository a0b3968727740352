/* The output folder of a sweep, shared by sweep and merge
 * (pupiltrack-sweep(1), FILES):
 *   OUTDIR/sweep.txt                   manifest: what was swept (resume guard)
 *   OUTDIR/sweep.lock                  held by the sweep or merge writing there
 *   OUTDIR/sweep.part-K-of-N.lock      held by the run of shard K of N
 *   OUTDIR/results/NNNN.csv            results of configuration NNNN
 *   OUTDIR/results/NNNN.part-K-of-N.csv  the same for shard K of N
 *   OUTDIR/curve.csv, OUTDIR/summary.csv  reports, written when all are done
 * A results file is written as NAME.tmp (checkpointed in NAME.tmp.resume)
 * and renamed when complete, so a file under its final name is always whole;
 * the lock keeps a second run from writing the same files at the same time. */
#ifndef PT_SWEEP_FILES_H
#define PT_SWEEP_FILES_H

#include <stddef.h>

#include "eval/sweep.h"
#include "lib/core/output_file.h"

#define PT_SWEEP_MANIFEST "sweep.txt"

/* What merge needs back from a manifest. */
typedef struct {
    char *text; /* the whole manifest */
    pt_sweep_grid grid;
    char gt[4096];
    pt_eval_shape shape;
    int images;              /* input files of the whole sweep */
    unsigned long long hash; /* pt_sweep_hash_path over their paths, in order */
    int eyes;                /* result rows per frame: 2 when binocular */
} pt_sweep_manifest;

/* nshards == 1: NNNN.csv; otherwise NNNN.part-K-of-N.csv. */
void pt_sweep_results_path(char *buf, int size, const char *outdir, long index, int shard,
                           int nshards);
/* mkdir -p OUTDIR/results. */
pt_status pt_sweep_make_dirs(const char *outdir, pt_error *err);

/* The lock of a folder (nshards == 1: sweep.lock) or of one shard's files. */
typedef struct {
    int fd; /* -1: not held */
} pt_sweep_lock;

/* Take the lock without waiting. When another process holds it, err says
 * which one ("another sweep (process P) is writing ...") and the status is
 * PT_ERR_IO. Released by pt_sweep_lock_release or when the process ends
 * (even by kill -9). */
pt_status pt_sweep_lock_take(const char *outdir, int shard, int nshards, pt_sweep_lock *lock,
                             pt_error *err);
void pt_sweep_lock_release(pt_sweep_lock *lock);
/* PT_OK when no process holds that lock now (taken and let go at once,
 * without writing: the folder may be read-only); else as pt_sweep_lock_take. */
pt_status pt_sweep_lock_free(const char *outdir, int shard, int nshards, pt_error *err);

/* FNV-1a over paths, one after the other: start with PT_SWEEP_HASH_START. */
#define PT_SWEEP_HASH_START 14695981039346656037ULL
unsigned long long pt_sweep_hash_path(unsigned long long h, const char *path, size_t len);

/* Write OUTDIR/sweep.txt, or check that the one there says the same. */
pt_status pt_sweep_manifest_claim(const char *outdir, const char *text, pt_error *err);
pt_status pt_sweep_manifest_read(const char *outdir, pt_sweep_manifest *m, pt_error *err);
void pt_sweep_manifest_free(pt_sweep_manifest *m);

/* A whole file into memory, NUL-terminated (*len without the NUL); NULL
 * with errno set when it cannot be read. */
char *pt_sweep_read_file(const char *path, size_t *len);

#endif
