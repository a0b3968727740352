/* pupiltrack sweep: run a detector over a folder for every configuration of a
 * parameter grid; per-frame results, curve and summary CSVs (SPEC §3, §5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/results.h"
#include "backends.h"
#include "cli.h"
#include "inputs.h"
#include "sweep_files.h"
#include "track_options.h"

#define SWEEP_MAX_BATCH 4096

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

typedef struct {
    pt_frames frames; /* kept in memory when the cache had room */
    char *error;      /* why the file could not be loaded, once known */
    int cached;
} sweep_file;

typedef struct {
    pt_detector_setup base;
    pt_sweep_grid grid;
    const char *outdir, *gt_path;
    pt_eval_shape shape;
    int shard, nshards, batch;
    long cache_max, cache_used;
    pt_input_list inputs;
    int first, last; /* this shard's files: [first, last) */
    sweep_file *files;
    long error_rows;
    long work_done, work_total; /* files x configurations, for the progress line */
    double started;
} sweep;

/* One configuration being run. */
typedef struct {
    pt_detector_setup setup;
    void *state;
    int state_width, state_height, eyes;
    FILE *out;
    pt_image *frames[SWEEP_MAX_BATCH];
    char *names[SWEEP_MAX_BATCH];
    int owned[SWEEP_MAX_BATCH]; /* 1: free the frame after the batch */
    int count;
    pt_result *results;
    pt_sweep_timing timing;
    char resume_path[4400]; /* NAME.tmp.resume: the last checkpoint */
} config_run;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int exit_for(const pt_error *err)
{
    return err->status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
}

static int ensure_backend(config_run *run, int width, int height)
{
    return pt_detector_fit(&run->setup, width, height, &run->state, &run->state_width,
                           &run->state_height);
}

static void write_rows(config_run *run, const char *name, const pt_result *res)
{
    for (int e = 0; e < run->eyes; e++)
        pt_results_write_row(run->out, name, pt_algorithm_name(run->setup.track.algorithm),
                             run->setup.backend->name, &res[e]);
}

static void release_batch(config_run *run)
{
    for (int i = 0; i < run->count; i++) {
        if (run->owned[i])
            pt_image_destroy(run->frames[i]);
        free(run->names[i]);
    }
    run->count = 0;
}

static int flush_batch(sweep *sw, config_run *run)
{
    if (run->count == 0)
        return 0;
    int maxw = 0, maxh = 0;
    for (int i = 0; i < run->count; i++) {
        maxw = run->frames[i]->width > maxw ? run->frames[i]->width : maxw;
        maxh = run->frames[i]->height > maxh ? run->frames[i]->height : maxh;
    }
    int fresh = !run->state || maxw > run->state_width || maxh > run->state_height;
    int rc = ensure_backend(run, maxw, maxh);
    if (rc)
        return rc;
    pt_error err;
    pt_error_clear(&err);
    /* A new back end's first call pays for start-up (GPU kernels, caches): run one
     * frame untimed and discard it, unless frames depend on the previous one. */
    if (fresh && !run->setup.track.sequence &&
        run->setup.backend->track(run->state, run->frames, 1, run->results, NULL, &err)) {
        pt_cli_report(&err);
        return exit_for(&err);
    }
    double t0 = now_s();
    if (run->setup.backend->track(run->state, run->frames, run->count, run->results, NULL,
                                  &err)) {
        pt_cli_report(&err);
        return exit_for(&err);
    }
    run->timing.track_s += now_s() - t0;
    run->timing.frames += run->count;
    for (int i = 0; i < run->count; i++) {
        const pt_result *res = run->results + (size_t)i * run->eyes;
        write_rows(run, run->names[i], res);
        for (int e = 0; e < run->eyes; e++)
            sw->error_rows += res[e].status == PT_DETECT_ERROR;
    }
    release_batch(run);
    return 0;
}

static void write_error_rows(sweep *sw, config_run *run, const char *name, const char *why)
{
    pt_result r[2];
    memset(r, 0, sizeof r);
    for (int e = 0; e < run->eyes; e++) {
        r[e].status = PT_DETECT_ERROR;
        r[e].eye = run->setup.track.binocular ? (e ? 'R' : 'L') : 0;
        snprintf(r[e].message, sizeof r[e].message, "%.255s", why);
    }
    write_rows(run, name, r);
    sw->error_rows += run->eyes;
}

