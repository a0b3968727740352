/* Running a sweep: configurations in order, batches to the back end, results
 * rows with checkpoints for resuming, the reports (pupiltrack-sweep(1)). */
#include "eval/sweep_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "eval/sweep_checkpoint.h"
#include "eval/sweep_files.h"
#include "eval/sweep_report.h"
#include "lib/core/output_file.h"
#include "lib/detect/notfound_reason.h"
#include "lib/io/gt.h"
#include "lib/io/load_group.h"
#include "lib/io/results.h"

/* An input file of this process's share. */
typedef struct {
    pt_frames frames; /* kept in memory when the cache had room */
    char *error;      /* why the file could not be loaded, once known */
    int cached;
} sweep_file;

/* The run as a whole. */
typedef struct {
    const pt_sweep_job *job;
    const pt_sweep_hooks *hooks;
    int first, last;   /* this shard's files: [first, last) */
    sweep_file *files; /* last - first of them */
    long cache_used;
    long work_done, work_total; /* files x configurations, for the progress line */
    double started;
    long error_rows; /* status=error rows of a shard's results */
} sweep_state;

/* One configuration being run. Its results file is written twice over: to
 * the file (NAME.tmp, renamed when whole) and to text, the same bytes in
 * memory, from which the reports are drawn without reading the file back. */
typedef struct {
    pt_track_options track;
    pt_config config;
    const pt_backend *backend;
    void *state;
    int state_width, state_height, eyes;
    pt_output out;
    FILE *mem; /* open_memstream over text */
    char *text;
    size_t text_len, written; /* bytes of text; of those, bytes given to out */
    pt_image *frames[PT_SWEEP_MAX_BATCH];
    char *names[PT_SWEEP_MAX_BATCH];
    int owned[PT_SWEEP_MAX_BATCH]; /* 1: free the frame after the batch */
    int count;
    pt_result *results;
    pt_sweep_timing timing;
    char resume_path[4400]; /* NAME.tmp.resume: the last checkpoint */
} config_run;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void report(const sweep_state *sw, const pt_error *err)
{
    if (sw->hooks && sw->hooks->report)
        sw->hooks->report(sw->hooks->ctx, err);
}

/* Have run->state hold the back end for frames up to width x height. */
static pt_status fit_backend(config_run *run, int width, int height, pt_error *err)
{
    if (run->state && width <= run->state_width && height <= run->state_height)
        return PT_OK;
    if (run->state)
        run->backend->destroy(run->state);
    run->state = NULL;
    int w = width > run->state_width ? width : run->state_width;
    int h = height > run->state_height ? height : run->state_height;
    if (run->backend->create(&run->config, &run->track, w, h, &run->state, err))
        return err->status;
    run->state_width = w;
    run->state_height = h;
    return PT_OK;
}

static void write_rows(config_run *run, const char *name, const pt_result *res)
{
    for (int e = 0; e < run->eyes; e++)
        pt_results_write_row(run->mem, name, pt_algorithm_name(run->track.algorithm),
                             run->backend->name, &res[e]);
}

