/* Raw frame stacks (pt_stack.h): mapping .npy and .raw files, .raw layout
 * checks, frames as 8-bit images. The .npy header is parsed in stack_npy.c. */
#include "lib/io/pt_stack.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/io/image_decode.h"

int pt_stack_path_kind(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (dot && !strcasecmp(dot, ".npy"))
        return 'n';
    if (dot && !strcasecmp(dot, ".raw"))
        return 'r';
    return 0;
}

/* The whole file, mapped read-only; an empty file maps nothing. */
static pt_status map_file(const char *path, void **map, size_t *size, pt_error *err)
{
    *map = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st)) {
        int e = errno;
        close(fd);
        return pt_error_set(err, PT_ERR_IO, path, "cannot read: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return pt_error_set(err, PT_ERR_IO, path, "not a regular file");
    }
    if (st.st_size == 0) {
        close(fd);
        return pt_error_set(err, PT_ERR_FORMAT, path, "empty file");
    }
    if ((unsigned long long)st.st_size > SIZE_MAX) {
        close(fd);
        return pt_error_set(err, PT_ERR_NOMEM, path, "file too large to map");
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED)
        return pt_error_set(err, PT_ERR_IO, path, "cannot map: %s", strerror(e));
    /* frames are read in order: read ahead, drop behind */
    madvise(p, (size_t)st.st_size, MADV_SEQUENTIAL);
    *map = p;
    *size = (size_t)st.st_size;
    return PT_OK;
}

/* After a mapped file was parsed with status st: the stack keeps the
 * mapping, or on an error it is unmapped. Returns st. */
static pt_status keep_map(pt_stack *s, void *map, size_t size, pt_status st)
{
    if (st) {
        munmap(map, size);
        return st;
    }
    s->map = map;
    s->map_size = size;
    return PT_OK;
}

pt_status pt_stack_open_npy(const char *path, pt_stack *s, pt_error *err)
{
    memset(s, 0, sizeof s[0]);
    void *map;
    size_t size;
    pt_status st = map_file(path, &map, &size, err);
    if (st)
        return st;
    return keep_map(s, map, size, pt_stack_parse_npy(map, size, path, s, err));
}

/* The frame layout a .raw file is read with, before the file is touched. */
static pt_status check_raw_layout(const char *name, int width, int height, int depth,
                                  pt_error *err)
{
    if (width <= 0 || height <= 0)
        return pt_error_set(err, PT_ERR_PARAM, name,
                            "a .raw file needs the frame size: --size WxH");
    if (depth != 8 && depth != 16)
        return pt_error_set(err, PT_ERR_PARAM, name, "--depth is 8 or 16, not %d", depth);
    return pt_image_check_size(width, height, name, err);
}

pt_status pt_stack_parse_raw(const uint8_t *data, size_t size, const char *name, int width,
                             int height, int depth, pt_stack *s, pt_error *err)
{
    memset(s, 0, sizeof s[0]);
    pt_status st = check_raw_layout(name, width, height, depth, err);
    if (st)
        return st;
    size_t frame = (size_t)width * (size_t)height * (size_t)(depth / 8);
    if (size == 0 || !data)
        return pt_error_set(err, PT_ERR_FORMAT, name, "empty file");
    if (size % frame)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "%zu bytes are not a whole number of %dx%d %d-bit frames "
                            "(%zu bytes each; %zu bytes left over)",
                            size, width, height, depth, frame, size % frame);
    if (size / frame > (size_t)LONG_MAX)
        return pt_error_set(err, PT_ERR_FORMAT, name, "too many frames");
    s->width = width;
    s->height = height;
    s->depth = depth;
    s->big_endian = 0;
    s->count = (long)(size / frame);
    s->frame_bytes = frame;
    s->data = data;
    return PT_OK;
}

pt_status pt_stack_open_raw(const char *path, int width, int height, int depth, pt_stack *s,
                            pt_error *err)
{
    memset(s, 0, sizeof s[0]);
    pt_status st = check_raw_layout(path, width, height, depth, err);
    if (st)
        return st;
    void *map;
    size_t size;
    if ((st = map_file(path, &map, &size, err)))
        return st;
    return keep_map(s, map, size,
                    pt_stack_parse_raw(map, size, path, width, height, depth, s, err));
}

pt_status pt_stack_open(const char *path, const pt_load_options *opt, pt_stack *s,
                        pt_error *err)
{
    if (pt_stack_path_kind(path) == 'r')
        return pt_stack_open_raw(path, opt->raw_width, opt->raw_height,
                                 opt->raw_depth ? opt->raw_depth : 8, s, err);
    return pt_stack_open_npy(path, s, err);
}

static int is_tiff_data(const uint8_t *d, size_t size)
{
    return size >= 4 && ((d[0] == 'I' && d[1] == 'I' && (d[2] == 42 || d[2] == 43) && !d[3]) ||
                         (d[0] == 'M' && d[1] == 'M' && !d[2] && (d[3] == 42 || d[3] == 43)));
}

pt_status pt_stack_open_file(const char *path, const pt_load_options *opt, pt_stack *s,
                             int *tiff, pt_error *err)
{
    *tiff = 0;
    if (pt_stack_path_kind(path))
        return pt_stack_open(path, opt, s, err);
    memset(s, 0, sizeof s[0]);
    void *map;
    size_t size;
    pt_status st = map_file(path, &map, &size, err);
    if (st)
        return st;
    st = is_tiff_data(map, size) ? pt_stack_parse_tiff(map, size, path, s, err)
                                 : pt_error_set(err, PT_ERR_FORMAT, path, "not a TIFF file");
    if ((st = keep_map(s, map, size, st)))
        return st;
    *tiff = 1;
    return PT_OK;
}

