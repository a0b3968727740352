/* pupiltrack contours: all borders of a binary image, as OpenCV findContours. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/contours.h"
#include "../lib/pt_image.h"
#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pupiltrack contours [-b seq|omp|cuda] [-j N] [--mode list|ccomp|tree]\n"
            "                           [--approx none|simple] [-t THRESH]\n"
            "                           [--format csv|json] [--count] [--draw OUT.png]\n"
            "                           [-o OUT] IMAGE\n"
            "Borders of the pixels > THRESH (default 0), 8-connected, identical to OpenCV\n"
            "findContours (same points, order and hierarchy). Output: CSV\n"
            "border,type,parent,index,x,y (default), or JSON with the full hierarchy.\n"
            "  -b       back end: seq (sequential reference), omp (default), cuda\n"
            "  -j N     OpenMP threads (default: all cores)\n"
            "  --mode   list (default), ccomp (two levels), tree (full nesting)\n"
            "  --approx none (every pixel, default) or simple (corner points only)\n"
            "  --count  print only the number of borders\n"
            "  --draw   also write a colour PNG: outer borders green, holes red,\n"
            "           start points yellow, over the dimmed image\n"
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
    int threshold = 0, count_only = 0, threads = 0;
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
    if (strcmp(backend, "seq") && strcmp(backend, "omp") && strcmp(backend, "cuda")) {
        pt_cli_fail("-b: unknown back end '%s' (seq, omp, cuda)", backend);
        return PT_EXIT_USAGE;
    }
    if (!strcmp(backend, "cuda")) {
        pt_cli_fail("-b cuda: CUDA contours not built yet");
        return PT_EXIT_UNAVAILABLE;
    }

    pt_error err;
    pt_error_clear(&err);
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.page = 0;
    pt_frames frames = {0, NULL};
    if (pt_image_load(input, &opt, &frames, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    if (frames.count < 1) {
        pt_cli_fail("%s: no image in the file", input);
        pt_frames_free(&frames);
        return PT_EXIT_INPUT;
    }
    const pt_image *img = frames.frames[0];
    pt_contours c;
    pt_contours_init(&c);
    pt_status st = !strcmp(backend, "seq")
                       ? pt_contours_find_seq(img, threshold, mode, approx, &c, &err)
                       : pt_contours_find_omp(img, threshold, mode, approx, threads, &c, &err);
    if (st) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", input);
        pt_cli_report(&err);
        pt_contours_free(&c);
        pt_frames_free(&frames);
        return PT_EXIT_INPUT;
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
