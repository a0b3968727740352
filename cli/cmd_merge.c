/* pupiltrack merge: the options; eval/sweep_merge.c joins the shards
 * (pupiltrack-merge(1)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "eval/sweep_merge.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack merge [-o OUTDIR] DIR...\n"
            "Join the shards of one sweep ('pupiltrack sweep --shard K/N'), found in\n"
            "the DIRs' results/ folders, into OUTDIR (default: the first DIR): the\n"
            "results of each configuration, curve.csv and summary.csv, exactly as one\n"
            "unsharded run writes them. Every shard must be finished. Run it from the\n"
            "folder the sweep ran in (paths in the manifest are relative to it).\n\n"
            "  -o OUTDIR        where to write (created if missing)\n");
}

int pt_cmd_merge(int argc, char **argv)
{
    pt_sweep_merge_job job;
    memset(&job, 0, sizeof job);
    char **dirs = calloc((size_t)argc, sizeof *dirs);
    int rc = PT_EXIT_OK;
    if (!dirs)
        return PT_EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            goto done;
        } else if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                pt_cli_fail("merge: option -o needs a value");
                rc = PT_EXIT_USAGE;
                goto done;
            }
            job.outdir = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("merge: unknown option '%s' (try --help)", a);
            rc = PT_EXIT_USAGE;
            goto done;
        } else {
            dirs[job.ndirs++] = argv[i];
        }
    }
    if (job.ndirs == 0) {
        pt_cli_fail("merge: no sweep folders given (try --help)");
        rc = PT_EXIT_USAGE;
        goto done;
    }
    job.dirs = dirs;
    if (!job.outdir)
        job.outdir = dirs[0];
    pt_sweep_outcome outcome;
    pt_error err;
    pt_error_clear(&err);
    if (pt_sweep_merge(&job, &outcome, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    } else if (outcome.error_rows) {
        pt_cli_fail("merge: %ld result rows have status=error (unreadable images)",
                    outcome.error_rows);
        rc = PT_EXIT_INPUT;
    }
done:
    free(dirs);
    return rc;
}
