/* The video reader (pt_video.h) on testdata/video: an FFV1 video decodes to
 * exactly its PGM frames, directly and through the decoding thread; a video
 * cut short ends with an error after its good frames; stopping the thread
 * early leaves nothing behind. Skipped in a build without FFmpeg. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/io/pt_video.h"
#include "pt_test.h"

#define VIDEO "testdata/video/frames.mkv"
#define FRAMES 5

static pt_image *pgm(int i)
{
    char path[64];
    snprintf(path, sizeof path, "testdata/video/%06d.pgm", i);
    pt_frames f;
    pt_error err;
    if (pt_image_load(path, NULL, &f, &err) || f.count != 1) {
        fprintf(stderr, "%s: %s\n", path, err.what);
        exit(1);
    }
    pt_image *img = f.frames[0];
    f.frames[0] = NULL;
    f.count = 0;
    pt_frames_free(&f);
    return img;
}

/* Read every frame of path (through the thread when ahead); the frames that
 * equal the PGMs are counted in *good; returns the last status. */
static pt_status read_all(const char *path, int ahead, int *good, int *total, pt_error *err)
{
    pt_video *v;
    pt_video_ahead *a = NULL;
    *good = *total = 0;
    pt_status st = pt_video_open(path, 2, &v, err);
    if (st)
        return st;
    if (ahead && (st = pt_video_ahead_start(v, 2, 16, &a, err))) {
        pt_video_close(v);
        return st;
    }
    for (;;) {
        pt_image *frame;
        double t;
        st = a ? pt_video_ahead_next(a, &frame, &t, err) : pt_video_next(v, 16, &frame, &t, err);
        if (st || !frame)
            break;
        if (*total < FRAMES) {
            pt_image *want = pgm(*total);
            /* Matroska keeps times in milliseconds */
            *good += pt_image_same_pixels(frame, want) && fabs(t - *total / 30.0) <= 0.001;
            pt_image_destroy(want);
        }
        (*total)++;
        pt_image_destroy(frame);
    }
    pt_video_ahead_stop(a);
    pt_video_close(v);
    return st;
}

int main(void)
{
    pt_video *v;
    pt_error err;
    pt_video_quiet();
    pt_status st = pt_video_open(VIDEO, 0, &v, &err);
    if (st == PT_ERR_UNAVAILABLE) {
        printf("SKIP video: %s\n", err.what);
        PT_CHECK(strstr(err.what, "FFmpeg") != NULL, "refusal names FFmpeg: %s", err.what);
        return PT_TEST_SUMMARY("video");
    }
    PT_CHECK(st == PT_OK, "open %s: %s", VIDEO, err.what);
    if (st)
        return PT_TEST_SUMMARY("video");
    pt_video_close(v);

    for (int ahead = 0; ahead < 2; ahead++) {
        int good, total;
        st = read_all(VIDEO, ahead, &good, &total, &err);
        PT_CHECK(st == PT_OK && total == FRAMES && good == FRAMES,
                 "%s: %d frames, %d equal to the PGMs with their times (%s)",
                 ahead ? "ahead" : "direct", total, good, st ? err.what : "ok");
    }

    /* cut after about half its bytes */
    char cut[] = "/tmp/pt-video.XXXXXX";
    int fd = mkstemp(cut);
    FILE *in = fopen(VIDEO, "rb");
    static unsigned char buf[1 << 16];
    size_t n = in ? fread(buf, 1, sizeof buf, in) : 0;
    if (in)
        fclose(in);
    PT_CHECK(fd >= 0 && n > 1000 && write(fd, buf, n * 6 / 10) == (ssize_t)(n * 6 / 10),
             "cannot write the cut video");
    close(fd);
    for (int ahead = 0; ahead < 2; ahead++) {
        int good, total;
        pt_error_clear(&err);
        st = read_all(cut, ahead, &good, &total, &err);
        PT_CHECK(st == PT_ERR_FORMAT && strstr(err.what, "cut short") && total < FRAMES &&
                     good == total,
                 "%s cut video: status %d, %d frames (%d good): '%s'", ahead ? "ahead" : "direct",
                 st, total, good, err.what);
    }
    unlink(cut);

    /* stopped with frames queued and the thread waiting */
    pt_video_ahead *a;
    PT_CHECK(pt_video_open(VIDEO, 0, &v, &err) == PT_OK &&
                 pt_video_ahead_start(v, 2, 16, &a, &err) == PT_OK,
             "start ahead: %s", err.what);
    pt_image *frame;
    double t;
    PT_CHECK(pt_video_ahead_next(a, &frame, &t, &err) == PT_OK && frame, "first frame ahead");
    pt_image_destroy(frame);
    usleep(20000);
    pt_video_ahead_stop(a);
    pt_video_close(v);

    PT_CHECK(pt_video_open("testdata/video/none.mkv", 0, &v, &err) == PT_ERR_IO &&
                 strstr(err.file, "none.mkv"),
             "missing video: %d '%s'", err.status, err.what);
    PT_CHECK(pt_video_path_is_video("a.MKV") && pt_video_path_is_video("b.mp4") &&
                 !pt_video_path_is_video("c.png") && !pt_video_path_is_video("mkv"),
             "video names");
    return PT_TEST_SUMMARY("video");
}
