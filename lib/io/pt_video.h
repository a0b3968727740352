/* Video input through FFmpeg's libraries (libavformat, libavcodec,
 * libswscale): frames decoded in order as 8-bit grey, frame i of FILE named
 * FILE#i. A build without those libraries refuses video with
 * PT_ERR_UNAVAILABLE (pupiltrack(1), IMAGES). */
#ifndef PT_VIDEO_H
#define PT_VIDEO_H

#include "lib/io/pt_image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pt_video pt_video;

/* The name ends in .mp4, .avi, .mkv or .mov (any case). */
int pt_video_path_is_video(const char *path);

/* Open FILE's best video stream; threads decode it ahead (0: FFmpeg's choice). */
pt_status pt_video_open(const char *path, int threads, pt_video **out, pt_error *err);
/* The next frame (16-bit grey reduced as significant_bits says) and its
 * presentation time in seconds (NAN when the container gives none). PT_OK
 * with *frame NULL at the end; an error when the file cannot be read or
 * decoded further, the frames returned before it being good. */
pt_status pt_video_next(pt_video *v, int significant_bits, pt_image **frame, double *seconds,
                        pt_error *err);
void pt_video_close(pt_video *v);

/* Decoding ahead (video_ahead.c): a thread reads v's frames into a queue of
 * up to depth frames while the caller works. pt_video_ahead_next gives them
 * in order as pt_video_next would (the frame's ownership passes to the
 * caller), then the end, or the error once. Stop before closing v. */
typedef struct pt_video_ahead pt_video_ahead;
pt_status pt_video_ahead_start(pt_video *v, int depth, int significant_bits,
                               pt_video_ahead **out, pt_error *err);
pt_status pt_video_ahead_next(pt_video_ahead *a, pt_image **frame, double *seconds,
                              pt_error *err);
void pt_video_ahead_stop(pt_video_ahead *a);

/* All frames (or only opt->page) as pt_image_load gives them. */
pt_status pt_video_load(const char *path, const pt_load_options *opt, pt_frames *out,
                        pt_error *err);

/* Keep FFmpeg's own messages off stderr (the caller reports errors itself). */
void pt_video_quiet(void);

#ifdef __cplusplus
}
#endif

#endif
