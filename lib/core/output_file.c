/* Output files written under a temporary name and renamed when complete. */
#define _GNU_SOURCE /* fopencookie: the stream reports each failed write here */
#include "lib/core/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Temporary names tried before giving up (another writer of the same file
 * in this process holds the earlier ones). */
#define TMP_ATTEMPTS 100

int pt_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The stream's writes: all of buf, or the first failure kept in o->error. */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
    pt_output *o = cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(o->fd, buf + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!o->error)
                o->error = n < 0 ? errno : ENOSPC;
            return 0; /* stdio: an error */
        }
        done += (size_t)n;
    }
    return (ssize_t)size;
}

static int stream_seek(void *cookie, off64_t *offset, int whence)
{
    pt_output *o = cookie;
    off_t at = lseek(o->fd, (off_t)*offset, whence);
    if (at < 0)
        return -1;
    *offset = at;
    return 0;
}

static int stream_close(void *cookie)
{
    pt_output *o = cookie;
    if (o->to_stdout)
        return 0;
    if (close(o->fd) != 0) {
        if (!o->error)
            o->error = errno;
        return -1;
    }
    return 0;
}

static pt_status write_error(pt_output *o, int code, pt_error *err)
{
    if (!o->error)
        o->error = code ? code : EIO;
    return pt_error_set(err, PT_ERR_IO, o->path, "cannot write: %s", strerror(o->error));
}

/* Create a fresh temporary file beside the final name: NAME.PID-K.tmp. */
static int open_temporary(pt_output *o)
{
    for (int k = 0; k < TMP_ATTEMPTS; k++) {
        int n = snprintf(o->tmp, sizeof o->tmp, "%s.%ld-%d.tmp", o->path, (long)getpid(), k);
        if (n < 0 || (size_t)n >= sizeof o->tmp) {
            errno = ENAMETOOLONG;
            break;
        }
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    o->tmp[0] = '\0';
    return -1;
}

pt_status pt_output_open(pt_output *o, const char *path, int flags, pt_error *err)
{
    memset(o, 0, sizeof *o);
    o->flags = flags;
    o->fd = -1;
    if (!path || !strcmp(path, "-")) {
        o->to_stdout = 1;
        o->fd = STDOUT_FILENO;
        snprintf(o->path, sizeof o->path, "stdout");
        fflush(stdout); /* what was printed before comes first */
    } else {
        if (strlen(path) >= sizeof o->path)
            return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s",
                                strerror(ENAMETOOLONG));
        snprintf(o->path, sizeof o->path, "%s", path);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(EISDIR));
        if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* a device, FIFO or link */
            o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        else
            o->fd = open_temporary(o);
        if (o->fd < 0) {
            int code = errno;
            return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(code));
        }
    }
    cookie_io_functions_t io = {NULL, stream_write, stream_seek, stream_close};
    if (!(o->fp = fopencookie(o, "w", io))) {
        int code = errno;
        pt_output_discard(o);
        return pt_error_set(err, PT_ERR_IO, path ? path : "stdout", "cannot write: %s",
                            strerror(code));
    }
    return PT_OK;
}

pt_status pt_output_open_resumable(pt_output *o, const char *path, const char *tmp, long keep,
                                   int flags, pt_error *err)
{
    memset(o, 0, sizeof *o);
    o->flags = flags;
    o->fd = -1;
    if (strlen(path) >= sizeof o->path || strlen(tmp) >= sizeof o->tmp)
        return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(ENAMETOOLONG));
    snprintf(o->path, sizeof o->path, "%s", path);
    snprintf(o->tmp, sizeof o->tmp, "%s", tmp);
    o->fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC | (keep > 0 ? 0 : O_TRUNC), 0666);
    if (o->fd < 0 || (keep > 0 && (ftruncate(o->fd, (off_t)keep) != 0 ||
                                   lseek(o->fd, (off_t)keep, SEEK_SET) != (off_t)keep))) {
        int code = errno;
        pt_output_suspend(o);
        o->tmp[0] = '\0';
        return pt_error_set(err, PT_ERR_IO, tmp, "cannot write: %s", strerror(code));
    }
    cookie_io_functions_t io = {NULL, stream_write, stream_seek, stream_close};
    if (!(o->fp = fopencookie(o, "w", io))) {
        int code = errno;
        pt_output_suspend(o);
        return pt_error_set(err, PT_ERR_IO, tmp, "cannot write: %s", strerror(code));
    }
    return PT_OK;
}

pt_status pt_output_check(pt_output *o, pt_error *err)
{
    if (o->error)
        return write_error(o, o->error, err);
    if (!o->fp)
        return pt_error_set(err, PT_ERR_IO, o->path, "cannot write: the file is closed");
    errno = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp))
        return write_error(o, errno, err);
    return PT_OK;
}

pt_status pt_output_close(pt_output *o, pt_error *err)
{
    if (!o->fp)
        return pt_error_set(err, PT_ERR_IO, o->path, "cannot write: the file is closed");
    pt_status st = pt_output_check(o, err);
    if (!st && (o->flags & PT_OUTPUT_SYNC) && !o->to_stdout && fsync(o->fd) != 0 &&
        errno != EINVAL && errno != EROFS)
        st = write_error(o, errno, err);
    errno = 0;
    if (fclose(o->fp) != 0 && !st)
        st = write_error(o, errno, err);
    o->fp = NULL;
    o->fd = -1; /* closed with the stream */
    if (o->to_stdout)
        return st;
    if (o->tmp[0] && !st && rename(o->tmp, o->path) != 0) {
        int code = errno;
        st = pt_error_set(err, PT_ERR_IO, o->path, "cannot rename %s into place: %s", o->tmp,
                          strerror(code));
    }
    if (o->tmp[0] && st)
        remove(o->tmp);
    o->tmp[0] = '\0';
    return st;
}

void pt_output_discard(pt_output *o)
{
    if (o->fp) {
        fclose(o->fp); /* standard output stays open (stream_close) */
        o->fp = NULL;
    } else if (o->fd >= 0 && !o->to_stdout && o->path[0]) {
        close(o->fd);
    }
    o->fd = -1;
    if (o->tmp[0])
        remove(o->tmp);
    o->tmp[0] = '\0';
}

void pt_output_suspend(pt_output *o)
{
    if (o->fp)
        fclose(o->fp);
    else if (o->fd >= 0 && !o->to_stdout && o->path[0])
        close(o->fd);
    o->fp = NULL;
    o->fd = -1;
    o->tmp[0] = '\0';
}
