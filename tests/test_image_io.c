/* Image I/O: every supported PNG/TIFF/PGM variant loads to the exact expected
 * grey values; writers round-trip; bad input fails cleanly with a reason. */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#include "lib/io/pt_image.h"
#include "tests/pt_scratch.h"
#include "tests/pt_test.h"

/* round(0.299 R + 0.587 G + 0.114 B) with halves rounded up, in exact integer
 * form: binary floating point misrounds exact halves such as 117.5. */
static unsigned luma(unsigned r, unsigned g, unsigned b)
{
    return (299 * r + 587 * g + 114 * b + 500) / 1000;
}

/* ---- pattern generators: deterministic, different per page ---- */
static unsigned pattern8(int x, int y, int page) { return (unsigned)(x * 31 + y * 7 + page * 77) & 255; }
static unsigned pattern16(int x, int y) { return (unsigned)(x * 509 + y * 131 + 17) & 0xffff; }

/* ---- PNG writer with libpng directly, so the loader is tested against it ---- */
typedef struct {
    int width, height, colour, depth, interlace;
    const png_color *palette;
    int palette_size;
    const png_byte *trans;
    int trans_size;
} png_spec;

/* sample(x, y, c) gives the value of channel c at (x, y) in the file's depth. */
typedef unsigned (*sample_fn)(int x, int y, int c);

static int channels_of(int colour)
{
    switch (colour) {
    case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
    case PNG_COLOR_TYPE_RGB: return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA: return 4;
    default: return 1;
    }
}

static int write_test_png(const char *path, const png_spec *s, sample_fn sample)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    int ch = channels_of(s->colour);
    size_t rowbytes = ((size_t)s->width * ch * s->depth + 7) / 8;
    png_bytep row = calloc(rowbytes, 1);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        free(row);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, s->width, s->height, s->depth, s->colour, s->interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (s->palette)
        png_set_PLTE(png, info, s->palette, s->palette_size);
    if (s->trans)
        png_set_tRNS(png, info, s->trans, s->trans_size, NULL);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++)
        for (int y = 0; y < s->height; y++) {
            memset(row, 0, rowbytes);
            for (int x = 0; x < s->width; x++)
                for (int c = 0; c < ch; c++) {
                    unsigned v = sample(x, y, c);
                    size_t bit = ((size_t)x * ch + c) * s->depth;
                    if (s->depth == 16) {
                        row[bit / 8] = (png_byte)(v >> 8);
                        row[bit / 8 + 1] = (png_byte)v;
                    } else if (s->depth == 8) {
                        row[bit / 8] = (png_byte)v;
                    } else {
                        row[bit / 8] |= (png_byte)(v << (8 - s->depth - bit % 8));
                    }
                }
            png_write_row(png, row);
        }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    return fclose(f);
}

static unsigned rgb8(int x, int y, int c) { return (unsigned)(x * (c + 3) * 17 + y * (5 - c) * 11 + c * 40) & 255; }
static unsigned alpha_noise(int x, int y, int c) { return c == 3 || c == 1 ? (unsigned)(x ^ y) & 255 : 0; }
static unsigned rgba8(int x, int y, int c) { return c == 3 ? alpha_noise(x, y, c) : rgb8(x, y, c); }
static unsigned grey8(int x, int y, int c) { (void)c; return pattern8(x, y, 0); }
static unsigned grey_alpha8(int x, int y, int c) { return c == 1 ? alpha_noise(x, y, c) : pattern8(x, y, 0); }
static unsigned grey16(int x, int y, int c) { (void)c; return pattern16(x, y); }
static unsigned grey16_12bit(int x, int y, int c) { (void)c; return pattern16(x, y) & 0x0fff; }
static unsigned rgb16(int x, int y, int c) { return (unsigned)(x * 977 * (c + 1) + y * 313 + c * 5000) & 0xffff; }
static unsigned bits1(int x, int y, int c) { (void)c; return (unsigned)(x + y) % 3 == 0; }
static unsigned bits2(int x, int y, int c) { (void)c; return (unsigned)(x * 3 + y) & 3; }
static unsigned palette_index(int x, int y, int c) { (void)c; return (unsigned)(x + 2 * y) % 5; }