/* The frames of file f, from the cache or freshly loaded; NULL after an error
 * (reported once per file). *owned says whether the caller frees them. */
static pt_frames *file_frames(sweep *sw, int f, pt_frames *scratch, int *owned)
{
    sweep_file *sf = &sw->files[f - sw->first];
    *owned = 0;
    if (sf->error)
        return NULL;
    if (sf->cached)
        return &sf->frames;
    pt_error err;
    pt_error_clear(&err);
    scratch->count = 0;
    scratch->frames = NULL;
    if (pt_image_load(sw->inputs.paths[f], &sw->base.load, scratch, &err)) {
        pt_cli_report(&err);
        sf->error = strdup(err.what[0] ? err.what : "cannot load");
        return NULL;
    }
    long bytes = 0;
    for (int p = 0; p < scratch->count; p++)
        bytes += (long)scratch->frames[p]->stride * scratch->frames[p]->height;
    if (sw->cache_used + bytes <= sw->cache_max) {
        sw->cache_used += bytes;
        sf->frames = *scratch;
        sf->cached = 1;
        return &sf->frames;
    }
    *owned = 1;
    return scratch;
}

/* Within a configuration the rows written so far are checkpointed at file
 * boundaries: NAME.tmp.resume says "files=F bytes=B frames=N track_s=S", the
 * first F files' rows being the first B bytes of NAME.tmp. A resumed sweep
 * keeps those and goes on with file F. */
static void checkpoint(config_run *run, int files_done)
{
    if (fflush(run->out))
        return;
    long bytes = ftell(run->out);
    char tmp[4500];
    snprintf(tmp, sizeof tmp, "%s.tmp", run->resume_path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "files=%d bytes=%ld frames=%ld track_s=%.6f\n", files_done, bytes,
            run->timing.frames, run->timing.track_s);
    if (fclose(f) == 0 && bytes > 0)
        rename(tmp, run->resume_path);
    else
        remove(tmp);
}

/* Reopen NAME.tmp at its checkpoint; returns the files already done there,
 * or -1 to start the configuration afresh. */
static int resume_at_checkpoint(const sweep *sw, config_run *run, const char *tmp)
{
    /* a sequence's next frame depends on the one before: start again */
    if (run->setup.track.sequence)
        return -1;
    FILE *f = fopen(run->resume_path, "r");
    if (!f)
        return -1;
    int files = -1;
    long bytes = 0;
    pt_sweep_timing t = {0, 0};
    int n = fscanf(f, "files=%d bytes=%ld frames=%ld track_s=%lf", &files, &bytes, &t.frames,
                   &t.track_s);
    fclose(f);
    struct stat st;
    if (n != 4 || files < 0 || files > sw->last - sw->first || bytes <= 0 || stat(tmp, &st) ||
        st.st_size < bytes || truncate(tmp, bytes) || !(run->out = fopen(tmp, "a")) ||
        fseek(run->out, 0, SEEK_END))
        return -1;
    run->timing = t;
    return files;
}

static int run_files(sweep *sw, config_run *run, int start, long cfg_index, long ncfg)
{
    char label[80];
    snprintf(label, sizeof label, "sweep (configuration %ld/%ld): files", cfg_index + 1, ncfg);
    sw->work_done += start;
    for (int f = sw->first + start; f < sw->last; f++) {
        pt_frames scratch;
        int owned;
        pt_frames *frames = file_frames(sw, f, &scratch, &owned);
        const char *path = sw->inputs.paths[f];
        if (!frames) {
            /* keep rows in file order: what is batched goes out first */
            int rc = flush_batch(sw, run);
            if (rc)
                return rc;
            write_error_rows(sw, run, path, sw->files[f - sw->first].error);
        }
        for (int p = 0; frames && p < frames->count; p++) {
            char name[4200];
            if (frames->count > 1)
                snprintf(name, sizeof name, "%s#%d", path, p);
            else
                snprintf(name, sizeof name, "%s", path);
            run->frames[run->count] = frames->frames[p];
            run->owned[run->count] = owned;
            run->names[run->count] = strdup(name);
            if (owned)
                frames->frames[p] = NULL;
            if (++run->count == sw->batch) {
                int rc = flush_batch(sw, run);
                if (rc) {
                    if (owned)
                        pt_frames_free(frames);
                    return rc;
                }
            }
        }
        if (owned)
            pt_frames_free(frames);
        if (run->count == 0)
            checkpoint(run, f + 1 - sw->first);
        pt_cli_progress(label, ++sw->work_done, sw->work_total, now_s() - sw->started);
    }
    return flush_batch(sw, run);
}

