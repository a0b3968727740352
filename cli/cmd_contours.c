/* pupiltrack contours: all borders of a binary image, as OpenCV findContours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "cuda/contours/pt_cuda_contours.h"
#include "lib/contours/contours.h"
#include "lib/io/pt_image.h"
#include "cli/cli.h"

/* The back ends -b chooses from: open/close hold state between repeats. */
typedef struct {
    const char *name;
    pt_status (*open)(void **state, pt_error *err);
    void (*close)(void *state);
    pt_status (*find)(void *state, const pt_image *img, int threshold, int mode, int approx,
                      int threads, int tile, pt_contours *out, pt_error *err);
} contours_backend;

static pt_status find_seq(void *state, const pt_image *img, int threshold, int mode,
                          int approx, int threads, int tile, pt_contours *out, pt_error *err)
{
    (void)state, (void)threads, (void)tile;
    return pt_contours_find_seq(img, threshold, mode, approx, out, err);
}

static pt_status find_omp(void *state, const pt_image *img, int threshold, int mode,
                          int approx, int threads, int tile, pt_contours *out, pt_error *err)
{
    (void)state;
    return pt_contours_find_tiled(img, threshold, mode, approx, threads, tile, out, err);
}

static pt_status open_cuda(void **state, pt_error *err)
{
    return pt_cuda_contours_create((pt_cuda_contours **)state, err);
}

static void close_cuda(void *state) { pt_cuda_contours_destroy(state); }

static pt_status find_cuda(void *state, const pt_image *img, int threshold, int mode,
                           int approx, int threads, int tile, pt_contours *out, pt_error *err)
{
    return pt_cuda_contours_find(state, img, threshold, mode, approx, tile, threads, out, err);
}

static const contours_backend backends[] = {
    {"seq", NULL, NULL, find_seq},
    {"omp", NULL, NULL, find_omp},
    {"cuda", open_cuda, close_cuda, find_cuda},
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* --repeat: run N more times and print median/min times (and CUDA stages) on
 * stderr, one line: the benchmark script reads it. */
static pt_status time_runs(const contours_backend *be, void *state, const pt_image *img,
                           int threshold, int mode, int approx, int threads, int tile,
                           int repeat, pt_contours *c, pt_error *err)
{
    double *v = malloc((size_t)repeat * 5 * sizeof *v);
    if (!v)
        return pt_error_set(err, PT_ERR_NOMEM, "", "cannot allocate timings");
    double *up = v + repeat, *tr = v + 2 * repeat, *dn = v + 3 * repeat, *as = v + 4 * repeat;
    pt_status st = PT_OK;
    for (int r = 0; r < repeat && !st; r++) {
        double t0 = now_ms();
        st = be->find(state, img, threshold, mode, approx, threads, tile, c, err);
        v[r] = now_ms() - t0;
        if (!strcmp(be->name, "cuda")) {
            pt_cuda_contours_times t;
            pt_cuda_contours_last_times(state, &t);
            up[r] = t.upload_ms;
            tr[r] = t.trace_ms;
            dn[r] = t.download_ms;
            as[r] = t.assemble_ms;
        }
    }
    if (!st) {
        double mn = v[0];
        for (int r = 1; r < repeat; r++)
            mn = v[r] < mn ? v[r] : mn;
        fprintf(stderr, "timing: backend=%s threads=%d tile=%d size=%dx%d borders=%d "
                        "points=%lld runs=%d median_ms=%.3f min_ms=%.3f",
                be->name, threads, tile, img->width, img->height, c->count,
                (long long)c->point_count, repeat, median(v, repeat), mn);
        if (!strcmp(be->name, "cuda"))
            fprintf(stderr, " upload_ms=%.3f trace_ms=%.3f download_ms=%.3f assemble_ms=%.3f",
                    median(up, repeat), median(tr, repeat), median(dn, repeat),
                    median(as, repeat));
        fputc('\n', stderr);
    }
    free(v);
    return st;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pupiltrack contours [-b seq|omp|cuda] [-j N] [--mode list|ccomp|tree]\n"
            "                           [--approx none|simple] [-t THRESH]\n"
            "                           [--format csv|json] [--count] [--draw OUT.png]\n"
            "                           [--tile N] [--repeat N] [-o OUT] IMAGE\n"
            "Borders of the pixels > THRESH (default 0), 8-connected, identical to OpenCV\n"
            "findContours (same points, order and hierarchy). Output: CSV\n"
            "border,type,parent,index,x,y (default), or JSON with the full hierarchy.\n"
            "  -b       back end: seq (sequential reference), omp (default), cuda\n"
            "  -j N     OpenMP threads (default: all cores; cuda: of the host assembly)\n"
            "  --mode   list (default), ccomp (two levels), tree (full nesting)\n"
            "  --approx none (every pixel, default) or simple (corner points only)\n"
            "  --count  print only the number of borders\n"
            "  --draw   also write a colour PNG: outer borders green, holes red,\n"
            "           start points yellow, over the dimmed image\n"
            "  --tile N omp/cuda rectangle side, a power of two (default: by image size)\n"
            "  --repeat N  time N more runs (after the first) and print one 'timing:'\n"
            "           line on stderr: median and min ms (cuda: and its stages)\n"
            "A multi-page TIFF uses its first page.\n");
}

