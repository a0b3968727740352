/* Decoding a video ahead of its reader (pt_video.h): one thread calls
 * pt_video_next and queues up to `depth` frames, so that the decoder works
 * while the caller's detector works on the frames before. */
#include "lib/io/pt_video.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

typedef struct {
    pt_image *frame; /* NULL: the end, or the error below */
    double seconds;
} queued_frame;

struct pt_video_ahead {
    pt_video *video;
    int significant_bits;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    queued_frame *ring;
    int depth, head, count;
    int finished; /* the thread queued its last item: the end or an error */
    int stop;     /* the reader has gone */
    pt_status status;
    pt_error err;
};

static void *decode_ahead(void *arg)
{
    pt_video_ahead *a = arg;
    for (;;) {
        pthread_mutex_lock(&a->lock);
        while (a->count == a->depth && !a->stop)
            pthread_cond_wait(&a->changed, &a->lock);
        int stop = a->stop;
        pthread_mutex_unlock(&a->lock);
        if (stop)
            break;
        queued_frame q = {NULL, NAN};
        pt_error err;
        pt_error_clear(&err);
        pt_status st = pt_video_next(a->video, a->significant_bits, &q.frame, &q.seconds, &err);
        pthread_mutex_lock(&a->lock);
        if (st || !q.frame) {
            a->status = st;
            a->err = err;
            a->finished = 1;
        } else {
            a->ring[(a->head + a->count) % a->depth] = q;
            a->count++;
        }
        int finished = a->finished;
        pthread_cond_broadcast(&a->changed);
        pthread_mutex_unlock(&a->lock);
        if (finished)
            break;
    }
    return NULL;
}

pt_status pt_video_ahead_start(pt_video *video, int depth, int significant_bits,
                               pt_video_ahead **out, pt_error *err)
{
    *out = NULL;
    pt_video_ahead *a = calloc(1, sizeof *a);
    if (!a || depth < 1 || !(a->ring = calloc((size_t)depth, sizeof *a->ring))) {
        free(a);
        return pt_error_set(err, depth < 1 ? PT_ERR_PARAM : PT_ERR_NOMEM, "",
                            "cannot queue %d frames ahead", depth);
    }
    a->video = video;
    a->depth = depth;
    a->significant_bits = significant_bits;
    pthread_mutex_init(&a->lock, NULL);
    pthread_cond_init(&a->changed, NULL);
    if (pthread_create(&a->thread, NULL, decode_ahead, a)) {
        pthread_cond_destroy(&a->changed);
        pthread_mutex_destroy(&a->lock);
        free(a->ring);
        free(a);
        return pt_error_set(err, PT_ERR_NOMEM, "", "cannot start the decoding thread");
    }
    *out = a;
    return PT_OK;
}

pt_status pt_video_ahead_next(pt_video_ahead *a, pt_image **frame, double *seconds,
                              pt_error *err)
{
    *frame = NULL;
    *seconds = NAN;
    pthread_mutex_lock(&a->lock);
    while (a->count == 0 && !a->finished)
        pthread_cond_wait(&a->changed, &a->lock);
    pt_status st = PT_OK;
    if (a->count) {
        *frame = a->ring[a->head].frame;
        *seconds = a->ring[a->head].seconds;
        a->head = (a->head + 1) % a->depth;
        a->count--;
        pthread_cond_broadcast(&a->changed);
    } else if (a->status) {
        /* the error once; then the end */
        st = a->status;
        *err = a->err;
        a->status = PT_OK;
    }
    pthread_mutex_unlock(&a->lock);
    return st;
}

void pt_video_ahead_stop(pt_video_ahead *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&a->lock);
    a->stop = 1;
    pthread_cond_broadcast(&a->changed);
    pthread_mutex_unlock(&a->lock);
    pthread_join(a->thread, NULL);
    for (int i = 0; i < a->count; i++)
        pt_image_destroy(a->ring[(a->head + i) % a->depth].frame);
    pthread_cond_destroy(&a->changed);
    pthread_mutex_destroy(&a->lock);
    free(a->ring);
    free(a);
}
