/* pupiltrack sweep: run a detector over a folder for every configuration of a
 * parameter grid; per-frame results, curve and summary CSVs (SPEC §3, §5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/io/results.h"
#include "cli/backends/registry.h"
#include "cli/cli.h"
#include "cli/sweep_run.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack sweep [OPTIONS] --gt GT.csv -o OUTDIR IMAGE|DIR...\n"
            "Run the detector on every image for each configuration of a grid; write\n"
            "OUTDIR/results/NNNN.csv per configuration, then OUTDIR/curve.csv (both\n"
            "metrics) and OUTDIR/summary.csv (rates, mean ms, fps). An interrupted sweep\n"
            "run again with the same arguments continues where it stopped.\n\n"
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

/* Every back end the grid uses must run here: say so before any work (exit 3). */
static int check_backends(const pt_sweep_job *sw)
{
    const pt_sweep_axis *axis = NULL;
    for (int a = 0; a < sw->grid.naxes; a++)
        if (sw->grid.axes[a].kind == PT_AXIS_BACKEND)
            axis = &sw->grid.axes[a];
    int n = axis ? axis->count : 1;
    for (int i = 0; i < n; i++) {
        const pt_backend *b = axis ? pt_track_backend(axis->values[i]) : sw->base.backend;
        if (!b) {
            char names[64];
            pt_cli_fail("-g: backend: unknown back end '%s' (%s)", axis->values[i],
                        pt_backend_list(PT_CAP_TRACK, names, sizeof names));
            return PT_EXIT_USAGE;
        }
        void *state = NULL;
        pt_error err;
        pt_error_clear(&err);
        if (b->create(&sw->base.config, &sw->base.track, 64, 64, &state, &err)) {
            pt_cli_report(&err);
            return err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
        }
        b->destroy(state);
    }
    return 0;
}

static unsigned long long fnv1a(unsigned long long h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (h ^ '\n') * 1099511628211ULL;
}

/* The manifest: everything that decides the results. A resumed sweep or a
 * shard must produce the same text, or it refuses to write into the folder. */
