/* FFmpeg's libraries loaded on first use (lib/io/ffmpeg_lib.h): the major
 * versions this program was built against, by their sonames, so that a
 * library of another major version (another ABI) is never picked up. The
 * table is process-wide, as the libraries are; it is filled once. */
#include "lib/io/ffmpeg_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static const char *const sonames[] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
};
enum { AVUTIL, SWSCALE, AVCODEC, AVFORMAT, LIBS };

typedef struct {
    pthread_once_t once;
    pt_ffmpeg table;
    atomic_int loaded;
    char why[400];
    atomic_int quiet;
} ffmpeg_state;

static ffmpeg_state state = {.once = PTHREAD_ONCE_INIT};

/* Each symbol from its own library, or the first that is missing. */
static int find(void *lib, const char *lib_name, const char *name, void **fn)
{
    *fn = dlsym(lib, name);
    if (!*fn)
        snprintf(state.why, sizeof state.why, "%s lacks %s", lib_name, name);
    return *fn != NULL;
}

#define FIND(lib, name) find(libs[lib], sonames[lib], #name, (void **)&t->name)

static void load(void)
{
    void *libs[LIBS];
    for (int k = 0; k < LIBS; k++) {
        libs[k] = dlopen(sonames[k], RTLD_NOW | RTLD_LOCAL);
        if (!libs[k]) {
            const char *e = dlerror();
            snprintf(state.why, sizeof state.why, "%s", e ? e : sonames[k]);
            return;
        }
    }
    pt_ffmpeg *t = &state.table;
    int ok = FIND(AVUTIL, av_strerror) && FIND(AVUTIL, av_mallocz) && FIND(AVUTIL, av_free) &&
             FIND(AVUTIL, av_log_set_level) && FIND(AVUTIL, av_get_pix_fmt_name) &&
             FIND(AVUTIL, av_frame_alloc) && FIND(AVUTIL, av_frame_free) &&
             FIND(AVUTIL, av_frame_unref) && FIND(AVCODEC, av_packet_alloc) &&
             FIND(AVCODEC, av_packet_free) && FIND(AVCODEC, av_packet_unref) &&
             FIND(AVCODEC, avcodec_alloc_context3) && FIND(AVCODEC, avcodec_free_context) &&
             FIND(AVCODEC, avcodec_parameters_to_context) && FIND(AVCODEC, avcodec_open2) &&
             FIND(AVCODEC, avcodec_send_packet) && FIND(AVCODEC, avcodec_receive_frame) &&
             FIND(AVFORMAT, avformat_open_input) && FIND(AVFORMAT, avformat_find_stream_info) &&
             FIND(AVFORMAT, avformat_close_input) && FIND(AVFORMAT, av_find_best_stream) &&
             FIND(AVFORMAT, av_read_frame) && FIND(SWSCALE, sws_getCachedContext) &&
             FIND(SWSCALE, sws_getCoefficients) && FIND(SWSCALE, sws_setColorspaceDetails) &&
             FIND(SWSCALE, sws_scale) && FIND(SWSCALE, sws_freeContext);
    if (!ok)
        return;
    /* pt_ffmpeg_quiet may run meanwhile: it sets quiet, then reads loaded;
     * this sets loaded, then reads quiet, so one of the two sees the other */
    atomic_store(&state.loaded, 1);
    if (atomic_load(&state.quiet))
        t->av_log_set_level(AV_LOG_QUIET);
}

const pt_ffmpeg *pt_ffmpeg_get(const char *path, pt_error *err)
{
    pthread_once(&state.once, load);
    if (atomic_load(&state.loaded))
        return &state.table;
    pt_error_set(err, PT_ERR_UNAVAILABLE, path,
                 "cannot read video: FFmpeg's libraries cannot be loaded (%s); install "
                 "the FFmpeg libraries this pupiltrack was built with",
                 state.why);
    return NULL;
}

void pt_ffmpeg_quiet(void)
{
    atomic_store(&state.quiet, 1);
    if (atomic_load(&state.loaded))
        state.table.av_log_set_level(AV_LOG_QUIET);
}
