/* FFmpeg's libraries, loaded when the first video is opened rather than when
 * the program starts: a run that reads no video does not pay for loading
 * them and the libraries they need (pupiltrack(1), IMAGES). Only
 * lib/io/video_ffmpeg.c uses this table. */
#ifndef PT_FFMPEG_LIB_H
#define PT_FFMPEG_LIB_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "lib/core/pt_error.h"

/* The functions the video reader calls, by their FFmpeg names. */
typedef struct {
    __typeof__(av_strerror) *av_strerror;
    __typeof__(av_mallocz) *av_mallocz;
    __typeof__(av_free) *av_free;
    __typeof__(av_log_set_level) *av_log_set_level;
    __typeof__(av_get_pix_fmt_name) *av_get_pix_fmt_name;
    __typeof__(av_frame_alloc) *av_frame_alloc;
    __typeof__(av_frame_free) *av_frame_free;
    __typeof__(av_frame_unref) *av_frame_unref;
    __typeof__(av_packet_alloc) *av_packet_alloc;
    __typeof__(av_packet_free) *av_packet_free;
    __typeof__(av_packet_unref) *av_packet_unref;
    __typeof__(avcodec_alloc_context3) *avcodec_alloc_context3;
    __typeof__(avcodec_free_context) *avcodec_free_context;
    __typeof__(avcodec_parameters_to_context) *avcodec_parameters_to_context;
    __typeof__(avcodec_open2) *avcodec_open2;
    __typeof__(avcodec_send_packet) *avcodec_send_packet;
    __typeof__(avcodec_receive_frame) *avcodec_receive_frame;
    __typeof__(avformat_open_input) *avformat_open_input;
    __typeof__(avformat_find_stream_info) *avformat_find_stream_info;
    __typeof__(avformat_close_input) *avformat_close_input;
    __typeof__(av_find_best_stream) *av_find_best_stream;
    __typeof__(av_read_frame) *av_read_frame;
    __typeof__(sws_getCachedContext) *sws_getCachedContext;
    __typeof__(sws_getCoefficients) *sws_getCoefficients;
    __typeof__(sws_setColorspaceDetails) *sws_setColorspaceDetails;
    __typeof__(sws_scale) *sws_scale;
    __typeof__(sws_freeContext) *sws_freeContext;
} pt_ffmpeg;

/* The table, the libraries loaded on the first call (any thread; later
 * calls return the same table). NULL where they cannot be loaded, err then
 * naming path and the library that failed (PT_ERR_UNAVAILABLE). */
const pt_ffmpeg *pt_ffmpeg_get(const char *path, pt_error *err);

/* FFmpeg's log off, now if the libraries are loaded, else when they are. */
void pt_ffmpeg_quiet(void);

#endif