void pt_stack_close(pt_stack *s)
{
    if (s && s->map)
        munmap(s->map, s->map_size);
    if (s) {
        free(s->pages);
        memset(s, 0, sizeof s[0]);
    }
}

int pt_stack_frame_in_place(const pt_stack *s, long index, pt_image *view)
{
    if (index < 0 || index >= s->count)
        return 0;
    const uint8_t *at;
    if (s->pages) {
        const pt_tiff_page *p = &s->pages[index];
        if (p->read != PT_PAGE_IN_PLACE)
            return 0;
        view->width = p->width;
        view->height = p->height;
        at = s->data + p->offset;
    } else {
        if (s->depth != 8)
            return 0;
        view->width = s->width;
        view->height = s->height;
        at = s->data + s->frame_bytes * (size_t)index;
    }
    view->stride = view->width;
    /* read-only: the back ends read frames, they never write them */
    view->buf = (uint8_t *)(uintptr_t)at;
    return 1;
}

/* A TIFF page stored uncompressed in one run, converted row by row as
 * describe_page in image_tiff.c converts libtiff's rows. */
static pt_status convert_page(const pt_stack *s, const pt_tiff_page *p,
                              const pt_load_options *opt, const char *name, pt_image **out,
                              pt_error *err)
{
    pt_row_format fmt = {.samples = p->samples,
                         .bits = p->bits,
                         .colour = p->colour,
                         .big_endian = p->big_endian,
                         .invert = p->invert,
                         .shift = opt->significant_bits - 8};
    if (p->bits == 16 && opt->bits_from_file && opt->significant_bits == 16 && p->has_max_sample)
        fmt.shift = pt_bits_of_max(p->max_sample) - 8;
    pt_image *img = pt_image_create(p->width, p->height);
    if (!img)
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for a %dx%d frame",
                            p->width, p->height);
    size_t row = (size_t)p->width * (size_t)p->samples * (size_t)(p->bits / 8);
    const uint8_t *src = s->data + p->offset;
    for (int y = 0; y < p->height; y++)
        pt_row_to_grey(src + row * (size_t)y, &fmt, p->width,
                       img->buf + (size_t)img->stride * (size_t)y);
    *out = img;
    return PT_OK;
}

pt_status pt_stack_read_frame(const pt_stack *s, long index, const pt_load_options *opt,
                              const char *name, pt_image **out, pt_error *err)
{
    *out = NULL;
    if (index < 0 || index >= s->count)
        return pt_error_set(err, PT_ERR_PARAM, name, "frame %ld of %ld requested", index,
                            s->count);
    if (!s->pages) {
        *out = pt_stack_frame(s, index, opt->significant_bits);
        return *out ? PT_OK
                    : pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for frame %ld",
                                   index);
    }
    const pt_tiff_page *p = &s->pages[index];
    switch (p->read) {
    case PT_PAGE_IN_PLACE:
    case PT_PAGE_CONVERT:
        return convert_page(s, p, opt, name, out, err);
    case PT_PAGE_LIBTIFF:
        return pt_tiff_decode_page(s->data, s->data_size, name, p->ifd,
                                   index > INT_MAX ? INT_MAX : (int)index, opt, out, err);
    default:
        return pt_stack_tiff_page_error(s, index, name, err);
    }
}

pt_image *pt_stack_frame(const pt_stack *s, long index, int significant_bits)
{
    if (index < 0 || index >= s->count)
        return NULL;
    pt_image *img = pt_image_create(s->width, s->height);
    if (!img)
        return NULL;
    const uint8_t *src = s->data + s->frame_bytes * (size_t)index;
    size_t row = (size_t)s->width * (size_t)(s->depth / 8);
    pt_row_format fmt = {.samples = 1,
                         .bits = s->depth,
                         .big_endian = s->big_endian,
                         .shift = significant_bits - 8};
    for (int y = 0; y < s->height; y++)
        pt_row_to_grey(src + row * (size_t)y, &fmt, s->width,
                       img->buf + (size_t)img->stride * (size_t)y);
    return img;
}

pt_status pt_stack_frames(const pt_stack *s, const pt_load_options *opt, const char *name,
                          pt_frames *out, pt_error *err)
{
    out->count = 0;
    out->frames = NULL;
    out->page_errors = NULL;
    long first = 0, last = s->count - 1;
    if (opt->page >= 0) {
        if (opt->page >= s->count)
            return pt_error_set(err, PT_ERR_PARAM, name, "frame %d of %ld requested", opt->page,
                                s->count);
        first = last = opt->page;
    }
    if (last - first >= INT_MAX)
        return pt_error_set(err, PT_ERR_NOMEM, name, "%ld frames are too many to load at once",
                            s->count);
    pt_status st = PT_OK;
    for (long i = first; i <= last && !st; i++) {
        pt_image *img = pt_stack_frame(s, i, opt->significant_bits);
        st = img ? pt_frames_append(out, img, name, err)
                 : pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for frame %ld", i);
    }
    if (st)
        pt_frames_free(out);
    return st;
}

pt_status pt_stack_load(const char *path, const pt_load_options *opt, pt_frames *out,
                        pt_error *err)
{
    pt_load_options defaults;
    if (!opt) {
        pt_load_options_default(&defaults);
        opt = &defaults;
    }
    out->count = 0;
    out->frames = NULL;
    out->page_errors = NULL;
    if (opt->significant_bits < 8 || opt->significant_bits > 16)
        return pt_error_set(err, PT_ERR_PARAM, path, "significant bits must be 8..16, got %d",
                            opt->significant_bits);
    pt_stack s;
    pt_status st = pt_stack_open(path, opt, &s, err);
    if (st)
        return st;
    st = pt_stack_frames(&s, opt, path, out, err);
    pt_stack_close(&s);
    return st;
}
