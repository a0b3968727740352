/* A sweep's output folder: file names, the lock, the manifest. */
#include "eval/sweep_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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

char *pt_sweep_read_file(const char *path, size_t *len)
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
    int failed = ferror(f);
    fclose(f);
    if (text && failed) {
        free(text);
        errno = EIO;
        return NULL;
    }
    if (!text)
        errno = ENOMEM;
    else
        text[n] = '\0';
    if (len)
        *len = n;
    return text;
}

unsigned long long pt_sweep_hash_path(unsigned long long h, const char *path, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)path[i]) * 1099511628211ULL;
    return (h ^ '\n') * 1099511628211ULL;
}

static void lock_path(char *buf, int size, const char *outdir, int shard, int nshards)
{
    if (nshards <= 1)
        snprintf(buf, (size_t)size, "%s/sweep.lock", outdir);
    else
        snprintf(buf, (size_t)size, "%s/sweep.part-%d-of-%d.lock", outdir, shard, nshards);
}

/* Lock fd (the lock file at path) or say who holds it; fd is closed on failure. */
static pt_status lock_or_name_holder(int fd, const char *path, const char *outdir, int nshards,
                                     pt_error *err)
{
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return PT_OK;
    int code = errno;
    char holder[32] = "";
    ssize_t n = pread(fd, holder, sizeof holder - 1, 0);
    holder[n > 0 ? n : 0] = '\0';
    holder[strcspn(holder, "\n")] = '\0';
    close(fd);
    if (code != EWOULDBLOCK)
        return pt_error_set(err, PT_ERR_IO, path, "cannot lock: %s", strerror(code));
    return pt_error_set(err, PT_ERR_IO, outdir,
                        "another %s (process %s) is writing into this folder; wait for it "
                        "to end or use another folder",
                        nshards > 1 ? "run of this shard" : "sweep or merge",
                        holder[0] ? holder : "unknown");
}

pt_status pt_sweep_lock_free(const char *outdir, int shard, int nshards, pt_error *err)
{
    char path[4200];
    lock_path(path, sizeof path, outdir, shard, nshards);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? PT_OK
                               : pt_error_set(err, PT_ERR_IO, path, "cannot read the lock: %s",
                                              strerror(errno));
    if (lock_or_name_holder(fd, path, outdir, nshards, err))
        return err->status;
    close(fd);
    return PT_OK;
}

pt_status pt_sweep_lock_take(const char *outdir, int shard, int nshards, pt_sweep_lock *lock,
                             pt_error *err)
{
    char path[4200];
    lock_path(path, sizeof path, outdir, shard, nshards);
    lock->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock->fd < 0)
        return pt_error_set(err, PT_ERR_IO, path, "cannot create the lock file: %s",
                            strerror(errno));
    if (lock_or_name_holder(lock->fd, path, outdir, nshards, err)) {
        lock->fd = -1;
        return err->status;
    }
    char pid[32];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(lock->fd, 0) != 0 || pwrite(lock->fd, pid, (size_t)len, 0) != len) {
        int code = errno;
        pt_sweep_lock_release(lock);
        return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(code));
    }
    return PT_OK;
}

void pt_sweep_lock_release(pt_sweep_lock *lock)
{
    if (lock->fd >= 0)
        close(lock->fd); /* the file stays: removing it would race a newcomer */
    lock->fd = -1;
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
    char path[4200];
    snprintf(path, sizeof path, "%s/" PT_SWEEP_MANIFEST, outdir);
    if (pt_file_exists(path)) {
        char *old = pt_sweep_read_file(path, NULL);
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
    /* Shards may start together: each writes a private file and renames it. */
    pt_output out;
    if (pt_output_open(&out, path, PT_OUTPUT_SYNC, err))
        return err->status;
    fputs(text, out.fp);
    return pt_output_close(&out, err);
}

pt_status pt_sweep_manifest_read(const char *outdir, pt_sweep_manifest *m, pt_error *err)
{
    memset(m, 0, sizeof *m);
    char path[4200];
    snprintf(path, sizeof path, "%s/" PT_SWEEP_MANIFEST, outdir);
    if (!(m->text = pt_sweep_read_file(path, NULL)))
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
        } else if (!strncmp(line, "images ", 7)) {
            if (sscanf(line + 7, "%d fnv1a-%llx", &m->images, &m->hash) != 2)
                st = pt_error_set(err, PT_ERR_FORMAT, path, "bad 'images' line");
        } else if (!strncmp(line, "binocular ", 10)) {
            m->eyes = !strcmp(line + 10, "1") ? 2 : 1;
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
    if (!have_gt || m->images <= 0) {
        pt_sweep_manifest_free(m);
        return pt_error_set(err, PT_ERR_FORMAT, path, "no '%s' line",
                            have_gt ? "images" : "gt");
    }
    if (!m->eyes)
        m->eyes = 1;
    return PT_OK;
}

void pt_sweep_manifest_free(pt_sweep_manifest *m)
{
    free(m->text);
    m->text = NULL;
    pt_sweep_grid_free(&m->grid);
}
