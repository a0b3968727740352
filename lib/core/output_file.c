/* Output files written under a temporary name and renamed when complete. */
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

static pt_status write_error(pt_output *o, int code, pt_error *err)
{
    if (!o->error)
        o->error = code ? code : EIO;
    return pt_error_set(err, PT_ERR_IO, o->path, "cannot write: %s", strerror(o->error));
}

/* Create a fresh temporary file beside path: NAME.PID-K.tmp. */
static FILE *open_temporary(pt_output *o)
{
    for (int k = 0; k < TMP_ATTEMPTS; k++) {
        int n = snprintf(o->tmp, sizeof o->tmp, "%s.%ld-%d.tmp", o->path, (long)getpid(), k);
        if (n < 0 || (size_t)n >= sizeof o->tmp) {
            errno = ENAMETOOLONG;
            break;
        }
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            break;
        FILE *fp = fdopen(fd, "w");
        if (!fp) {
            int saved = errno;
            close(fd);
            remove(o->tmp);
            errno = saved;
        }
        return fp;
    }
    o->tmp[0] = '\0';
    return NULL;
}

pt_status pt_output_open(pt_output *o, const char *path, int flags, pt_error *err)
{
    memset(o, 0, sizeof *o);
    o->flags = flags;
    if (!path || !strcmp(path, "-")) {
        o->to_stdout = 1;
        o->fp = stdout;
        snprintf(o->path, sizeof o->path, "stdout");
        return PT_OK;
    }
    if (strlen(path) >= sizeof o->path)
        return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(ENAMETOOLONG));
    snprintf(o->path, sizeof o->path, "%s", path);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(EISDIR));
        o->fp = fopen(path, "w"); /* a device, FIFO or link: in place */
    } else {
        o->fp = open_temporary(o);
    }
    if (!o->fp) {
        int code = errno;
        return pt_error_set(err, PT_ERR_IO, path, "cannot write: %s", strerror(code));
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
    pt_status st = pt_output_check(o, err);
    if (o->to_stdout || !o->fp) {
        o->fp = NULL;
        return st;
    }
    if (!st && (o->flags & PT_OUTPUT_SYNC) && fsync(fileno(o->fp)) != 0 && errno != EINVAL &&
        errno != EROFS)
        st = write_error(o, errno, err);
    errno = 0;
    if (fclose(o->fp) != 0 && !st)
        st = write_error(o, errno, err);
    o->fp = NULL;
    if (!o->tmp[0])
        return st;
    if (!st && rename(o->tmp, o->path) != 0) {
        int code = errno;
        st = pt_error_set(err, PT_ERR_IO, o->path, "cannot rename %s into place: %s", o->tmp,
                          strerror(code));
    }
    if (st)
        remove(o->tmp);
    o->tmp[0] = '\0';
    return st;
}

void pt_output_discard(pt_output *o)
{
    if (!o->fp)
        return;
    if (o->to_stdout) {
        fflush(o->fp);
    } else {
        fclose(o->fp);
        if (o->tmp[0])
            remove(o->tmp);
    }
    o->fp = NULL;
    o->tmp[0] = '\0';
}