static const png_color test_palette[5] = {
    {0, 0, 0}, {255, 0, 0}, {0, 255, 0}, {10, 20, 250}, {200, 150, 100}};

typedef unsigned (*expect_fn)(int x, int y);

static int image_matches(const pt_image *img, int w, int h, expect_fn expect,
                         const char *what)
{
    if (!img || img->width != w || img->height != h) {
        PT_CHECK(0, "%s: size %dx%d, expected %dx%d", what, img ? img->width : -1,
                 img ? img->height : -1, w, h);
        return 0;
    }
    PT_CHECK(img->stride >= w && img->stride % 64 == 0, "%s: stride %d", what,
             img->stride);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned got = img->buf[(size_t)y * img->stride + x], want = expect(x, y);
            if (got != want) {
                PT_CHECK(0, "%s: pixel (%d,%d) = %u, expected %u", what, x, y, got, want);
                return 0;
            }
        }
    PT_CHECK(1, "%s", what);
    return 1;
}

/* Loads path with the given options and checks a single frame against expect. */
static void check_single(const char *path, int sbits, int w, int h, expect_fn expect,
                         const char *what)
{
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.significant_bits = sbits;
    pt_frames frames;
    pt_error err = {0};
    pt_status st = pt_image_load(path, &opt, &frames, &err);
    PT_CHECK(st == PT_OK, "%s: load failed: %s", what, err.what);
    if (st != PT_OK)
        return;
    PT_CHECK(frames.count == 1, "%s: %d frames", what, frames.count);
    image_matches(frames.frames[0], w, h, expect, what);
    pt_frames_free(&frames);
    PT_CHECK(frames.count == 0 && frames.frames == NULL, "%s: frames freed", what);
}

static unsigned exp_grey8(int x, int y) { return pattern8(x, y, 0); }
static unsigned exp_rgb8(int x, int y) { return luma(rgb8(x, y, 0), rgb8(x, y, 1), rgb8(x, y, 2)); }
static unsigned exp_grey16(int x, int y) { return pattern16(x, y) >> 8; }
static unsigned exp_grey16_12(int x, int y) { unsigned v = (pattern16(x, y) & 0x0fff) >> 4; return v > 255 ? 255 : v; }
static unsigned exp_grey16_as_12(int x, int y) { unsigned v = pattern16(x, y) >> 4; return v > 255 ? 255 : v; }
static unsigned exp_rgb16(int x, int y) { return luma(rgb16(x, y, 0), rgb16(x, y, 1), rgb16(x, y, 2)) >> 8; }
static unsigned exp_bits1(int x, int y) { return bits1(x, y, 0) ? 255 : 0; }
static unsigned exp_bits2(int x, int y) { return bits2(x, y, 0) * 85; }
static unsigned exp_palette(int x, int y)
{
    const png_color *c = &test_palette[palette_index(x, y, 0)];
    return luma(c->red, c->green, c->blue);
}

