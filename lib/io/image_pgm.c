/* Binary PGM (P5): 8-bit, or 16-bit big-endian when maxval > 255. */
#include "lib/io/image_decode.h"

#include <stdio.h>
#include <string.h>

/* Skips whitespace and '#' comments (which run to the end of the line). */
static void skip_space(const uint8_t *data, size_t size, size_t *pos)
{
    while (*pos < size) {
        uint8_t c = data[*pos];
        if (c == '#') {
            while (*pos < size && data[*pos] != '\n' && data[*pos] != '\r')
                (*pos)++;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
                   c == '\f') {
            (*pos)++;
        } else {
            return;
        }
    }
}

/* Reads a decimal header field; returns -1 if absent or above limit. */
static long long read_number(const uint8_t *data, size_t size, size_t *pos,
                             long long limit)
{
    skip_space(data, size, pos);
    if (*pos >= size || data[*pos] < '0' || data[*pos] > '9')
        return -1;
    long long v = 0;
    while (*pos < size && data[*pos] >= '0' && data[*pos] <= '9') {
        v = v * 10 + (data[*pos] - '0');
        if (v > limit)
            return -1;
        (*pos)++;
    }
    return v;
}

pt_status pt_pgm_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err)
{
    size_t pos = 2; /* past "P5" */
    if (size < 3 || !(data[2] == ' ' || data[2] == '\t' || data[2] == '\n' ||
                      data[2] == '\r' || data[2] == '#'))
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "invalid PGM header (no whitespace after P5)");
    /* any larger side fails the size check below, so the cap only stops overflow */
    long long width = read_number(data, size, &pos, 1LL << 40);
    long long height = read_number(data, size, &pos, 1LL << 40);
    long long maxval = read_number(data, size, &pos, 65535);
    if (width < 0 || height < 0 || maxval < 0)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "invalid PGM header (expected width, height and maxval "
                            "1..65535)");
    if (maxval == 0)
        return pt_error_set(err, PT_ERR_FORMAT, name, "invalid PGM maxval 0");
    /* exactly one whitespace byte separates the header from the pixels */
    if (pos >= size || !(data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\n' ||
                         data[pos] == '\r'))
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "invalid PGM header (no whitespace after maxval)");
    pos++;
    pt_status st = pt_image_check_size(width, height, name, err);
    if (st != PT_OK)
        return st;

    int bytes = maxval > 255 ? 2 : 1;
    size_t need = (size_t)width * (size_t)height * (size_t)bytes;
    if (size - pos < need)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "truncated PGM: %zu bytes of pixel data, %lldx%lld needs %zu",
                            size - pos, width, height, need);
    pt_image *img = pt_image_create((int)width, (int)height);
    if (!img)
        return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory for %lldx%lld image",
                            width, height);

    const uint8_t *pixels = data + pos;
    if (bytes == 2) {
        pt_row_format fmt = {.samples = 1, .bits = 16, .big_endian = 1,
                             .shift = opt->significant_bits - 8};
        if (opt->bits_from_file && opt->significant_bits == 16)
            fmt.shift = pt_bits_of_max((unsigned long)maxval) - 8;
        for (int y = 0; y < img->height; y++)
            pt_row_to_grey(pixels + (size_t)y * width * 2, &fmt, img->width,
                           img->buf + (size_t)y * img->stride);
    } else if (maxval == 255) {
        for (int y = 0; y < img->height; y++)
            memcpy(img->buf + (size_t)y * img->stride, pixels + (size_t)y * width,
                   (size_t)width);
    } else {
        /* maxval < 255 means a coarser scale: stretch it to 0..255, rounded;
         * out-of-range samples are clamped to white */
        uint8_t scale[256];
        for (int v = 0; v < 256; v++)
            scale[v] = (uint8_t)(v >= maxval ? 255 : (v * 255 + maxval / 2) / maxval);
        for (int y = 0; y < img->height; y++) {
            const uint8_t *src = pixels + (size_t)y * width;
            uint8_t *dst = img->buf + (size_t)y * img->stride;
            for (int x = 0; x < img->width; x++)
                dst[x] = scale[src[x]];
        }
    }
    return pt_frames_append(out, img, name, err);
}
