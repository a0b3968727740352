/* TIFF decoding from memory with libtiff: 8/16-bit grey or RGB, strips or
 * tiles; each page (directory) becomes one frame. */
#include "lib/io/image_decode.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

/* Per-call cap on any one libtiff allocation (tiles, strip buffers, tags). */
#define TIFF_MAX_ALLOC (256 * 1024 * 1024)

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    char message[256]; /* last libtiff error, reported if decoding fails */
} tiff_source;

static tmsize_t src_read(thandle_t h, void *dst, tmsize_t n)
{
    tiff_source *src = h;
    if (n <= 0 || src->pos >= src->size)
        return 0;
    size_t avail = src->size - src->pos;
    size_t take = (size_t)n < avail ? (size_t)n : avail;
    memcpy(dst, src->data + src->pos, take);
    src->pos += take;
    return (tmsize_t)take;
}

static tmsize_t src_write(thandle_t h, void *buf, tmsize_t n)
{
    (void)h;
    (void)buf;
    (void)n;
    return -1; /* read-only */
}

static toff_t src_seek(thandle_t h, toff_t off, int whence)
{
    tiff_source *src = h;
    uint64_t base = whence == SEEK_CUR ? src->pos : whence == SEEK_END ? src->size : 0;
    if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
        return (toff_t)-1;
    /* toff_t is unsigned: a negative relative offset wraps, which the sum undoes */
    uint64_t target = base + off;
    if (target > src->size)
        return (toff_t)-1;
    src->pos = (size_t)target;
    return target;
}

static int src_close(thandle_t h)
{
    (void)h;
    return 0;
}

static toff_t src_size(thandle_t h)
{
    return ((tiff_source *)h)->size;
}

static int src_map(thandle_t h, void **base, toff_t *size)
{
    tiff_source *src = h;
    *base = (void *)src->data; /* libtiff only reads through the mapping in "r" mode */
    *size = src->size;
    return 1;
}

static void src_unmap(thandle_t h, void *base, toff_t size)
{
    (void)h;
    (void)base;
    (void)size;
}

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt,
                    va_list ap)
{
    (void)tif;
    (void)module;
    tiff_source *src = user;
    vsnprintf(src->message, sizeof src->message, fmt, ap);
    return 1; /* handled: keep libtiff's default handler off stderr */
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt,
                      va_list ap)
{
    (void)tif;
    (void)user;
    (void)module;
    (void)fmt;
    (void)ap;
    return 1; /* unknown tags and the like do not stop decoding */
}

/* Error with the page number and, when libtiff said something, its reason. */
static pt_status page_error(pt_error *err, pt_status st, const char *name,
                            const tiff_source *src, int page, const char *what)
{
    if (src->message[0])
        return pt_error_set(err, st, name, "TIFF page %d: %s (%s)", page, what,
                            src->message);
    return pt_error_set(err, st, name, "TIFF page %d: %s", page, what);
}

/* Checks the current directory and fills fmt; returns PT_OK if decodable. */
static pt_status describe_page(TIFF *tif, const char *name, const tiff_source *src,
                               int page, const pt_load_options *opt,
                               pt_row_format *fmt, uint32_t *width,
                               uint32_t *height, pt_error *err)
{
    uint16_t bits = 1, samples = 1, photometric = 0, planar = PLANARCONFIG_CONTIG;
    uint16_t sample_format = SAMPLEFORMAT_UINT;
    char why[160];
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, width) ||
        !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, height))
        return page_error(err, PT_ERR_FORMAT, name, src, page, "missing image size");
    pt_status st = pt_image_check_size(*width, *height, name, err);
    if (st != PT_OK)
        return st;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &sample_format);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric))
        photometric = samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;

    int colour = photometric == PHOTOMETRIC_RGB;
    if (photometric != PHOTOMETRIC_MINISBLACK && photometric != PHOTOMETRIC_MINISWHITE &&
        !colour)
        snprintf(why, sizeof why, "unsupported photometric interpretation %u "
                 "(grey or RGB only)", photometric);
    else if (bits != 8 && bits != 16)
        snprintf(why, sizeof why, "unsupported %u bits per sample (8 or 16 only)", bits);
    else if (sample_format != SAMPLEFORMAT_UINT && sample_format != SAMPLEFORMAT_VOID)
        snprintf(why, sizeof why, "unsupported sample format %u (unsigned only)",
                 sample_format);
    else if (samples < (colour ? 3 : 1) || samples > 4)
        snprintf(why, sizeof why, "unsupported %u samples per pixel", samples);
    else if (planar != PLANARCONFIG_CONTIG && samples > 1)
        snprintf(why, sizeof why, "separate colour planes are not supported");
    else
        why[0] = '\0';
    if (why[0])
        return pt_error_set(err, PT_ERR_FORMAT, name, "TIFF page %d: %s", page, why);

    fmt->samples = samples;
    fmt->bits = bits;
    fmt->colour = colour;
    fmt->big_endian = 0; /* libtiff hands out samples in host byte order */
    fmt->invert = photometric == PHOTOMETRIC_MINISWHITE;
    fmt->shift = opt->significant_bits - 8;
    uint16_t max_value = 0;
    if (bits == 16 && opt->bits_from_file && opt->significant_bits == 16 &&
        TIFFGetField(tif, TIFFTAG_MAXSAMPLEVALUE, &max_value))
        fmt->shift = pt_bits_of_max(max_value) - 8;
    return PT_OK;
}

