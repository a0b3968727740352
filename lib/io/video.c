/* What video input needs with or without FFmpeg: which names are videos, and
 * a whole video as pt_image_load gives frames (bench, sweep). The decoder is
 * video_ffmpeg.c, or video_none.c in a build without FFmpeg. */
#include "lib/io/pt_video.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "lib/io/image_decode.h"

int pt_video_path_is_video(const char *path)
{
    static const char *const exts[] = {".mp4", ".avi", ".mkv", ".mov"};
    const char *dot = path ? strrchr(path, '.') : NULL;
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (!strcasecmp(dot, exts[i]))
            return 1;
    return 0;
}

pt_status pt_video_load(const char *path, const pt_load_options *opt, pt_frames *out,
                        pt_error *err)
{
    out->count = 0;
    out->frames = NULL;
    out->page_errors = NULL;
    pt_video *v;
    pt_status st = pt_video_open(path, 0, &v, err);
    if (st)
        return st;
    for (long i = 0;; i++) {
        pt_image *frame;
        double t;
        if ((st = pt_video_next(v, opt->significant_bits, &frame, &t, err)) || !frame)
            break;
        if (opt->page >= 0 && i != opt->page) {
            pt_image_destroy(frame);
            continue;
        }
        if ((st = pt_frames_append(out, frame, path, err)) || opt->page >= 0)
            break;
    }
    pt_video_close(v);
    if (!st && out->count == 0)
        st = opt->page >= 0
                 ? pt_error_set(err, PT_ERR_PARAM, path, "the video has no frame %d", opt->page)
                 : pt_error_set(err, PT_ERR_FORMAT, path, "the video holds no frame");
    if (st)
        pt_frames_free(out);
    return st;
}
