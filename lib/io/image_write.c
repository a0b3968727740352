/* Writers: 8-bit grey and RGB PNG (libpng) and 8-bit binary PGM. */
#include "lib/io/pt_image.h"

#include "lib/core/output_file.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

/* State touched after setjmp, kept outside the frame that calls setjmp. */
typedef struct {
    const char *path;
    pt_output out;
    png_structp png;
    png_infop info;
    int width, height, colour;
    const uint8_t *pixels;
    size_t row_stride;
    char message[256];
} png_writer;

static void on_error(png_structp png, png_const_charp msg)
{
    png_writer *w = png_get_error_ptr(png);
    snprintf(w->message, sizeof w->message, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static pt_status encode(png_writer *w, pt_error *err)
{
    if (setjmp(png_jmpbuf(w->png)))
        return pt_error_set(err, PT_ERR_IO, w->path, "cannot write PNG: %s", w->message);
    png_init_io(w->png, w->out.fp);
    png_set_IHDR(w->png, w->info, (png_uint_32)w->width, (png_uint_32)w->height, 8,
                 w->colour, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(w->png, w->info);
    for (int y = 0; y < w->height; y++)
        png_write_row(w->png, w->pixels + (size_t)y * w->row_stride);
    png_write_end(w->png, w->info);
    return PT_OK;
}

static pt_status write_png(png_writer *w, pt_error *err)
{
    if (w->width <= 0 || w->height <= 0 || !w->pixels)
        return pt_error_set(err, PT_ERR_PARAM, w->path, "cannot write an empty image");
    if (pt_output_open(&w->out, w->path, 0, err))
        return err->status;
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, on_error, on_warning);
    w->info = w->png ? png_create_info_struct(w->png) : NULL;
    pt_status st = w->info ? encode(w, err)
                           : pt_error_set(err, PT_ERR_NOMEM, w->path,
                                          "cannot initialise libpng");
    png_destroy_write_struct(&w->png, &w->info);
    if (st == PT_OK)
        return pt_output_close(&w->out, err);
    if (w->out.error) /* libpng's "Write Error": say why */
        st = pt_error_set(err, PT_ERR_IO, w->path, "cannot write: %s", strerror(w->out.error));
    pt_output_discard(&w->out);
    return st;
}

pt_status pt_png_write_grey(const char *path, const pt_image *img, pt_error *err)
{
    png_writer w = {.path = path, .colour = PNG_COLOR_TYPE_GRAY};
    if (img) {
        w.width = img->width;
        w.height = img->height;
        w.pixels = img->buf;
        w.row_stride = (size_t)img->stride;
    }
    return write_png(&w, err);
}

pt_status pt_png_write_rgb(const char *path, int width, int height,
                           const uint8_t *rgb, pt_error *err)
{
    png_writer w = {.path = path, .colour = PNG_COLOR_TYPE_RGB, .width = width,
                    .height = height, .pixels = rgb,
                    .row_stride = (size_t)(width > 0 ? width : 0) * 3};
    return write_png(&w, err);
}

pt_status pt_pgm_write(const char *path, const pt_image *img, pt_error *err)
{
    if (!img || img->width <= 0 || img->height <= 0 || !img->buf)
        return pt_error_set(err, PT_ERR_PARAM, path, "cannot write an empty image");
    pt_output out;
    if (pt_output_open(&out, path, 0, err))
        return err->status;
    fprintf(out.fp, "P5\n%d %d\n255\n", img->width, img->height);
    for (int y = 0; y < img->height; y++)
        fwrite(img->buf + (size_t)y * img->stride, 1, (size_t)img->width, out.fp);
    return pt_output_close(&out, err);
}