static pt_status draw_contours(const char *path, const pt_image *img, const pt_contours *c,
                               pt_error *err)
{
    size_t n = (size_t)img->width * (size_t)img->height;
    uint8_t *rgb = malloc(n * 3);
    if (!rgb)
        return pt_error_set(err, PT_ERR_NOMEM, path, "cannot allocate the drawing");
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
            uint8_t v = img->buf[(size_t)y * img->stride + x] / 3;
            uint8_t *p = rgb + ((size_t)y * img->width + x) * 3;
            p[0] = p[1] = p[2] = v;
        }
    for (int b = 0; b < c->count; b++) {
        const pt_border *br = &c->borders[b];
        for (int64_t i = 0; i < br->count; i++) {
            const pt_contour_point *pt = &c->points[br->first + i];
            uint8_t *p = rgb + ((size_t)pt->y * img->width + pt->x) * 3;
            p[0] = br->is_hole ? 255 : 0;
            p[1] = br->is_hole ? 0 : 255;
            p[2] = 0;
        }
        if (br->count > 0) {
            const pt_contour_point *pt = &c->points[br->first];
            uint8_t *p = rgb + ((size_t)pt->y * img->width + pt->x) * 3;
            p[0] = p[1] = 255;
            p[2] = 0;
        }
    }
    pt_status st = pt_png_write_rgb(path, img->width, img->height, rgb, err);
    free(rgb);
    return st;
}