static void test_png_variants(void)
{
    png_spec s = {3, 7, PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("g8.png"), &s, grey8);
    check_single(pt_scratch_path("g8.png"), 16, 3, 7, exp_grey8, "png grey 8-bit 3x7");

    s = (png_spec){1, 1, PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("one.png"), &s, grey8);
    check_single(pt_scratch_path("one.png"), 16, 1, 1, exp_grey8, "png 1x1");

    s = (png_spec){129, 65, PNG_COLOR_TYPE_GRAY, 16, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("g16.png"), &s, grey16);
    check_single(pt_scratch_path("g16.png"), 16, 129, 65, exp_grey16, "png grey 16-bit keeps top byte");
    check_single(pt_scratch_path("g16.png"), 12, 129, 65, exp_grey16_as_12,
                 "png grey 16-bit at 12 significant bits clamps to 255");
    write_test_png(pt_scratch_path("g12.png"), &s, grey16_12bit);
    check_single(pt_scratch_path("g12.png"), 12, 129, 65, exp_grey16_12,
                 "png 12-bit data in 16-bit samples, significant_bits=12");

    s = (png_spec){129, 65, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("rgb.png"), &s, rgb8);
    check_single(pt_scratch_path("rgb.png"), 16, 129, 65, exp_rgb8, "png RGB 8-bit -> Rec.601 luma");

    s.colour = PNG_COLOR_TYPE_RGB_ALPHA;
    write_test_png(pt_scratch_path("rgba.png"), &s, rgba8);
    check_single(pt_scratch_path("rgba.png"), 16, 129, 65, exp_rgb8, "png RGBA 8-bit ignores alpha");

    s.colour = PNG_COLOR_TYPE_GRAY_ALPHA;
    write_test_png(pt_scratch_path("ga.png"), &s, grey_alpha8);
    check_single(pt_scratch_path("ga.png"), 16, 129, 65, exp_grey8, "png grey+alpha ignores alpha");

    s = (png_spec){3, 7, PNG_COLOR_TYPE_RGB, 16, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("rgb16.png"), &s, rgb16);
    check_single(pt_scratch_path("rgb16.png"), 16, 3, 7, exp_rgb16, "png RGB 16-bit");

    s = (png_spec){129, 65, PNG_COLOR_TYPE_GRAY, 1, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("b1.png"), &s, bits1);
    check_single(pt_scratch_path("b1.png"), 16, 129, 65, exp_bits1, "png 1-bit grey expands to 0/255");

    s.depth = 2;
    write_test_png(pt_scratch_path("b2.png"), &s, bits2);
    check_single(pt_scratch_path("b2.png"), 16, 129, 65, exp_bits2, "png 2-bit grey expands to 0/85/170/255");

    s = (png_spec){129, 65, PNG_COLOR_TYPE_PALETTE, 4, PNG_INTERLACE_NONE, test_palette, 5,
                   NULL, 0};
    write_test_png(pt_scratch_path("pal4.png"), &s, palette_index);
    check_single(pt_scratch_path("pal4.png"), 16, 129, 65, exp_palette, "png 4-bit palette");

    static const png_byte trans[2] = {0, 128};
    s.depth = 8;
    s.trans = trans;
    s.trans_size = 2;
    write_test_png(pt_scratch_path("pal8t.png"), &s, palette_index);
    check_single(pt_scratch_path("pal8t.png"), 16, 129, 65, exp_palette,
                 "png 8-bit palette with transparency");

    s = (png_spec){129, 65, PNG_COLOR_TYPE_GRAY, 8, PNG_INTERLACE_ADAM7, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("adam7.png"), &s, grey8);
    check_single(pt_scratch_path("adam7.png"), 16, 129, 65, exp_grey8, "png interlaced (Adam7)");
}

/* ---- TIFF writer with libtiff directly ---- */
typedef struct {
    int width, height, bits, samples, photometric;
    int tile;           /* tile side, 0 for strips */
    int rows_per_strip;
    int compression;
} tiff_spec;

/* Writes one directory; value(x, y, c, page) gives each sample. */
static int write_tiff_page(TIFF *tif, const tiff_spec *s, int page,
                           unsigned (*value)(int, int, int, int))
{
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, s->width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, s->height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, s->bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, s->samples);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, s->photometric);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, s->compression);
    int bytes = s->bits / 8, n = s->samples;
    if (s->tile) {
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, s->tile);
        TIFFSetField(tif, TIFFTAG_TILELENGTH, s->tile);
        size_t tile_bytes = (size_t)s->tile * s->tile * n * bytes;
        uint8_t *tile = malloc(tile_bytes);
        for (int ty = 0; ty < s->height; ty += s->tile)
            for (int tx = 0; tx < s->width; tx += s->tile) {
                for (int y = 0; y < s->tile; y++)
                    for (int x = 0; x < s->tile; x++)
                        for (int c = 0; c < n; c++) {
                            unsigned v = value(tx + x, ty + y, c, page);
                            size_t i = ((size_t)y * s->tile + x) * n + c;
                            if (bytes == 2)
                                ((uint16_t *)tile)[i] = (uint16_t)v;
                            else
                                tile[i] = (uint8_t)v;
                        }
                if (TIFFWriteTile(tif, tile, tx, ty, 0, 0) < 0) {
                    free(tile);
                    return -1;
                }
            }
        free(tile);
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, s->rows_per_strip);
        uint8_t *line = malloc((size_t)s->width * n * bytes);
        for (int y = 0; y < s->height; y++) {
            for (int x = 0; x < s->width; x++)
                for (int c = 0; c < n; c++) {
                    unsigned v = value(x, y, c, page);
                    size_t i = (size_t)x * n + c;
                    if (bytes == 2)
                        ((uint16_t *)line)[i] = (uint16_t)v;
                    else
                        line[i] = (uint8_t)v;
                }
            if (TIFFWriteScanline(tif, line, (uint32_t)y, 0) < 0) {
                free(line);
                return -1;
            }
        }
        free(line);
    }
    return TIFFWriteDirectory(tif) ? 0 : -1;
}

