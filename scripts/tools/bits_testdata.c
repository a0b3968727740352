/* Writes testdata/images/: sbit12.png, a synthetic eye frame as 12-bit
 * values (0..4095) in 16-bit samples with an sBIT chunk of 12, and
 * pages.tif, four pages: frame 0, 32-bit float samples (unsupported), a
 * deflate strip that does not inflate, frame 1 (pupiltrack(1), IMAGES).
 * Usage: bits_testdata SYNTH_DIR OUT_DIR */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

#include "lib/io/pt_image.h"

static pt_image *load_frame(const char *dir, int k)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%06d.png", dir, k);
    pt_frames frames;
    pt_error err;
    if (pt_image_load(path, NULL, &frames, &err)) {
        fprintf(stderr, "%s: %s\n", path, err.what);
        exit(1);
    }
    pt_image *img = frames.frames[0];
    frames.frames[0] = NULL;
    pt_frames_free(&frames);
    return img;
}

static void write_sbit_png(const char *path, const pt_image *img)
{
    FILE *f = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (!f || !png || !info || setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: cannot write\n", path);
        exit(1);
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)img->width, (png_uint_32)img->height, 16,
                 PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_color_8 sig = {0};
    sig.gray = 12;
    png_set_sBIT(png, info, &sig);
    png_write_info(png, info);
    png_byte *row = malloc((size_t)img->width * 2);
    for (int y = 0; y < img->height; y++) {
        for (int x = 0; x < img->width; x++) {
            unsigned v = img->buf[(size_t)y * img->stride + x];
            unsigned v12 = v << 4 | v >> 4; /* 8 bits spread over 0..4095 */
            row[2 * x] = (png_byte)(v12 >> 8);
            row[2 * x + 1] = (png_byte)v12;
        }
        png_write_row(png, row);
    }
    free(row);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (fclose(f)) {
        fprintf(stderr, "%s: cannot write\n", path);
        exit(1);
    }
}

static void tiff_header(TIFF *tif, const pt_image *img, int bits, int format, int compression)
{
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, img->width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, img->height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, img->height);
}

static void tiff_frame(TIFF *tif, const pt_image *img)
{
    tiff_header(tif, img, 8, SAMPLEFORMAT_UINT, COMPRESSION_ADOBE_DEFLATE);
    for (int y = 0; y < img->height; y++)
        TIFFWriteScanline(tif, img->buf + (size_t)y * img->stride, (uint32_t)y, 0);
    TIFFWriteDirectory(tif);
}

static void write_pages_tiff(const char *path, const pt_image *a, const pt_image *b)
{
    TIFF *tif = TIFFOpen(path, "w");
    if (!tif) {
        fprintf(stderr, "%s: cannot write\n", path);
        exit(1);
    }
    tiff_frame(tif, a);
    tiff_header(tif, a, 32, SAMPLEFORMAT_IEEEFP, COMPRESSION_ADOBE_DEFLATE);
    float *line = calloc((size_t)a->width, sizeof *line);
    for (int y = 0; y < a->height; y++)
        TIFFWriteScanline(tif, line, (uint32_t)y, 0);
    free(line);
    TIFFWriteDirectory(tif);
    tiff_header(tif, a, 8, SAMPLEFORMAT_UINT, COMPRESSION_ADOBE_DEFLATE);
    unsigned char garbage[64];
    memset(garbage, 0xa5, sizeof garbage);
    TIFFWriteRawStrip(tif, 0, garbage, sizeof garbage);
    TIFFWriteDirectory(tif);
    tiff_frame(tif, b);
    TIFFClose(tif);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: bits_testdata SYNTH_DIR OUT_DIR\n");
        return 2;
    }
    pt_image *f0 = load_frame(argv[1], 0), *f1 = load_frame(argv[1], 1);
    char path[4096];
    snprintf(path, sizeof path, "%s/sbit12.png", argv[2]);
    write_sbit_png(path, f0);
    snprintf(path, sizeof path, "%s/pages.tif", argv[2]);
    write_pages_tiff(path, f0, f1);
    pt_image_destroy(f0);
    pt_image_destroy(f1);
    return 0;
}