static pt_status read_strips(TIFF *tif, const char *name, const tiff_source *src,
                             int page, const pt_row_format *fmt, pt_image *img,
                             pt_error *err)
{
    tmsize_t line_bytes = TIFFScanlineSize(tif);
    if (line_bytes < (tmsize_t)img->width * fmt->samples * (fmt->bits / 8))
        return page_error(err, PT_ERR_FORMAT, name, src, page, "bad scanline size");
    uint8_t *line = _TIFFmalloc(line_bytes);
    if (!line)
        return page_error(err, PT_ERR_NOMEM, name, src, page, "out of memory");
    pt_status st = PT_OK;
    for (int y = 0; y < img->height; y++) {
        if (TIFFReadScanline(tif, line, (uint32_t)y, 0) < 0) {
            char what[64];
            snprintf(what, sizeof what, "cannot read row %d", y);
            st = page_error(err, PT_ERR_FORMAT, name, src, page, what);
            break;
        }
        pt_row_to_grey(line, fmt, img->width, img->buf + (size_t)y * img->stride);
    }
    _TIFFfree(line);
    return st;
}

static pt_status read_tiles(TIFF *tif, const char *name, const tiff_source *src,
                            int page, const pt_row_format *fmt, pt_image *img,
                            pt_error *err)
{
    uint32_t tile_w = 0, tile_h = 0;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h);
    size_t pixel_bytes = (size_t)fmt->samples * (fmt->bits / 8);
    tmsize_t tile_bytes = TIFFTileSize(tif);
    if (tile_w == 0 || tile_h == 0 ||
        tile_bytes < (tmsize_t)((uint64_t)tile_w * tile_h * pixel_bytes) ||
        tile_bytes > TIFF_MAX_ALLOC)
        return page_error(err, PT_ERR_FORMAT, name, src, page, "bad tile size");
    uint8_t *tile = _TIFFmalloc(tile_bytes);
    if (!tile)
        return page_error(err, PT_ERR_NOMEM, name, src, page, "out of memory");
    pt_status st = PT_OK;
    for (uint32_t ty = 0; ty < (uint32_t)img->height && st == PT_OK; ty += tile_h)
        for (uint32_t tx = 0; tx < (uint32_t)img->width; tx += tile_w) {
            if (TIFFReadTile(tif, tile, tx, ty, 0, 0) < 0) {
                char what[80];
                snprintf(what, sizeof what, "cannot read tile at (%u,%u)", tx, ty);
                st = page_error(err, PT_ERR_FORMAT, name, src, page, what);
                break;
            }
            /* tiles overhang the right and bottom edges; keep what lies inside */
            uint32_t w = img->width - tx < tile_w ? img->width - tx : tile_w;
            uint32_t h = img->height - ty < tile_h ? img->height - ty : tile_h;
            for (uint32_t y = 0; y < h; y++)
                pt_row_to_grey(tile + (size_t)y * tile_w * pixel_bytes, fmt, (int)w,
                               img->buf + (size_t)(ty + y) * img->stride + tx);
        }
    _TIFFfree(tile);
    return st;
}

