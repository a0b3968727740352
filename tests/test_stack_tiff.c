/* TIFF stacks read from the mapped file (pt_stack_open_file): every page
 * gives the pixels the libtiff reader gives (pt_image_load), in place where
 * it is 8-bit grey and uncompressed; compressed, tiled and scattered pages
 * go through libtiff; a cut or inconsistent file names the page and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>
#include <unistd.h>

#include "lib/io/image_decode.h"
#include "lib/io/pt_stack.h"
#include "tests/pt_scratch.h"
#include "tests/pt_test.h"

#define W 53
#define H 37

static unsigned value(int x, int y, int page, int s) { return (unsigned)(x * 131 + y * 71 + page * 977 + s * 333); }

/* How a page is written. */
typedef struct {
    int bits, samples, photometric, compression, rows_per_strip, tiled, max_sample;
} page_kind;

static void write_page(TIFF *tif, const page_kind *k, int page)
{
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, W);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, H);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, k->bits);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, k->samples);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, k->photometric);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, k->compression);
    if (k->max_sample)
        TIFFSetField(tif, TIFFTAG_MAXSAMPLEVALUE, k->max_sample);
    size_t bytes = (size_t)k->samples * (size_t)(k->bits / 8);
    unsigned mask = k->bits == 8 ? 255u : k->max_sample ? (unsigned)k->max_sample : 65535u;
    if (k->tiled) {
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, 16);
        TIFFSetField(tif, TIFFTAG_TILELENGTH, 16);
        uint8_t *tile = calloc(16 * 16, bytes);
        for (int ty = 0; ty < H; ty += 16)
            for (int tx = 0; tx < W; tx += 16) {
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 16; x++)
                        tile[(y * 16 + x) * bytes] = (uint8_t)value(tx + x, ty + y, page, 0);
                TIFFWriteTile(tif, tile, (uint32_t)tx, (uint32_t)ty, 0, 0);
            }
        free(tile);
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, k->rows_per_strip);
        uint8_t *line = malloc(W * bytes);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++)
                for (int s = 0; s < k->samples; s++) {
                    unsigned v = value(x, y, page, s) % (mask + 1);
                    if (k->bits == 8)
                        line[x * bytes + s] = (uint8_t)v;
                    else
                        memcpy(line + x * bytes + 2 * s, &(uint16_t){(uint16_t)v}, 2);
                }
            TIFFWriteScanline(tif, line, (uint32_t)y, 0);
        }
        free(line);
    }
    TIFFWriteDirectory(tif);
}

static void write_tiff(const char *path, const char *mode, const page_kind *kinds, int n)
{
    TIFF *tif = TIFFOpen(path, mode);
    PT_CHECK(tif != NULL, "cannot write %s", path);
    if (!tif)
        return;
    for (int i = 0; i < n; i++)
        write_page(tif, &kinds[i], i);
    TIFFClose(tif);
}

/* Each page through the mapping equals the libtiff reader's; returns how
 * many pages were handed on in place. */
static int compare_with_libtiff(const char *path, const pt_load_options *opt, int pages)
{
    pt_frames frames;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_image_load(path, opt, &frames, &err) == PT_OK && frames.count == pages,
             "%s: libtiff reader: %s", path, err.what);
    pt_stack s;
    int tiff = 0, in_place = 0;
    PT_CHECK(pt_stack_open_file(path, opt, &s, &tiff, &err) == PT_OK && tiff && s.count == pages,
             "%s: mapped: %s (%ld pages)", path, err.what, s.count);
    for (long i = 0; i < s.count && i < frames.count; i++) {
        pt_image view, *img = NULL;
        if (pt_stack_frame_in_place(&s, i, &view)) {
            in_place++;
            PT_CHECK(view.stride == view.width && pt_image_same_pixels(&view, frames.frames[i]),
                     "%s page %ld: in place differs", path, i);
        }
        PT_CHECK(pt_stack_read_frame(&s, i, opt, path, &img, &err) == PT_OK &&
                     pt_image_same_pixels(img, frames.frames[i]),
                 "%s page %ld: read differs (%s)", path, i, err.what);
        pt_image_destroy(img);
    }
    pt_stack_close(&s);
    pt_frames_free(&frames);
    return in_place;
}

