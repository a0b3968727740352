/* pupiltrack contours: all borders of a binary image, as OpenCV findContours. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/core/output_file.h"
#include "lib/contours/contours.h"
#include "lib/io/pt_image.h"
#include "cli/cli.h"
#include "cli/options.h"

/* One timed run of --repeat: the whole call as the CLI sees it, and the
 * back end's phases. */
typedef struct {
    double ms;
    pt_contours_times t;
} timed_run;

static int compare_run(const void *a, const void *b)
{
    double x = ((const timed_run *)a)->ms, y = ((const timed_run *)b)->ms;
    return (x > y) - (x < y);
}

/* The phases of the timing line, in its order (pupiltrack(1), contours). */
static const struct {
    unsigned bit;
    const char *key;
    size_t offset;
} phase_keys[] = {
    {PT_CONTOURS_PHASE_PREPROCESS, "preprocess_ms", offsetof(pt_contours_times, preprocess_ms)},
    {PT_CONTOURS_PHASE_UPLOAD, "upload_ms", offsetof(pt_contours_times, upload_ms)},
    {PT_CONTOURS_PHASE_TRACE, "trace_ms", offsetof(pt_contours_times, trace_ms)},
    {PT_CONTOURS_PHASE_CONNECT, "connect_ms", offsetof(pt_contours_times, connect_ms)},
    {PT_CONTOURS_PHASE_ASSEMBLE, "assemble_ms", offsetof(pt_contours_times, assemble_ms)},
    {PT_CONTOURS_PHASE_DOWNLOAD, "download_ms", offsetof(pt_contours_times, download_ms)},
    {PT_CONTOURS_PHASE_HOST, "host_ms", offsetof(pt_contours_times, host_ms)},
};

/* --repeat: run N more times and print, on stderr in one line that the
 * benchmark scripts read, the median and min ms of the whole call and the
 * phases the back end times, taken from the median run (the lower of the
 * two middle runs when N is even) so that they add up to no more than it. */
static pt_status time_runs(const char *name, const pt_contours_backend *be, void *state,
                           const pt_image *img,
                           int threshold, int mode, int approx, int threads, int tile,
                           int repeat, pt_contours *c, pt_error *err)
{
    timed_run *runs = calloc((size_t)repeat, sizeof *runs);
    if (!runs)
        return pt_error_set(err, PT_ERR_NOMEM, "", "cannot allocate timings");
    pt_status st = PT_OK;
    for (int r = 0; r < repeat && !st; r++) {
        double t0 = pt_contours_clock_ms();
        st = be->find(state, img, threshold, mode, approx, threads, tile, c, &runs[r].t, err);
        runs[r].ms = pt_contours_clock_ms() - t0;
    }
    if (!st) {
        qsort(runs, (size_t)repeat, sizeof *runs, compare_run);
        double med = repeat % 2 ? runs[repeat / 2].ms
                                : 0.5 * (runs[repeat / 2 - 1].ms + runs[repeat / 2].ms);
        const pt_contours_times *mid = &runs[(repeat - 1) / 2].t;
        fprintf(stderr, "timing: backend=%s threads=%d tile=%d size=%dx%d borders=%d "
                        "points=%lld runs=%d median_ms=%.3f min_ms=%.3f",
                name, threads, tile, img->width, img->height, c->count,
                (long long)c->point_count, repeat, med, runs[0].ms);
        for (size_t k = 0; k < sizeof phase_keys / sizeof phase_keys[0]; k++)
            if (mid->phases & phase_keys[k].bit)
                fprintf(stderr, " %s=%.3f", phase_keys[k].key,
                        *(const double *)((const char *)mid + phase_keys[k].offset));
        fputc('\n', stderr);
    }
    free(runs);
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
            "           line on stderr: median and min ms and the median run's phases\n"
            "           (seq: preprocess, trace, assemble; omp: preprocess, trace,\n"
            "           connect, assemble; cuda: upload, trace, connect, assemble,\n"
            "           download, host)\n"
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
    pt_status st = be->find(state, img, threshold, mode, approx, threads, tile, &c, NULL, &err);
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