static pt_status decode_page(TIFF *tif, const char *name, tiff_source *src, int page,
                             const pt_load_options *opt, pt_frames *out,
                             pt_error *err)
{
    pt_row_format fmt;
    uint32_t width, height;
    src->message[0] = '\0';
    pt_status st = describe_page(tif, name, src, page, opt, &fmt, &width, &height, err);
    if (st != PT_OK)
        return st;
    /* pages may share one highly compressed strip, so the pixel limit applies
     * to the whole sequence, not just to each page */
    long long total = (long long)width * height;
    for (int i = 0; i < out->count; i++)
        if (out->frames[i])
            total += (long long)out->frames[i]->width * out->frames[i]->height;
    if (total > PT_IMAGE_MAX_PIXELS)
        return pt_error_set(err, PT_ERR_NOMEM, name,
                            "TIFF pages 0..%d hold more than %lld pixels in all; "
                            "load them one page at a time",
                            page, (long long)PT_IMAGE_MAX_PIXELS);
    pt_image *img = pt_image_create((int)width, (int)height);
    if (!img)
        return page_error(err, PT_ERR_NOMEM, name, src, page, "out of memory for image");
    st = TIFFIsTiled(tif) ? read_tiles(tif, name, src, page, &fmt, img, err)
                          : read_strips(tif, name, src, page, &fmt, img, err);
    if (st != PT_OK) {
        pt_image_destroy(img);
        return st;
    }
    return pt_frames_append(out, img, name, err);
}

/* libtiff over the bytes in src, its messages kept in src; NULL with err
 * filled when the file cannot be opened. */
static TIFF *open_tiff(tiff_source *src, const char *name, pt_error *err)
{
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        pt_error_set(err, PT_ERR_NOMEM, name, "cannot initialise libtiff");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, src);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, src);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, TIFF_MAX_ALLOC);
    TIFF *tif = TIFFClientOpenExt(name, "r", src, src_read, src_write, src_seek, src_close,
                                  src_size, src_map, src_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tif)
        pt_error_set(err, PT_ERR_FORMAT, name, "invalid TIFF: %s",
                     src->message[0] ? src->message : "cannot read header");
    return tif;
}

pt_status pt_tiff_decode_page(const uint8_t *data, size_t size, const char *name, uint64_t ifd,
                              int page, const pt_load_options *opt, pt_image **out,
                              pt_error *err)
{
    *out = NULL;
    tiff_source src = {.data = data, .size = size};
    TIFF *tif = open_tiff(&src, name, err);
    if (!tif)
        return err->status;
    pt_frames frames = {0};
    pt_status st;
    src.message[0] = '\0';
    if (!TIFFSetSubDirectory(tif, ifd))
        st = page_error(err, PT_ERR_FORMAT, name, &src, page, "cannot read its directory");
    else
        st = decode_page(tif, name, &src, page, opt, &frames, err);
    if (st == PT_OK) {
        *out = frames.frames[0];
        frames.frames[0] = NULL;
    }
    pt_frames_free(&frames);
    TIFFClose(tif);
    return st;
}

pt_status pt_tiff_decode(const uint8_t *data, size_t size, const char *name,
                         const pt_load_options *opt, pt_frames *out, pt_error *err)
{
    tiff_source src = {.data = data, .size = size};
    TIFF *tif = open_tiff(&src, name, err);
    if (!tif)
        return err->status;

    pt_status st = PT_OK;
    int page = 0;
    /* With opt->page_errors, an undecodable page of a multi-page file is kept
     * as an error of its own and the next page is tried. */
    int keep_going = opt->page_errors && opt->page < 0;
    for (;;) {
        if (opt->page < 0 || opt->page == page) {
            st = decode_page(tif, name, &src, page, opt, out, err);
            if (st == PT_ERR_FORMAT && keep_going)
                st = pt_frames_append_error(out, err, name, err);
            if (st != PT_OK || opt->page == page)
                break;
        }
        src.message[0] = '\0';
        if (!TIFFReadDirectory(tif)) {
            /* a failed read of a further directory is an error, not the end */
            if (src.message[0]) {
                st = pt_error_set(err, PT_ERR_FORMAT, name,
                                  "invalid TIFF: page %d: %s", page + 1, src.message);
                if (keep_going)
                    st = pt_frames_append_error(out, err, name, err);
            }
            break;
        }
        page++;
    }
    /* a file of one page that failed fails as a whole */
    if (st == PT_OK && out->count == 1 && !out->frames[0]) {
        *err = out->page_errors[0];
        st = err->status;
    }
    if (st == PT_OK && opt->page >= 0 && out->count == 0)
        st = pt_error_set(err, PT_ERR_PARAM, name,
                          "page %d not found (file has %d page%s)", opt->page,
                          page + 1, page == 0 ? "" : "s");
    TIFFClose(tif);
    return st;
}
