/* pupiltrack sweep: the options of a parameter sweep; eval/sweep_run.c runs
 * it (pupiltrack-sweep(1)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "cli/cli.h"
#include "cli/inputs.h"
#include "cli/sweep_html_run.h"
#include "cli/track_options.h"
#include "eval/sweep_devices.h"
#include "eval/sweep_run.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack sweep [OPTIONS] --gt GT.csv -o OUTDIR IMAGE|DIR...\n"
            "Run the detector on every image for each configuration of a grid; write\n"
            "OUTDIR/results/NNNN.csv per configuration, then OUTDIR/curve.csv (both\n"
            "metrics), OUTDIR/summary.csv (rates, mean ms, fps) and OUTDIR/report.html\n"
            "(curves, table and the best configuration's worst frames, to look at in a\n"
            "browser). An interrupted sweep run again with the same arguments continues\n"
            "where it stopped.\n\n"
            "%s"
            "  -g KEY=V1,V2,...  sweep KEY over these values (several -g: their product);\n"
            "  -g KEY=MIN:MAX:STEP  ... or over a range. KEY is a parameter, or algorithm,\n"
            "                   backend, fit (circle|ellipse), threads or streams\n"
            "  --gt GT.csv      ground truth (required)\n"
            "  --shape S        metric shape: circle, ellipse or auto (default, as eval)\n"
            "  -o OUTDIR        output folder (default: sweep-out)\n"
            "  --shard K/N      run only the K-th of N equal shares of the images; join\n"
            "                   the shards with 'pupiltrack merge'\n"
            "  --devices D      run D shards at once, shard d on GPU d (CUDA_VISIBLE_DEVICES),\n"
            "                   then merge; D = 'all' counts the GPUs with nvidia-smi\n"
            "  --batch N        frames per back-end call (default 64)\n"
            "  --cache-mb M     keep decoded frames in memory up to M MiB (default 1024)\n",
            pt_detector_setup_help);
}

/* The options as given, and the sweep they make. */
typedef struct {
    pt_detector_setup base;
    pt_sweep_job job;
    pt_input_list inputs;
    char **input_args;
    const pt_backend **backends; /* one per value of the backend axis */
    int devices;
} sweep_options;

/* Every back end the grid uses must run here: say so before any work (exit 3). */
static int check_backends(sweep_options *so)
{
    const pt_sweep_axis *axis = NULL;
    for (int a = 0; a < so->job.grid.naxes; a++)
        if (so->job.grid.axes[a].kind == PT_AXIS_BACKEND)
            axis = &so->job.grid.axes[a];
    int n = axis ? axis->count : 1;
    if (axis && !(so->backends = calloc((size_t)n, sizeof *so->backends)))
        return PT_EXIT_INPUT;
    for (int i = 0; i < n; i++) {
        const pt_backend *b = axis ? pt_track_backend(axis->values[i]) : so->base.backend;
        if (!b) {
            char names[64];
            pt_cli_fail("-g: backend: unknown back end '%s' (%s)", axis->values[i],
                        pt_backend_list(PT_CAP_TRACK, names, sizeof names));
            return PT_EXIT_USAGE;
        }
        if (axis)
            so->backends[i] = b;
        void *state = NULL;
        pt_error err;
        pt_error_clear(&err);
        if (b->create(&so->base.config, &so->base.track, 64, 64, &state, &err)) {
            pt_cli_report(&err);
            return err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
        }
        b->destroy(state);
    }
    return 0;
}

static int parse_shard(const char *v, int *k, int *n)
{
    char tail;
    if (sscanf(v, "%d/%d%c", k, n, &tail) != 2 || *n < 1 || *n > 100000 || *k < 1 || *k > *n) {
        pt_cli_fail("--shard: '%s' is not K/N with 1 <= K <= N", v);
        return -1;
    }
    return 0;
}

static int count_gpus(void)
{
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    if (!p)
        return 0;
    int n = 0, c, at_start = 1;
    while ((c = fgetc(p)) != EOF) {
        n += at_start && c == 'G';
        at_start = c == '\n';
    }
    pclose(p);
    return n;
}