static char *manifest_text(const pt_sweep_job *sw, char *const *input_args, int ninput_args)
{
    size_t cap = 1 << 16, len = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
#define ADD(...) \
    do { \
        int n_ = snprintf(t + len, cap - len, __VA_ARGS__); \
        if (n_ < 0 || (size_t)n_ >= cap - len) { \
            char *g_ = realloc(t, cap = cap * 2 + (size_t)(n_ > 0 ? n_ : 0)); \
            if (!g_) { free(t); return NULL; } \
            t = g_; \
            snprintf(t + len, cap - len, __VA_ARGS__); \
        } \
        len += (size_t)n_; \
    } while (0)
    const pt_track_options *o = &sw->base.track;
    unsigned long long h = 14695981039346656037ULL;
    for (int i = 0; i < sw->inputs.count; i++)
        h = fnv1a(h, sw->inputs.paths[i]);
    ADD("# pupiltrack sweep manifest: a sweep into this folder must match it\n");
    ADD("version %s\n", PT_VERSION);
    for (int i = 0; i < ninput_args; i++)
        ADD("input %s\n", input_args[i]);
    ADD("images %d fnv1a-%016llx\n", sw->inputs.count, h);
    ADD("gt %s\n", sw->gt_path);
    ADD("shape %s\n", sw->shape == PT_SHAPE_CIRCLE    ? "circle"
                      : sw->shape == PT_SHAPE_ELLIPSE ? "ellipse"
                                                      : "auto");
    ADD("algorithm %s\nbackend %s\nfit %s\n", pt_algorithm_name(o->algorithm),
        sw->base.backend->name, o->ellipse ? "ellipse" : "circle");
    ADD("binocular %d\nsequence %d\nbits %d\nthreads %d\nstreams %d\nbatch %d\n", o->binocular,
        o->sequence, sw->base.load.significant_bits, o->threads, o->streams, sw->batch);
    for (int i = 0; i < pt_param_count(); i++) {
        char value[128];
        pt_config_get_text(&sw->base.config, pt_param_def_at(i), value, sizeof value);
        ADD("param %s=%s\n", pt_param_def_at(i)->name, value);
    }
    for (int a = 0; a < sw->grid.naxes; a++) {
        ADD("grid %s=", sw->grid.axes[a].key);
        for (int v = 0; v < sw->grid.axes[a].count; v++)
            ADD("%s%s", v ? "," : "", sw->grid.axes[a].values[v]);
        ADD("\n");
    }
#undef ADD
    return t;
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

/* --devices D: run D copies of this command, child d as shard d of D (or the
 * matching sub-shard of --shard K/N) on GPU d, then merge when unsharded. */
static int run_devices(int argc, char **argv, int devices, const pt_sweep_job *sw)
{
    pid_t *pids = calloc((size_t)devices, sizeof *pids);
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!pids || !args) {
        free(pids);
        free(args);
        return PT_EXIT_INPUT;
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
    int total = sw->nshards * devices, rc = PT_EXIT_OK;
    for (int d = 0; d < devices; d++) {
        snprintf(shard, sizeof shard, "%d/%d", (sw->shard - 1) * devices + d + 1, total);
        fflush(NULL);
        pids[d] = fork();
        if (pids[d] == 0) {
            char gpu[16];
            snprintf(gpu, sizeof gpu, "%d", d);
            setenv("CUDA_VISIBLE_DEVICES", gpu, 1);
            execv("/proc/self/exe", args);
            pt_cli_fail("--devices: cannot start a copy of pupiltrack");
            _exit(PT_EXIT_INPUT);
        }
        if (pids[d] < 0) {
            pt_cli_fail("--devices: cannot start shard %s", shard);
            rc = PT_EXIT_INPUT;
            break;
        }
    }
    int worst = PT_EXIT_OK;
    for (int d = 0; d < devices; d++) {
        int status;
        if (pids[d] > 0 && waitpid(pids[d], &status, 0) == pids[d]) {
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : PT_EXIT_INPUT;
            worst = code > worst ? code : worst;
        }
    }
    free(pids);
    free(args);
    if (rc || worst > PT_EXIT_INPUT || sw->nshards > 1)
        return rc ? rc : worst;
    char *merge_argv[] = {"merge", (char *)sw->outdir, NULL};
    int merged = pt_cmd_merge(2, merge_argv);
    return merged ? merged : worst;
}

int pt_cmd_sweep(int argc, char **argv)
{
    pt_sweep_job sw;
    memset(&sw, 0, sizeof sw);
    pt_detector_setup_default(&sw.base);
    sw.outdir = "sweep-out";
    sw.shard = sw.nshards = 1;
    sw.batch = 64;
    sw.cache_max = 1024L << 20;
    int rc = PT_EXIT_OK, devices = 0, ninput_args = 0;
    char **input_args = calloc((size_t)argc, sizeof *input_args);
    char *manifest = NULL;
    if (!input_args)
        return PT_EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        int used = pt_detector_setup_option(&sw.base, argc, argv, &i);
        if (used < 0) {
            rc = PT_EXIT_USAGE;
            goto done;
        }
        if (used)
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            goto done;
        }
        int takes_value = !strcmp(a, "-g") || !strcmp(a, "--gt") || !strcmp(a, "-o") ||
                          !strcmp(a, "--shape") || !strcmp(a, "--shard") ||
                          !strcmp(a, "--devices") || !strcmp(a, "--batch") ||
                          !strcmp(a, "--cache-mb");
        if (takes_value && i + 1 >= argc) {
            pt_cli_fail("sweep: option %s needs a value", a);
            rc = PT_EXIT_USAGE;
            goto done;
        }
        const char *v = takes_value ? argv[++i] : NULL;
        int n = 0;
        if (!strcmp(a, "-g")) {
            pt_error err;
            pt_error_clear(&err);
            if (pt_sweep_grid_add(&sw.grid, v, &err)) {
                pt_cli_report(&err);
                rc = PT_EXIT_USAGE;
                goto done;
            }
        } else if (!strcmp(a, "--gt")) {
            sw.gt_path = v;
        } else if (!strcmp(a, "-o")) {
            sw.outdir = v;
        } else if (!strcmp(a, "--shape")) {
            if (!strcmp(v, "circle") || !strcmp(v, "ellipse") || !strcmp(v, "auto")) {
                sw.shape = v[0] == 'c' ? PT_SHAPE_CIRCLE
                           : v[0] == 'e' ? PT_SHAPE_ELLIPSE
                                         : PT_SHAPE_AUTO;
            } else {
                pt_cli_fail("sweep: --shape must be circle, ellipse or auto, not '%s'", v);
                rc = PT_EXIT_USAGE;
                goto done;
            }
        } else if (!strcmp(a, "--shard")) {
            if (parse_shard(v, &sw.shard, &sw.nshards)) {
                rc = PT_EXIT_USAGE;
                goto done;
            }
        } else if (!strcmp(a, "--devices")) {
            devices = !strcmp(v, "all") ? count_gpus() : 0;
            if (!strcmp(v, "all") && devices == 0) {
                pt_cli_fail("--devices all: no GPU found (nvidia-smi -L lists none)");
                rc = PT_EXIT_UNAVAILABLE;
                goto done;
            }
            if (strcmp(v, "all") && pt_option_int(a, v, 1, 64, &n)) {
                rc = PT_EXIT_USAGE;
                goto done;
            }
            devices = devices ? devices : n;
        } else if (!strcmp(a, "--batch") || !strcmp(a, "--cache-mb")) {
            int batch = a[2] == 'b';
            if (pt_option_int(a, v, batch ? 1 : 0, batch ? PT_SWEEP_MAX_BATCH : 1 << 30, &n)) {
                rc = PT_EXIT_USAGE;
                goto done;
            }
            if (batch)
                sw.batch = n;
            else
                sw.cache_max = (long)n << 20;
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("sweep: unknown option '%s' (try --help)", a);
            rc = PT_EXIT_USAGE;
            goto done;
        } else {
            input_args[ninput_args++] = argv[i];
            if (pt_inputs_add(&sw.inputs, a)) {
                pt_cli_fail("%s: cannot read the folder", a);
                rc = PT_EXIT_INPUT;
                goto done;
            }
        }
    }
    if (!sw.gt_path || sw.inputs.count == 0) {
        pt_cli_fail("sweep: needs --gt GT.csv and images or a folder (try --help)");
        rc = PT_EXIT_USAGE;
        goto done;
    }
    if (sw.base.track.sequence && (sw.nshards > 1 || devices > 1)) {
        pt_cli_fail("sweep: --sequence cannot be split into shards (frames depend on the "
                    "previous one)");
        rc = PT_EXIT_USAGE;
        goto done;
    }
    if (!pt_file_exists(sw.gt_path)) {
        pt_cli_fail("%s: cannot read the ground truth", sw.gt_path);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if ((rc = check_backends(&sw)))
        goto done;
    if (devices > 0) {
        rc = run_devices(argc, argv, devices, &sw);
        goto done;
    }
    pt_error err;
    pt_error_clear(&err);
    if (!(manifest = manifest_text(&sw, input_args, ninput_args)) ||
        pt_sweep_make_dirs(sw.outdir, &err) ||
        pt_sweep_manifest_claim(sw.outdir, manifest, &err)) {
        if (manifest)
            pt_cli_report(&err);
        rc = err.status == PT_ERR_PARAM ? PT_EXIT_USAGE : PT_EXIT_INPUT;
        goto done;
    }
    long n = sw.inputs.count;
    sw.first = (int)((sw.shard - 1) * n / sw.nshards);
    sw.last = (int)(sw.shard * n / sw.nshards);
    sw.files = calloc((size_t)(sw.last - sw.first) + 1, sizeof *sw.files);
    if (!sw.files) {
        rc = PT_EXIT_INPUT;
        goto done;
    }
    sw.started = pt_sweep_clock();
    long ncfg = pt_sweep_grid_size(&sw.grid);
    for (long c = 0; c < ncfg; c++) {
        char path[4200];
        pt_sweep_results_path(path, sizeof path, sw.outdir, c, sw.shard, sw.nshards);
        sw.work_total += pt_file_exists(path) ? 0 : sw.last - sw.first;
    }
    for (long c = 0; c < ncfg && !rc; c++) {
        char path[4200];
        pt_sweep_results_path(path, sizeof path, sw.outdir, c, sw.shard, sw.nshards);
        if (!pt_file_exists(path))
            rc = pt_sweep_run_config(&sw, c, ncfg, path);
    }
    if (rc)
        goto done;
    if (sw.nshards == 1) {
        sw.error_rows = 0;
        if (pt_sweep_write_reports(sw.outdir, &sw.grid, sw.gt_path, sw.shape, &sw.error_rows,
                                   &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
    } else {
        /* rows written before a resume count too: read the shard's files back */
        sw.error_rows = 0;
        for (long c = 0; c < ncfg; c++) {
            char path[4200];
            pt_results res;
            pt_sweep_results_path(path, sizeof path, sw.outdir, c, sw.shard, sw.nshards);
            if (pt_results_load(path, &res, &err) == PT_OK) {
                for (int r = 0; r < res.count; r++)
                    sw.error_rows += res.rows[r].result.status == PT_DETECT_ERROR;
                pt_results_free(&res);
            }
        }
        fprintf(stderr, "pupiltrack: shard %d/%d done; 'pupiltrack merge %s' joins the shards\n",
                sw.shard, sw.nshards, sw.outdir);
    }
    if (sw.error_rows) {
        pt_cli_fail("sweep: %ld result rows have status=error (unreadable images)",
                    sw.error_rows);
        rc = PT_EXIT_INPUT;
    }
done:
    if (sw.files)
        for (int f = 0; f < sw.last - sw.first; f++) {
            pt_frames_free(&sw.files[f].frames);
            free(sw.files[f].error);
        }
    free(sw.files);
    free(manifest);
    free(input_args);
    pt_inputs_free(&sw.inputs);
    pt_sweep_grid_free(&sw.grid);
    return rc;
}
