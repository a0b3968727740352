/* pupiltrack import: public ground-truth formats to the ground-truth CSV. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/output_file.h"
#include "lib/io/import.h"
#include "lib/io/pt_image.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack import FORMAT SRC [-o GT.csv] [OPTIONS]\n"
            "Convert public ground truth to the pupiltrack ground-truth CSV.\n\n"
            "FORMAT:\n"
            "  swirski   pupil-ellipses.txt, 'n | cx cy a b angle_rad' (a, b semi-axes)\n"
            "  excuse    ExCuSe/ElSe/PupilNet 'idx image_no x y' at twice the image scale,\n"
            "            origin bottom-left: cx = x/2, cy = H - y/2 (also: else, pupilnet)\n"
            "  lpw       LPW, one 'x y' centre per frame\n\n"
            "  -o FILE        ground-truth CSV (default: stdout)\n"
            "  --images DIR   folder holding the images (default: SRC's folder); written\n"
            "                 into the CSV relative to the output file's folder\n"
            "  --pattern FMT  image file name with one %%d for the frame number; defaults:\n"
            "                 swirski 'frames/%%d-eye.png', excuse '%%010d.png' (image_no),\n"
            "                 lpw '%%d.png' (frames extracted as 1.png, 2.png, ...)\n"
            "  --first N      lpw: number of the first frame (default 1)\n"
            "  --height H     excuse: image height in pixels (default: read from the\n"
            "                 first image)\n");
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

/* Path of target relative to base (both existing folders); NULL when either
 * cannot be resolved. */
static char *relative_dir(const char *base, const char *target)
{
    char rb[PATH_MAX], rt[PATH_MAX];
    if (!realpath(base, rb) || !realpath(target, rt))
        return NULL;
    size_t common = 0, i = 0;
    /* common prefix ending at a component boundary */
    while (rb[i] && rb[i] == rt[i]) {
        i++;
        if ((rb[i] == '/' || !rb[i]) && (rt[i] == '/' || !rt[i]))
            common = i;
    }
    if (!strcmp(rb, "/") || !strcmp(rt, "/"))
        common = 0;
    size_t ups = 0;
    for (const char *p = rb + common; *p && strcmp(rb, "/"); p++)
        ups += *p == '/';
    const char *rest = rt + common;
    while (*rest == '/')
        rest++;
    char *out = malloc(ups * 3 + strlen(rest) + 2);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t k = 0; k < ups; k++)
        strcat(out, k + 1 < ups || *rest ? "../" : "..");
    strcat(out, rest);
    return out;
}

static int height_from_first_image(const char *images, const char *pattern,
                                   const pt_import_data *data, double *height)
{
    if (data->count == 0) {
        *height = 1; /* nothing to convert: any height will do */
        return 0;
    }
    char name[1024], path[4200];
    if (pt_import_format_name(pattern, data->rows[0].frame, name, sizeof name))
        return -1;
    snprintf(path, sizeof path, "%s/%s", images, name);
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.page = 0;
    pt_frames frames = {0};
    pt_error err;
    pt_error_clear(&err);
    if (pt_image_load(path, &opt, &frames, &err)) {
        pt_cli_report(&err);
        pt_cli_fail("import: give the image height with --height H");
        return -1;
    }
    *height = frames.count > 0 ? frames.frames[0]->height : 0;
    pt_frames_free(&frames);
    return *height > 0 ? 0 : -1;
}

int pt_cmd_import(int argc, char **argv)
{
    const char *format_name = NULL, *src = NULL, *out_path = NULL, *images = NULL;
    pt_import_options opt = {NULL, NULL, 0, 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        }
        int takes_value = !strcmp(a, "-o") || !strcmp(a, "--images") ||
                          !strcmp(a, "--pattern") || !strcmp(a, "--height") ||
                          !strcmp(a, "--first");
        if (takes_value && i + 1 >= argc) {
            pt_cli_fail("import: option %s needs a value", a);
            return PT_EXIT_USAGE;
        }
        if (!strcmp(a, "-o")) {
            out_path = argv[++i];
        } else if (!strcmp(a, "--images")) {
            images = argv[++i];
        } else if (!strcmp(a, "--pattern")) {
            opt.pattern = argv[++i];
            if (pt_import_check_pattern(opt.pattern)) {
                pt_cli_fail("import: --pattern '%s' must hold exactly one %%d (like %%06d)",
                            opt.pattern);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--height") || !strcmp(a, "--first")) {
            const char *v = argv[++i];
            char *end;
            long n = strtol(v, &end, 10);
            int is_height = a[2] == 'h';
            if (*end || end == v || n < (is_height ? 1 : 0) || n > 1000000000L) {
                pt_cli_fail("import: %s needs a whole number%s, not '%s'", a,
                            is_height ? " > 0" : " >= 0", v);
                return PT_EXIT_USAGE;
            }
            if (is_height)
                opt.height = (double)n;
            else
                opt.first_frame = n;
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("import: unknown option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (!format_name) {
            format_name = a;
        } else if (!src) {
            src = a;
        } else {
            pt_cli_fail("import: unexpected argument '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        }
    }
    if (!format_name || !src) {
        pt_cli_fail("import: needs FORMAT and SRC (try --help)");
        return PT_EXIT_USAGE;
    }
    int format = pt_import_format_from_name(format_name);
    if (format < 0) {
        pt_cli_fail("import: unknown format '%s' (swirski, excuse, lpw)", format_name);
        return PT_EXIT_USAGE;
    }
    pt_error err;
    pt_error_clear(&err);
    pt_import_data data;
    if (pt_import_parse(src, (pt_import_format)format, opt.first_frame, &data, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    int rc = PT_EXIT_OK;
    char *src_dir = dir_of(src);
    char *out_dir = out_path ? dir_of(out_path) : strdup(".");
    const char *images_dir = images ? images : src_dir;
    char *rel = NULL;
    if (!src_dir || !out_dir) {
        pt_cli_fail("import: out of memory");
        rc = PT_EXIT_INPUT;
        goto done;
    }
    rel = relative_dir(out_dir, images_dir);
    if (!rel && images_dir[0] != '/')
        pt_cli_fail("import: warning: cannot resolve '%s' against '%s'; image paths are "
                    "written as given", images_dir, out_dir);
    opt.image_dir = rel ? (strcmp(rel, "") ? rel : "") : images_dir;
    const char *pattern = opt.pattern ? opt.pattern
                                      : pt_import_default_pattern((pt_import_format)format);
    if (format == PT_IMPORT_EXCUSE && opt.height <= 0 &&
        height_from_first_image(images_dir, pattern, &data, &opt.height)) {
        rc = PT_EXIT_INPUT;
        goto done;
    }
    pt_output out;
    if (pt_output_open(&out, out_path, 0, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (pt_import_write(out.fp, out.path, &data, &opt, &err)) {
        pt_cli_report(&err);
        rc = err.status == PT_ERR_PARAM ? PT_EXIT_USAGE : PT_EXIT_INPUT;
        pt_output_discard(&out);
    } else if (pt_output_close(&out, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (!rc)
        fprintf(stderr, "pupiltrack: import: %d rows from %s\n", data.count, src);
done:
    free(rel);
    free(src_dir);
    free(out_dir);
    pt_import_free(&data);
    return rc;
}
