#include "cli/sweep_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/io/results.h"
#include "cli/backends/registry.h"
#include "cli/cli.h"
#include "cli/load_group.h"

/* One configuration being run. */
typedef struct {
    pt_detector_setup setup;
    void *state;
    int state_width, state_height, eyes;
    FILE *out;
    pt_image *frames[PT_SWEEP_MAX_BATCH];
    char *names[PT_SWEEP_MAX_BATCH];
    int owned[PT_SWEEP_MAX_BATCH]; /* 1: free the frame after the batch */
    int count;
    pt_result *results;
    pt_sweep_timing timing;
    char resume_path[4400]; /* NAME.tmp.resume: the last checkpoint */
} config_run;

double pt_sweep_clock(void)
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

static int flush_batch(pt_sweep_job *sw, config_run *run)
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
    double t0 = pt_sweep_clock();
    if (run->setup.backend->track(run->state, run->frames, run->count, run->results, NULL,
                                  &err)) {
        pt_cli_report(&err);
        return exit_for(&err);
    }
    run->timing.track_s += pt_sweep_clock() - t0;
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

static void write_error_rows(pt_sweep_job *sw, config_run *run, const char *name, const char *why)
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

/* Files decoded ahead of their turn: ahead[k] is file first + k. */
typedef struct {
    pt_loaded_input in[PT_LOAD_GROUP];
    int first, count;
} files_ahead;

/* Whether file f still has to be decoded (neither cached nor failed). */
static int needs_decoding(const pt_sweep_job *sw, int f)
{
    const pt_sweep_file *sf = &sw->files[f - sw->first];
    return !sf->error && !sf->cached;
}

/* Decode file f and the files after it that need it (up to PT_LOAD_GROUP,
 * pt_load_group_size's group) at the same time into ahead. */
static void decode_ahead(pt_sweep_job *sw, int f, files_ahead *ahead)
{
    int limit = 1;
    while (limit < PT_LOAD_GROUP && f + limit < sw->last && needs_decoding(sw, f + limit))
        limit++;
    ahead->first = f;
    ahead->count = pt_load_group_size(sw->inputs.paths + f, limit, limit);
    pt_load_group(sw->inputs.paths + f, ahead->count, &sw->base.load, sw->base.track.threads,
                  ahead->in);
}

/* The frames of file f, from the cache or decoded (ahead, with the files
 * after it); NULL after an error (reported once per file). *owned says
 * whether the caller frees them. */
static pt_frames *file_frames(pt_sweep_job *sw, int f, files_ahead *ahead, pt_frames *scratch,
                              int *owned)
{
    pt_sweep_file *sf = &sw->files[f - sw->first];
    *owned = 0;
    if (sf->error)
        return NULL;
    if (sf->cached)
        return &sf->frames;
    if (f < ahead->first || f >= ahead->first + ahead->count)
        decode_ahead(sw, f, ahead);
    pt_loaded_input *in = &ahead->in[f - ahead->first];
    *scratch = in->frames;
    memset(&in->frames, 0, sizeof in->frames);
    if (in->status) {
        pt_cli_report(&in->err);
        sf->error = strdup(in->err.what[0] ? in->err.what : "cannot load");
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
static int resume_at_checkpoint(const pt_sweep_job *sw, config_run *run, const char *tmp)
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

static int run_files(pt_sweep_job *sw, config_run *run, int start, long cfg_index, long ncfg)
{
    char label[80];
    snprintf(label, sizeof label, "sweep (configuration %ld/%ld): files", cfg_index + 1, ncfg);
    sw->work_done += start;
    files_ahead ahead;
    ahead.first = ahead.count = 0;
    int rc = 0;
    for (int f = sw->first + start; f < sw->last && !rc; f++) {
        pt_frames scratch;
        int owned;
        pt_frames *frames = file_frames(sw, f, &ahead, &scratch, &owned);
        const char *path = sw->inputs.paths[f];
        if (!frames) {
            /* keep rows in file order: what is batched goes out first */
            if ((rc = flush_batch(sw, run)))
                break;
            write_error_rows(sw, run, path, sw->files[f - sw->first].error);
        }
        for (int p = 0; frames && p < frames->count && !rc; p++) {
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
            if (++run->count == sw->batch)
                rc = flush_batch(sw, run);
        }
        if (owned)
            pt_frames_free(frames);
        if (rc)
            break;
        if (run->count == 0)
            checkpoint(run, f + 1 - sw->first);
        pt_cli_progress(label, ++sw->work_done, sw->work_total, pt_sweep_clock() - sw->started);
    }
    for (int k = 0; k < ahead.count; k++) /* decoded ahead, not reached */
        pt_frames_free(&ahead.in[k].frames);
    return rc ? rc : flush_batch(sw, run);
}

int pt_sweep_run_config(pt_sweep_job *sw, long index, long ncfg, const char *final_path)
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
        run->setup.backend = pt_track_backend(backend_name);
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