/* Run configuration index into its results file (NAME.tmp, renamed when whole). */
static int run_config(sweep *sw, long index, long ncfg, const char *final_path)
{
    config_run *run = calloc(1, sizeof *run);
    if (!run)
        return PT_EXIT_INPUT;
    run->setup = sw->base;
    const char *backend_name = NULL;
    pt_error err;
    pt_error_clear(&err);
    if (pt_sweep_apply(&sw->grid, index, &run->setup.config, &run->setup.track, &backend_name,
                       &err)) {
        pt_cli_report(&err);
        free(run);
        return PT_EXIT_USAGE;
    }
    if (backend_name)
        run->setup.backend = pt_backend_by_name(backend_name);
    run->eyes = run->setup.track.binocular ? 2 : 1;
    run->results = calloc((size_t)sw->batch * run->eyes, sizeof *run->results);
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", final_path);
    snprintf(run->resume_path, sizeof run->resume_path, "%s.resume", tmp);
    int start = resume_at_checkpoint(sw, run, tmp), rc = PT_EXIT_OK;
    if (start < 0) {
        remove(run->resume_path);
        start = 0;
        if ((run->out = fopen(tmp, "w")))
            pt_results_write_header(run->out);
    }
    if (!run->results || !run->out) {
        pt_cli_fail("%s: cannot write the results file", tmp);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    rc = run_files(sw, run, start, index, ncfg);
    if (rc)
        goto done;
    pt_sweep_timing_write(run->out, &run->timing);
    int failed = ferror(run->out) != 0;
    failed |= fclose(run->out) != 0;
    run->out = NULL;
    if (failed || rename(tmp, final_path)) {
        pt_cli_fail("%s: error writing the results file", tmp);
        rc = PT_EXIT_INPUT;
    }
    remove(run->resume_path);
done:
    release_batch(run);
    if (run->out)
        fclose(run->out);
    if (run->state)
        run->setup.backend->destroy(run->state);
    free(run->results);
    free(run);
    return rc;
}

/* Every back end the grid uses must run here: say so before any work (exit 3). */
static int check_backends(const sweep *sw)
{
    const pt_sweep_axis *axis = NULL;
    for (int a = 0; a < sw->grid.naxes; a++)
        if (sw->grid.axes[a].kind == PT_AXIS_BACKEND)
            axis = &sw->grid.axes[a];
    int n = axis ? axis->count : 1;
    for (int i = 0; i < n; i++) {
        const pt_backend *b = axis ? pt_backend_by_name(axis->values[i]) : sw->base.backend;
        if (!b) {
            pt_cli_fail("-g: backend: unknown back end '%s' (%s)", axis->values[i],
                        pt_backend_names());
            return PT_EXIT_USAGE;
        }
        void *state = NULL;
        pt_error err;
        pt_error_clear(&err);
        if (b->create(&sw->base.config, &sw->base.track, 64, 64, &state, &err)) {
            pt_cli_report(&err);
            return exit_for(&err);
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
static char *manifest_text(const sweep *sw, char *const *input_args, int ninput_args)
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
static int run_devices(int argc, char **argv, int devices, const sweep *sw)
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
    sweep sw;
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
            if (pt_option_int(a, v, batch ? 1 : 0, batch ? SWEEP_MAX_BATCH : 1 << 30, &n)) {
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
    sw.started = now_s();
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
            rc = run_config(&sw, c, ncfg, path);
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