static void test_pt_image_same_pixels(void)
{
    pt_load_options opt;
    pt_load_options_default(&opt);
    const page_kind grey8 = {8, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, H, 0, 0};
    page_kind kinds[8] = {grey8, grey8, grey8};
    kinds[1].rows_per_strip = 5; /* strips one after the other */
    write_tiff(pt_scratch_path("grey8.tif"), "w", kinds, 3);
    PT_CHECK(compare_with_libtiff(pt_scratch_path("grey8.tif"), &opt, 3) == 3,
             "8-bit grey pages not in place");
    write_tiff(pt_scratch_path("grey8-be.tif"), "wb", kinds, 3);
    PT_CHECK(compare_with_libtiff(pt_scratch_path("grey8-be.tif"), &opt, 3) == 3, "big-endian file");
    write_tiff(pt_scratch_path("grey8-big.tif"), "w8", kinds, 3);
    PT_CHECK(compare_with_libtiff(pt_scratch_path("grey8-big.tif"), &opt, 3) == 3, "BigTIFF file");

    /* converted from the mapping: 16-bit (with MaxSampleValue), min-is-white, RGB */
    kinds[0] = (page_kind){16, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, H, 0, 4095};
    kinds[1] = (page_kind){16, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, 7, 0, 0};
    kinds[2] = (page_kind){8, 1, PHOTOMETRIC_MINISWHITE, COMPRESSION_NONE, H, 0, 0};
    kinds[3] = (page_kind){8, 3, PHOTOMETRIC_RGB, COMPRESSION_NONE, H, 0, 0};
    kinds[4] = (page_kind){16, 4, PHOTOMETRIC_RGB, COMPRESSION_NONE, H, 0, 0};
    /* left to libtiff: compressed and tiled */
    kinds[5] = (page_kind){8, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_LZW, H, 0, 0};
    kinds[6] = (page_kind){8, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_ADOBE_DEFLATE, 4, 0, 0};
    kinds[7] = (page_kind){8, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, H, 1, 0};
    write_tiff(pt_scratch_path("mixed.tif"), "w", kinds, 8);
    PT_CHECK(compare_with_libtiff(pt_scratch_path("mixed.tif"), &opt, 8) == 0, "mixed pages in place");
    write_tiff(pt_scratch_path("mixed-be.tif"), "wb", kinds, 8);
    compare_with_libtiff(pt_scratch_path("mixed-be.tif"), &opt, 8);
    opt.significant_bits = 12;
    opt.bits_from_file = 0;
    compare_with_libtiff(pt_scratch_path("mixed.tif"), &opt, 8);

    pt_stack s;
    pt_error err;
    int tiff;
    pt_load_options_default(&opt);
    PT_CHECK(pt_stack_open_file(pt_scratch_path("mixed.tif"), &opt, &s, &tiff, &err) == PT_OK &&
                 s.pages[0].read == PT_PAGE_CONVERT && s.pages[5].read == PT_PAGE_LIBTIFF &&
                 s.pages[7].read == PT_PAGE_LIBTIFF,
             "page kinds");
    pt_stack_close(&s);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* The first n bytes of src as dst. */
static void cut_copy(const char *src, const char *dst, long n)
{
    FILE *f = fopen(src, "rb"), *g = fopen(dst, "wb");
    char *buf = malloc((size_t)n);
    PT_CHECK(f && g && buf && fread(buf, 1, (size_t)n, f) == (size_t)n &&
                 fwrite(buf, 1, (size_t)n, g) == (size_t)n,
             "cannot copy %s", src);
    free(buf);
    if (f)
        fclose(f);
    if (g)
        fclose(g);
}

static void test_bad_files(void)
{
    pt_load_options opt;
    pt_load_options_default(&opt);
    const page_kind grey8 = {8, 1, PHOTOMETRIC_MINISBLACK, COMPRESSION_NONE, H, 0, 0};
    page_kind kinds[3] = {grey8, grey8, grey8};
    const char *whole = pt_scratch_path("whole.tif"), *cut = pt_scratch_path("cut.tif");
    write_tiff(whole, "w", kinds, 3);
    pt_stack s;
    pt_error err;
    int tiff;
    PT_CHECK(pt_stack_open_file(whole, &opt, &s, &tiff, &err) == PT_OK, "%s", err.what);
    /* libtiff writes each page's pixels before its directory */
    uint64_t last_pixels = s.pages[2].offset, last_ifd = s.pages[2].ifd;
    pt_stack_close(&s);

    /* cut inside the last page's pixels: that page's directory is gone */
    cut_copy(whole, cut, (long)last_pixels + 100);
    PT_CHECK(pt_stack_open_file(cut, &opt, &s, &tiff, &err) == PT_OK && s.count == 3 &&
                 s.pages[2].read == PT_PAGE_NO_DIRECTORY,
             "cut file: %s", err.what);
    pt_image *img = NULL;
    PT_CHECK(pt_stack_read_frame(&s, 1, &opt, cut, &img, &err) == PT_OK, "page before the cut");
    pt_image_destroy(img);
    PT_CHECK(pt_stack_read_frame(&s, 2, &opt, cut, &img, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "TIFF page 2") && strstr(err.what, "cut short") &&
                 !strcmp(err.file, cut),
             "cut file: '%s'", err.what);
    pt_stack_close(&s);

    /* pixels that run past the end: the directory kept, the pixels cut */
    FILE *f = fopen(whole, "rb");
    long size = file_size(whole);
    uint8_t *bytes = malloc((size_t)size);
    PT_CHECK(f && fread(bytes, 1, (size_t)size, f) == (size_t)size, "cannot read back");
    fclose(f);
    /* page 2's strip offset moved 200 bytes on: its pixels overrun the file
     * unless the directory follows them (it does: shift towards the end) */
    pt_stack_open_file(whole, &opt, &s, &tiff, &err);
    uint64_t strip_entry = 0;
    for (uint64_t e = 0, n = bytes[last_ifd] | bytes[last_ifd + 1] << 8; e < n; e++) {
        uint64_t at = last_ifd + 2 + 12 * e;
        if ((bytes[at] | bytes[at + 1] << 8) == 273)
            strip_entry = at + 8;
    }
    pt_stack_close(&s);
    PT_CHECK(strip_entry != 0, "no StripOffsets in page 2");
    uint32_t moved = (uint32_t)(size - 10);
    memcpy(bytes + strip_entry, &moved, 4);
    f = fopen(cut, "wb");
    PT_CHECK(f && fwrite(bytes, 1, (size_t)size, f) == (size_t)size, "cannot write");
    fclose(f);
    PT_CHECK(pt_stack_open_file(cut, &opt, &s, &tiff, &err) == PT_OK &&
                 s.pages[2].read == PT_PAGE_BAD,
             "pixels past the end accepted");
    PT_CHECK(pt_stack_read_frame(&s, 2, &opt, cut, &img, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "truncated") && strstr(err.what, "page 2"),
             "overrun: '%s'", err.what);
    pt_stack_close(&s);

    /* a directory that points back at the first: the chain loops */
    pt_stack_open_file(whole, &opt, &s, &tiff, &err);
    uint64_t first_ifd = s.pages[0].ifd;
    pt_stack_close(&s);
    memcpy(bytes + strip_entry, &(uint32_t){(uint32_t)last_pixels}, 4);
    uint64_t n = bytes[last_ifd] | bytes[last_ifd + 1] << 8;
    memcpy(bytes + last_ifd + 2 + 12 * n, &(uint32_t){(uint32_t)first_ifd}, 4);
    f = fopen(cut, "wb");
    PT_CHECK(f && fwrite(bytes, 1, (size_t)size, f) == (size_t)size, "cannot write");
    fclose(f);
    PT_CHECK(pt_stack_open_file(cut, &opt, &s, &tiff, &err) == PT_OK && s.count == 4 &&
                 s.pages[3].read == PT_PAGE_LOOP,
             "loop not found (%ld pages)", s.count);
    PT_CHECK(pt_stack_read_frame(&s, 3, &opt, cut, &img, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "loop"),
             "loop: '%s'", err.what);
    pt_stack_close(&s);
    free(bytes);

    /* not TIFF by content, or a header only: left to the other readers */
    f = fopen(cut, "wb");
    fwrite("II*\0\377\377\377\377", 1, 8, f);
    fclose(f);
    PT_CHECK(pt_stack_open_file(cut, &opt, &s, &tiff, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "first directory"),
             "header only: '%s'", err.what);
    PT_CHECK(pt_stack_open_file(pt_scratch_path("none.tif"), &opt, &s, &tiff, &err) == PT_ERR_IO,
             "missing file");
}

/* A 16-bit page whose MaxSampleValue is a signed byte (0): libtiff takes
 * the byte, so the mapped reader leaves the page to libtiff and the pixel
 * is libtiff's (281 reduced with 8 significant bits: 255), not 281 >> 8. */
static void test_max_sample_type(void)
{
    static const uint8_t page[] = {
        'I', 'I', 42, 0, 14, 0, 0, 0, /* header: the directory at 14 */
        0x19, 0x01, 0, 0, 0, 0,       /* the pixel (281) and padding */
        7, 0,                         /* 7 entries */
        0x00, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, /* ImageWidth 1 */
        0x01, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, /* ImageLength 1 */
        0x02, 0x01, 3, 0, 1, 0, 0, 0, 16, 0, 0, 0, /* BitsPerSample 16 */
        0x06, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, /* min-is-black */
        0x11, 0x01, 4, 0, 1, 0, 0, 0, 8, 0, 0, 0, /* StripOffsets 8 */
        0x17, 0x01, 4, 0, 1, 0, 0, 0, 2, 0, 0, 0, /* StripByteCounts 2 */
        0x19, 0x01, 6, 0, 1, 0, 0, 0, 0, 0, 0, 0, /* MaxSampleValue, SBYTE 0 */
        0, 0, 0, 0};                  /* no next directory */
    pt_load_options opt;
    pt_load_options_default(&opt);
    pt_stack s;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_stack_parse_tiff(page, sizeof page, "byte.tif", &s, &err) == PT_OK && s.count == 1,
             "byte MaxSampleValue: %s", err.what);
    if (s.count != 1)
        return;
    PT_CHECK(s.pages[0].read == PT_PAGE_LIBTIFF, "the page left to libtiff (read %d)",
             s.pages[0].read);
    pt_image *img = NULL, *ref = NULL;
    PT_CHECK(pt_stack_read_frame(&s, 0, &opt, "byte.tif", &img, &err) == PT_OK &&
                 pt_tiff_decode_page(page, sizeof page, "byte.tif", s.pages[0].ifd, 0, &opt, &ref,
                                     &err) == PT_OK &&
                 pt_image_same_pixels(img, ref) && img->buf[0] == 255,
             "byte MaxSampleValue: the reading is libtiff's (%d)", img ? img->buf[0] : -1);
    pt_image_destroy(img);
    pt_image_destroy(ref);
    pt_stack_close(&s);
}

int main(void)
{
    if (!pt_scratch_make("pt-stack-tiff"))
        return 1;
    TIFFSetErrorHandler(pt_scratch_quiet);
    TIFFSetWarningHandler(pt_scratch_quiet);
    test_pt_image_same_pixels();
    test_bad_files();
    test_max_sample_type();
    pt_scratch_remove();
    return PT_TEST_SUMMARY("stack_tiff");
}
