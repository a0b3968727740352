/* Joining the shards of one sweep: check every part, then write. */
#include "eval/sweep_merge.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/sweep_files.h"
#include "eval/sweep_report.h"
#include "lib/io/gt.h"
#include "lib/io/results.h"

/* The shard count N of the parts "NNNN.part-K-of-N.csv" in DIR/results
 * (*count stays 0 when there are none); an error when two counts are there. */
static pt_status shard_count(const char *dir, int *count, pt_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results", dir);
    DIR *d = opendir(path);
    if (!d)
        return PT_OK;
    struct dirent *e;
    pt_status st = PT_OK;
    while ((e = readdir(d)) && !st) {
        long index;
        int k, n, used = 0;
        if (sscanf(e->d_name, "%ld.part-%d-of-%d.csv%n", &index, &k, &n, &used) != 3 ||
            e->d_name[used] != '\0' || n < 2)
            continue;
        if (*count && *count != n)
            st = pt_error_set(err, PT_ERR_FORMAT, path,
                              "parts of sweeps in %d and in %d shards; remove one set", *count,
                              n);
        *count = n;
    }
    closedir(d);
    return st;
}

/* The part of shard k for configuration index: its path (in the first
 * folder holding it) and text. Two folders holding different files for it
 * is an error. */
static pt_status read_part(const pt_sweep_merge_job *job, long index, int k, int nshards,
                           char *path, int size, char **text, size_t *len, pt_error *err)
{
    *text = NULL;
    for (int d = 0; d < job->ndirs; d++) {
        char other[4200];
        pt_sweep_results_path(other, sizeof other, job->dirs[d], index, k, nshards);
        if (!pt_file_exists(other))
            continue;
        size_t other_len;
        char *other_text = pt_sweep_read_file(other, &other_len);
        if (!other_text) {
            free(*text);
            return pt_error_set(err, PT_ERR_IO, other, "cannot read: %s", strerror(errno));
        }
        if (!*text) {
            snprintf(path, (size_t)size, "%s", other);
            *text = other_text;
            *len = other_len;
            continue;
        }
        int same = other_len == *len && !memcmp(other_text, *text, *len);
        free(other_text);
        if (!same) {
            free(*text);
            *text = NULL;
            return pt_error_set(err, PT_ERR_FORMAT, other,
                                "differs from %s (shard %d/%d run twice?); remove one of them",
                                path, k, nshards);
        }
    }
    if (!*text) {
        pt_sweep_results_path(path, size, job->dirs[0], index, k, nshards);
        return pt_error_set(err, PT_ERR_IO, path,
                            "missing: shard %d/%d has not finished configuration %ld", k, nshards,
                            index);
    }
    return PT_OK;
}

/* A results row's input file: its image name without a page suffix "#P";
 * *continues is 1 for the pages after the first of a multi-page file. */
static size_t file_of_row(const char *image, int *continues)
{
    size_t len = strlen(image);
    const char *hash = strrchr(image, '#');
    *continues = 0;
    if (!hash || !hash[1] || strspn(hash + 1, "0123456789") != strlen(hash + 1))
        return len;
    *continues = strcmp(hash + 1, "0") != 0;
    return (size_t)(hash - image);
}

