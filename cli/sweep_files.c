#include "cli/sweep_files.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/io/gt.h"

void pt_sweep_results_path(char *buf, int size, const char *outdir, long index, int shard,
                           int nshards)
{
    if (nshards <= 1)
        snprintf(buf, (size_t)size, "%s/results/%04ld.csv", outdir, index);
    else
        snprintf(buf, (size_t)size, "%s/results/%04ld.part-%d-of-%d.csv", outdir, index, shard,
                 nshards);
}

static int make_dir(const char *path)
{
    return mkdir(path, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

pt_status pt_sweep_make_dirs(const char *outdir, pt_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/results", outdir);
    if (make_dir(outdir) || make_dir(path))
        return pt_error_set(err, PT_ERR_IO, path, "cannot create the folder: %s",
                            strerror(errno));
    return PT_OK;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    while (text) {
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(text, cap *= 2);
        if (!grown)
            free(text);
        text = grown;
    }
    fclose(f);
    if (text)
        text[n] = '\0';
    return text;
}

/* The first line where a and b differ: its number (1-based) and both texts. */
static int first_difference(const char *a, const char *b, char *la, char *lb, int size)
{
    int line = 1;
    const char *sa = a, *sb = b;
    for (; *a && *a == *b; a++, b++)
        if (*a == '\n') {
            line++;
            sa = a + 1;
            sb = b + 1;
        }
    snprintf(la, (size_t)size, "%.*s", (int)strcspn(sa, "\n"), sa);
    snprintf(lb, (size_t)size, "%.*s", (int)strcspn(sb, "\n"), sb);
    return line;
}

pt_status pt_sweep_manifest_claim(const char *outdir, const char *text, pt_error *err)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/" PT_SWEEP_MANIFEST, outdir);
    if (pt_file_exists(path)) {
        char *old = read_text(path);
        if (!old)
            return pt_error_set(err, PT_ERR_IO, path, "cannot read the manifest");
        char was[100], now[100];
        int same = !strcmp(old, text), line = first_difference(old, text, was, now, 100);
        free(old);
        if (!same)
            return pt_error_set(err, PT_ERR_PARAM, path,
                                "the folder holds a different sweep (line %d: '%s' there, "
                                "'%s' now); use another -o folder or delete this one",
                                line, was, now);
        return PT_OK;
    }
    /* Shards may start together: write a private file and rename it into place. */
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return pt_error_set(err, PT_ERR_IO, tmp, "cannot write: %s", strerror(errno));
    fputs(text, f);
    if (fclose(f) || rename(tmp, path)) {
        remove(tmp);
        return pt_error_set(err, PT_ERR_IO, path, "cannot write the manifest");
    }
    return PT_OK;
}

pt_status pt_sweep_manifest_read(const char *outdir, pt_sweep_manifest *m, pt_error *err)
{
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/" PT_SWEEP_MANIFEST, outdir);
    if (!(m->text = read_text(path)))
        return pt_error_set(err, PT_ERR_IO, path, "cannot read the sweep manifest (not a "
                                                  "sweep output folder?)");
    int have_gt = 0;
    for (char *line = m->text; *line;) {
        /* cut the line out in place; the text is restored below */
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        pt_status st = PT_OK;
        if (!strncmp(line, "gt ", 3)) {
            snprintf(m->gt, sizeof m->gt, "%.4000s", line + 3);
            have_gt = 1;
        } else if (!strncmp(line, "shape ", 6)) {
            m->shape = !strcmp(line + 6, "circle")    ? PT_SHAPE_CIRCLE
                       : !strcmp(line + 6, "ellipse") ? PT_SHAPE_ELLIPSE
                                                      : PT_SHAPE_AUTO;
        } else if (!strncmp(line, "grid ", 5)) {
            st = pt_sweep_grid_add(&m->grid, line + 5, err);
        }
        if (end)
            *end = '\n';
        if (st) {
            char why[sizeof err->what];
            memcpy(why, err->what, sizeof why);
            pt_error_set(err, PT_ERR_FORMAT, path, "%s", why);
            pt_sweep_manifest_free(m);
            return err->status;
        }
        line = end ? end + 1 : line + strlen(line);
    }
    if (!have_gt) {
        pt_sweep_manifest_free(m);
        return pt_error_set(err, PT_ERR_FORMAT, path, "no 'gt' line");
    }
    return PT_OK;
}

void pt_sweep_manifest_free(pt_sweep_manifest *m)
{
    free(m->text);
    m->text = NULL;
    pt_sweep_grid_free(&m->grid);
}

pt_status pt_sweep_write_reports(const char *outdir, const pt_sweep_grid *g,
                                 const char *gt_path, pt_eval_shape shape, long *error_rows,
                                 pt_error *err)
{
    pt_gt gt;
    if (pt_gt_load(gt_path, &gt, err))
        return err->status;
    char curve_path[4200], summary_path[4200], curve_tmp[4300], summary_tmp[4300];
    snprintf(curve_path, sizeof curve_path, "%s/curve.csv", outdir);
    snprintf(summary_path, sizeof summary_path, "%s/summary.csv", outdir);
    snprintf(curve_tmp, sizeof curve_tmp, "%s.tmp", curve_path);
    snprintf(summary_tmp, sizeof summary_tmp, "%s.tmp", summary_path);
    pt_sweep_report rep = {g, &gt, shape, fopen(curve_tmp, "w"), fopen(summary_tmp, "w")};
    pt_status st = PT_OK;
    if (!rep.curve || !rep.summary) {
        st = pt_error_set(err, PT_ERR_IO, rep.curve ? summary_tmp : curve_tmp,
                          "cannot write: %s", strerror(errno));
    } else {
        pt_sweep_report_header(&rep);
        long n = pt_sweep_grid_size(g);
        for (long i = 0; i < n && !st; i++) {
            char results[4200];
            pt_sweep_results_path(results, sizeof results, outdir, i, 1, 1);
            st = pt_sweep_report_config(&rep, i, results, error_rows, err);
        }
    }
    if (rep.curve && fclose(rep.curve) && !st)
        st = pt_error_set(err, PT_ERR_IO, curve_tmp, "write error");
    if (rep.summary && fclose(rep.summary) && !st)
        st = pt_error_set(err, PT_ERR_IO, summary_tmp, "write error");
    if (!st && (rename(curve_tmp, curve_path) || rename(summary_tmp, summary_path)))
        st = pt_error_set(err, PT_ERR_IO, outdir, "cannot rename the reports into place");
    if (st) {
        remove(curve_tmp);
        remove(summary_tmp);
    }
    pt_gt_free(&gt);
    return st;
}
