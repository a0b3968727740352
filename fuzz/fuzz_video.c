/* libFuzzer target for the video reader (pt_video.h): any byte string, handed
 * to FFmpeg as a file, must give frames and then an end or one error with a
 * reason. In a build without FFmpeg every input is refused with a reason. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/io/pt_video.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    if (!quiet) {
        pt_video_quiet();
        quiet = 1;
    }
    int fd = memfd_create("fuzz-video", 0);
    if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size)) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    pt_video *v;
    pt_error err;
    pt_error_clear(&err);
    if (pt_video_open(path, 1, &v, &err) == PT_OK) {
        for (int i = 0; i < 16; i++) {
            pt_image *frame;
            double t;
            pt_error_clear(&err);
            if (pt_video_next(v, 8 + i % 9, &frame, &t, &err)) {
                if (err.what[0] == '\0')
                    abort(); /* an error must say why */
                break;
            }
            if (!frame)
                break;
            /* touch the last pixel so a short buffer would be caught by ASan */
            if (frame->buf[(size_t)(frame->height - 1) * frame->stride + frame->width - 1] == 0x5a)
                err.what[0] = 'x';
            pt_image_destroy(frame);
        }
        pt_video_close(v);
    } else if (err.what[0] == '\0') {
        abort();
    }
    close(fd);
    return 0;
}
