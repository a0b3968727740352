/* A scratch folder for tests that write files: made once in main(), paths
 * inside it, removed at the end unless PT_TEST_KEEP is set (e.g. to seed the
 * fuzzers with the generated files), and a libtiff message handler that keeps
 * the tests' own TIFF writers quiet. */
#ifndef PT_SCRATCH_H
#define PT_SCRATCH_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static char pt_scratch_dir[64];

/* Creates /tmp/NAME.XXXXXX; returns 0 (after saying why) when it cannot. */
static int pt_scratch_make(const char *name)
{
    snprintf(pt_scratch_dir, sizeof pt_scratch_dir, "/tmp/%s.XXXXXX", name);
    if (!mkdtemp(pt_scratch_dir)) {
        perror("mkdtemp");
        return 0;
    }
    return 1;
}

/* pt_scratch_dir/file; eight results may be live at once. */
static const char *pt_scratch_path(const char *file)
{
    static char path[8][256];
    static int slot;
    char *p = path[slot++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", pt_scratch_dir, file);
    return p;
}

static void pt_scratch_remove(void)
{
    if (getenv("PT_TEST_KEEP")) {
        printf("files kept in %s\n", pt_scratch_dir);
        return;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", pt_scratch_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", pt_scratch_dir);
}

/* For TIFFSetWarningHandler / TIFFSetErrorHandler. */
static void pt_scratch_quiet(const char *module, const char *fmt, va_list ap)
{
    (void)module;
    (void)fmt;
    (void)ap;
}

#endif