pt_status pt_sweep_part_check(const char *path, const char *text, size_t len, int eyes,
                            int files_expected, unsigned long long *hash, pt_sweep_timing *t,
                            pt_error *err)
{
    size_t header = strlen(PT_RESULTS_HEADER);
    if (len < header + 1 || strncmp(text, PT_RESULTS_HEADER, header) ||
        (text[header] != '\n' && text[header] != '\r'))
        return pt_error_set(err, PT_ERR_FORMAT, path, "not a results file (header line differs)");
    if (!pt_sweep_timing_parse(text, len, t))
        return pt_error_set(err, PT_ERR_FORMAT, path,
                            "incomplete: no end line '" PT_SWEEP_TIMING_TAG "frames=N track_s=S'");
    int end_lines = 0;
    for (const char *p = text; (p = strstr(p, "\n" PT_SWEEP_TIMING_TAG)); p++)
        end_lines++;
    if (end_lines != 1)
        return pt_error_set(err, PT_ERR_FORMAT, path,
                            "%d end lines: written by two runs at once? run this shard again",
                            end_lines);
    pt_results res;
    if (pt_results_load_memory(text, len, path, &res, err))
        return err->status;
    pt_status st = PT_OK;
    int files = 0;
    if (res.count % eyes)
        st = pt_error_set(err, PT_ERR_FORMAT, path, "%d rows for %d eyes per frame", res.count,
                          eyes);
    for (int r = 0; r < res.count && !st; r += eyes) {
        const char *image = res.rows[r].image;
        for (int e = 1; e < eyes && !st; e++)
            if (strcmp(res.rows[r + e].image, image))
                st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: '%s' lacks its other eye",
                                  res.rows[r].line, image);
        int continues;
        size_t flen = file_of_row(image, &continues);
        if (!continues) {
            *hash = pt_sweep_hash_path(*hash, image, flen);
            files++;
        }
    }
    if (!st && files != files_expected)
        st = pt_error_set(err, PT_ERR_FORMAT, path,
                          "rows for %d images where the shard has %d: damaged or cut short; "
                          "run this shard again",
                          files, files_expected);
    pt_results_free(&res);
    return st;
}

/* Pass 1: every part of every configuration, checked; nothing is written. */
static pt_status check_all(const pt_sweep_merge_job *job, const pt_sweep_manifest *m,
                           int nshards, pt_error *err)
{
    long ncfg = pt_sweep_grid_size(&m->grid);
    for (long c = 0; c < ncfg; c++) {
        unsigned long long hash = PT_SWEEP_HASH_START;
        for (int k = 1; k <= nshards; k++) {
            char path[4200];
            char *text;
            size_t len;
            if (read_part(job, c, k, nshards, path, sizeof path, &text, &len, err))
                return err->status;
            long first = (long)(k - 1) * m->images / nshards;
            long last = (long)k * m->images / nshards;
            pt_sweep_timing t;
            pt_status st = pt_sweep_part_check(path, text, len, m->eyes, (int)(last - first),
                                               &hash, &t, err);
            free(text);
            if (st)
                return st;
        }
        if (hash != m->hash) {
            char path[4200];
            pt_sweep_results_path(path, sizeof path, job->dirs[0], c, 1, nshards);
            return pt_error_set(err, PT_ERR_FORMAT, path,
                                "the parts of configuration %ld hold other images than the "
                                "sweep's (sweep.txt)",
                                c);
        }
    }
    return PT_OK;
}

/* Pass 2: configuration index, the rows of its parts in shard order, into
 * OUTDIR/results/NNNN.csv and the reports. */
static pt_status merge_config(const pt_sweep_merge_job *job, long index, int nshards,
                              pt_sweep_report *rep, pt_error *err)
{
    char *merged = NULL;
    size_t merged_len = 0;
    FILE *mem = open_memstream(&merged, &merged_len);
    if (!mem)
        return pt_error_set(err, PT_ERR_NOMEM, job->outdir, "out of memory");
    pt_results_write_header(mem);
    pt_sweep_timing total = {0, 0};
    pt_status st = PT_OK;
    for (int k = 1; k <= nshards && !st; k++) {
        char path[4200];
        char *text;
        size_t len;
        if ((st = read_part(job, index, k, nshards, path, sizeof path, &text, &len, err)))
            break;
        pt_sweep_timing t;
        pt_sweep_timing_parse(text, len, &t); /* checked in pass 1 */
        const char *rows = strchr(text, '\n') + 1;
        size_t end = len - 1;
        while (end > 0 && text[end - 1] != '\n')
            end--;
        fwrite(rows, 1, text + end > rows ? (size_t)(text + end - rows) : 0, mem);
        total.frames += t.frames;
        total.track_s += t.track_s;
        free(text);
    }
    pt_sweep_timing_write(mem, &total);
    if (fclose(mem) && !st)
        st = pt_error_set(err, PT_ERR_NOMEM, job->outdir, "out of memory");
    char final_path[4200];
    pt_sweep_results_path(final_path, sizeof final_path, job->outdir, index, 1, 1);
    pt_output out;
    if (!st && !(st = pt_output_open(&out, final_path, PT_OUTPUT_SYNC, err))) {
        fwrite(merged, 1, merged_len, out.fp);
        st = pt_output_close(&out, err);
    }
    if (!st)
        st = pt_sweep_report_add(rep, index, merged, merged_len, final_path, err);
    free(merged);
    return st;
}

