/* The public detector handle of pupiltrack.h (pupiltrack(3)) over the
 * back ends' tables: it holds one back end's state, prepared for the largest
 * frame seen so far, and the results of the last detect call. The back end
 * is looked up by name in the registry (lib/api/registry.h). */
#include "lib/api/pupiltrack.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/io/image_decode.h"

/* The public codes are the library's own pt_status values. */
_Static_assert((int)PT_API_ERR_IO == (int)PT_ERR_IO && (int)PT_API_ERR_FORMAT == (int)PT_ERR_FORMAT &&
                   (int)PT_API_ERR_PARAM == (int)PT_ERR_PARAM &&
                   (int)PT_API_ERR_NOMEM == (int)PT_ERR_NOMEM &&
                   (int)PT_API_ERR_UNAVAILABLE == (int)PT_ERR_UNAVAILABLE &&
                   (int)PT_API_ERR_INTERNAL == (int)PT_ERR_INTERNAL,
               "pt_api_status mirrors pt_status");

/* Frames one batch call may carry. */
#define MAX_BATCH (1 << 20)

struct pt_detector {
    const pt_backend *backend;
    pt_config config;
    pt_track_options track;
    int bits; /* significant bits of 16-bit frames */
    void *state;
    int state_width, state_height;
    /* the last detect call: frames * eyes results */
    pt_result *results;
    int frames, capacity; /* capacity in frames */
    pt_image *images;     /* capacity of them: the frames as the back end sees them */
    pt_image **image_list;
    uint8_t *grey; /* 16-bit frames reduced to 8 bits */
    size_t grey_size;
    char message[1024];
};

const char *pt_version(void) { return PT_VERSION; }

int pt_api_version(void) { return PUPILTRACK_API_VERSION; }

