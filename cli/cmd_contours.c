/* pupiltrack contours: all borders of a binary image, as OpenCV findContours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "lib/api/registry.h"
#include "lib/core/output_file.h"
#include "lib/contours/contours.h"
#include "lib/io/pt_image.h"
#include "cli/cli.h"
#include "cli/options.h"

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

/* --repeat: run N more times and print median/min times (and, for cuda, the
 * median of each phase: upload, tracing, connection, assembly, download,
 * host) on stderr, one line: the benchmark script reads it. */
static pt_status time_runs(const char *name, const pt_contours_backend *be, void *state,
                           const pt_image *img,
                           int threshold, int mode, int approx, int threads, int tile,
                           int repeat, pt_contours *c, pt_error *err)
{
    double *v = malloc((size_t)repeat * 7 * sizeof *v);
    if (!v)
        return pt_error_set(err, PT_ERR_NOMEM, "", "cannot allocate timings");
    double *up = v + repeat, *tr = v + 2 * repeat, *cn = v + 3 * repeat, *as = v + 4 * repeat;
    double *dn = v + 5 * repeat, *ho = v + 6 * repeat;
    pt_status st = PT_OK;
    for (int r = 0; r < repeat && !st; r++) {
        double t0 = now_ms();
        st = be->find(state, img, threshold, mode, approx, threads, tile, c, err);
        v[r] = now_ms() - t0;
        if (be->last_times) {
            pt_contours_times t;
            be->last_times(state, &t);
            up[r] = t.upload_ms;
            tr[r] = t.trace_ms;
            cn[r] = t.connect_ms;
            as[r] = t.assemble_ms;
            dn[r] = t.download_ms;
            ho[r] = t.host_ms;
        }
    }
    if (!st) {
        double mn = v[0];
        for (int r = 1; r < repeat; r++)
            mn = v[r] < mn ? v[r] : mn;
        fprintf(stderr, "timing: backend=%s threads=%d tile=%d size=%dx%d borders=%d "
                        "points=%lld runs=%d median_ms=%.3f min_ms=%.3f",
                name, threads, tile, img->width, img->height, c->count,
                (long long)c->point_count, repeat, median(v, repeat), mn);
        if (be->last_times)
            fprintf(stderr, " upload_ms=%.3f trace_ms=%.3f connect_ms=%.3f assemble_ms=%.3f"
                            " download_ms=%.3f host_ms=%.3f",
                    median(up, repeat), median(tr, repeat), median(cn, repeat),
                    median(as, repeat), median(dn, repeat), median(ho, repeat));
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
            "  -j N     OpenMP threads (default: all cores; cuda: those writing points)\n"
            "  --mode   list (default), ccomp (two levels), tree (full nesting)\n"
            "  --approx none (every pixel, default) or simple (corner points only)\n"
            "  --count  print only the number of borders\n"
            "  --draw   also write a colour PNG: outer borders green, holes red,\n"
            "           start points yellow, over the dimmed image\n"
            "  --tile N omp/cuda rectangle side, a power of two (default: by image size)\n"
            "  --repeat N  time N more runs (after the first) and print one 'timing:'\n"
            "           line on stderr: median and min ms (cuda: and the median of each\n"
            "           phase: upload, trace, connect, assemble, download, host)\n"
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

static const char *const mode_names[] = {"list", "ccomp", "tree", NULL};
static const int mode_values[] = {PT_CONTOURS_LIST, PT_CONTOURS_CCOMP, PT_CONTOURS_TREE};
static const char *const approx_names[] = {"none", "simple", NULL};
static const int approx_values[] = {PT_CONTOURS_APPROX_NONE, PT_CONTOURS_APPROX_SIMPLE};
static const char *const format_names[] = {"csv", "json", NULL};
static const int format_values[] = {0, 1};

int pt_cmd_contours(int argc, char **argv)
{
    const char *backend = "omp", *draw = NULL, *out_path = NULL, *input = NULL;
    int mode = PT_CONTOURS_LIST, approx = PT_CONTOURS_APPROX_NONE, json = 0;
    int threshold = 0, count_only = 0, threads = 0, repeat = 0, tile = 0;
    const pt_cli_option opts[] = {
        {"-b", PT_OPT_STRING, &backend, 0, 0, "a back end", NULL, NULL, NULL},
        {"-j", PT_OPT_INT, &threads, 1, 4096, "a thread count", NULL, NULL, NULL},
        {"--mode", PT_OPT_CHOICE, &mode, 0, 0, "mode", mode_names, mode_values, NULL},
        {"--approx", PT_OPT_CHOICE, &approx, 0, 0, "approximation", approx_names, approx_values, NULL},
        {"-t", PT_OPT_INT, &threshold, 0, 255, "a threshold", NULL, NULL, NULL},
        {"--format", PT_OPT_CHOICE, &json, 0, 0, "format", format_names, format_values, NULL},
        {"--tile", PT_OPT_INT, &tile, 1, 4096, "a power of two", NULL, NULL, NULL},
        {"--repeat", PT_OPT_INT, &repeat, 1, 100000, "a count", NULL, NULL, NULL},
        {"--count", PT_OPT_FLAG, &count_only, 1, 0, NULL, NULL, NULL, NULL},
        {"--draw", PT_OPT_STRING, &draw, 0, 0, "a folder", NULL, NULL, NULL},
        {"-o", PT_OPT_STRING, &out_path, 0, 0, "a file", NULL, NULL, NULL},
    };
    int npos, rc0 = pt_cli_parse("contours", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                                 usage, &input, 1, &npos);
    if (rc0)
        return PT_CLI_PARSE_EXIT(rc0);
    if (tile & (tile - 1)) {
        pt_cli_fail("--tile: expected a power of two 1..4096, got '%d'", tile);
        return PT_EXIT_USAGE;
    }
    if (!input) {
        pt_cli_fail("contours: no IMAGE given (try --help)");
        return PT_EXIT_USAGE;
    }
    const pt_contours_backend *be = pt_contours_backend_by_name(backend);
    char names[64];
    if (!be) {
        pt_cli_fail("-b: unknown back end '%s' (%s)", backend,
                    pt_backend_list(PT_CAP_CONTOURS, names, sizeof names));
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
        st = time_runs(backend, be, state, img, threshold, mode, approx, threads, tile, repeat, &c, &err);
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
    pt_output out;
    if (pt_output_open(&out, out_path, 0, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (!rc) {
        if (count_only)
            fprintf(out.fp, "%d\n", c.count);
        else if (json)
            st = pt_contours_write_json(&c, out.fp, out.path, &err);
        else
            st = pt_contours_write_csv(&c, out.fp, out.path, &err);
        if (st && st != PT_ERR_IO) {
            pt_output_discard(&out);
        } else {
            /* a write error is reported with the system's reason */
            pt_status written = st;
            st = pt_output_close(&out, &err);
            st = st ? st : written;
        }
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
