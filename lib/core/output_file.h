/* Output files that appear complete or not at all (pupiltrack(1), FILES).
 *
 * A file is written under a temporary name in its own folder
 * (NAME.PID-K.tmp) and renamed to NAME when every write succeeded; on any
 * failure the temporary file is removed and NAME keeps what it held before.
 * Every write is checked: the first failure is kept with the system's reason
 * (errno) and reported as "NAME: cannot write: <strerror>".
 *
 * A path that names something other than a regular file (a device such as
 * /dev/null, a FIFO, a symbolic link) is written in place, as is standard
 * output (path NULL or "-").
 *
 * The stream writes through the pt_output it was opened with: keep that
 * struct where it is (do not copy it) until it is closed or discarded. */
#ifndef PT_OUTPUT_FILE_H
#define PT_OUTPUT_FILE_H

#include <stdio.h>

#include "lib/core/pt_error.h"

enum {
    PT_OUTPUT_SYNC = 1 /* fsync the file before renaming it into place */
};

typedef struct {
    FILE *fp;        /* write here (stdio); check with pt_output_check */
    char path[4096]; /* the final name, or "stdout" */
    char tmp[4200];  /* the temporary name; empty when written in place */
    int fd;          /* the file descriptor under fp */
    int flags;
    int to_stdout;
    int error; /* errno of the first failed write, 0 while all went well */
} pt_output;

/* Open path (NULL or "-": standard output) for writing. On failure nothing
 * is created and err says "PATH: cannot write: <reason>". */
pt_status pt_output_open(pt_output *o, const char *path, int flags, pt_error *err);
/* As pt_output_open for a file (not standard output), under a temporary
 * name the caller chose and that a later run may take up again: keep > 0
 * keeps the first keep bytes of the file there and writes after them. */
pt_status pt_output_open_resumable(pt_output *o, const char *path, const char *tmp, long keep,
                                   int flags, pt_error *err);
/* Flush what was written so far and check it arrived (call it now and then,
 * e.g. after each batch): PT_OK, or the first write error. */
pt_status pt_output_check(pt_output *o, pt_error *err);
/* Finish: flush, fsync (PT_OUTPUT_SYNC), close and rename into place. On a
 * write error the temporary file is removed and err names the final path.
 * Standard output is flushed and checked, not closed. */
pt_status pt_output_close(pt_output *o, pt_error *err);
/* Give up: close and remove the temporary file (NAME is left as it was).
 * Standard output is flushed. Safe to call on a closed or never opened
 * (zeroed) pt_output. */
void pt_output_discard(pt_output *o);

/* Stop writing but keep the temporary file for a later run to take up
 * (pt_output_open_resumable); what was written is flushed if it can be. */
void pt_output_suspend(pt_output *o);

/* Whether a regular file is at path. */
int pt_file_exists(const char *path);

#endif
