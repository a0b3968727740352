/* Video frames through FFmpeg (pt_video.h): the container's best video
 * stream, decoded on the codec's own threads ahead of the caller, each frame
 * converted to 8-bit grey: grey frames are copied (16-bit reduced as --bits
 * says), others converted by libswscale to full-range luma. */
#include "lib/io/pt_video.h"

#include <math.h>
#include <string.h>

#include "lib/io/ffmpeg_lib.h"
#include "lib/io/image_decode.h"

struct pt_video {
    const pt_ffmpeg *av; /* FFmpeg's functions (lib/io/ffmpeg_lib.h) */
    char path[512];
    AVFormatContext *format;
    AVCodecContext *codec;
    int stream;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *sws;
    int flushing; /* the file is read to its end; the decoder gives what it holds */
    int done;
    long frames; /* returned so far */
};

static pt_status av_fail(pt_video *v, pt_error *err, pt_status status, const char *what, int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    v->av->av_strerror(code, text, sizeof text);
    v->done = 1;
    return pt_error_set(err, status, v->path, "%s after %ld frames: %s", what, v->frames, text);
}

void pt_video_close(pt_video *v)
{
    if (!v)
        return;
    const pt_ffmpeg *av = v->av;
    av->sws_freeContext(v->sws);
    av->av_frame_free(&v->frame);
    av->av_packet_free(&v->packet);
    av->avcodec_free_context(&v->codec);
    av->avformat_close_input(&v->format);
    av->av_free(v);
}

void pt_video_quiet(void) { pt_ffmpeg_quiet(); }