/* No run of a shard may still be writing into the folders: each shard lock
 * there (sweep.part-K-of-N.lock) must be free. */
static pt_status shards_idle(const pt_sweep_merge_job *job, pt_error *err)
{
    pt_status st = PT_OK;
    for (int d = 0; d < job->ndirs && !st; d++) {
        DIR *dir = opendir(job->dirs[d]);
        struct dirent *e;
        while (dir && !st && (e = readdir(dir))) {
            int k, n, used = 0;
            if (sscanf(e->d_name, "sweep.part-%d-of-%d.lock%n", &k, &n, &used) != 2 ||
                e->d_name[used] != '\0' || k < 1 || n < 2 || k > n)
                continue;
            st = pt_sweep_lock_free(job->dirs[d], k, n, err);
        }
        if (dir)
            closedir(dir);
    }
    return st;
}

static pt_status same_sweep(const pt_sweep_merge_job *job, const pt_sweep_manifest *m,
                            pt_error *err)
{
    for (int d = 1; d < job->ndirs; d++) {
        pt_sweep_manifest other;
        if (pt_sweep_manifest_read(job->dirs[d], &other, err))
            return err->status;
        int same = !strcmp(other.text, m->text);
        pt_sweep_manifest_free(&other);
        if (!same)
            return pt_error_set(err, PT_ERR_FORMAT, job->dirs[d],
                                "holds a different sweep than %s (sweep.txt differs)",
                                job->dirs[0]);
    }
    return PT_OK;
}

static pt_status merge_checked(const pt_sweep_merge_job *job, pt_sweep_manifest *m,
                               pt_sweep_outcome *outcome, pt_error *err)
{
    if (shards_idle(job, err))
        return err->status;
    int nshards = 0;
    for (int d = 0; d < job->ndirs; d++)
        if (shard_count(job->dirs[d], &nshards, err))
            return err->status;
    if (nshards == 0)
        return pt_error_set(err, PT_ERR_IO, job->dirs[0],
                            "no shard results (results/NNNN.part-K-of-N.csv) to merge");
    /* the ground truth first: merged from the wrong folder, its relative path fails here */
    pt_gt gt;
    if (pt_gt_load(m->gt, &gt, err))
        return err->status;
    pt_sweep_lock lock = {-1};
    pt_status st = check_all(job, m, nshards, err);
    /* every part is sound: now write */
    if (!st)
        st = pt_sweep_make_dirs(job->outdir, err);
    if (!st && !job->outdir_locked)
        st = pt_sweep_lock_take(job->outdir, 1, 1, &lock, err);
    if (!st)
        st = pt_sweep_manifest_claim(job->outdir, m->text, err);
    pt_sweep_report rep;
    if (!st && !(st = pt_sweep_report_open(&rep, job->outdir, &m->grid, &gt, m->shape, err))) {
        long ncfg = pt_sweep_grid_size(&m->grid);
        for (long c = 0; c < ncfg && !st; c++)
            st = merge_config(job, c, nshards, &rep, err);
        if (st)
            pt_sweep_report_discard(&rep);
        else if (!(st = pt_sweep_report_close(&rep, err)))
            outcome->reports = 1;
        outcome->error_rows = rep.error_rows;
    }
    pt_sweep_lock_release(&lock);
    pt_gt_free(&gt);
    return st;
}

pt_status pt_sweep_merge(const pt_sweep_merge_job *job, pt_sweep_outcome *outcome,
                         pt_error *err)
{
    memset(outcome, 0, sizeof *outcome);
    pt_sweep_manifest m;
    if (pt_sweep_manifest_read(job->dirs[0], &m, err))
        return err->status;
    pt_status st = same_sweep(job, &m, err);
    if (!st)
        st = merge_checked(job, &m, outcome, err);
    pt_sweep_manifest_free(&m);
    return st;
}
