/* For fuzz targets whose parsers read files: one scratch folder per process
 * (removed at exit), files written from the input, and the input cut into
 * parts at a separator line. */
#ifndef PT_FUZZ_FILES_H
#define PT_FUZZ_FILES_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Parts of an input are separated by this line. */
#define FUZZ_PART_SEPARATOR "\n----\n"

static char fuzz_dir[64];

/* Removes path and, for a folder, everything in it. */
static inline void fuzz_clear(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char inner[1024];
            snprintf(inner, sizeof inner, "%s/%s", path, e->d_name);
            fuzz_clear(inner);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static inline void fuzz_remove_dir(void)
{
    fuzz_clear(fuzz_dir);
}

/* The scratch folder, created on first use (in memory where /dev/shm is). */
static inline const char *fuzz_scratch(void)
{
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/pt-fuzz-XXXXXX",
                 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
        if (!mkdtemp(fuzz_dir))
            abort();
        atexit(fuzz_remove_dir);
    }
    return fuzz_dir;
}

/* Writes data to scratch/name (name may hold one folder level, created);
 * path receives the full path. */
static inline void fuzz_write(const char *name, const uint8_t *data, size_t size, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", fuzz_scratch(), name);
    char *slash = strrchr(path, '/');
    if (slash > path + strlen(fuzz_dir)) {
        *slash = '\0';
        mkdir(path, 0700);
        *slash = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
        abort();
}

/* Part k (0-based) of the input: *size bytes at the return value; NULL when
 * the input has fewer parts. */
static inline const uint8_t *fuzz_part(const uint8_t *data, size_t size, int k, size_t *part_size)
{
    const size_t sep = strlen(FUZZ_PART_SEPARATOR);
    const uint8_t *start = data, *end = data + size;
    for (int i = 0;; i++) {
        const uint8_t *next = NULL;
        for (const uint8_t *p = start; p + sep <= end; p++)
            if (!memcmp(p, FUZZ_PART_SEPARATOR, sep)) {
                next = p;
                break;
            }
        if (i == k) {
            *part_size = (size_t)((next ? next : end) - start);
            return start;
        }
        if (!next)
            return NULL;
        start = next + sep;
    }
}

#endif
