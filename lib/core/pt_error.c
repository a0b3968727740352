#include "lib/core/pt_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

pt_status pt_error_set(pt_error *err, pt_status status, const char *file,
                       const char *fmt, ...)
{
    if (!err)
        return status;
    err->status = status;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->what, sizeof err->what, fmt, ap);
    va_end(ap);
    return status;
}

void pt_error_clear(pt_error *err)
{
    if (!err)
        return;
    err->status = PT_OK;
    err->file[0] = '\0';
    err->what[0] = '\0';
}

const char *pt_error_format(const pt_error *err, char *buf, int size)
{
    if (err->file[0])
        snprintf(buf, (size_t)size, "%s: %s", err->file, err->what);
    else
        snprintf(buf, (size_t)size, "%s", err->what);
    return buf;
}