static int write_test_tiff(const char *path, const tiff_spec *s, int pages,
                           unsigned (*value)(int, int, int, int))
{
    TIFF *tif = TIFFOpen(path, "w");
    if (!tif)
        return -1;
    int rc = 0;
    for (int p = 0; p < pages && rc == 0; p++)
        rc = write_tiff_page(tif, s, p, value);
    TIFFClose(tif);
    PT_CHECK(rc == 0, "writing test TIFF %s", path);
    return rc;
}

static unsigned tv_grey8(int x, int y, int c, int page) { (void)c; return pattern8(x, y, page); }
static unsigned tv_grey16(int x, int y, int c, int page) { (void)c; (void)page; return pattern16(x, y); }
static unsigned tv_grey12(int x, int y, int c, int page) { (void)c; (void)page; return pattern16(x, y) & 0x0fff; }
static unsigned tv_rgb8(int x, int y, int c, int page) { (void)page; return rgb8(x, y, c); }
static unsigned exp_page1(int x, int y) { return pattern8(x, y, 1); }
static unsigned exp_page2(int x, int y) { return pattern8(x, y, 2); }
static unsigned exp_inverted(int x, int y) { return 255 - pattern8(x, y, 0); }

static void test_tiff_variants(void)
{
    tiff_spec s = {129, 65, 8, 1, PHOTOMETRIC_MINISBLACK, 0, 3, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("strips.tif"), &s, 1, tv_grey8);
    check_single(pt_scratch_path("strips.tif"), 16, 129, 65, exp_grey8, "tiff 8-bit strips");

    s.compression = COMPRESSION_LZW;
    s.rows_per_strip = 65;
    write_test_tiff(pt_scratch_path("lzw.tif"), &s, 1, tv_grey8);
    check_single(pt_scratch_path("lzw.tif"), 16, 129, 65, exp_grey8, "tiff 8-bit LZW single strip");

    s = (tiff_spec){129, 65, 8, 1, PHOTOMETRIC_MINISBLACK, 16, 0, COMPRESSION_ADOBE_DEFLATE};
    write_test_tiff(pt_scratch_path("tiles.tif"), &s, 1, tv_grey8);
    check_single(pt_scratch_path("tiles.tif"), 16, 129, 65, exp_grey8, "tiff 8-bit tiles with edge overhang");

    s = (tiff_spec){3, 7, 8, 1, PHOTOMETRIC_MINISWHITE, 0, 2, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("white.tif"), &s, 1, tv_grey8);
    check_single(pt_scratch_path("white.tif"), 16, 3, 7, exp_inverted, "tiff min-is-white is inverted");

    s = (tiff_spec){129, 65, 16, 1, PHOTOMETRIC_MINISBLACK, 0, 8, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("g16.tif"), &s, 1, tv_grey16);
    check_single(pt_scratch_path("g16.tif"), 16, 129, 65, exp_grey16, "tiff 16-bit strips");
    write_test_tiff(pt_scratch_path("g12.tif"), &s, 1, tv_grey12);
    check_single(pt_scratch_path("g12.tif"), 12, 129, 65, exp_grey16_12,
                 "tiff 12-bit data, significant_bits=12");

    s = (tiff_spec){129, 65, 16, 1, PHOTOMETRIC_MINISBLACK, 32, 0, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("g16t.tif"), &s, 1, tv_grey16);
    check_single(pt_scratch_path("g16t.tif"), 16, 129, 65, exp_grey16, "tiff 16-bit tiles");

    s = (tiff_spec){129, 65, 8, 3, PHOTOMETRIC_RGB, 0, 5, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("rgb.tif"), &s, 1, tv_rgb8);
    check_single(pt_scratch_path("rgb.tif"), 16, 129, 65, exp_rgb8, "tiff RGB 8-bit -> luma");

    s = (tiff_spec){1, 1, 8, 1, PHOTOMETRIC_MINISBLACK, 0, 1, COMPRESSION_NONE};
    write_test_tiff(pt_scratch_path("one.tif"), &s, 1, tv_grey8);
    check_single(pt_scratch_path("one.tif"), 16, 1, 1, exp_grey8, "tiff 1x1");

    /* three pages with different content: all frames, then one page */
    s = (tiff_spec){3, 7, 8, 1, PHOTOMETRIC_MINISBLACK, 0, 7, COMPRESSION_NONE};
    const char *multi = pt_scratch_path("multi.tif");
    write_test_tiff(multi, &s, 3, tv_grey8);
    pt_frames frames;
    pt_error err = {0};
    pt_status st = pt_image_load(multi, NULL, &frames, &err);
    PT_CHECK(st == PT_OK && frames.count == 3, "multi-page tiff: st %d, %d frames (%s)",
             st, frames.count, err.what);
    if (st == PT_OK && frames.count == 3) {
        image_matches(frames.frames[0], 3, 7, exp_grey8, "multi-page tiff page 0");
        image_matches(frames.frames[1], 3, 7, exp_page1, "multi-page tiff page 1");
        image_matches(frames.frames[2], 3, 7, exp_page2, "multi-page tiff page 2");
    }
    pt_frames_free(&frames);

    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.page = 2;
    st = pt_image_load(multi, &opt, &frames, &err);
    PT_CHECK(st == PT_OK && frames.count == 1, "tiff page 2 only: st %d, %d frames", st,
             frames.count);
    if (st == PT_OK && frames.count == 1)
        image_matches(frames.frames[0], 3, 7, exp_page2, "tiff page=2 selects the third page");
    pt_frames_free(&frames);

    opt.page = 5;
    st = pt_image_load(multi, &opt, &frames, &err);
    PT_CHECK(st == PT_ERR_PARAM && frames.count == 0 && strstr(err.what, "page 5"),
             "missing page: st %d, '%s'", st, err.what);
}