int pt_cmd_contours(int argc, char **argv)
{
    const char *backend = "omp", *format = "csv", *draw = NULL, *out_path = NULL;
    const char *input = NULL;
    int mode = PT_CONTOURS_LIST, approx = PT_CONTOURS_APPROX_NONE;
    int threshold = 0, count_only = 0, threads = 0, repeat = 0, tile = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(a, "-b") && has_value) {
            backend = argv[++i];
        } else if (!strcmp(a, "-j") && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 4096) {
                pt_cli_fail("-j: expected a thread count 1..4096, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
            threads = (int)v;
        } else if (!strcmp(a, "--mode") && has_value) {
            const char *m = argv[++i];
            if (!strcmp(m, "list"))
                mode = PT_CONTOURS_LIST;
            else if (!strcmp(m, "ccomp"))
                mode = PT_CONTOURS_CCOMP;
            else if (!strcmp(m, "tree"))
                mode = PT_CONTOURS_TREE;
            else {
                pt_cli_fail("--mode: unknown mode '%s' (list, ccomp, tree)", m);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--approx") && has_value) {
            const char *m = argv[++i];
            if (!strcmp(m, "none"))
                approx = PT_CONTOURS_APPROX_NONE;
            else if (!strcmp(m, "simple"))
                approx = PT_CONTOURS_APPROX_SIMPLE;
            else {
                pt_cli_fail("--approx: unknown approximation '%s' (none, simple)", m);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "-t") && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 255) {
                pt_cli_fail("-t: expected a threshold 0..255, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
            threshold = (int)v;
        } else if (!strcmp(a, "--format") && has_value) {
            format = argv[++i];
            if (strcmp(format, "csv") && strcmp(format, "json")) {
                pt_cli_fail("--format: unknown format '%s' (csv, json)", format);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--tile") && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 4096 || (v & (v - 1))) {
                pt_cli_fail("--tile: expected a power of two 1..4096, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
            tile = (int)v;
        } else if (!strcmp(a, "--repeat") && has_value) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 100000) {
                pt_cli_fail("--repeat: expected a count 1..100000, got '%s'", argv[i]);
                return PT_EXIT_USAGE;
            }
            repeat = (int)v;
        } else if (!strcmp(a, "--count")) {
            count_only = 1;
        } else if (!strcmp(a, "--draw") && has_value) {
            draw = argv[++i];
        } else if (!strcmp(a, "-o") && has_value) {
            out_path = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("contours: unknown or incomplete option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (input) {
            pt_cli_fail("contours: one IMAGE only ('%s' and '%s')", input, a);
            return PT_EXIT_USAGE;
        } else {
            input = a;
        }
    }
    if (!input) {
        pt_cli_fail("contours: no IMAGE given (try --help)");
        return PT_EXIT_USAGE;
    }
    const contours_backend *be = NULL;
    for (size_t k = 0; k < sizeof backends / sizeof backends[0]; k++)
        if (!strcmp(backend, backends[k].name))
            be = &backends[k];
    if (!be) {
        pt_cli_fail("-b: unknown back end '%s' (seq, omp, cuda)", backend);
        return PT_EXIT_USAGE;
    }

    pt_error err;
    pt_error_clear(&err);
    void *state = NULL;
    if (be->open && be->open(&state, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_UNAVAILABLE;
    }
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.page = 0;
    pt_frames frames = {0};
    if (pt_image_load(input, &opt, &frames, &err)) {
        pt_cli_report(&err);
        if (be->close)
            be->close(state);
        return PT_EXIT_INPUT;
    }
    if (frames.count < 1) {
        pt_cli_fail("%s: no image in the file", input);
        pt_frames_free(&frames);
        if (be->close)
            be->close(state);
        return PT_EXIT_INPUT;
    }
    const pt_image *img = frames.frames[0];
    pt_contours c;
    pt_contours_init(&c);
    pt_status st = be->find(state, img, threshold, mode, approx, threads, tile, &c, &err);
    if (!st && repeat)
        st = time_runs(be, state, img, threshold, mode, approx, threads, tile, repeat, &c, &err);
    if (be->close)
        be->close(state);
    if (st) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", input);
        pt_cli_report(&err);
        pt_contours_free(&c);
        pt_frames_free(&frames);
        return st == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
    }
    int rc = PT_EXIT_OK;
    FILE *f = stdout;
    if (out_path && !(f = fopen(out_path, "w"))) {
        pt_error_set(&err, PT_ERR_IO, out_path, "cannot open for writing");
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (!rc) {
        const char *name = out_path ? out_path : "stdout";
        if (count_only)
            st = fprintf(f, "%d\n", c.count) < 0
                     ? pt_error_set(&err, PT_ERR_IO, name, "cannot write")
                     : PT_OK;
        else if (!strcmp(format, "json"))
            st = pt_contours_write_json(&c, f, name, &err);
        else
            st = pt_contours_write_csv(&c, f, name, &err);
        if (out_path && fclose(f) != 0 && !st)
            st = pt_error_set(&err, PT_ERR_IO, out_path, "cannot write");
        if (st) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
        }
    }
    if (!rc && draw && (st = draw_contours(draw, img, &c, &err))) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    pt_contours_free(&c);
    pt_frames_free(&frames);
    return rc;
}
