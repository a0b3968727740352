/* A build without FFmpeg's libraries: video is refused, saying why. */
#include "lib/io/pt_video.h"

#include <stddef.h>

#define WHY "this pupiltrack was built without FFmpeg's libraries; install " \
            "libavformat-dev libavcodec-dev libavutil-dev libswscale-dev and rebuild"

pt_status pt_video_open(const char *path, int threads, pt_video **out, pt_error *err)
{
    (void)threads;
    *out = NULL;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, path, "cannot read video: " WHY);
}

pt_status pt_video_next(pt_video *v, int significant_bits, pt_image **frame, double *seconds,
                        pt_error *err)
{
    (void)v;
    (void)significant_bits;
    (void)seconds;
    *frame = NULL;
    return pt_error_set(err, PT_ERR_UNAVAILABLE, "", "cannot read video: " WHY);
}

void pt_video_close(pt_video *v) { (void)v; }

void pt_video_quiet(void) {}