/* ---- PGM ---- */
static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        if (n)
            fwrite(data, 1, n, f);
        fclose(f);
    }
}

static unsigned exp_scaled15(int x, int y)
{
    unsigned v = pattern8(x, y, 0) % 16;
    return (v * 255 + 7) / 15;
}

static void test_pgm_variants(void)
{
    uint8_t buf[4096];
    int n = snprintf((char *)buf, sizeof buf, "P5\n# a comment\n3 # width\n7\n255\n");
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 3; x++)
            buf[n++] = (uint8_t)pattern8(x, y, 0);
    write_bytes(pt_scratch_path("g8.pgm"), buf, (size_t)n);
    check_single(pt_scratch_path("g8.pgm"), 16, 3, 7, exp_grey8, "pgm 8-bit with comments");

    n = snprintf((char *)buf, sizeof buf, "P5 3 7 65535\n");
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 3; x++) {
            buf[n++] = (uint8_t)(pattern16(x, y) >> 8);
            buf[n++] = (uint8_t)pattern16(x, y);
        }
    write_bytes(pt_scratch_path("g16.pgm"), buf, (size_t)n);
    check_single(pt_scratch_path("g16.pgm"), 16, 3, 7, exp_grey16, "pgm 16-bit big-endian");

    n = snprintf((char *)buf, sizeof buf, "P5 3 7 4095\n");
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 3; x++) {
            buf[n++] = (uint8_t)((pattern16(x, y) & 0xfff) >> 8);
            buf[n++] = (uint8_t)pattern16(x, y);
        }
    write_bytes(pt_scratch_path("g12.pgm"), buf, (size_t)n);
    check_single(pt_scratch_path("g12.pgm"), 12, 3, 7, exp_grey16_12, "pgm 12-bit, significant_bits=12");

    n = snprintf((char *)buf, sizeof buf, "P5 3 7 15\n");
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 3; x++)
            buf[n++] = (uint8_t)(pattern8(x, y, 0) % 16);
    write_bytes(pt_scratch_path("g4.pgm"), buf, (size_t)n);
    check_single(pt_scratch_path("g4.pgm"), 16, 3, 7, exp_scaled15, "pgm maxval 15 stretched to 0..255");
}

