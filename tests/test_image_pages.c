/* Multi-page TIFFs with bad pages (each page its own frame or error) and
 * 16-bit files that declare fewer significant bits (PNG sBIT, TIFF
 * MaxSampleValue, PGM maxval); see pupiltrack(1), IMAGES. */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#include "lib/io/pt_image.h"
#include "tests/pt_scratch.h"
#include "tests/pt_test.h"

#define W 37
#define H 23

static unsigned pattern8(int x, int y, int page) { return (unsigned)(x * 31 + y * 7 + page * 77) & 255; }
/* 12-bit values spanning the whole 0..4095 range */
static unsigned pattern12(int x, int y) { return (unsigned)(x * 109 + y * 61) % 4096; }

static void tiff_header(TIFF *tif, int bits, int format, int compression)
{
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, W);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, H);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, format);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, H);
}

static void tiff_grey8_page(TIFF *tif, int page)
{
    tiff_header(tif, 8, SAMPLEFORMAT_UINT, COMPRESSION_NONE);
    uint8_t line[W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            line[x] = (uint8_t)pattern8(x, y, page);
        TIFFWriteScanline(tif, line, (uint32_t)y, 0);
    }
    TIFFWriteDirectory(tif);
}

/* Pages: 0 grey, 1 float samples (unsupported), 2 a deflate strip that does
 * not inflate (damaged data), 3 grey. */
static void write_bad_pages_tiff(const char *path)
{
    TIFF *tif = TIFFOpen(path, "w");
    PT_CHECK(tif != NULL, "cannot write %s", path);
    if (!tif)
        return;
    tiff_grey8_page(tif, 0);
    tiff_header(tif, 32, SAMPLEFORMAT_IEEEFP, COMPRESSION_NONE);
    float fline[W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            fline[x] = (float)x / W;
        TIFFWriteScanline(tif, fline, (uint32_t)y, 0);
    }
    TIFFWriteDirectory(tif);
    tiff_header(tif, 8, SAMPLEFORMAT_UINT, COMPRESSION_ADOBE_DEFLATE);
    uint8_t garbage[40];
    memset(garbage, 0xa5, sizeof garbage);
    TIFFWriteRawStrip(tif, 0, garbage, sizeof garbage);
    TIFFWriteDirectory(tif);
    tiff_grey8_page(tif, 3);
    TIFFClose(tif);
}

static int frame_is_page(const pt_image *img, int page)
{
    if (!img || img->width != W || img->height != H)
        return 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (img->buf[(size_t)y * img->stride + x] != pattern8(x, y, page))
                return 0;
    return 1;
}

static void test_bad_pages(void)
{
    const char *path = pt_scratch_path("bad_pages.tif");
    write_bad_pages_tiff(path);
    pt_load_options opt;
    pt_load_options_default(&opt);
    pt_frames frames;
    pt_error err;
    pt_error_clear(&err);
    /* the library default: the file fails as a whole, naming the page */
    PT_CHECK(pt_image_load(path, &opt, &frames, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "page 1"),
             "bad page fails the file by default: '%s'", err.what);
    opt.page_errors = 1;
    pt_status st = pt_image_load(path, &opt, &frames, &err);
    PT_CHECK(st == PT_OK, "with page_errors the file loads: '%s'", err.what);
    if (st != PT_OK)
        return;
    PT_CHECK(frames.count == 4, "4 pages, got %d", frames.count);
    PT_CHECK(frames.page_errors != NULL, "page errors kept");
    if (frames.count == 4 && frames.page_errors) {
        PT_CHECK(frame_is_page(frames.frames[0], 0) && frame_is_page(frames.frames[3], 3),
                 "pages 0 and 3 decoded");
        PT_CHECK(!frames.frames[1] && frames.page_errors[1].status == PT_ERR_FORMAT &&
                     strstr(frames.page_errors[1].what, "page 1") &&
                     strstr(frames.page_errors[1].what, "unsupported"),
                 "float page 1 has its own error: '%s'", frames.page_errors[1].what);
        PT_CHECK(!frames.frames[2] && frames.page_errors[2].status == PT_ERR_FORMAT &&
                     strstr(frames.page_errors[2].what, "page 2"),
                 "damaged page 2 has its own error: '%s'", frames.page_errors[2].what);
        PT_CHECK(frames.page_errors[0].status == PT_OK &&
                     frames.page_errors[3].status == PT_OK,
                 "good pages carry no error");
    }
    pt_frames_free(&frames);
    PT_CHECK(frames.count == 0 && !frames.frames && !frames.page_errors, "frames freed");

    /* a file whose only page is bad still fails as a whole */
    const char *one = pt_scratch_path("one_float.tif");
    TIFF *tif = TIFFOpen(one, "w");
    tiff_header(tif, 32, SAMPLEFORMAT_IEEEFP, COMPRESSION_NONE);
    float fline[W] = {0};
    for (int y = 0; y < H; y++)
        TIFFWriteScanline(tif, fline, (uint32_t)y, 0);
    TIFFWriteDirectory(tif);
    TIFFClose(tif);
    st = pt_image_load(one, &opt, &frames, &err);
    PT_CHECK(st == PT_ERR_FORMAT && frames.count == 0 && strstr(err.what, "unsupported"),
             "single bad page fails the file: status %d '%s'", st, err.what);
}

