/* The gain of dark frames (lib/io/frame_gain.h, pupiltrack(1) --gain): the
 * 99th percentile rule, saturated levels left out, the limits, rounding and
 * clamping, a file's first frame setting the gain of all, and the loader
 * applying it where asked (gain 0) and not by default. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io/frame_gain.h"
#include "lib/io/pt_image.h"
#include "tests/pt_test.h"

/* A w x h frame whose level at pixel i is levels[i % n]. */
static pt_image *frame_of(int w, int h, const uint8_t *levels, int n)
{
    pt_image *img = pt_image_create(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            img->buf[(size_t)y * img->stride + x] = levels[(y * w + x) % n];
    return img;
}

static void test_rule(void)
{
    uint8_t ramp[50];
    for (int v = 0; v < 50; v++)
        ramp[v] = (uint8_t)v;
    pt_image *dark = frame_of(100, 100, ramp, 50); /* 200 pixels of each level 0..49 */
    /* 99 % of 10,000 pixels: 9,900, reached at level 49 */
    PT_CHECK_NEAR(pt_frame_gain_auto(dark), 100.0 / 49.0, 1e-12, "ramp 0..49: 100 / 49");
    pt_image_destroy(dark);

    uint8_t bright[3] = {20, 120, 180};
    pt_image *normal = frame_of(30, 30, bright, 3);
    PT_CHECK(pt_frame_gain_auto(normal) == 1.0, "a normally exposed frame keeps its levels");
    pt_image_destroy(normal);

    /* half the frame saturated (reflections): left out, the rest decides */
    uint8_t glints[4] = {255, 252, 25, 25};
    pt_image *glinty = frame_of(40, 40, glints, 4);
    PT_CHECK_NEAR(pt_frame_gain_auto(glinty), 4.0, 1e-12, "saturated levels left out: 100 / 25");
    pt_image_destroy(glinty);

    uint8_t white[1] = {255}, black[1] = {0}, faint[2] = {5, 6};
    pt_image *all_sat = frame_of(8, 8, white, 1), *all_black = frame_of(8, 8, black, 1),
             *very_dark = frame_of(8, 8, faint, 2);
    PT_CHECK(pt_frame_gain_auto(all_sat) == 1.0, "every level saturated: 1");
    PT_CHECK(pt_frame_gain_auto(all_black) == PT_GAIN_MAX, "black: the largest gain");
    PT_CHECK(pt_frame_gain_auto(very_dark) == PT_GAIN_MAX, "100 / 6 capped at the largest gain");
    pt_image_destroy(all_sat);
    pt_image_destroy(all_black);
    pt_image_destroy(very_dark);
}

static void test_apply(void)
{
    uint8_t levels[5] = {0, 1, 40, 101, 200};
    pt_image *img = frame_of(5, 1, levels, 5);
    pt_frame_gain_apply(img, 2.5);
    const uint8_t want[5] = {0, 3, 100, 253, 255}; /* 2.5 rounds to 3; 252.5 to 253 */
    PT_CHECK(memcmp(img->buf, want, 5) == 0,
             "levels times the gain, rounded, at most 255: %d %d %d %d %d", img->buf[0],
             img->buf[1], img->buf[2], img->buf[3], img->buf[4]);
    pt_frame_gain_apply(img, 1.0);
    PT_CHECK(memcmp(img->buf, want, 5) == 0, "gain 1 leaves the frame as it is");
    pt_image_destroy(img);

    pt_load_options opt;
    pt_load_options_default(&opt);
    PT_CHECK(opt.gain == 1.0, "the loader's default: frames as read");
    opt.gain = 0.0;
    uint8_t dim[1] = {20};
    pt_image *first = frame_of(4, 4, dim, 1);
    PT_CHECK_NEAR(pt_frame_gain_resolve(&opt, first), 5.0, 1e-12, "auto: the first frame's");
    opt.gain = 3.0;
    PT_CHECK(pt_frame_gain_resolve(&opt, first) == 3.0, "a gain asked for wins");
    opt.gain = 0.0;
    PT_CHECK(pt_frame_gain_resolve(&opt, NULL) == 1.0, "no first frame: 1");

    /* a file's frames take the first frame's gain, the bright second too */
    uint8_t light[1] = {30};
    pt_image *second = frame_of(4, 4, light, 1);
    pt_image *list[2] = {first, second};
    pt_frames frames = {2, list, NULL};
    pt_frame_gain_frames(&opt, &frames);
    PT_CHECK(first->buf[0] == 100 && second->buf[0] == 150,
             "the first frame's gain on every frame: %d %d", first->buf[0], second->buf[0]);
    pt_image_destroy(first);
    pt_image_destroy(second);
}

/* The loader stretches a dark PGM with gain 0 (auto), and leaves it with
 * its default gain 1. */
static void test_loader(void)
{
    char pgm[64 + 16 * 16];
    int head = snprintf(pgm, 64, "P5\n16 16\n255\n");
    for (int i = 0; i < 256; i++)
        pgm[head + i] = (char)(10 + i % 30); /* levels 10..39 */
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.gain = 0.0;
    pt_frames out;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_image_load_memory((const uint8_t *)pgm, (size_t)head + 256, "dark.pgm", &opt,
                                  &out, &err) == PT_OK,
             "dark PGM loads");
    if (out.count == 1) /* pixel 29: row 1, column 13 */
        PT_CHECK(out.frames[0]->buf[0] == 26 && out.frames[0]->buf[out.frames[0]->stride + 13] == 100,
                 "stretched by 100 / 39: %d %d", out.frames[0]->buf[0],
                 out.frames[0]->buf[out.frames[0]->stride + 13]);
    pt_frames_free(&out);
    opt.gain = 1.0;
    PT_CHECK(pt_image_load_memory((const uint8_t *)pgm, (size_t)head + 256, "dark.pgm", &opt,
                                  &out, &err) == PT_OK,
             "dark PGM loads with gain 1");
    if (out.count == 1)
        PT_CHECK(out.frames[0]->buf[0] == 10 && out.frames[0]->buf[out.frames[0]->stride + 13] == 39,
                 "gain 1: as read: %d %d", out.frames[0]->buf[0],
                 out.frames[0]->buf[out.frames[0]->stride + 13]);
    pt_frames_free(&out);
}