/* ---- writers round-trip ---- */
static unsigned exp_odd(int x, int y) { return (unsigned)(x * 13 + y * 29) & 255; }

static void test_round_trip(void)
{
    pt_image *img = pt_image_create(129, 65);
    PT_CHECK(img && img->stride == 192, "create 129x65: stride %d", img ? img->stride : -1);
    if (!img)
        return;
    for (int y = 0; y < 65; y++)
        for (int x = 0; x < 129; x++)
            img->buf[(size_t)y * img->stride + x] = (uint8_t)exp_odd(x, y);
    pt_image *copy = pt_image_copy(img);
    image_matches(copy, 129, 65, exp_odd, "pt_image_copy");
    pt_image_destroy(copy);

    pt_error err = {0};
    PT_CHECK(pt_png_write_grey(pt_scratch_path("rt.png"), img, &err) == PT_OK, "png write: %s", err.what);
    check_single(pt_scratch_path("rt.png"), 16, 129, 65, exp_odd, "png grey write/load round trip");
    PT_CHECK(pt_pgm_write(pt_scratch_path("rt.pgm"), img, &err) == PT_OK, "pgm write: %s", err.what);
    check_single(pt_scratch_path("rt.pgm"), 16, 129, 65, exp_odd, "pgm write/load round trip");

    uint8_t *rgb = malloc(129 * 65 * 3);
    for (int y = 0; y < 65; y++)
        for (int x = 0; x < 129; x++)
            for (int c = 0; c < 3; c++)
                rgb[((size_t)y * 129 + x) * 3 + c] = (uint8_t)rgb8(x, y, c);
    PT_CHECK(pt_png_write_rgb(pt_scratch_path("rt_rgb.png"), 129, 65, rgb, &err) == PT_OK,
             "png rgb write: %s", err.what);
    check_single(pt_scratch_path("rt_rgb.png"), 16, 129, 65, exp_rgb8, "png rgb write/load as luma");
    free(rgb);

    const char *bad_dir = "/nonexistent-dir/x.png";
    PT_CHECK(pt_png_write_grey(bad_dir, img, &err) == PT_ERR_IO &&
                 strcmp(err.file, bad_dir) == 0,
             "png write to a missing directory fails with the path");
    PT_CHECK(pt_pgm_write("/nonexistent-dir/x.pgm", img, &err) == PT_ERR_IO,
             "pgm write to a missing directory fails");
    pt_image_destroy(img);
    PT_CHECK(pt_image_create(0, 5) == NULL && pt_image_create(70000, 1) == NULL,
             "create rejects bad sizes");
}

/* ---- bad input ---- */
static uint32_t crc32_of(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return crc ^ 0xffffffffu;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A PNG signature and a valid IHDR (correct CRC) claiming width x height. */
static size_t png_header_only(uint8_t *out, uint32_t width, uint32_t height)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(out, sig, 8);
    put32(out + 8, 13);
    memcpy(out + 12, "IHDR", 4);
    put32(out + 16, width);
    put32(out + 20, height);
    out[24] = 8;  /* depth */
    out[25] = 0;  /* grey */
    out[26] = out[27] = out[28] = 0;
    put32(out + 29, crc32_of(out + 12, 17));
    return 33;
}