const char *pt_api_status_name(pt_api_status status)
{
    static const char *const names[] = {"ok",    "io",          "format",  "param",
                                        "nomem", "unavailable", "internal"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown";
}

static pt_api_status fail(pt_detector *d, pt_api_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static pt_api_status fail(pt_detector *d, pt_api_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    return st;
}

/* The library's error as one line; the command-line option it names (-b, -p)
 * means nothing to a program and is left out. */
static pt_api_status fail_with(pt_detector *d, const pt_error *err)
{
    char line[1100];
    if (err->file[0] == '-')
        return fail(d, (pt_api_status)err->status, "%s", err->what);
    return fail(d, (pt_api_status)err->status, "%s", pt_error_format(err, line, sizeof line));
}

/* "0|1"-style integers of the options in pupiltrack.h. */
static int parse_int(const char *text, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* One "key=value": an option of the handle, else a detector parameter. */
static pt_api_status set_param(pt_detector *d, const char *assignment)
{
    static const struct {
        const char *key;
        int lo, hi;
    } options[] = {{"ellipse", 0, 1}, {"binocular", 0, 1}, {"sequence", 0, 1},
                   {"threads", 0, 4096}, {"bits", 8, 16},  {"device", 0, 255}};
    const char *eq = strchr(assignment, '=');
    size_t klen = eq ? (size_t)(eq - assignment) : 0;
    for (size_t i = 0; eq && i < sizeof options / sizeof options[0]; i++) {
        if (strlen(options[i].key) != klen || strncmp(options[i].key, assignment, klen))
            continue;
        int v;
        if (parse_int(eq + 1, options[i].lo, options[i].hi, &v))
            return fail(d, PT_API_ERR_PARAM, "%s: '%s' is not an integer in [%d, %d]",
                        options[i].key, eq + 1, options[i].lo, options[i].hi);
        switch (i) {
        case 0: d->track.ellipse = v; break;
        case 1: d->track.binocular = v; break;
        case 2: d->track.sequence = v; break;
        case 3: d->track.threads = v; break;
        case 4: d->bits = v; break;
        default:
            d->track.ndevices = 1;
            d->track.devices[0] = v;
            break;
        }
        return PT_API_OK;
    }
    pt_error err;
    pt_error_clear(&err);
    if (pt_config_set(&d->config, assignment, &err))
        return fail_with(d, &err);
    return PT_API_OK;
}

static pt_api_status configure(pt_detector *d, const char *algorithm, const char *backend,
                               const char *const *params, int nparams)
{
    d->track.algorithm = pt_algorithm_from_name(algorithm ? algorithm : "starburst");
    if (!d->track.algorithm || d->track.algorithm == PT_ALG_ALL)
        return fail(d, PT_API_ERR_PARAM, "unknown detector '%s' (starburst, tl, hough)",
                    algorithm);
    d->backend = pt_track_backend(backend ? backend : "omp");
    if (!d->backend) {
        char names[64];
        return fail(d, PT_API_ERR_PARAM, "unknown back end '%s' (%s)", backend,
                    pt_backend_list(PT_CAP_TRACK, names, sizeof names));
    }
    if (nparams < 0 || (nparams > 0 && !params))
        return fail(d, PT_API_ERR_PARAM, "parameters: %d given without a list", nparams);
    for (int i = 0; i < nparams; i++) {
        if (!params[i])
            return fail(d, PT_API_ERR_PARAM, "parameter %d is NULL", i);
        pt_api_status st = set_param(d, params[i]);
        if (st)
            return st;
    }
    /* Prepared for the smallest frame, so that a back end that cannot run
     * here says so now; the first frame prepares it for its size. */
    pt_error err;
    pt_error_clear(&err);
    if (d->backend->create(&d->config, &d->track, 1, 1, &d->state, &err))
        return fail_with(d, &err);
    d->state_width = d->state_height = 1;
    return PT_API_OK;
}

pt_api_status pt_detector_open(pt_detector **out, const char *algorithm, const char *backend,
                               const char *const *params, int nparams, char *message,
                               size_t message_size)
{
    if (message && message_size)
        message[0] = 0;
    if (!out) {
        if (message && message_size)
            snprintf(message, message_size, "pt_detector_open: out is NULL");
        return PT_API_ERR_PARAM;
    }
    *out = NULL;
    pt_detector *d = calloc(1, sizeof *d);
    if (!d) {
        if (message && message_size)
            snprintf(message, message_size, "out of memory");
        return PT_API_ERR_NOMEM;
    }
    pt_config_default(&d->config);
    d->bits = 16;
    pt_api_status st = configure(d, algorithm, backend, params, nparams);
    if (st) {
        if (message && message_size)
            snprintf(message, message_size, "%s", d->message);
        pt_detector_close(d);
        return st;
    }
    *out = d;
    return PT_API_OK;
}

static pt_api_status reserve(pt_detector *d, int count, size_t grey_size)
{
    int eyes = d->track.binocular ? 2 : 1;
    if (count > d->capacity) {
        pt_result *results = realloc(d->results, (size_t)count * eyes * sizeof *results);
        if (results)
            d->results = results;
        pt_image *images = realloc(d->images, (size_t)count * sizeof *images);
        if (images)
            d->images = images;
        pt_image **list = realloc(d->image_list, (size_t)count * sizeof *list);
        if (list)
            d->image_list = list;
        if (!results || !images || !list)
            return fail(d, PT_API_ERR_NOMEM, "out of memory for %d frames", count);
        d->capacity = count;
    }
    if (grey_size > d->grey_size) {
        free(d->grey);
        d->grey_size = 0;
        if (!(d->grey = malloc(grey_size)))
            return fail(d, PT_API_ERR_NOMEM, "out of memory for %d frames", count);
        d->grey_size = grey_size;
    }
    return PT_API_OK;
}

/* Have the back end's state take frames of this size. */
static pt_api_status fit_backend(pt_detector *d, int width, int height)
{
    if (d->state && width <= d->state_width && height <= d->state_height)
        return PT_API_OK;
    int w = width > d->state_width ? width : d->state_width;
    int h = height > d->state_height ? height : d->state_height;
    if (d->state)
        d->backend->destroy(d->state);
    d->state = NULL;
    d->state_width = d->state_height = 0;
    pt_error err;
    pt_error_clear(&err);
    if (d->backend->create(&d->config, &d->track, w, h, &d->state, &err))
        return fail_with(d, &err);
    d->state_width = w;
    d->state_height = h;
    return PT_API_OK;
}

static pt_api_status check_frames(pt_detector *d, const void *const *frames, int count,
                                  int width, int height, size_t stride, int depth)
{
    if (count < 1 || count > MAX_BATCH)
        return fail(d, PT_API_ERR_PARAM, "frame count %d is not in [1, %d]", count, MAX_BATCH);
    if (depth != 8 && depth != 16)
        return fail(d, PT_API_ERR_PARAM, "depth %d is not 8 or 16", depth);
    if (width <= 0 || height <= 0)
        return fail(d, PT_API_ERR_PARAM, "frame size %dx%d is not positive", width, height);
    pt_error err;
    pt_error_clear(&err);
    if (pt_image_check_size(width, height, "frame", &err))
        return fail_with(d, &err);
    if (d->track.binocular && width < 2)
        return fail(d, PT_API_ERR_PARAM, "a binocular frame needs a width of 2 or more");
    size_t row = (size_t)width * (size_t)(depth / 8);
    if (stride < row)
        return fail(d, PT_API_ERR_PARAM, "stride %zu is less than a row (%zu bytes)", stride,
                    row);
    if (stride > (size_t)INT32_MAX)
        return fail(d, PT_API_ERR_PARAM, "stride %zu is too large", stride);
    if (!frames)
        return fail(d, PT_API_ERR_PARAM, "no frames");
    for (int i = 0; i < count; i++)
        if (!frames[i])
            return fail(d, PT_API_ERR_PARAM, "frame %d has no pixels", i);
    return PT_API_OK;
}

pt_api_status pt_detector_detect_batch(pt_detector *d, const void *const *frames, int count,
                                       int width, int height, size_t stride, int depth)
{
    if (!d)
        return PT_API_ERR_PARAM;
    d->message[0] = 0;
    d->frames = 0;
    pt_api_status st = check_frames(d, frames, count, width, height, stride, depth);
    if (st)
        return st;
    /* 8-bit frames are read in place; 16-bit ones reduced into d->grey. */
    size_t grey_stride = ((size_t)width + 63) & ~(size_t)63;
    size_t per_frame = grey_stride * (size_t)height;
    if (depth == 16 && per_frame > SIZE_MAX / (size_t)count)
        return fail(d, PT_API_ERR_NOMEM, "%d frames of %dx%d are too many", count, width,
                    height);
    if ((st = reserve(d, count, depth == 16 ? per_frame * (size_t)count : 0)) ||
        (st = fit_backend(d, width, height)))
        return st;
    pt_row_format fmt = {.samples = 1, .bits = 16, .shift = d->bits - 8};
    for (int i = 0; i < count; i++) {
        pt_image *img = &d->images[i];
        img->width = width;
        img->height = height;
        if (depth == 8) {
            img->stride = (int)stride;
            /* The back ends read frames and never write them. */
            img->buf = (uint8_t *)(uintptr_t)frames[i];
        } else {
            img->stride = (int)grey_stride;
            img->buf = d->grey + per_frame * (size_t)i;
            const uint8_t *src = frames[i];
            for (int y = 0; y < height; y++)
                pt_row_to_grey(src + stride * (size_t)y, &fmt, width,
                               img->buf + grey_stride * (size_t)y);
        }
        d->image_list[i] = img;
    }
    pt_error err;
    pt_error_clear(&err);
    if (d->backend->track(d->state, d->image_list, count, d->results, NULL, &err))
        return fail_with(d, &err);
    d->frames = count;
    return PT_API_OK;
}

pt_api_status pt_detector_detect(pt_detector *d, const void *pixels, int width, int height,
                                 size_t stride, int depth)
{
    const void *frames[1] = {pixels};
    return pt_detector_detect_batch(d, frames, 1, width, height, stride, depth);
}

int pt_detector_eyes(const pt_detector *d) { return d && d->track.binocular ? 2 : 1; }

pt_api_status pt_detector_result(const pt_detector *d, int frame, int eye, pt_pupil *out)
{
    if (!d || !out || frame < 0 || frame >= d->frames || eye < 0 ||
        eye >= pt_detector_eyes(d))
        return PT_API_ERR_PARAM;
    const pt_result *r = &d->results[(size_t)frame * pt_detector_eyes(d) + eye];
    memset(out, 0, sizeof *out);
    out->status = r->status == PT_DETECT_OK         ? PT_PUPIL_FOUND
                  : r->status == PT_DETECT_NOTFOUND ? PT_PUPIL_NOT_FOUND
                                                    : PT_PUPIL_ERROR;
    out->eye = r->eye;
    int found = r->status == PT_DETECT_OK;
    out->has_circle = found && r->has_circle;
    out->has_ellipse = found && r->has_ellipse;
    if (out->has_circle) {
        out->cx = r->circle.cx;
        out->cy = r->circle.cy;
        out->radius = r->circle.r;
    } else if (out->has_ellipse) {
        out->cx = r->ellipse.cx;
        out->cy = r->ellipse.cy;
    }
    if (out->has_ellipse) {
        out->ellipse_cx = r->ellipse.cx;
        out->ellipse_cy = r->ellipse.cy;
        out->ellipse_a = r->ellipse.a;
        out->ellipse_b = r->ellipse.b;
        out->ellipse_theta = r->ellipse.theta;
    }
    out->confidence = r->confidence;
    out->ms = r->ms;
    if (r->status == PT_DETECT_ERROR)
        snprintf(out->message, sizeof out->message, "%s", r->message);
    return PT_API_OK;
}

const char *pt_detector_message(const pt_detector *d)
{
    return d ? d->message : "no detector (NULL)";
}

void pt_detector_close(pt_detector *d)
{
    if (!d)
        return;
    if (d->state)
        d->backend->destroy(d->state);
    free(d->results);
    free(d->images);
    free(d->image_list);
    free(d->grey);
    free(d);
}
