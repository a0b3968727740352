/* sweep --devices D: D shards at once, one per GPU, then merged
 * (pupiltrack-sweep(1)). */
#include "eval/sweep_devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval/sweep_files.h"
#include "eval/sweep_merge.h"

/* Start the copies and wait for them; *worst: the worst exit status. */
static pt_status run_copies(const pt_sweep_job *job, int argc, char **argv, int devices,
                            int *worst, pt_error *err)
{
    pid_t *pids = calloc((size_t)devices, sizeof *pids);
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!pids || !args) {
        free(pids);
        free(args);
        return pt_error_set(err, PT_ERR_NOMEM, "--devices", "out of memory");
    }
    int n = 0;
    args[n++] = "pupiltrack";
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--devices") || !strcmp(argv[i], "--shard")) {
            i++;
            continue;
        }
        args[n++] = argv[i];
    }
    char shard[64];
    args[n++] = "--shard";
    args[n++] = shard;
    args[n] = NULL;
    int total = job->nshards * devices;
    pt_status st = PT_OK;
    for (int d = 0; d < devices; d++) {
        snprintf(shard, sizeof shard, "%d/%d", (job->shard - 1) * devices + d + 1, total);
        fflush(NULL);
        pids[d] = fork();
        if (pids[d] == 0) {
            char gpu[16];
            snprintf(gpu, sizeof gpu, "%d", d);
            setenv("CUDA_VISIBLE_DEVICES", gpu, 1);
            if (job->nshards == 1)
                setenv(PT_SWEEP_PARENT_MERGES, "1", 1);
            execv("/proc/self/exe", args);
            _exit(127);
        }
        if (pids[d] < 0) {
            st = pt_error_set(err, PT_ERR_IO, "--devices", "cannot start shard %s", shard);
            break;
        }
    }
    *worst = 0;
    for (int d = 0; d < devices; d++) {
        int status;
        if (pids[d] > 0 && waitpid(pids[d], &status, 0) == pids[d]) {
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
            if (code == 127 && !st)
                st = pt_error_set(err, PT_ERR_IO, "--devices",
                                  "cannot start a copy of pupiltrack");
            *worst = code > *worst ? code : *worst;
        }
    }
    free(pids);
    free(args);
    return st;
}

pt_status pt_sweep_run_devices(const pt_sweep_job *job, int argc, char **argv, int devices,
                               int *worst, pt_sweep_outcome *outcome, pt_error *err)
{
    memset(outcome, 0, sizeof *outcome);
    *worst = 0;
    /* the copies take their shards' locks; this process holds the folder's */
    pt_sweep_lock lock = {-1};
    pt_status st = pt_sweep_make_dirs(job->outdir, err);
    if (!st)
        st = pt_sweep_lock_take(job->outdir, job->shard, job->nshards, &lock, err);
    if (!st)
        st = run_copies(job, argc, argv, devices, worst, err);
    /* the copies said why they failed; rows with status=error are merged */
    if (!st && *worst <= 1 && job->nshards == 1) {
        char *dirs[1] = {(char *)job->outdir};
        pt_sweep_merge_job merge = {dirs, 1, job->outdir, 1};
        st = pt_sweep_merge(&merge, outcome, err);
    }
    pt_sweep_lock_release(&lock);
    return st;
}