/* One option at argv[*i] (its value consumed): 0, or the exit status. */
static int parse_option(sweep_options *so, int argc, char **argv, int *i)
{
    pt_sweep_job *sw = &so->job;
    const char *a = argv[*i];
    int takes_value = !strcmp(a, "-g") || !strcmp(a, "--gt") || !strcmp(a, "-o") ||
                      !strcmp(a, "--shape") || !strcmp(a, "--shard") ||
                      !strcmp(a, "--devices") || !strcmp(a, "--batch") ||
                      !strcmp(a, "--cache-mb");
    if (takes_value && *i + 1 >= argc) {
        pt_cli_fail("sweep: option %s needs a value", a);
        return PT_EXIT_USAGE;
    }
    const char *v = takes_value ? argv[++*i] : NULL;
    int n = 0;
    if (!strcmp(a, "-g")) {
        pt_error err;
        pt_error_clear(&err);
        if (pt_sweep_grid_add(&sw->grid, v, &err)) {
            pt_cli_report(&err);
            return PT_EXIT_USAGE;
        }
    } else if (!strcmp(a, "--gt")) {
        sw->gt_path = v;
    } else if (!strcmp(a, "-o")) {
        sw->outdir = v;
    } else if (!strcmp(a, "--shape")) {
        if (strcmp(v, "circle") && strcmp(v, "ellipse") && strcmp(v, "auto")) {
            pt_cli_fail("sweep: --shape must be circle, ellipse or auto, not '%s'", v);
            return PT_EXIT_USAGE;
        }
        sw->shape = v[0] == 'c' ? PT_SHAPE_CIRCLE : v[0] == 'e' ? PT_SHAPE_ELLIPSE : PT_SHAPE_AUTO;
    } else if (!strcmp(a, "--shard")) {
        if (parse_shard(v, &sw->shard, &sw->nshards))
            return PT_EXIT_USAGE;
    } else if (!strcmp(a, "--devices")) {
        if (!strcmp(v, "all")) {
            if (!(so->devices = count_gpus())) {
                pt_cli_fail("--devices all: no GPU found (nvidia-smi -L lists none)");
                return PT_EXIT_UNAVAILABLE;
            }
        } else if (pt_option_int(a, v, 1, 64, &so->devices)) {
            return PT_EXIT_USAGE;
        }
    } else if (!strcmp(a, "--batch") || !strcmp(a, "--cache-mb")) {
        int batch = a[2] == 'b';
        if (pt_option_int(a, v, batch ? 1 : 0, batch ? PT_SWEEP_MAX_BATCH : 1 << 30, &n))
            return PT_EXIT_USAGE;
        if (batch)
            sw->batch = n;
        else
            sw->cache_max = (long)n << 20;
    } else if (a[0] == '-' && a[1]) {
        pt_cli_fail("sweep: unknown option '%s' (try --help)", a);
        return PT_EXIT_USAGE;
    } else {
        so->input_args[sw->ninput_args++] = argv[*i];
        if (pt_inputs_add(&so->inputs, a)) {
            pt_cli_fail("%s: cannot read the folder", a);
            return PT_EXIT_INPUT;
        }
    }
    return 0;
}

static int exit_status(const pt_error *err)
{
    return err->status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE
           : err->status == PT_ERR_PARAM     ? PT_EXIT_USAGE
                                             : PT_EXIT_INPUT;
}

static void report_hook(void *ctx, const pt_error *err)
{
    (void)ctx;
    pt_cli_report(err);
}

static void progress_hook(void *ctx, const char *label, long done, long total, double elapsed)
{
    (void)ctx;
    pt_cli_progress(label, done, total, elapsed);
}

/* Run the sweep the options describe: 0 or the exit status (reported). */
static int run_sweep(sweep_options *so, int argc, char **argv)
{
    pt_sweep_job *sw = &so->job;
    sw->track = so->base.track;
    sw->config = so->base.config;
    sw->load = so->base.load;
    sw->backend = so->base.backend;
    sw->backends = so->backends;
    sw->paths = so->inputs.paths;
    sw->npaths = so->inputs.count;
    sw->input_args = so->input_args;
    pt_sweep_outcome outcome;
    pt_error err;
    pt_error_clear(&err);
    if (so->devices > 0) {
        int worst = 0;
        if (pt_sweep_run_devices(sw, argc, argv, so->devices, &worst, &outcome, &err)) {
            pt_cli_report(&err);
            return exit_status(&err);
        }
        if (worst > PT_EXIT_INPUT || sw->nshards > 1)
            return worst;
    } else {
        pt_sweep_hooks hooks = {report_hook, progress_hook, NULL};
        if (pt_sweep_execute(sw, &hooks, &outcome, &err)) {
            pt_cli_report(&err);
            return exit_status(&err);
        }
        if (sw->nshards > 1 && !getenv(PT_SWEEP_PARENT_MERGES))
            fprintf(stderr,
                    "pupiltrack: shard %d/%d done; 'pupiltrack merge %s' joins the shards\n",
                    sw->shard, sw->nshards, sw->outdir);
    }
    int rc = outcome.reports ? pt_sweep_report_html(sw) : 0;
    if (rc)
        return rc;
    if (outcome.error_rows) {
        pt_cli_fail("sweep: %ld result rows have status=error (unreadable images)",
                    outcome.error_rows);
        return PT_EXIT_INPUT;
    }
    return PT_EXIT_OK;
}

int pt_cmd_sweep(int argc, char **argv)
{
    sweep_options so;
    memset(&so, 0, sizeof so);
    pt_detector_setup_default(&so.base);
    so.job.outdir = "sweep-out";
    so.job.shard = so.job.nshards = 1;
    so.job.batch = 64;
    so.job.cache_max = 1024L << 20;
    int rc = PT_EXIT_OK;
    if (!(so.input_args = calloc((size_t)argc, sizeof *so.input_args)))
        return PT_EXIT_INPUT;
    for (int i = 1; i < argc && !rc; i++) {
        int used = pt_detector_setup_option(&so.base, argc, argv, &i);
        if (used < 0)
            rc = PT_EXIT_USAGE;
        else if (used)
            continue;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            goto done;
        } else {
            rc = parse_option(&so, argc, argv, &i);
        }
    }
    pt_detector_setup_gain(&so.base);
    if (!rc && pt_detector_setup_check(&so.base))
        rc = PT_EXIT_USAGE;
    if (rc)
        goto done;
    if (!so.job.gt_path || so.inputs.count == 0) {
        pt_cli_fail("sweep: needs --gt GT.csv and images or a folder (try --help)");
        rc = PT_EXIT_USAGE;
    } else if (so.base.track.sequence && (so.job.nshards > 1 || so.devices > 1)) {
        pt_cli_fail("sweep: --sequence cannot be split into shards (frames depend on the "
                    "previous one)");
        rc = PT_EXIT_USAGE;
    } else if (!(rc = check_backends(&so))) {
        rc = run_sweep(&so, argc, argv);
    }
done:
    free(so.backends);
    free(so.input_args);
    pt_inputs_free(&so.inputs);
    pt_sweep_grid_free(&so.job.grid);
    return rc;
}