/* Give the rows written to text since the last call to the file, and check. */
static pt_status write_through(config_run *run, pt_error *err)
{
    if (fflush(run->mem))
        return pt_error_set(err, PT_ERR_NOMEM, run->out.path, "out of memory");
    fwrite(run->text + run->written, 1, run->text_len - run->written, run->out.fp);
    run->written = run->text_len;
    return pt_output_check(&run->out, err);
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

static pt_status flush_batch(config_run *run, pt_error *err)
{
    if (run->count == 0)
        return PT_OK;
    int maxw = 0, maxh = 0;
    for (int i = 0; i < run->count; i++) {
        maxw = run->frames[i]->width > maxw ? run->frames[i]->width : maxw;
        maxh = run->frames[i]->height > maxh ? run->frames[i]->height : maxh;
    }
    int fresh = !run->state || maxw > run->state_width || maxh > run->state_height;
    if (fit_backend(run, maxw, maxh, err))
        return err->status;
    /* A new back end's first call pays for start-up (GPU kernels, caches): run one
     * frame untimed and discard it, unless frames depend on the previous one. */
    if (fresh && !run->track.sequence &&
        run->backend->track(run->state, run->frames, 1, run->results, NULL, err))
        return err->status;
    double t0 = seconds();
    if (run->backend->track(run->state, run->frames, run->count, run->results, NULL, err))
        return err->status;
    run->timing.track_s += seconds() - t0;
    run->timing.frames += run->count;
    for (int i = 0; i < run->count; i++) {
        pt_result *res = run->results + (size_t)i * run->eyes;
        pt_explain_notfound(res, run->eyes, run->frames[i], run->track.algorithm);
        write_rows(run, run->names[i], res);
    }
    release_batch(run);
    return write_through(run, err);
}

static void write_error_rows(config_run *run, const char *name, const char *why)
{
    pt_result r[2];
    memset(r, 0, sizeof r);
    for (int e = 0; e < run->eyes; e++) {
        r[e].status = PT_DETECT_ERROR;
        r[e].eye = run->track.binocular ? (e ? 'R' : 'L') : 0;
        snprintf(r[e].message, sizeof r[e].message, "%.255s", why);
    }
    write_rows(run, name, r);
}

/* Files decoded ahead of their turn: ahead[k] is file first + k. */
typedef struct {
    pt_loaded_input in[PT_LOAD_GROUP];
    int first, count;
} files_ahead;

/* Whether file f still has to be decoded (neither cached nor failed). */
static int needs_decoding(const sweep_state *sw, int f)
{
    const sweep_file *sf = &sw->files[f - sw->first];
    return !sf->error && !sf->cached;
}

/* Decode file f and the files after it that need it (up to PT_LOAD_GROUP,
 * pt_load_group_size's group) at the same time into ahead. */
static void decode_ahead(sweep_state *sw, int f, files_ahead *ahead)
{
    int limit = 1;
    while (limit < PT_LOAD_GROUP && f + limit < sw->last && needs_decoding(sw, f + limit))
        limit++;
    ahead->first = f;
    ahead->count = pt_load_group_size(sw->job->paths + f, limit, limit);
    pt_load_group(sw->job->paths + f, ahead->count, &sw->job->load, sw->job->track.threads,
                  ahead->in);
}

/* The frames of file f, from the cache or decoded (ahead, with the files
 * after it); NULL after an error (reported once per file). *owned says
 * whether the caller frees them. */
static pt_frames *file_frames(sweep_state *sw, int f, files_ahead *ahead, pt_frames *scratch,
                              int *owned)
{
    sweep_file *sf = &sw->files[f - sw->first];
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
        report(sw, &in->err);
        sf->error = strdup(in->err.what[0] ? in->err.what : "cannot load");
        return NULL;
    }
    long bytes = 0;
    for (int p = 0; p < scratch->count; p++)
        bytes += (long)scratch->frames[p]->stride * scratch->frames[p]->height;
    if (sw->cache_used + bytes <= sw->job->cache_max) {
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
static pt_status checkpoint(config_run *run, int files_done, pt_error *err)
{
    if (write_through(run, err))
        return err->status;
    pt_output resume;
    if (pt_output_open(&resume, run->resume_path, 0, err))
        return err->status;
    fprintf(resume.fp, "files=%d bytes=%zu frames=%ld track_s=%.6f\n", files_done,
            run->written, run->timing.frames, run->timing.track_s);
    return pt_output_close(&resume, err);
}

/* The checkpoint of an interrupted run of this configuration: the files
 * done there, the bytes of NAME.tmp that hold their rows, and the timing;
 * -1 to start afresh. */
static int read_checkpoint(const sweep_state *sw, config_run *run, const char *tmp, long *bytes)
{
    /* a sequence's next frame depends on the one before: start again */
    if (run->track.sequence)
        return -1;
    FILE *f = fopen(run->resume_path, "r");
    if (!f)
        return -1;
    char line[256];
    size_t n = fread(line, 1, sizeof line, f);
    fclose(f);
    pt_sweep_checkpoint c;
    pt_error err;
    struct stat st;
    if (pt_sweep_checkpoint_parse(line, n, &c, &err) || c.files > sw->last - sw->first ||
        stat(tmp, &st) || st.st_size < c.bytes)
        return -1;
    *bytes = c.bytes;
    run->timing = c.timing;
    return c.files;
}

/* Open NAME.tmp: taken up at its checkpoint (its kept rows read into text),
 * or new with the header. Returns the files already done. */
static int open_results(const sweep_state *sw, config_run *run, const char *final_path,
                        pt_error *err)
{
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", final_path);
    snprintf(run->resume_path, sizeof run->resume_path, "%s.resume", tmp);
    long keep = 0;
    int start = read_checkpoint(sw, run, tmp, &keep);
    char *kept = NULL;
    size_t kept_len = 0;
    if (start >= 0 && (!(kept = pt_sweep_read_file(tmp, &kept_len)) || kept_len < (size_t)keep))
        start = -1;
    if (start < 0) {
        remove(run->resume_path);
        keep = 0;
        memset(&run->timing, 0, sizeof run->timing);
    }
    if (pt_output_open_resumable(&run->out, final_path, tmp, keep, PT_OUTPUT_SYNC, err)) {
        free(kept);
        return -1;
    }
    if (start < 0)
        pt_results_write_header(run->mem);
    else
        fwrite(kept, 1, (size_t)keep, run->mem);
    free(kept);
    if (fflush(run->mem)) {
        pt_error_set(err, PT_ERR_NOMEM, final_path, "out of memory");
        return -1;
    }
    run->written = start < 0 ? 0 : run->text_len; /* the kept bytes are in the file */
    return start < 0 ? 0 : start;
}

static pt_status run_files(sweep_state *sw, config_run *run, int start, long cfg_index,
                           pt_error *err)
{
    char label[80];
    snprintf(label, sizeof label, "sweep (configuration %ld/%ld): files", cfg_index + 1,
             pt_sweep_grid_size(&sw->job->grid));
    sw->work_done += start;
    files_ahead ahead;
    ahead.first = ahead.count = 0;
    pt_status st = PT_OK;
    for (int f = sw->first + start; f < sw->last && !st; f++) {
        pt_frames scratch;
        int owned;
        pt_frames *frames = file_frames(sw, f, &ahead, &scratch, &owned);
        const char *path = sw->job->paths[f];
        if (!frames) {
            /* keep rows in file order: what is batched goes out first */
            if ((st = flush_batch(run, err)))
                break;
            write_error_rows(run, path, sw->files[f - sw->first].error);
        }
        for (int p = 0; frames && p < frames->count && !st; p++) {
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
            if (++run->count == sw->job->batch)
                st = flush_batch(run, err);
        }
        if (owned)
            pt_frames_free(frames);
        if (!st && run->count == 0)
            st = checkpoint(run, f + 1 - sw->first, err);
        if (!st && sw->hooks && sw->hooks->progress)
            sw->hooks->progress(sw->hooks->ctx, label, ++sw->work_done, sw->work_total,
                                seconds() - sw->started);
    }
    for (int k = 0; k < ahead.count; k++) /* decoded ahead, not reached */
        pt_frames_free(&ahead.in[k].frames);
    return st ? st : flush_batch(run, err);
}

/* Run configuration index into final_path (NAME.tmp, checkpointed, renamed
 * when whole); on success *text holds the file's bytes (the caller frees). */
static pt_status run_config(sweep_state *sw, long index, const char *final_path, char **text,
                            size_t *len, pt_error *err)
{
    const pt_sweep_job *job = sw->job;
    config_run *run = calloc(1, sizeof *run);
    if (!run)
        return pt_error_set(err, PT_ERR_NOMEM, final_path, "out of memory");
    run->track = job->track;
    run->config = job->config;
    run->backend = job->backend;
    run->out.fd = -1;
    const char *backend_name = NULL;
    pt_status st = pt_sweep_apply(&job->grid, index, &run->config, &run->track, &backend_name,
                                  err);
    for (int a = 0; backend_name && a < job->grid.naxes; a++)
        for (int v = 0; job->grid.axes[a].kind == PT_AXIS_BACKEND && v < job->grid.axes[a].count;
             v++)
            if (!strcmp(job->grid.axes[a].values[v], backend_name))
                run->backend = job->backends[v];
    run->eyes = run->track.binocular ? 2 : 1;
    run->results = calloc((size_t)job->batch * run->eyes, sizeof *run->results);
    run->mem = open_memstream(&run->text, &run->text_len);
    if (!st && (!run->results || !run->mem))
        st = pt_error_set(err, PT_ERR_NOMEM, final_path, "out of memory");
    int start = st ? -1 : open_results(sw, run, final_path, err);
    if (start < 0 && !st)
        st = err->status;
    if (!st)
        st = run_files(sw, run, start, index, err);
    if (!st) {
        pt_sweep_timing_write(run->mem, &run->timing);
        st = write_through(run, err);
    }
    if (!st && !(st = pt_output_close(&run->out, err)))
        remove(run->resume_path);
    /* after an error NAME.tmp stays, with its checkpoint, for a resumed run */
    pt_output_suspend(&run->out);
    release_batch(run);
    if (run->state)
        run->backend->destroy(run->state);
    if (run->mem)
        fclose(run->mem);
    if (!st) {
        *text = run->text;
        *len = run->text_len;
    } else {
        free(run->text);
    }
    free(run->results);
    free(run);
    return st;
}

/* Configuration index: run it, or read it back when a previous run finished
 * it; then its rows go to the reports (rep, unsharded) or are counted. */
static pt_status do_config(sweep_state *sw, long index, pt_sweep_report *rep, pt_error *err)
{
    const pt_sweep_job *job = sw->job;
    char path[4200];
    pt_sweep_results_path(path, sizeof path, job->outdir, index, job->shard, job->nshards);
    char *text = NULL;
    size_t len = 0;
    int done_before = pt_file_exists(path);
    if (done_before) {
        if (!(text = pt_sweep_read_file(path, &len)))
            return pt_error_set(err, PT_ERR_IO, path, "cannot read: %s", strerror(errno));
    } else if (run_config(sw, index, path, &text, &len, err)) {
        return err->status;
    }
    pt_status st = PT_OK;
    if (rep) {
        st = pt_sweep_report_add(rep, index, text, len, path, err);
    } else {
        /* a shard counts its status=error rows, those of an earlier run too */
        pt_results res;
        pt_sweep_timing t;
        if (!(st = pt_sweep_results_parse(text, len, path, &res, &t, err))) {
            for (int r = 0; r < res.count; r++)
                sw->error_rows += res.rows[r].result.status == PT_DETECT_ERROR;
            pt_results_free(&res);
        }
    }
    free(text);
    return st;
}

static pt_status run_all(sweep_state *sw, const pt_gt *gt, pt_sweep_outcome *outcome,
                         pt_error *err)
{
    const pt_sweep_job *job = sw->job;
    long ncfg = pt_sweep_grid_size(&job->grid);
    for (long c = 0; c < ncfg; c++) {
        char path[4200];
        pt_sweep_results_path(path, sizeof path, job->outdir, c, job->shard, job->nshards);
        sw->work_total += pt_file_exists(path) ? 0 : sw->last - sw->first;
    }
    sw->started = seconds();
    pt_sweep_report rep;
    int reports = job->nshards == 1;
    if (reports && pt_sweep_report_open(&rep, job->outdir, &job->grid, gt, job->shape, err))
        return err->status;
    pt_status st = PT_OK;
    for (long c = 0; c < ncfg && !st; c++)
        st = do_config(sw, c, reports ? &rep : NULL, err);
    if (reports) {
        if (st)
            pt_sweep_report_discard(&rep);
        else
            st = pt_sweep_report_close(&rep, err);
        /* the reports' count takes in configurations finished before a resume */
        sw->error_rows = rep.error_rows;
    }
    outcome->error_rows = sw->error_rows;
    outcome->reports = reports && !st;
    return st;
}

pt_status pt_sweep_execute(const pt_sweep_job *job, const pt_sweep_hooks *hooks,
                           pt_sweep_outcome *outcome, pt_error *err)
{
    memset(outcome, 0, sizeof *outcome);
    /* Every input is checked before the first frame: the ground truth is
     * read whole (a bad row stops the sweep here), the folder is made,
     * locked and claimed. */
    pt_gt gt;
    if (pt_gt_load(job->gt_path, &gt, err))
        return err->status;
    sweep_state sw;
    memset(&sw, 0, sizeof sw);
    sw.job = job;
    sw.hooks = hooks;
    pt_sweep_lock lock = {-1};
    char *manifest = pt_sweep_manifest_text(job);
    pt_status st = PT_OK;
    if (!manifest)
        st = pt_error_set(err, PT_ERR_NOMEM, job->outdir, "out of memory");
    if (!st)
        st = pt_sweep_make_dirs(job->outdir, err);
    if (!st)
        st = pt_sweep_lock_take(job->outdir, job->shard, job->nshards, &lock, err);
    if (!st)
        st = pt_sweep_manifest_claim(job->outdir, manifest, err);
    long n = job->npaths;
    sw.first = (int)((job->shard - 1) * n / job->nshards);
    sw.last = (int)(job->shard * n / job->nshards);
    if (!st && !(sw.files = calloc((size_t)(sw.last - sw.first) + 1, sizeof *sw.files)))
        st = pt_error_set(err, PT_ERR_NOMEM, job->outdir, "out of memory");
    if (!st)
        st = run_all(&sw, &gt, outcome, err);
    if (sw.files)
        for (int f = 0; f < sw.last - sw.first; f++) {
            pt_frames_free(&sw.files[f].frames);
            free(sw.files[f].error);
        }
    free(sw.files);
    free(manifest);
    pt_sweep_lock_release(&lock);
    pt_gt_free(&gt);
    return st;
}