pt_status pt_video_open(const char *path, int threads, pt_video **out, pt_error *err)
{
    *out = NULL;
    const pt_ffmpeg *av = pt_ffmpeg_get(path, err);
    if (!av)
        return err->status;
    pt_video *v = av->av_mallocz(sizeof *v);
    if (!v)
        return pt_error_set(err, PT_ERR_NOMEM, path, "out of memory");
    v->av = av;
    snprintf(v->path, sizeof v->path, "%s", path);
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    int rc = v->av->avformat_open_input(&v->format, path, NULL, NULL);
    if (rc < 0) {
        v->av->av_strerror(rc, text, sizeof text);
        pt_video_close(v);
        return pt_error_set(err, rc == AVERROR(ENOENT) ? PT_ERR_IO : PT_ERR_FORMAT, path,
                            "cannot open the video: %s", text);
    }
    if ((rc = v->av->avformat_find_stream_info(v->format, NULL)) < 0) {
        v->av->av_strerror(rc, text, sizeof text);
        pt_video_close(v);
        return pt_error_set(err, PT_ERR_FORMAT, path, "cannot read the video's streams: %s",
                            text);
    }
    const AVCodec *decoder = NULL;
    v->stream = v->av->av_find_best_stream(v->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (v->stream < 0 || !decoder) {
        int no_decoder = v->stream == AVERROR_DECODER_NOT_FOUND;
        pt_video_close(v);
        return pt_error_set(err, PT_ERR_FORMAT, path, "%s",
                            no_decoder ? "no decoder for the video's codec in this FFmpeg"
                                       : "the file holds no video stream");
    }
    AVStream *stream = v->format->streams[v->stream];
    if (!(v->codec = v->av->avcodec_alloc_context3(decoder)) ||
        v->av->avcodec_parameters_to_context(v->codec, stream->codecpar) < 0 ||
        !(v->packet = v->av->av_packet_alloc()) || !(v->frame = v->av->av_frame_alloc())) {
        pt_video_close(v);
        return pt_error_set(err, PT_ERR_NOMEM, path, "out of memory for the decoder");
    }
    v->codec->thread_count = threads > 0 ? threads : 0;
    v->codec->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
    /* Damage is an error, not concealed: checksums where the codec has them
     * (FFV1 level 3, ...), and the decoders stop at what they detect. */
    v->codec->err_recognition |= AV_EF_CRCCHECK | AV_EF_EXPLODE;
    if ((rc = v->av->avcodec_open2(v->codec, decoder, NULL)) < 0) {
        v->av->av_strerror(rc, text, sizeof text);
        pt_video_close(v);
        return pt_error_set(err, PT_ERR_FORMAT, path, "cannot start the %s decoder: %s",
                            decoder->name, text);
    }
    *out = v;
    return PT_OK;
}

/* The decoded frame as 8-bit grey. */
static pt_status to_grey(pt_video *v, const AVFrame *f, int significant_bits, pt_image **out,
                         pt_error *err)
{
    pt_status st = pt_image_check_size(f->width, f->height, v->path, err);
    if (st)
        return st;
    pt_image *img = pt_image_create(f->width, f->height);
    if (!img)
        return pt_error_set(err, PT_ERR_NOMEM, v->path, "out of memory for a %dx%d frame",
                            f->width, f->height);
    enum AVPixelFormat fmt = f->format;
    if (fmt == AV_PIX_FMT_GRAY8) {
        for (int y = 0; y < f->height; y++)
            memcpy(img->buf + (size_t)img->stride * y, f->data[0] + (ptrdiff_t)f->linesize[0] * y,
                   (size_t)f->width);
    } else if (fmt == AV_PIX_FMT_GRAY16LE || fmt == AV_PIX_FMT_GRAY16BE) {
        pt_row_format rf = {.samples = 1,
                            .bits = 16,
                            .big_endian = fmt == AV_PIX_FMT_GRAY16BE,
                            .shift = significant_bits - 8};
        for (int y = 0; y < f->height; y++)
            pt_row_to_grey(f->data[0] + (ptrdiff_t)f->linesize[0] * y, &rf, f->width,
                           img->buf + (size_t)img->stride * y);
    } else {
        v->sws = v->av->sws_getCachedContext(v->sws, f->width, f->height, fmt, f->width, f->height,
                                      AV_PIX_FMT_GRAY8, SWS_POINT, NULL, NULL, NULL);
        if (!v->sws) {
            pt_image_destroy(img);
            const char *name = v->av->av_get_pix_fmt_name(fmt);
            return pt_error_set(err, PT_ERR_FORMAT, v->path,
                                "cannot convert %s frames to grey", name ? name : "these");
        }
        /* limited-range luma (16..235) is stretched to 0..255 */
        int full = f->color_range == AVCOL_RANGE_JPEG || fmt == AV_PIX_FMT_YUVJ420P ||
                   fmt == AV_PIX_FMT_YUVJ422P || fmt == AV_PIX_FMT_YUVJ444P;
        const int *coef = v->av->sws_getCoefficients(SWS_CS_DEFAULT);
        v->av->sws_setColorspaceDetails(v->sws, coef, full, coef, 1, 0, 1 << 16, 1 << 16);
        uint8_t *dst[4] = {img->buf, NULL, NULL, NULL};
        int dst_stride[4] = {img->stride, 0, 0, 0};
        v->av->sws_scale(v->sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, dst,
                  dst_stride);
    }
    *out = img;
    return PT_OK;
}

/* At the end: fewer frames than the container announces means the file was
 * cut short. Announced: the stream's frame count where the container keeps
 * one (MP4, AVI), else its duration times the average frame rate (Matroska),
 * allowing a frame and 1 % for variable frame rates. */
static pt_status check_complete(pt_video *v, pt_error *err)
{
    const AVStream *s = v->format->streams[v->stream];
    long expected = 0, slack = 0;
    if (s->nb_frames > 0) {
        expected = (long)s->nb_frames;
    } else if (v->format->duration != AV_NOPTS_VALUE && v->format->duration > 0 &&
               s->avg_frame_rate.num > 0 && s->avg_frame_rate.den > 0) {
        double frames = (double)v->format->duration / AV_TIME_BASE * av_q2d(s->avg_frame_rate);
        expected = lround(frames);
        slack = 1 + expected / 100;
    }
    if (expected && v->frames + slack < expected)
        return pt_error_set(err, PT_ERR_FORMAT, v->path,
                            "the video ends after %ld of the %ld frames it announces "
                            "(cut short?)",
                            v->frames, expected);
    return PT_OK;
}

pt_status pt_video_next(pt_video *v, int significant_bits, pt_image **frame, double *seconds,
                        pt_error *err)
{
    *frame = NULL;
    *seconds = NAN;
    while (!v->done) {
        int rc = v->av->avcodec_receive_frame(v->codec, v->frame);
        if (rc == 0) {
            if (v->frame->decode_error_flags || (v->frame->flags & AV_FRAME_FLAG_CORRUPT)) {
                v->av->av_frame_unref(v->frame);
                v->done = 1;
                return pt_error_set(err, PT_ERR_FORMAT, v->path,
                                    "frame %ld is damaged; the video is read up to it", v->frames);
            }
            AVStream *s = v->format->streams[v->stream];
            if (v->frame->best_effort_timestamp != AV_NOPTS_VALUE)
                *seconds = (double)v->frame->best_effort_timestamp * av_q2d(s->time_base);
            pt_status st = to_grey(v, v->frame, significant_bits, frame, err);
            v->av->av_frame_unref(v->frame);
            if (st) {
                v->done = 1;
                return st;
            }
            v->frames++;
            return PT_OK;
        }
        if (rc == AVERROR_EOF) {
            v->done = 1;
            return check_complete(v, err);
        }
        if (rc != AVERROR(EAGAIN))
            return av_fail(v, err, PT_ERR_FORMAT, "cannot decode the video", rc);
        if (v->flushing)
            return av_fail(v, err, PT_ERR_FORMAT, "the decoder stopped", rc);
        /* the decoder wants input: the next packet of the stream, or the end */
        rc = v->av->av_read_frame(v->format, v->packet);
        if (rc == AVERROR_EOF) {
            v->flushing = 1;
            rc = v->av->avcodec_send_packet(v->codec, NULL);
        } else if (rc < 0) {
            return av_fail(v, err, PT_ERR_IO, "cannot read the video", rc);
        } else {
            if (v->packet->stream_index == v->stream)
                rc = v->av->avcodec_send_packet(v->codec, v->packet);
            v->av->av_packet_unref(v->packet);
        }
        if (rc < 0 && rc != AVERROR_EOF)
            return av_fail(v, err, PT_ERR_FORMAT, "cannot decode the video", rc);
    }
    return PT_OK;
}
