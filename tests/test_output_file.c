/* Output files: complete under their name or not there at all; every write
 * error reported with the file and the system's reason. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/output_file.h"
#include "tests/pt_test.h"

static char dir[64];

static int files_in_dir(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void read_back(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

static void test_complete_or_nothing(void)
{
    char path[128], text[64];
    snprintf(path, sizeof path, "%s/r.csv", dir);
    pt_output o;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_output_open(&o, path, PT_OUTPUT_SYNC, &err) == PT_OK, "open: %s", err.what);
    fputs("first\n", o.fp);
    PT_CHECK(pt_output_check(&o, &err) == PT_OK, "check while writing");
    PT_CHECK(!pt_file_exists(path), "the final name appears only when complete");
    PT_CHECK(files_in_dir() == 1, "one temporary file while writing (%d)", files_in_dir());
    PT_CHECK(pt_output_close(&o, &err) == PT_OK, "close: %s", err.what);
    read_back(path, text, sizeof text);
    PT_CHECK(!strcmp(text, "first\n"), "content after close: '%s'", text);
    PT_CHECK(files_in_dir() == 1, "no temporary file left (%d files)", files_in_dir());

    /* A run that gives up keeps the previous complete file. */
    PT_CHECK(pt_output_open(&o, path, 0, &err) == PT_OK, "reopen");
    fputs("partial", o.fp);
    pt_output_discard(&o);
    read_back(path, text, sizeof text);
    PT_CHECK(!strcmp(text, "first\n"), "discarded: previous content kept ('%s')", text);
    PT_CHECK(files_in_dir() == 1, "discarded: temporary removed (%d files)", files_in_dir());
    pt_output_discard(&o); /* twice is harmless */
    remove(path);
}

static void test_errors(void)
{
    pt_output o;
    pt_error err;
    pt_error_clear(&err);
    /* /dev/full is written in place; a write fails with ENOSPC. */
    PT_CHECK(pt_output_open(&o, "/dev/full", 0, &err) == PT_OK, "open /dev/full: %s", err.what);
    for (int i = 0; i < 10000; i++)
        fprintf(o.fp, "row %d\n", i);
    PT_CHECK(pt_output_check(&o, &err) == PT_ERR_IO && !strcmp(err.file, "/dev/full") &&
                 strstr(err.what, "No space left on device"),
             "a mid-run check reports the full device: %s: %s", err.file, err.what);
    pt_error_clear(&err);
    PT_CHECK(pt_output_close(&o, &err) == PT_ERR_IO && strstr(err.what, "No space"),
             "and close reports it again: %s", err.what);

    /* A small write is found at close, not lost in the buffer. */
    pt_error_clear(&err);
    PT_CHECK(pt_output_open(&o, "/dev/full", 0, &err) == PT_OK, "open /dev/full again");
    fputs("x\n", o.fp);
    PT_CHECK(pt_output_close(&o, &err) == PT_ERR_IO && strstr(err.what, "No space"),
             "a buffered write fails at close: %s", err.what);

    char path[128];
    snprintf(path, sizeof path, "%s/missing/r.csv", dir);
    pt_error_clear(&err);
    PT_CHECK(pt_output_open(&o, path, 0, &err) == PT_ERR_IO && !strcmp(err.file, path) &&
                 strstr(err.what, "No such file"),
             "a missing folder is named: %s: %s", err.file, err.what);
    PT_CHECK(pt_output_open(&o, dir, 0, &err) == PT_ERR_IO && strstr(err.what, "directory"),
             "a folder is not a file: %s", err.what);
    PT_CHECK(files_in_dir() == 0, "failures leave nothing behind (%d files)", files_in_dir());
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/pt-output-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_complete_or_nothing();
    test_errors();
    rmdir(dir);
    return PT_TEST_SUMMARY("output_file");
}
