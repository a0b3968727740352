#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

void pt_cli_report(const pt_error *err)
{
    char line[1100];
    fprintf(stderr, "pupiltrack: %s\n", pt_error_format(err, line, sizeof line));
}

void pt_cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pupiltrack: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void pt_cli_progress(const char *label, long done, long total, double elapsed_s)
{
    if (!isatty(STDERR_FILENO))
        return;
    double eta = done > 0 ? elapsed_s * (double)(total - done) / (double)done : 0.0;
    fprintf(stderr, "\r%s %ld/%ld, %.0f s left   ", label, done, total, eta);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
}
