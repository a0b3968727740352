/* Entry points of the loaders: read the whole file, detect the format by its
 * magic bytes and hand the bytes to the matching decoder. */
#include "lib/io/frame_gain.h"
#include "lib/io/image_decode.h"
#include "lib/io/pt_stack.h"
#include "lib/io/pt_video.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

static int starts_with(const uint8_t *data, size_t size, const void *magic,
                       size_t n)
{
    return size >= n && memcmp(data, magic, n) == 0;
}

static int is_tiff(const uint8_t *data, size_t size)
{
    /* classic TIFF (42) and BigTIFF (43), either byte order */
    return starts_with(data, size, "II*\0", 4) || starts_with(data, size, "MM\0*", 4) ||
           starts_with(data, size, "II+\0", 4) || starts_with(data, size, "MM\0+", 4);
}

pt_status pt_image_load_memory(const uint8_t *data, size_t size, const char *name,
                               const pt_load_options *opt, pt_frames *out,
                               pt_error *err)
{
    pt_load_options defaults;
    if (!name)
        name = "";
    out->count = 0;
    out->frames = NULL;
    out->page_errors = NULL;
    if (!opt) {
        pt_load_options_default(&defaults);
        opt = &defaults;
    }
    if (opt->significant_bits < 8 || opt->significant_bits > 16)
        return pt_error_set(err, PT_ERR_PARAM, name,
                            "significant bits must be 8..16, got %d",
                            opt->significant_bits);
    if (opt->page < -1)
        return pt_error_set(err, PT_ERR_PARAM, name,
                            "page must be -1 (all) or >= 0, got %d", opt->page);
    if (size == 0 || !data)
        return pt_error_set(err, PT_ERR_FORMAT, name, "empty file");

    pt_status st;
    if (starts_with(data, size, png_magic, sizeof png_magic))
        st = pt_png_decode(data, size, name, opt, out, err);
    else if (is_tiff(data, size))
        st = pt_tiff_decode(data, size, name, opt, out, err);
    else if (starts_with(data, size, "P5", 2))
        st = pt_pgm_decode(data, size, name, opt, out, err);
    else if (pt_stack_is_npy(data, size))
        st = pt_npy_decode(data, size, name, opt, out, err);
    else
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "unrecognised image format (not PNG, TIFF, binary PGM or .npy)");
    if (st == PT_OK && out->count == 0)
        st = pt_error_set(err, PT_ERR_FORMAT, name, "file holds no image");
    if (st != PT_OK)
        pt_frames_free(out);
    else
        pt_frame_gain_frames(opt, out);
    return st;
}

/* Reads until EOF so pipes and files whose size changes still work. */
static pt_status read_whole_file(const char *path, uint8_t **data, size_t *size,
                                 pt_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    pt_status st = PT_OK;
    while (buf) {
        if (len == cap) {
            uint8_t *grown = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (!buf)
        st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory reading file");
    else if (ferror(f))
        st = pt_error_set(err, PT_ERR_IO, path, "read error: %s", strerror(errno));
    fclose(f);
    if (st != PT_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *size = len;
    return PT_OK;
}

/* With the automatic gain and one page other than the first asked for:
 * *fixed = opt with the gain the file's first page sets (lib/io/frame_gain.h,
 * a file's first frame sets the gain of all); *fixed untouched otherwise. */
static pt_status first_page_gain(const char *path, const pt_load_options *opt,
                                 pt_load_options *fixed, pt_error *err)
{
    if (!opt || opt->gain >= 1.0 || opt->page <= 0)
        return PT_OK;
    pt_load_options first = *opt;
    pt_frames f0 = {0};
    first.page = 0;
    first.gain = 1.0;
    pt_status st = pt_image_load(path, &first, &f0, err);
    if (st != PT_OK)
        return st;
    *fixed = *opt;
    fixed->gain = pt_frame_gain_resolve(opt, f0.count > 0 ? f0.frames[0] : NULL);
    pt_frames_free(&f0);
    return PT_OK;
}

pt_status pt_image_load(const char *path, const pt_load_options *opt,
                        pt_frames *out, pt_error *err)
{
    uint8_t *data = NULL;
    size_t size = 0;
    out->count = 0;
    out->frames = NULL;
    out->page_errors = NULL;
    pt_load_options fixed;
    fixed.gain = 0.0;
    pt_status st = first_page_gain(path, opt, &fixed, err);
    if (st != PT_OK)
        return st;
    if (fixed.gain >= 1.0)
        opt = &fixed;
    if (pt_stack_path_kind(path) || pt_video_path_is_video(path)) {
        pt_load_options defaults;
        if (!opt) {
            pt_load_options_default(&defaults);
            opt = &defaults;
        }
        st = pt_stack_path_kind(path) ? pt_stack_load(path, opt, out, err)
                                      : pt_video_load(path, opt, out, err);
        if (st == PT_OK)
            pt_frame_gain_frames(opt, out);
        return st;
    }
    st = read_whole_file(path, &data, &size, err);
    if (st != PT_OK)
        return st;
    st = pt_image_load_memory(data, size, path, opt, out, err);
    free(data);
    return st;
}
