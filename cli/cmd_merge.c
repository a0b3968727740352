/* pupiltrack merge: join the shards of one sweep into what an unsharded run writes. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/results.h"
#include "cli/cli.h"
#include "cli/sweep_files.h"

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

/* The shard count N of the parts "NNNN.part-K-of-N.csv" in DIR/results:
 * 0 when none; -1 when parts of two different counts are there. */
static int shard_count(const char *dir, int *count)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results", dir);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        long index;
        int k, n, used = 0;
        if (sscanf(e->d_name, "%ld.part-%d-of-%d.csv%n", &index, &k, &n, &used) != 3 ||
            e->d_name[used] != '\0' || n < 2)
            continue;
        if (*count && *count != n) {
            pt_cli_fail("%s: parts of sweeps in %d and in %d shards; remove one set", path,
                        *count, n);
            rc = -1;
            break;
        }
        *count = n;
    }
    closedir(d);
    return rc;
}

/* Append the rows of one part (header and timing trailer left out). */
static int copy_rows(FILE *out, const char *part)
{
    FILE *in = fopen(part, "r");
    if (!in) {
        pt_cli_fail("%s: cannot read the shard's results", part);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int rc = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        if (++lineno == 1) {
            if (strncmp(line, PT_RESULTS_HEADER, strlen(PT_RESULTS_HEADER))) {
                pt_cli_fail("%s: not a results file (header line differs)", part);
                rc = -1;
                break;
            }
            continue;
        }
        if (!strncmp(line, "# sweep: ", 9))
            continue;
        fwrite(line, 1, (size_t)len, out);
    }
    free(line);
    fclose(in);
    return rc;
}

/* Configuration index: the parts of all N shards, in shard order, into one file. */
static int merge_config(const char *outdir, char **dirs, int ndirs, long index, int nshards)
{
    char final_path[4200], tmp[4300];
    pt_sweep_results_path(final_path, sizeof final_path, outdir, index, 1, 1);
    snprintf(tmp, sizeof tmp, "%s.tmp", final_path);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        pt_cli_fail("%s: cannot write the merged results", tmp);
        return PT_EXIT_INPUT;
    }
    pt_results_write_header(out);
    pt_sweep_timing total = {0, 0};
    int rc = PT_EXIT_OK;
    for (int k = 1; k <= nshards && !rc; k++) {
        char part[4200] = "";
        int found = 0;
        for (int d = 0; d < ndirs && !found; d++) {
            pt_sweep_results_path(part, sizeof part, dirs[d], index, k, nshards);
            found = pt_file_exists(part);
        }
        if (!found) {
            pt_sweep_results_path(part, sizeof part, dirs[0], index, k, nshards);
            pt_cli_fail("%s: missing: shard %d/%d has not finished configuration %ld", part, k,
                        nshards, index);
            rc = PT_EXIT_INPUT;
            break;
        }
        pt_sweep_timing t;
        pt_error err;
        pt_error_clear(&err);
        if (pt_sweep_timing_read(part, &t, &err) || copy_rows(out, part)) {
            if (err.status)
                pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            break;
        }
        total.frames += t.frames;
        total.track_s += t.track_s;
    }
    if (!rc)
        pt_sweep_timing_write(out, &total);
    int failed = ferror(out) != 0;
    failed |= fclose(out) != 0;
    if (!rc && (failed || rename(tmp, final_path))) {
        pt_cli_fail("%s: error writing the merged results", tmp);
        rc = PT_EXIT_INPUT;
    }
    if (rc)
        remove(tmp);
    return rc;
}

int pt_cmd_merge(int argc, char **argv)
{
    const char *outdir = NULL;
    char **dirs = calloc((size_t)argc, sizeof *dirs);
    int ndirs = 0, rc = PT_EXIT_OK, nshards = 0;
    pt_sweep_manifest m;
    memset(&m, 0, sizeof m);
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
            outdir = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("merge: unknown option '%s' (try --help)", a);
            rc = PT_EXIT_USAGE;
            goto done;
        } else {
            dirs[ndirs++] = argv[i];
        }
    }
    if (ndirs == 0) {
        pt_cli_fail("merge: no sweep folders given (try --help)");
        rc = PT_EXIT_USAGE;
        goto done;
    }
    if (!outdir)
        outdir = dirs[0];
    pt_error err;
    pt_error_clear(&err);
    if (pt_sweep_manifest_read(dirs[0], &m, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    /* Every folder must hold shards of the same sweep. */
    for (int d = 1; d < ndirs; d++) {
        pt_sweep_manifest other;
        if (pt_sweep_manifest_read(dirs[d], &other, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
        int same = !strcmp(other.text, m.text);
        pt_sweep_manifest_free(&other);
        if (!same) {
            pt_cli_fail("%s: holds a different sweep than %s (sweep.txt differs)", dirs[d],
                        dirs[0]);
            rc = PT_EXIT_INPUT;
            goto done;
        }
    }
    for (int d = 0; d < ndirs; d++)
        if (shard_count(dirs[d], &nshards)) {
            rc = PT_EXIT_INPUT;
            goto done;
        }
    if (nshards == 0) {
        pt_cli_fail("%s: no shard results (results/NNNN.part-K-of-N.csv) to merge", dirs[0]);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (pt_sweep_make_dirs(outdir, &err) || pt_sweep_manifest_claim(outdir, m.text, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    long ncfg = pt_sweep_grid_size(&m.grid);
    for (long c = 0; c < ncfg && !rc; c++)
        rc = merge_config(outdir, dirs, ndirs, c, nshards);
    if (rc)
        goto done;
    long error_rows = 0;
    if (pt_sweep_write_reports(outdir, &m.grid, m.gt, m.shape, &error_rows, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (error_rows) {
        pt_cli_fail("merge: %ld result rows have status=error (unreadable images)", error_rows);
        rc = PT_EXIT_INPUT;
    }
done:
    pt_sweep_manifest_free(&m);
    free(dirs);
    return rc;
}
