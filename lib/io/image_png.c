/* PNG decoding from memory with libpng; every colour type ends as 8-bit grey. */
#include "lib/io/image_decode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deflate cannot expand data by more than 1032:1; a file too short for its
 * declared size is truncated, and rejecting it early avoids huge allocations. */
#define DEFLATE_MAX_RATIO 1032

/* Everything changed after setjmp lives here, outside the frame that calls
 * setjmp, so its values survive a longjmp. */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
    const char *name;
    const pt_load_options *opt;
    png_structp png;
    png_infop info;
    uint8_t *rows;  /* whole decoded image, only for interlaced files */
    uint8_t *row;   /* one decoded row */
    pt_image *img;
    char message[256];
} png_job;

static void on_error(png_structp png, png_const_charp msg)
{
    png_job *job = png_get_error_ptr(png);
    snprintf(job->message, sizeof job->message, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings are about recoverable details; the caller wants pixels */
}

static void read_memory(png_structp png, png_bytep dst, png_size_t n)
{
    png_job *job = png_get_io_ptr(png);
    if (n > job->size - job->pos)
        png_error(png, "file is truncated");
    memcpy(dst, job->data + job->pos, n);
    job->pos += n;
}

/* Significant bits the file declares for its 16-bit samples (sBIT), 8..15;
 * 0 when it declares none, all 16, or the caller chose its own. */
static int declared_bits(png_job *job)
{
    png_color_8p sig = NULL;
    if (!job->opt->bits_from_file || job->opt->significant_bits != 16 ||
        !(png_get_valid(job->png, job->info, PNG_INFO_sBIT)) ||
        !png_get_sBIT(job->png, job->info, &sig) || !sig)
        return 0;
    int colour = png_get_color_type(job->png, job->info) & PNG_COLOR_MASK_COLOR;
    int bits = sig->gray;
    if (colour) {
        bits = sig->red > sig->green ? sig->red : sig->green;
        bits = sig->blue > bits ? sig->blue : bits;
    }
    if (bits < 1 || bits >= 16)
        return 0;
    return bits < 8 ? 8 : bits;
}

/* Largest grey or colour sample (alpha left out) of 16-bit big-endian rows. */
static unsigned largest_sample(const uint8_t *rows, size_t rowbytes, png_uint_32 height,
                               const pt_row_format *fmt, int width)
{
    int used = fmt->colour ? 3 : 1;
    unsigned largest = 0;
    for (png_uint_32 y = 0; y < height; y++) {
        const uint8_t *row = rows + (size_t)y * rowbytes;
        for (int x = 0; x < width; x++)
            for (int c = 0; c < used; c++) {
                const uint8_t *p = row + ((size_t)x * fmt->samples + c) * 2;
                unsigned v = (unsigned)p[0] << 8 | p[1];
                largest = v > largest ? v : largest;
            }
    }
    return largest;
}

/* Returns PT_OK or an error code; on longjmp job->message says why. */
static pt_status decode(png_job *job, pt_error *err)
{
    if (setjmp(png_jmpbuf(job->png)))
        return pt_error_set(err, PT_ERR_FORMAT, job->name, "invalid PNG: %s",
                            job->message[0] ? job->message : "decoding failed");

    png_structp png = job->png;
    png_infop info = job->info;
    png_set_read_fn(png, job, read_memory);
    png_read_info(png, info);

    png_uint_32 width, height;
    int depth, colour, interlace;
    png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, NULL, NULL);
    pt_status st = pt_image_check_size(width, height, job->name, err);
    if (st != PT_OK)
        return st;
    unsigned long long raw_bytes =
        (unsigned long long)height * (1 + ((unsigned long long)width *
                                               png_get_channels(png, info) * depth + 7) / 8);
    if (raw_bytes / DEFLATE_MAX_RATIO > job->size)
        return pt_error_set(err, PT_ERR_FORMAT, job->name,
                            "invalid PNG: file is truncated (%zu bytes cannot hold "
                            "%lux%lu pixels)",
                            job->size, (unsigned long)width, (unsigned long)height);

    /* Expand to 8 or 16 bits per sample in grey, grey+alpha, RGB or RGBA;
     * the grey conversion itself is ours (Rec.601), not libpng's. */
    if (colour == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (colour == PNG_COLOR_TYPE_GRAY && depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int channels = png_get_channels(png, info);
    int out_depth = png_get_bit_depth(png, info);
    int out_colour = png_get_color_type(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if ((out_depth != 8 && out_depth != 16) || channels < 1 || channels > 4 ||
        rowbytes < (size_t)width * channels * (out_depth / 8))
        return pt_error_set(err, PT_ERR_FORMAT, job->name,
                            "unsupported PNG layout (%d channels, %d bits)", channels,
                            out_depth);

    pt_row_format fmt = {
        .samples = channels,
        .bits = out_depth,
        .colour = (out_colour & PNG_COLOR_MASK_COLOR) != 0,
        .big_endian = 1,
        .invert = 0,
        .shift = job->opt->significant_bits - 8,
    };
    job->img = pt_image_create((int)width, (int)height);
    if (!job->img)
        return pt_error_set(err, PT_ERR_NOMEM, job->name,
                            "out of memory for %lux%lu image", (unsigned long)width,
                            (unsigned long)height);
    pt_image *img = job->img;

    /* sBIT below 16 (pt_load_options.bits_from_file): the image is read
     * whole so that its largest sample says whether the values are the
     * declared bits as they are or scaled up to 16 bits. */
    int declared = fmt.bits == 16 ? declared_bits(job) : 0;
    if (passes == 1 && fmt.bits == 8 && channels == 1 && rowbytes <= (size_t)img->stride) {
        /* 8-bit grey rows are the image's rows: read in place */
        for (png_uint_32 y = 0; y < height; y++)
            png_read_row(png, img->buf + (size_t)y * img->stride, NULL);
    } else if (passes == 1 && !declared) {
        job->row = malloc(rowbytes);
        if (!job->row)
            return pt_error_set(err, PT_ERR_NOMEM, job->name, "out of memory");
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, job->row, NULL);
            pt_row_to_grey(job->row, &fmt, (int)width, img->buf + (size_t)y * img->stride);
        }
    } else {
        /* Adam7 passes revisit each row, so the expanded image is kept whole
         * (and so is one whose sBIT must be checked against its samples). */
        job->rows = calloc(height, rowbytes);
        if (!job->rows)
            return pt_error_set(err, PT_ERR_NOMEM, job->name, "out of memory");
        for (int pass = 0; pass < passes; pass++)
            for (png_uint_32 y = 0; y < height; y++)
                png_read_row(png, job->rows + (size_t)y * rowbytes, NULL);
        if (declared)
            fmt.shift = largest_sample(job->rows, rowbytes, height, &fmt, (int)width) >>
                                declared
                            ? 8
                            : declared - 8;
        for (png_uint_32 y = 0; y < height; y++)
            pt_row_to_grey(job->rows + (size_t)y * rowbytes, &fmt, (int)width,
                           img->buf + (size_t)y * img->stride);
    }
    return PT_OK;
}

static uint32_t big_endian32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

pt_status pt_png_decode(const uint8_t *data, size_t size, const char *name,
                        const pt_load_options *opt, pt_frames *out, pt_error *err)
{
    /* IHDR must come first; its size is checked here, before libpng reads on
     * (and possibly fails on a truncated file with a less useful message) */
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        pt_status st =
            pt_image_check_size(big_endian32(data + 16), big_endian32(data + 20), name, err);
        if (st != PT_OK)
            return st;
    }
    png_job job = {.data = data, .size = size, .name = name, .opt = opt};
    job.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &job, on_error, on_warning);
    if (!job.png)
        return pt_error_set(err, PT_ERR_NOMEM, name, "cannot initialise libpng");
    job.info = png_create_info_struct(job.png);
    if (!job.info) {
        png_destroy_read_struct(&job.png, NULL, NULL);
        return pt_error_set(err, PT_ERR_NOMEM, name, "cannot initialise libpng");
    }
    pt_status st = decode(&job, err);
    png_destroy_read_struct(&job.png, &job.info, NULL);
    free(job.row);
    free(job.rows);
    if (st != PT_OK) {
        pt_image_destroy(job.img);
        return st;
    }
    return pt_frames_append(out, job.img, name, err);
}