static void expect_failure(const char *path, pt_status want, const char *reason_part,
                           const char *what)
{
    pt_frames frames = {7, (pt_image **)&frames, (pt_error *)&frames}; /* garbage: must be reset */
    pt_error err = {0};
    pt_status st = pt_image_load(path, NULL, &frames, &err);
    PT_CHECK(st != PT_OK, "%s: load should fail", what);
    PT_CHECK(want == PT_OK || st == want, "%s: status %d, expected %d", what, st, want);
    PT_CHECK(err.what[0] != '\0', "%s: no reason given", what);
    PT_CHECK(strcmp(err.file, path) == 0, "%s: err.file '%s'", what, err.file);
    PT_CHECK(!reason_part || strstr(err.what, reason_part), "%s: reason '%s' lacks '%s'",
             what, err.what, reason_part);
    PT_CHECK(frames.count == 0 && frames.frames == NULL, "%s: out not empty", what);
    if (getenv("PT_TEST_VERBOSE"))
        printf("  %-32s -> %s\n", what, err.what);
}

static void test_bad_inputs(void)
{
    /* truncated PNG: a valid noisy image cut in the middle of its data */
    png_spec s = {129, 65, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_NONE, NULL, 0, NULL, 0};
    write_test_png(pt_scratch_path("full.png"), &s, rgb8);
    FILE *f = fopen(pt_scratch_path("full.png"), "rb");
    static uint8_t buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    PT_CHECK(n > 300, "test PNG written (%zu bytes)", n);
    write_bytes(pt_scratch_path("trunc.png"), buf, n / 2);
    expect_failure(pt_scratch_path("trunc.png"), PT_ERR_FORMAT, "truncated", "truncated PNG");
    write_bytes(pt_scratch_path("sig.png"), buf, 8);
    expect_failure(pt_scratch_path("sig.png"), PT_ERR_FORMAT, NULL, "PNG signature only");

    n = png_header_only(buf, 100000, 100000);
    write_bytes(pt_scratch_path("huge.png"), buf, n);
    expect_failure(pt_scratch_path("huge.png"), PT_ERR_NOMEM, "exceeds", "PNG claiming 100000x100000");
    n = png_header_only(buf, 65536, 8192);
    write_bytes(pt_scratch_path("big.png"), buf, n);
    expect_failure(pt_scratch_path("big.png"), PT_ERR_FORMAT, "truncated",
                   "PNG claiming 65536x8192 with no data");
    n = png_header_only(buf, 0, 10);
    write_bytes(pt_scratch_path("zero.png"), buf, n);
    expect_failure(pt_scratch_path("zero.png"), PT_ERR_FORMAT, NULL, "PNG with zero width");

    /* TIFF header pointing at garbage */
    memcpy(buf, "II*\0\x08\0\0\0", 8);
    for (int i = 8; i < 200; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    write_bytes(pt_scratch_path("corrupt.tif"), buf, 200);
    expect_failure(pt_scratch_path("corrupt.tif"), PT_ERR_FORMAT, "TIFF", "corrupt TIFF");
    memcpy(buf, "MM\0*\x7f\xff\xff\xf0", 8);
    write_bytes(pt_scratch_path("far.tif"), buf, 8);
    expect_failure(pt_scratch_path("far.tif"), PT_ERR_FORMAT, "TIFF", "TIFF directory past end");

    /* a valid LZW TIFF whose compressed pixels are garbled, directory intact */
    tiff_spec ts = {129, 65, 16, 1, PHOTOMETRIC_MINISBLACK, 0, 65, COMPRESSION_LZW};
    write_test_tiff(pt_scratch_path("lzw16.tif"), &ts, 1, tv_grey16);
    f = fopen(pt_scratch_path("lzw16.tif"), "rb");
    n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 8; i < n / 2; i++)
        buf[i] ^= 0x5a; /* corrupt LZW data, keep the directory */
    write_bytes(pt_scratch_path("badlzw.tif"), buf, n);
    expect_failure(pt_scratch_path("badlzw.tif"), PT_ERR_FORMAT, "TIFF page 0", "corrupt LZW strip");

    write_bytes(pt_scratch_path("zero.pgm"), "P5\n0 0\n255\n", 11);
    expect_failure(pt_scratch_path("zero.pgm"), PT_ERR_FORMAT, "size", "zero-size PGM");
    write_bytes(pt_scratch_path("short.pgm"), "P5\n4 4\n255\nabc", 14);
    expect_failure(pt_scratch_path("short.pgm"), PT_ERR_FORMAT, "truncated", "truncated PGM");
    write_bytes(pt_scratch_path("nohdr.pgm"), "P5\n4", 4);
    expect_failure(pt_scratch_path("nohdr.pgm"), PT_ERR_FORMAT, "header", "PGM without maxval");
    write_bytes(pt_scratch_path("glued.pgm"), "P51 1 255\n\0", 12);
    expect_failure(pt_scratch_path("glued.pgm"), PT_ERR_FORMAT, "header", "PGM without space after P5");
    write_bytes(pt_scratch_path("max0.pgm"), "P5 1 1 0\n\0", 10);
    expect_failure(pt_scratch_path("max0.pgm"), PT_ERR_FORMAT, "maxval", "PGM maxval 0");
    write_bytes(pt_scratch_path("hugemax.pgm"), "P5 1 1 70000\n\0\0", 15);
    expect_failure(pt_scratch_path("hugemax.pgm"), PT_ERR_FORMAT, "header", "PGM maxval > 65535");

    expect_failure(pt_scratch_path("does-not-exist.png"), PT_ERR_IO, "cannot open", "missing file");
    write_bytes(pt_scratch_path("empty.png"), "", 0);
    expect_failure(pt_scratch_path("empty.png"), PT_ERR_FORMAT, "empty", "empty file");
    write_bytes(pt_scratch_path("text.png"), "hello, this is not an image\n", 28);
    expect_failure(pt_scratch_path("text.png"), PT_ERR_FORMAT, "unrecognised", "text file");
    expect_failure(pt_scratch_dir, PT_OK, NULL, "a directory");

    /* options are validated */
    pt_load_options opt;
    pt_load_options_default(&opt);
    PT_CHECK(opt.significant_bits == 16 && opt.page == -1, "option defaults");
    opt.significant_bits = 7;
    pt_frames frames;
    pt_error err = {0};
    PT_CHECK(pt_image_load(pt_scratch_path("g8.pgm"), &opt, &frames, &err) == PT_ERR_PARAM &&
                 strstr(err.what, "significant"),
             "significant_bits 7 rejected: '%s'", err.what);
}

