#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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

double pt_cli_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int pt_cli_parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int pt_cli_parse_int(const char *text, int lo, int hi, int *out)
{
    long v;
    if (!pt_cli_parse_long(text, lo, hi, &v))
        return 0;
    *out = (int)v;
    return 1;
}

int pt_cli_parse_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}
