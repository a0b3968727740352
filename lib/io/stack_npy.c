/* The NumPy .npy format (format versions 1.0, 2.0 and 3.0): the magic
 * "\x93NUMPY", the version, the header's length (2 bytes little-endian for
 * 1.0, else 4), a Python dict literal with 'descr', 'fortran_order' and
 * 'shape', then the array's bytes. Accepted: uint8 or uint16 in C order,
 * shape (height, width) or (frames, height, width). */
#include "lib/io/pt_stack.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/io/image_decode.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAX_HEADER (1 << 20)

int pt_stack_is_npy(const uint8_t *data, size_t size)
{
    return data && size >= 6 && !memcmp(data, NPY_MAGIC, 6);
}

/* The value after key (quoted with ' or ") in the dict text, or NULL. */
static const char *value_of(const char *dict, size_t len, const char *key)
{
    size_t klen = strlen(key);
    for (size_t i = 0; i + klen + 2 <= len; i++) {
        if ((dict[i] != '\'' && dict[i] != '"') || memcmp(dict + i + 1, key, klen) ||
            dict[i + 1 + klen] != dict[i])
            continue;
        size_t j = i + klen + 2;
        while (j < len && isspace((unsigned char)dict[j]))
            j++;
        if (j >= len || dict[j] != ':')
            return NULL;
        j++;
        while (j < len && isspace((unsigned char)dict[j]))
            j++;
        return j < len ? dict + j : NULL;
    }
    return NULL;
}

static int host_big_endian(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 0;
}

/* 'descr': '|u1', '<u2', '>u2' (also '=' or no order, the host's). */
static pt_status parse_descr(const char *v, const char *end, const char *name, pt_stack *s,
                             pt_error *err)
{
    char descr[16] = {0};
    if (v >= end || (*v != '\'' && *v != '"'))
        return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: 'descr' is not a string");
    const char *close = memchr(v + 1, *v, (size_t)(end - v - 1));
    if (!close || close - v - 1 >= (long)sizeof descr)
        return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: bad 'descr'");
    memcpy(descr, v + 1, (size_t)(close - v - 1));
    const char *t = descr;
    char order = '=';
    if (*t == '<' || *t == '>' || *t == '|' || *t == '=')
        order = *t++;
    if (!strcmp(t, "u1")) {
        s->depth = 8;
    } else if (!strcmp(t, "u2")) {
        s->depth = 16;
        s->big_endian = order == '>' || (order != '<' && host_big_endian());
        if (order == '|')
            return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: bad 'descr' '%s'",
                                descr);
    } else {
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "array of '%s': only uint8 ('|u1') and uint16 ('<u2', '>u2') "
                            "frames are read",
                            descr);
    }
    return PT_OK;
}

/* 'shape': (H, W) or (N, H, W). */
static pt_status parse_shape(const char *v, const char *end, const char *name, long long dims[3],
                             int *ndim, pt_error *err)
{
    *ndim = 0;
    if (v >= end || *v != '(')
        return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: 'shape' is not a tuple");
    const char *p = v + 1;
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p < end && *p == ')')
            break;
        if (p >= end || !isdigit((unsigned char)*p))
            return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: bad 'shape'");
        long long d = 0;
        while (p < end && isdigit((unsigned char)*p)) {
            if (d > (LLONG_MAX - 9) / 10)
                return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: 'shape' too large");
            d = d * 10 + (*p++ - '0');
        }
        /* numpy writes 'L' after longs in old files */
        if (p < end && (*p == 'L' || *p == 'l'))
            p++;
        if (*ndim == 3)
            return pt_error_set(err, PT_ERR_FORMAT, name,
                                "array of more than 3 dimensions: a frame is 2-D "
                                "(height, width), a stack 3-D (frames, height, width)");
        dims[(*ndim)++] = d;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p < end && *p == ',')
            p++;
    }
    if (*ndim < 2)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "array of %d dimension%s: a frame is 2-D (height, width), a "
                            "stack 3-D (frames, height, width)",
                            *ndim, *ndim == 1 ? "" : "s");
    return PT_OK;
}

pt_status pt_stack_parse_npy(const uint8_t *data, size_t size, const char *name, pt_stack *s,
                             pt_error *err)
{
    memset(s, 0, sizeof s[0]);
    if (!pt_stack_is_npy(data, size))
        return pt_error_set(err, PT_ERR_FORMAT, name, "not a NumPy .npy file");
    if (size < 10)
        return pt_error_set(err, PT_ERR_FORMAT, name, "truncated .npy header");
    int major = data[6];
    size_t prefix, hlen;
    if (major == 1) {
        prefix = 10;
        hlen = (size_t)data[8] | (size_t)data[9] << 8;
    } else if (major == 2 || major == 3) {
        if (size < 12)
            return pt_error_set(err, PT_ERR_FORMAT, name, "truncated .npy header");
        prefix = 12;
        hlen = (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 |
               (size_t)data[11] << 24;
    } else {
        return pt_error_set(err, PT_ERR_FORMAT, name, ".npy format version %d is not known",
                            major);
    }
    if (hlen > NPY_MAX_HEADER || hlen > size - prefix)
        return pt_error_set(err, PT_ERR_FORMAT, name, "truncated .npy header");
    const char *dict = (const char *)data + prefix, *end = dict + hlen;

    const char *descr = value_of(dict, hlen, "descr");
    const char *fortran = value_of(dict, hlen, "fortran_order");
    const char *shape = value_of(dict, hlen, "shape");
    if (!descr || !fortran || !shape)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            ".npy header lacks 'descr', 'fortran_order' or 'shape'");
    pt_status st = parse_descr(descr, end, name, s, err);
    if (st)
        return st;
    if (end - fortran >= 4 && !memcmp(fortran, "True", 4))
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "array in Fortran order: save it in C order "
                            "(numpy.ascontiguousarray)");
    if (end - fortran < 5 || memcmp(fortran, "False", 5))
        return pt_error_set(err, PT_ERR_FORMAT, name, ".npy header: bad 'fortran_order'");
    long long dims[3];
    int ndim;
    if ((st = parse_shape(shape, end, name, dims, &ndim, err)))
        return st;
    long long count = ndim == 3 ? dims[0] : 1;
    long long height = dims[ndim - 2], width = dims[ndim - 1];
    if (count == 0)
        return pt_error_set(err, PT_ERR_FORMAT, name, "the stack holds no frame");
    if ((st = pt_image_check_size(width, height, name, err)))
        return st;
    size_t frame = (size_t)width * (size_t)height * (size_t)(s->depth / 8);
    size_t bytes = size - prefix - hlen;
    if ((unsigned long long)count > bytes / frame)
        return pt_error_set(err, PT_ERR_FORMAT, name,
                            "truncated: %lld frames of %lldx%lld announced, %zu present", count,
                            width, height, bytes / frame);
    s->width = (int)width;
    s->height = (int)height;
    s->count = (long)count;
    s->frame_bytes = frame;
    s->data = data + prefix + hlen;
    return PT_OK;
}

pt_status pt_npy_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err)
{
    pt_stack s;
    pt_status st = pt_stack_parse_npy(data, size, name, &s, err);
    return st ? st : pt_stack_frames(&s, opt, name, out, err);
}
