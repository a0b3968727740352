/* Raw frame stacks (pt_stack.h): .npy headers of each format version, dtypes
 * and shapes, .raw layouts, 16-bit reduction, mapping files, and the errors
 * that name what is wrong. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io/pt_stack.h"
#include "pt_test.h"

/* A .npy file in buf: header dict padded to a 64-byte boundary, then the
 * payload. Returns its size. */
static size_t make_npy(uint8_t *buf, int major, const char *dict, const void *payload,
                       size_t payload_size)
{
    size_t prefix = major == 1 ? 10 : 12, len = strlen(dict);
    size_t total = (prefix + len + 1 + 63) / 64 * 64, hlen = total - prefix;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (uint8_t)major;
    buf[7] = 0;
    buf[8] = (uint8_t)hlen;
    buf[9] = (uint8_t)(hlen >> 8);
    if (major != 1)
        buf[10] = buf[11] = 0;
    memcpy(buf + prefix, dict, len);
    memset(buf + prefix + len, ' ', hlen - len - 1);
    buf[total - 1] = '\n';
    memcpy(buf + total, payload, payload_size);
    return total + payload_size;
}

static uint8_t buf[4096];

static void test_npy_u8(void)
{
    uint8_t px[2 * 3 * 4];
    for (int i = 0; i < 24; i++)
        px[i] = (uint8_t)(i * 10);
    for (int major = 1; major <= 3; major++) {
        size_t n = make_npy(buf, major,
                            "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3, 4), }", px,
                            sizeof px);
        pt_stack s;
        pt_error err;
        PT_CHECK(pt_stack_parse_npy(buf, n, "a.npy", &s, &err) == PT_OK, "v%d: %s", major,
                 err.what);
        PT_CHECK(s.count == 2 && s.width == 4 && s.height == 3 && s.depth == 8 &&
                     s.frame_bytes == 12,
                 "v%d: layout %ld x %dx%d", major, s.count, s.width, s.height);
        pt_image *img = pt_stack_frame(&s, 1, 16);
        PT_CHECK(img && img->buf[0] == 120 && img->buf[img->stride * 2 + 3] == 230,
                 "v%d: frame 1 pixels", major);
        pt_image_destroy(img);
        PT_CHECK(!pt_stack_frame(&s, 2, 16), "frame past the stack");
    }
    /* 2-D: one frame; pt_image_load_memory detects the content */
    size_t n = make_npy(buf, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 4), }",
                        px, 12);
    pt_frames frames;
    pt_error err;
    PT_CHECK(pt_image_load_memory(buf, n, "b.npy", NULL, &frames, &err) == PT_OK &&
                 frames.count == 1 && frames.frames[0]->width == 4 &&
                 frames.frames[0]->buf[frames.frames[0]->stride + 1] == 50,
             "2-D .npy through pt_image_load_memory: %s", err.what);
    pt_frames_free(&frames);
}

static void test_npy_u16(void)
{
    /* 0x1234 little-endian and big-endian; 12 significant bits: 0x123 -> 255,
     * 16: 0x12 */
    uint8_t le[4] = {0x34, 0x12, 0x00, 0x01}, be[4] = {0x12, 0x34, 0x01, 0x00};
    const char *dicts[2] = {"{'descr': '<u2', 'fortran_order': False, 'shape': (1, 2), }",
                            "{\"descr\": \">u2\", \"fortran_order\": False, \"shape\": (1L, 2L)}"};
    for (int k = 0; k < 2; k++) {
        size_t n = make_npy(buf, 1, dicts[k], k ? be : le, 4);
        pt_stack s;
        pt_error err;
        PT_CHECK(pt_stack_parse_npy(buf, n, "c.npy", &s, &err) == PT_OK, "u16 %d: %s", k,
                 err.what);
        PT_CHECK(s.depth == 16 && s.big_endian == k, "u16 %d: depth %d, big-endian %d", k,
                 s.depth, s.big_endian);
        pt_image *img = pt_stack_frame(&s, 0, 16);
        PT_CHECK(img && img->buf[0] == 0x12 && img->buf[1] == 0x01, "u16 %d: top bytes", k);
        pt_image_destroy(img);
        img = pt_stack_frame(&s, 0, 9);
        PT_CHECK(img && img->buf[0] == 255 && img->buf[1] == 128,
                 "u16 %d: 9 significant bits", k);
        pt_image_destroy(img);
    }
}

static void expect_npy_error(const char *dict, size_t payload, const char *words, const char *what)
{
    static uint8_t zeros[256];
    size_t n = make_npy(buf, 1, dict, zeros, payload);
    pt_stack s;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_stack_parse_npy(buf, n, "bad.npy", &s, &err) != PT_OK &&
                 strstr(err.what, words) && !strcmp(err.file, "bad.npy"),
             "%s: '%s'", what, err.what);
}

static void test_npy_errors(void)
{
    expect_npy_error("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 16, "'<f4'",
                     "float32");
    expect_npy_error("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 2), }", 4, "Fortran",
                     "Fortran order");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (4,), }", 4,
                     "1 dimension", "1-D");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (1, 1, 2, 2), }", 4,
                     "more than 3", "4-D");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 2, 2), }", 0,
                     "no frame", "no frames");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 2, 2), }", 11,
                     "truncated: 3 frames", "truncated payload");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 0), }", 0,
                     "invalid image size", "zero width");
    expect_npy_error("{'descr': '|u1', 'fortran_order': False, 'shape': (99999999999, 1), }", 0,
                     "exceeds", "huge height");
    expect_npy_error("{'descr': '|u1', 'shape': (2, 2), }", 4, "lacks", "no fortran_order");
    pt_stack s;
    pt_error err;
    PT_CHECK(pt_stack_parse_npy((const uint8_t *)"\x93NUMPY\x01\x00\xff\xff{", 11, "t.npy", &s,
                                &err) != PT_OK &&
                 strstr(err.what, "truncated"),
             "header longer than the file: '%s'", err.what);
    PT_CHECK(pt_stack_parse_npy((const uint8_t *)"\x93NUMPY\x07\x00\x00\x00", 10, "v.npy", &s,
                                &err) != PT_OK &&
                 strstr(err.what, "version 7"),
             "unknown version: '%s'", err.what);
}

