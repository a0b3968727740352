/* The host's copy rate for frames on their way to a GPU: F frames of W x H
 * bytes copied into a staging buffer by T threads (a frame each in turn, as
 * the CUDA back end stages a chunk), with memcpy per row and with the
 * streaming copy (lib/core/row_copy.h), each the best of REPS rounds. The
 * frames come from FILE (mapped read-only, as track maps an uncompressed
 * stack: its pages in the page cache) or from memory of this process. With
 * --fresh the file is mapped anew for every round, so each round also maps
 * in its pages (as a stack read once is), else once.
 *   host_copy_bandwidth [--size WxH] [--frames F] [--reps K] [-j 1,4,16]
 *                       [--fresh] [FILE]
 * Prints, per thread count: GB/s copied and frames/s for both copies.
 * Build: make tools (or make build/tools/host_copy_bandwidth). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp.h>

#include "lib/core/row_copy.h"

static double copy_round(uint8_t *dst, const uint8_t *src, int w, int h, int frames,
                         int streaming, int threads)
{
    size_t plane = (size_t)w * h;
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int i = 0; i < frames; i++) {
        uint8_t *d = dst + (size_t)i * plane;
        const uint8_t *s = src + (size_t)i * plane;
        if (streaming)
            pt_copy_rows_streaming(d, (size_t)w, s, (size_t)w, (size_t)w, (size_t)h);
        else
            for (int y = 0; y < h; y++)
                memcpy(d + (size_t)y * w, s + (size_t)y * w, (size_t)w);
    }
    return omp_get_wtime() - t0;
}

static const uint8_t *map_file(const char *path, size_t bytes)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return NULL;
    }
    void *map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        perror(path);
        return NULL;
    }
    return map;
}

int main(int argc, char **argv)
{
    int w = 1280, h = 1024, frames = 256, reps = 5, fresh = 0;
    const char *list = "1,4,8,16", *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
                fprintf(stderr, "host_copy_bandwidth: --size wants WxH\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
            list = argv[++i];
        } else if (!strcmp(argv[i], "--fresh")) {
            fresh = 1;
        } else if (argv[i][0] != '-' && !path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: host_copy_bandwidth [--size WxH] [--frames F] [--reps K] "
                            "[-j 1,4,16] [--fresh] [FILE]\n");
            return 2;
        }
    }
    if (frames <= 0 || reps <= 0) {
        fprintf(stderr, "host_copy_bandwidth: --frames and --reps must be positive\n");
        return 2;
    }
    size_t plane = (size_t)w * h, bytes = plane * (size_t)frames;
    const uint8_t *src;
    if (path) {
        struct stat st;
        if (stat(path, &st) != 0) {
            perror(path);
            return 1;
        }
        if ((size_t)st.st_size < bytes) {
            frames = (int)((size_t)st.st_size / plane);
            bytes = plane * (size_t)frames;
            if (frames == 0) {
                fprintf(stderr, "%s: smaller than one %dx%d frame\n", path, w, h);
                return 1;
            }
        }
        src = map_file(path, bytes);
        if (!src)
            return 1;
    } else {
        uint8_t *mem = aligned_alloc(4096, bytes);
        if (!mem) {
            fprintf(stderr, "host_copy_bandwidth: out of memory\n");
            return 1;
        }
        for (size_t i = 0; i < bytes; i++)
            mem[i] = (uint8_t)(i * 2654435761u >> 24);
        src = mem;
    }
    uint8_t *dst = aligned_alloc(4096, bytes);
    if (!dst) {
        fprintf(stderr, "host_copy_bandwidth: out of memory\n");
        return 1;
    }
    memset(dst, 0, bytes);
    printf("%d frames of %dx%d (%.1f MB) from %s%s\n", frames, w, h, bytes / 1e6,
           path ? path : "memory", path && fresh ? ", mapped anew each round" : "");
    printf("threads  memcpy GB/s  frames/s   streaming GB/s  frames/s\n");
    for (const char *p = list; *p;) {
        int threads = atoi(p);
        if (threads > 0) {
            double best[2] = {1e30, 1e30};
            for (int r = 0; r < reps; r++)
                for (int k = 0; k < 2; k++) {
                    if (path && fresh) {
                        munmap((void *)src, bytes);
                        src = map_file(path, bytes);
                        if (!src)
                            return 1;
                    }
                    double t = copy_round(dst, src, w, h, frames, k, threads);
                    if (t < best[k])
                        best[k] = t;
                }
            printf("%7d  %11.1f  %8.0f   %14.1f  %8.0f\n", threads, bytes / best[0] / 1e9,
                   frames / best[0], bytes / best[1] / 1e9, frames / best[1]);
        }
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    return 0;
}