/* One page of a stack asked for (opt.page) takes the gain of the stack's
 * first page, as the whole stack read at once does. */
static void test_page(void)
{
    char path[] = "/tmp/pt_frame_gain.XXXXXX.npy";
    int fd = mkstemps(path, 4);
    PT_CHECK(fd >= 0, "scratch file made");
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    PT_CHECK(f != NULL, "scratch file opened");
    if (!f) {
        close(fd);
        unlink(path);
        return;
    }
    char head[128];
    memset(head, ' ', sizeof head);
    memcpy(head, "\223NUMPY\001\000v\000", 10);
    const char dict[] = "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 4, 4), }";
    memcpy(head + 10, dict, sizeof dict - 1);
    head[127] = '\n';
    uint8_t pix[32];
    for (int i = 0; i < 32; i++)
        pix[i] = (uint8_t)(i < 16 ? 20 : 40); /* page 0: gain 5; page 1 alone: 2.5 */
    int wrote = fwrite(head, 1, sizeof head, f) == sizeof head && fwrite(pix, 1, 32, f) == 32;
    PT_CHECK(fclose(f) == 0 && wrote, "stack written");
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.gain = 0.0;
    pt_frames all, one;
    pt_error err;
    pt_error_clear(&err);
    PT_CHECK(pt_image_load(path, &opt, &all, &err) == PT_OK && all.count == 2, "stack loads");
    opt.page = 1;
    PT_CHECK(pt_image_load(path, &opt, &one, &err) == PT_OK && one.count == 1, "page 1 loads");
    if (all.count == 2 && one.count == 1)
        PT_CHECK(all.frames[1]->buf[0] == 200 && one.frames[0]->buf[0] == 200,
                 "page 1 alone takes page 0's gain: %d and %d", all.frames[1]->buf[0],
                 one.frames[0]->buf[0]);
    pt_frames_free(&all);
    pt_frames_free(&one);
    unlink(path);
}

int main(void)
{
    test_rule();
    test_apply();
    test_loader();
    test_page();
    return PT_TEST_SUMMARY("frame_gain");
}
