/* pt_image allocation, frame lists and the row conversion shared by loaders. */
#include "lib/io/image_decode.h"

#include <stdlib.h>
#include <string.h>

pt_image *pt_image_create(int width, int height)
{
    if (width <= 0 || height <= 0 || width > PT_IMAGE_MAX_SIDE ||
        height > PT_IMAGE_MAX_SIDE ||
        (long long)width * height > PT_IMAGE_MAX_PIXELS)
        return NULL;
    pt_image *img = malloc(sizeof *img);
    if (!img)
        return NULL;
    img->width = width;
    img->height = height;
    img->stride = (width + 63) & ~63;
    /* calloc keeps untouched pages lazy, so a truncated huge file costs little */
    img->buf = calloc((size_t)img->stride * (size_t)height, 1);
    if (!img->buf) {
        free(img);
        return NULL;
    }
    return img;
}

int pt_image_same_pixels(const pt_image *a, const pt_image *b)
{
    if (a->width != b->width || a->height != b->height)
        return 0;
    for (int y = 0; y < a->height; y++)
        if (memcmp(a->buf + (size_t)y * a->stride, b->buf + (size_t)y * b->stride,
                   (size_t)a->width))
            return 0;
    return 1;
}

pt_image *pt_image_copy(const pt_image *src)
{
    if (!src)
        return NULL;
    pt_image *img = pt_image_create(src->width, src->height);
    if (!img)
        return NULL;
    for (int y = 0; y < src->height; y++)
        memcpy(img->buf + (size_t)y * img->stride,
               src->buf + (size_t)y * src->stride, (size_t)src->width);
    return img;
}

void pt_image_destroy(pt_image *img)
{
    if (!img)
        return;
    free(img->buf);
    free(img);
}

void pt_load_options_default(pt_load_options *opt)
{
    opt->significant_bits = 16;
    opt->page = -1;
    opt->raw_width = opt->raw_height = opt->raw_depth = 0;
    opt->page_errors = 0;
    opt->bits_from_file = 1;
    opt->gain = 1.0;
}

void pt_frames_free(pt_frames *frames)
{
    if (!frames)
        return;
    for (int i = 0; i < frames->count; i++)
        pt_image_destroy(frames->frames[i]);
    free(frames->frames);
    free(frames->page_errors);
    frames->frames = NULL;
    frames->page_errors = NULL;
    frames->count = 0;
}

int pt_bits_of_max(unsigned long max_value)
{
    int bits = 0;
    while (max_value) {
        bits++;
        max_value >>= 1;
    }
    return bits < 8 ? 8 : bits > 16 ? 16 : bits;
}

pt_status pt_image_check_size(long long width, long long height, const char *name,
                              pt_error *err)
{
    if (width <= 0 || height <= 0)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "invalid image size %lldx%lld", width, height);
    if (width > PT_IMAGE_MAX_SIDE || height > PT_IMAGE_MAX_SIDE ||
        width * height > PT_IMAGE_MAX_PIXELS)
        return pt_error_set(err, PT_ERR_NOMEM, name,
                            "image size %lldx%lld exceeds the limit "
                            "(side %d, %lld pixels)",
                            width, height, PT_IMAGE_MAX_SIDE,
                            (long long)PT_IMAGE_MAX_PIXELS);
    return PT_OK;
}

pt_status pt_frames_append(pt_frames *frames, pt_image *img, const char *name,
                           pt_error *err)
{
    pt_image **grown =
        realloc(frames->frames, sizeof *grown * (size_t)(frames->count + 1));
    if (!grown) {
        pt_image_destroy(img);
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for frame list");
    }
    frames->frames = grown;
    if (frames->page_errors) {
        pt_error *errors = realloc(frames->page_errors,
                                   sizeof *errors * (size_t)(frames->count + 1));
        if (!errors) {
            pt_image_destroy(img);
            return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for frame list");
        }
        pt_error_clear(&errors[frames->count]);
        frames->page_errors = errors;
    }
    grown[frames->count++] = img;
    return PT_OK;
}

pt_status pt_frames_append_error(pt_frames *frames, const pt_error *page_error,
                                 const char *name, pt_error *err)
{
    if (!frames->page_errors) {
        frames->page_errors = calloc((size_t)frames->count + 1, sizeof *frames->page_errors);
        if (!frames->page_errors)
            return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for frame list");
    }
    pt_status st = pt_frames_append(frames, NULL, name, err);
    if (st == PT_OK)
        frames->page_errors[frames->count - 1] = *page_error;
    return st;
}

static inline uint8_t reduce16(uint32_t v, int shift)
{
    v >>= shift;
    return (uint8_t)(v > 255 ? 255 : v);
}

/* Integer form of round(0.299 R + 0.587 G + 0.114 B): exact for 8 and 16 bits. */
static inline uint32_t luma601(uint32_t r, uint32_t g, uint32_t b)
{
    return (299 * r + 587 * g + 114 * b + 500) / 1000;
}

static inline uint32_t sample16(const uint8_t *p, int big_endian)
{
    if (big_endian)
        return (uint32_t)p[0] << 8 | p[1];
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

void pt_row_to_grey(const uint8_t *src, const pt_row_format *fmt, int width,
                    uint8_t *dst)
{
    const int n = fmt->samples;
    if (fmt->bits == 8) {
        if (fmt->colour)
            for (int x = 0; x < width; x++) {
                const uint8_t *p = src + (size_t)x * n;
                dst[x] = (uint8_t)luma601(p[0], p[1], p[2]);
            }
        else if (n == 1)
            memcpy(dst, src, (size_t)width);
        else
            for (int x = 0; x < width; x++)
                dst[x] = src[(size_t)x * n];
    } else {
        const int be = fmt->big_endian, shift = fmt->shift;
        if (fmt->colour)
            for (int x = 0; x < width; x++) {
                const uint8_t *p = src + (size_t)x * n * 2;
                dst[x] = reduce16(luma601(sample16(p, be), sample16(p + 2, be),
                                          sample16(p + 4, be)),
                                  shift);
            }
        else
            for (int x = 0; x < width; x++)
                dst[x] = reduce16(sample16(src + (size_t)x * n * 2, be), shift);
    }
    if (fmt->invert)
        for (int x = 0; x < width; x++)
            dst[x] = (uint8_t)(255 - dst[x]);
}