static void test_raw(void)
{
    uint8_t px[2 * 3 * 4 * 2];
    for (size_t i = 0; i < sizeof px; i++)
        px[i] = (uint8_t)i;
    pt_stack s;
    pt_error err;
    PT_CHECK(pt_stack_parse_raw(px, 24, "r.raw", 4, 3, 8, &s, &err) == PT_OK && s.count == 2,
             "8-bit raw: %s", err.what);
    PT_CHECK(pt_stack_parse_raw(px, 48, "r.raw", 4, 3, 16, &s, &err) == PT_OK && s.count == 2 &&
                 !s.big_endian,
             "16-bit raw: %s", err.what);
    pt_image *img = pt_stack_frame(&s, 1, 16);
    PT_CHECK(img && img->buf[0] == 25, "16-bit raw: little-endian top byte %d",
             img ? img->buf[0] : -1);
    pt_image_destroy(img);
    PT_CHECK(pt_stack_parse_raw(px, 25, "r.raw", 4, 3, 8, &s, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "1 bytes left over"),
             "partial frame: '%s'", err.what);
    PT_CHECK(pt_stack_parse_raw(px, 24, "r.raw", 0, 0, 8, &s, &err) == PT_ERR_PARAM &&
                 strstr(err.what, "--size"),
             "no size: '%s'", err.what);
    PT_CHECK(pt_stack_parse_raw(px, 24, "r.raw", 4, 3, 12, &s, &err) == PT_ERR_PARAM &&
                 strstr(err.what, "--depth"),
             "depth 12: '%s'", err.what);
}

/* Mapped from files, through pt_image_load as track, bench and sweep use it. */
static void test_files(void)
{
    char dir[] = "/tmp/pt-stack.XXXXXX", npy[64], raw[64], empty[64];
    if (!mkdtemp(dir)) {
        PT_CHECK(0, "cannot make a temporary folder");
        return;
    }
    snprintf(npy, sizeof npy, "%s/s.NPY", dir);
    snprintf(raw, sizeof raw, "%s/s.raw", dir);
    snprintf(empty, sizeof empty, "%s/e.raw", dir);
    uint8_t px[3 * 2 * 2];
    for (int i = 0; i < 12; i++)
        px[i] = (uint8_t)(i + 1);
    size_t n = make_npy(buf, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (3, 2, 2), }",
                        px, sizeof px);
    FILE *f = fopen(npy, "wb"), *g = fopen(raw, "wb"), *h = fopen(empty, "wb");
    PT_CHECK(f && g && h && fwrite(buf, 1, n, f) == n && fwrite(px, 1, 12, g) == 12,
             "cannot write the test files");
    fclose(f);
    fclose(g);
    fclose(h);
    pt_load_options opt;
    pt_load_options_default(&opt);
    pt_frames frames;
    pt_error err;
    PT_CHECK(pt_image_load(npy, &opt, &frames, &err) == PT_OK && frames.count == 3 &&
                 frames.frames[2]->buf[0] == 9,
             ".npy file: %s", err.what);
    pt_frames_free(&frames);
    opt.page = 1;
    opt.raw_width = opt.raw_height = 2;
    PT_CHECK(pt_image_load(raw, &opt, &frames, &err) == PT_OK && frames.count == 1 &&
                 frames.frames[0]->buf[0] == 5,
             ".raw file, frame 1: %s", err.what);
    pt_frames_free(&frames);
    opt.page = 3;
    PT_CHECK(pt_image_load(raw, &opt, &frames, &err) == PT_ERR_PARAM && frames.count == 0,
             "frame 3 of 3 accepted");
    opt.page = -1;
    PT_CHECK(pt_image_load(empty, &opt, &frames, &err) == PT_ERR_FORMAT &&
                 strstr(err.what, "empty") && !strcmp(err.file, empty),
             "empty .raw: '%s'", err.what);
    opt.raw_width = 0;
    PT_CHECK(pt_image_load(raw, &opt, &frames, &err) == PT_ERR_PARAM, ".raw without --size");
    pt_stack s;
    PT_CHECK(pt_stack_open_npy(raw, &s, &err) == PT_ERR_FORMAT && strstr(err.what, "NumPy"),
             ".raw read as .npy: '%s'", err.what);
    PT_CHECK(pt_stack_open_npy(dir, &s, &err) != PT_OK, "a folder mapped");
    PT_CHECK(pt_stack_path_kind("x.Raw") == 'r' && pt_stack_path_kind("x.npy") == 'n' &&
                 !pt_stack_path_kind("x.png") && !pt_stack_path_kind("npy"),
             "kinds by name");
    unlink(npy);
    unlink(raw);
    unlink(empty);
    rmdir(dir);
}

int main(void)
{
    test_npy_u8();
    test_npy_u16();
    test_npy_errors();
    test_raw();
    test_files();
    return PT_TEST_SUMMARY("stack");
}