/* 16-bit grey PNG of pattern12(x, y) << up, with sBIT sbit (0: none). */
static void write_png16(const char *path, int sbit, int up)
{
    FILE *f = fopen(path, "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        PT_CHECK(0, "writing %s", path);
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, W, H, 16, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (sbit) {
        png_color_8 sig = {0};
        sig.gray = (png_byte)sbit;
        png_set_sBIT(png, info, &sig);
    }
    png_write_info(png, info);
    png_byte row[W * 2];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            unsigned v = pattern12(x, y) << up;
            row[2 * x] = (png_byte)(v >> 8);
            row[2 * x + 1] = (png_byte)v;
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    fclose(f);
}

static void write_tiff16(const char *path, int max_value)
{
    TIFF *tif = TIFFOpen(path, "w");
    tiff_header(tif, 16, SAMPLEFORMAT_UINT, COMPRESSION_NONE);
    if (max_value)
        TIFFSetField(tif, TIFFTAG_MAXSAMPLEVALUE, max_value);
    uint16_t line[W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            line[x] = (uint16_t)pattern12(x, y);
        TIFFWriteScanline(tif, line, (uint32_t)y, 0);
    }
    TIFFWriteDirectory(tif);
    TIFFClose(tif);
}

static void write_pgm16(const char *path, int maxval)
{
    FILE *f = fopen(path, "wb");
    fprintf(f, "P5\n%d %d\n%d\n", W, H, maxval);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned v = pattern12(x, y);
            fputc((int)(v >> 8), f);
            fputc((int)(v & 255), f);
        }
    fclose(f);
}

/* Loads path and checks every pixel is pattern12 >> shift (clamped). */
static void check_shift(const char *path, const pt_load_options *opt, int shift,
                        const char *what)
{
    pt_frames frames;
    pt_error err;
    pt_error_clear(&err);
    pt_status st = pt_image_load(path, opt, &frames, &err);
    PT_CHECK(st == PT_OK && frames.count == 1, "%s: load: '%s'", what, err.what);
    if (st != PT_OK)
        return;
    int bad = 0;
    const pt_image *img = frames.frames[0];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            unsigned want = pattern12(x, y) >> shift;
            bad += img->buf[(size_t)y * img->stride + x] != (want > 255 ? 255 : want);
        }
    PT_CHECK(bad == 0, "%s: %d pixels differ from v >> %d", what, bad, shift);
    pt_frames_free(&frames);
}

static void test_declared_bits(void)
{
    pt_load_options opt;
    pt_load_options_default(&opt);
    PT_CHECK(opt.bits_from_file == 1 && opt.page_errors == 0, "option defaults");
    const char *png12 = pt_scratch_path("sbit12.png");
    write_png16(png12, 12, 0);
    check_shift(png12, &opt, 4, "png sBIT 12, values 0..4095");
    const char *scaled = pt_scratch_path("sbit12_scaled.png");
    write_png16(scaled, 12, 4);
    pt_frames frames;
    pt_error err;
    pt_status st = pt_image_load(scaled, &opt, &frames, &err);
    /* scaled up as the PNG standard asks: the top byte, i.e. the 12-bit value >> 4 */
    if (st == PT_OK) {
        int bad = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                bad += frames.frames[0]->buf[(size_t)y * frames.frames[0]->stride + x] !=
                       (pattern12(x, y) >> 4);
        PT_CHECK(bad == 0, "png sBIT 12 scaled to 16 bits keeps the top byte: %d differ", bad);
        pt_frames_free(&frames);
    } else {
        PT_CHECK(0, "png sBIT 12 scaled: '%s'", err.what);
    }
    const char *plain = pt_scratch_path("plain16.png");
    write_png16(plain, 0, 0);
    check_shift(plain, &opt, 8, "png without sBIT keeps the top byte");
    const char *tif12 = pt_scratch_path("max4095.tif");
    write_tiff16(tif12, 4095);
    check_shift(tif12, &opt, 4, "tiff MaxSampleValue 4095");
    const char *tif16 = pt_scratch_path("max_default.tif");
    write_tiff16(tif16, 0);
    check_shift(tif16, &opt, 8, "tiff without MaxSampleValue keeps the top byte");
    const char *pgm12 = pt_scratch_path("max4095.pgm");
    write_pgm16(pgm12, 4095);
    check_shift(pgm12, &opt, 4, "pgm maxval 4095");
    /* an explicit choice wins over the file's */
    opt.bits_from_file = 0;
    check_shift(png12, &opt, 8, "png sBIT 12 with bits_from_file 0");
    check_shift(tif12, &opt, 8, "tiff MaxSampleValue with bits_from_file 0");
    opt.bits_from_file = 1;
    opt.significant_bits = 10;
    check_shift(png12, &opt, 2, "png sBIT 12 with significant_bits 10");
}

int main(void)
{
    if (!pt_scratch_make("pt_image_pages"))
        return 1;
    TIFFSetWarningHandler(pt_scratch_quiet);
    TIFFSetErrorHandler(pt_scratch_quiet);
    test_bad_pages();
    test_declared_bits();
    pt_scratch_remove();
    return PT_TEST_SUMMARY("image_pages");
}
