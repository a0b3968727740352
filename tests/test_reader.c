/* The reader (lib/io/reader.h): frames of mixed inputs in input order with
 * their names, in place for 8-bit stacks and converted for 16-bit ones,
 * errors in the place of what cannot be read, whatever the threads and
 * the window ahead, and whether a reading thread maps in the frames in
 * place first; a pinned mapping is unpinned once its frames are back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io/reader.h"
#include "tests/pt_test.h"

static char dir[] = "/tmp/pt-reader.XXXXXX";
static char paths[6][96];

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    PT_CHECK(f && fwrite(data, 1, n, f) == n, "cannot write %s", path);
    if (f)
        fclose(f);
}

/* A .npy of frames x 3 x 4 samples of 1 or 2 bytes: sample i is i + 1 + 100 * frame. */
static void write_npy(const char *path, int frames, int bytes)
{
    char dict[118];
    snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%d, 3, 4), }",
             bytes == 1 ? "|u1" : "<u2", frames);
    uint8_t head[128] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 118, 0};
    memset(head + 10, ' ', 118);
    memcpy(head + 10, dict, strlen(dict));
    head[127] = '\n';
    size_t n = (size_t)frames * 12 * bytes;
    uint8_t *buf = malloc(128 + n);
    memcpy(buf, head, 128);
    for (int f = 0; f < frames; f++)
        for (int i = 0; i < 12; i++) {
            unsigned v = (unsigned)(i + 1 + 100 * f);
            if (bytes == 1)
                buf[128 + f * 12 + i] = (uint8_t)v;
            else {
                buf[128 + (f * 12 + i) * 2] = 0;
                buf[128 + (f * 12 + i) * 2 + 1] = (uint8_t)v; /* v << 8: top byte v */
            }
        }
    write_file(path, buf, 128 + n);
    free(buf);
}

static int pins, unpins;

static int pin(void *ctx, const void *base, size_t bytes)
{
    (void)ctx;
    pins += base != NULL && bytes > 0;
    return 1;
}

static void unpin(void *ctx, const void *base)
{
    (void)ctx;
    unpins += base != NULL;
}

static void read_all(int threads, int ahead, int touch)
{
    char *list[6];
    for (int i = 0; i < 6; i++)
        list[i] = paths[i];
    pt_load_options opt;
    pt_load_options_default(&opt);
    opt.page_errors = 1;
    pt_reader_options ro = {
        .threads = threads, .ahead = ahead, .pin = pin, .unpin = unpin, .touch_in_place = touch};
    pt_reader *r;
    pt_error err;
    pins = unpins = 0;
    PT_CHECK(pt_reader_open(list, 6, &opt, &ro, &r, &err) == PT_OK, "open: %s", err.what);
    /* expected: a.pgm, s8.npy#0..2 (in place), missing.pgm (error),
     * s16.npy#0..1 (converted), b.pgm, one.npy */
    const char *names[] = {"a.pgm", "s8.npy#0", "s8.npy#1", "s8.npy#2", "missing.pgm",
                           "s16.npy#0", "s16.npy#1", "b.pgm", "one.npy"};
    const int first[] = {7, 1, 101, 201, -1, 1, 101, 9, 1};
    const int place[] = {0, 1, 1, 1, 0, 0, 0, 0, 1};
    const int ends[] = {1, 0, 0, 1, 1, 0, 1, 1, 1};
    pt_read_frame held[16];
    int n = 0;
    while (n < 16 && pt_reader_next(r, &held[n])) {
        pt_read_frame *f = &held[n];
        const char *base = f->name ? strrchr(f->name, '/') + 1 : "";
        PT_CHECK(n < 9 && !strcmp(base, names[n]), "frame %d: '%s'", n, base);
        if (n < 9) {
            PT_CHECK(first[n] < 0 ? !f->image && f->whole_file && strstr(f->error.what, "open")
                                  : f->image && f->image->buf[0] == first[n],
                     "frame %d (%s): pixels or error", n, base);
            PT_CHECK(f->in_place == place[n] && f->ends_input == ends[n],
                     "frame %d (%s): in place %d, ends %d", n, base, f->in_place, f->ends_input);
        }
        /* hold the stack's frames while the rest is read: the mapping stays */
        if (n != 1 && n != 2)
            pt_reader_release(r, f);
        n++;
    }
    PT_CHECK(n == 9, "%d frames", n);
    PT_CHECK(pins == 2 && unpins == 1, "pinned %d, unpinned %d (frames still held)", pins,
             unpins);
    PT_CHECK(held[1].image->buf[0] == 1 && held[2].image->buf[11] == 112,
             "held frames readable");
    pt_reader_release(r, &held[1]);
    pt_reader_release(r, &held[2]);
    PT_CHECK(unpins == 2, "unpinned once released: %d", unpins);
    pt_reader_stats st;
    pt_reader_stats_get(r, &st);
    PT_CHECK(st.frames == 9 && st.in_place == 4 && st.converted == 2 && st.decoded == 2 &&
                 st.errors == 1 && st.maps == 3,
             "stats: %ld frames, %ld in place, %ld converted, %ld decoded, %ld errors, %d maps",
             st.frames, st.in_place, st.converted, st.decoded, st.errors, st.maps);
    pt_reader_close(r);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const char *files[] = {"a.pgm", "s8.npy", "missing.pgm", "s16.npy", "b.pgm", "one.npy"};
    for (int i = 0; i < 6; i++)
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, files[i]);
    uint8_t pgm[11 + 12] = "P5\n4 3\n255\n";
    pgm[11] = 7;
    write_file(paths[0], pgm, sizeof pgm);
    pgm[11] = 9;
    write_file(paths[4], pgm, sizeof pgm);
    write_npy(paths[1], 3, 1);
    write_npy(paths[3], 2, 2);
    write_npy(paths[5], 1, 1);
    /* frames in place mapped in on the reading threads first, or not: the same */
    for (int touch = 0; touch < 2; touch++) {
        read_all(1, 1, touch);
        read_all(3, 2, touch);
        read_all(0, 64, touch);
    }
    for (int i = 0; i < 6; i++)
        unlink(paths[i]);
    rmdir(dir);
    return PT_TEST_SUMMARY("reader");
}