static void test_luma_rounding(void)
{
    /* 0.299*36 + 0.587*136 + 0.114*236 = 117.5 exactly: halves round up */
    static const uint8_t rgb[6] = {36, 136, 236, 255, 255, 255};
    pt_error err = {0};
    PT_CHECK(pt_png_write_rgb(pt_scratch_path("half.png"), 2, 1, rgb, &err) == PT_OK, "write");
    pt_frames frames;
    pt_status st = pt_image_load(pt_scratch_path("half.png"), NULL, &frames, &err);
    PT_CHECK(st == PT_OK && frames.frames[0]->buf[0] == 118 &&
                 frames.frames[0]->buf[1] == 255,
             "luma of (36,136,236) is 118 and of white is 255");
    pt_frames_free(&frames);
}

static void test_memory_load(void)
{
    static const uint8_t pgm[] = "P5 2 1 255\n\x10\x20";
    pt_frames frames;
    pt_error err = {0};
    pt_status st = pt_image_load_memory(pgm, sizeof pgm - 1, "mem", NULL, &frames, &err);
    PT_CHECK(st == PT_OK && frames.count == 1 && frames.frames[0]->buf[0] == 0x10 &&
                 frames.frames[0]->buf[1] == 0x20,
             "load from memory: %s", err.what);
    pt_frames_free(&frames);
    st = pt_image_load_memory(pgm, 3, "mem", NULL, &frames, &err);
    PT_CHECK(st != PT_OK && strcmp(err.file, "mem") == 0, "memory name in error");
}

int main(void)
{
    if (!pt_scratch_make("pt_image_io"))
        return 1;
    /* the test's own libtiff writer must not chatter on stderr */
    TIFFSetWarningHandler(pt_scratch_quiet);
    test_png_variants();
    test_tiff_variants();
    test_pgm_variants();
    test_round_trip();
    test_bad_inputs();
    test_luma_rounding();
    test_memory_load();
    pt_scratch_remove();
    return PT_TEST_SUMMARY("image_io");
}
