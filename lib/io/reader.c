/* Reading inputs ahead of the caller (reader.h). The caller's thread plans
 * jobs in input order into a ring: an image file to decode, a stack page to
 * convert or decode, a frame already in place, a video; worker threads take
 * the jobs that need work in ring order, and the caller takes the jobs'
 * frames from the head of the ring, waiting only for a job not yet done. */
#include "lib/io/reader.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "lib/io/frame_gain.h"
#include "lib/io/pt_stack.h"
#include "lib/io/pt_video.h"

#define MAX_THREADS 256

/* A mapped stack, alive while jobs or frames use it. */
typedef struct {
    pt_stack stack;
    int refs;   /* the planner while it plans pages, planned jobs, in-place frames out */
    int pinned;
    double gain; /* of every page, from the first (lib/io/frame_gain.h); 1: pages in place */
} mapped;

typedef enum {
    JOB_FILE,  /* decode the file (pt_image_load) */
    JOB_PAGE,  /* read a stack page that is not in place */
    JOB_READY, /* a frame in place, or an input that failed to open */
    JOB_TOUCH, /* a frame in place whose pages a worker maps in first (touch_in_place) */
    JOB_VIDEO  /* a video, read by the caller's thread */
} job_kind;

typedef struct {
    job_kind kind;
    int input;
    mapped *map; /* JOB_PAGE and in-place JOB_READY */
    long page;
    int in_place;
    int started, done;
    pt_frames frames; /* JOB_FILE's frames; taken: handed on so far */
    int taken;
    pt_image *image; /* JOB_PAGE's frame */
    pt_status status;
    pt_error err;
} job;

struct pt_reader {
    char *const *paths;
    int count;
    pt_load_options opt;
    pt_reader_options ro;
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job that needs work was planned, or stop */
    pthread_cond_t done; /* a job is done */
    pthread_t threads[MAX_THREADS];
    int nthreads, stopping;
    job *ring;
    int window;
    long head, tail, next_work; /* job numbers; ring slot = number % window */
    /* planning: the input being planned and, for a stack, its next page */
    int plan_input;
    mapped *plan_map;
    long plan_page;
    /* the video at the head of the ring, being read */
    pt_video *video;
    pt_video_ahead *video_ahead;
    long video_frame;
    double video_gain; /* of every frame of the video at the head, from its first */
    int video_finished;
    pt_image *ahead_image; /* the video's next frame, read one ahead */
    double ahead_seconds;
    pt_status ahead_status;
    pt_error ahead_err;
    pt_reader_stats stats;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int needs_work(const job *j)
{
    return j->kind == JOB_FILE || j->kind == JOB_PAGE || j->kind == JOB_TOUCH;
}

/* Reads a byte of every page of a frame in place, so that its pages are
 * mapped in (their page faults taken) on this thread. */
static void touch_frame(const pt_image *view)
{
    volatile uint8_t sink = 0;
    size_t bytes = (size_t)(view->height - 1) * (size_t)view->stride + (size_t)view->width;
    const uint8_t *p = view->buf;
    for (size_t o = 0; o < bytes; o += 4096)
        sink ^= p[o];
    sink ^= p[bytes - 1];
    (void)sink;
}

static void run_job(pt_reader *r, job *j)
{
    pt_error_clear(&j->err);
    if (j->kind == JOB_FILE) {
        j->status = pt_image_load(r->paths[j->input], &r->opt, &j->frames, &j->err);
    } else if (j->kind == JOB_TOUCH) {
        pt_image view;
        if (pt_stack_frame_in_place(&j->map->stack, j->page, &view))
            touch_frame(&view);
    } else {
        j->status = pt_stack_read_frame(&j->map->stack, j->page, &r->opt, r->paths[j->input],
                                        &j->image, &j->err);
        if (j->status == PT_OK)
            pt_frame_gain_apply(j->image, j->map->gain);
    }
}

/* The gain of a mapped stack's pages: the first page's (read in place or
 * as a copy), or the one asked for. */
static double stack_gain(pt_reader *r, const mapped *m, const char *path)
{
    if (r->opt.gain >= 1.0)
        return r->opt.gain;
    pt_image view, *first = NULL;
    pt_error err;
    pt_error_clear(&err);
    double gain = 1.0;
    if (pt_stack_frame_in_place(&m->stack, 0, &view))
        gain = pt_frame_gain_auto(&view);
    else if (pt_stack_read_frame(&m->stack, 0, &r->opt, path, &first, &err) == PT_OK) {
        gain = pt_frame_gain_auto(first);
        pt_image_destroy(first);
    }
    return gain;
}

static void *worker(void *arg)
{
    pt_reader *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        /* jobs the caller has taken (in place, or errors) need no worker */
        if (r->next_work < r->head)
            r->next_work = r->head;
        while (!r->stopping && r->next_work < r->tail &&
               !needs_work(&r->ring[r->next_work % r->window]))
            r->next_work++;
        if (r->stopping)
            break;
        if (r->next_work == r->tail) {
            pthread_cond_wait(&r->work, &r->lock);
            continue;
        }
        job *j = &r->ring[r->next_work++ % r->window];
        j->started = 1;
        pthread_mutex_unlock(&r->lock);
        double t0 = now_s();
        run_job(r, j);
        double t = now_s() - t0;
        pthread_mutex_lock(&r->lock);
        r->stats.work_seconds += t;
        j->done = 1;
        pthread_cond_signal(&r->done); /* only the caller waits for it */
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

static int is_tiff_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot && (!strcasecmp(dot, ".tif") || !strcasecmp(dot, ".tiff"));
}

static void unref(pt_reader *r, mapped *m)
{
    if (!m || --m->refs > 0)
        return;
    if (m->pinned && r->ro.unpin) {
        double t0 = now_s();
        r->ro.unpin(r->ro.ctx, m->stack.map);
        r->stats.pin_seconds += now_s() - t0;
    }
    pt_stack_close(&m->stack);
    free(m);
}

/* Opens input i as a stack: 0 and r->plan_map set; 1 when it is to be
 * decoded as a file instead; -1 with j filled as the input's error. */
static int open_stack(pt_reader *r, int i, job *j)
{
    const char *path = r->paths[i];
    int kind = pt_stack_path_kind(path);
    if (!kind && !is_tiff_name(path))
        return 1;
    mapped *m = calloc(1, sizeof *m);
    if (!m) {
        j->status = pt_error_set(&j->err, PT_ERR_NOMEM, path, "out of memory");
        return -1;
    }
    int tiff = 0;
    double t0 = now_s();
    pt_status st = pt_stack_open_file(path, &r->opt, &m->stack, &tiff, &j->err);
    r->stats.open_seconds += now_s() - t0;
    if (st) {
        free(m);
        if (!kind)
            return 1; /* not a TIFF that can be mapped: the libtiff reader says why */
        j->status = st;
        return -1;
    }
    m->refs = 1;
    r->stats.maps++;
    t0 = now_s();
    m->gain = stack_gain(r, m, path);
    r->stats.open_seconds += now_s() - t0;
    pt_image view;
    if (r->ro.pin && m->gain == 1.0 && pt_stack_frame_in_place(&m->stack, 0, &view)) {
        t0 = now_s();
        m->pinned = r->ro.pin(r->ro.ctx, m->stack.map, m->stack.map_size);
        r->stats.pin_seconds += now_s() - t0;
        if (m->pinned)
            r->stats.pinned_bytes += (double)m->stack.map_size;
    }
    r->plan_map = m;
    r->plan_page = 0;
    return 0;
}

/* Fills the ring with jobs up to the window; called by the caller's thread
 * with the lock held (released while a stack is opened). */
static void plan(pt_reader *r)
{
    while (r->tail - r->head < r->window && r->plan_input < r->count) {
        job *j = &r->ring[r->tail % r->window];
        memset(j, 0, sizeof *j);
        j->input = r->plan_input;
        if (r->plan_map) {
            mapped *m = r->plan_map;
            pt_image view;
            j->map = m;
            j->page = r->plan_page;
            m->refs++;
            if (m->gain == 1.0 && pt_stack_frame_in_place(&m->stack, j->page, &view)) {
                j->kind = r->ro.touch_in_place ? JOB_TOUCH : JOB_READY;
                j->in_place = 1;
                j->done = j->kind == JOB_READY;
            } else {
                j->kind = JOB_PAGE;
            }
            if (++r->plan_page == m->stack.count) {
                r->plan_map = NULL;
                r->plan_input++;
                unref(r, m); /* the planner's own reference */
            }
        } else if (pt_video_path_is_video(r->paths[j->input])) {
            j->kind = JOB_VIDEO;
            j->done = 1;
            r->plan_input++;
        } else {
            pthread_mutex_unlock(&r->lock);
            int how = open_stack(r, j->input, j);
            pthread_mutex_lock(&r->lock);
            if (how == 0)
                continue; /* its pages are planned next */
            j->kind = how > 0 ? JOB_FILE : JOB_READY;
            j->done = how < 0;
            r->plan_input++;
        }
        r->tail++;
        if (needs_work(j))
            pthread_cond_signal(&r->work);
    }
}

static char *frame_name(const char *path, long index, long count)
{
    size_t n = strlen(path) + 24;
    char *name = malloc(n);
    if (name) {
        if (count > 1)
            snprintf(name, n, "%s#%ld", path, index);
        else
            snprintf(name, n, "%s", path);
    }
    return name;
}

static void fail_frame(pt_read_frame *f, const pt_error *err, int whole_file)
{
    f->image = NULL;
    f->error = *err;
    f->whole_file = whole_file;
}

/* The video at the head is read one frame ahead, so that its last frame
 * is known to end the input. */
static void video_fetch(pt_reader *r)
{
    r->ahead_image = NULL;
    r->ahead_seconds = NAN;
    pt_error_clear(&r->ahead_err);
    r->ahead_status =
        pt_video_ahead_next(r->video_ahead, &r->ahead_image, &r->ahead_seconds, &r->ahead_err);
}

/* The next frame of the video at the head: 1 with f filled, 0 at its end. */
static int next_video_frame(pt_reader *r, const job *j, pt_read_frame *f)
{
    const char *path = r->paths[j->input];
    if (r->video_finished)
        return 0;
    if (!r->video) {
        pt_error err;
        pt_error_clear(&err);
        r->video_frame = 0;
        if (pt_video_open(path, 0, &r->video, &err) ||
            pt_video_ahead_start(r->video, r->window, r->opt.significant_bits, &r->video_ahead,
                                 &err)) {
            pt_video_close(r->video);
            r->video = NULL;
            r->video_finished = 1;
            f->name = frame_name(path, 0, 1);
            fail_frame(f, &err, 1);
            f->ends_input = 1;
            return 1;
        }
        video_fetch(r);
    }
    f->name = frame_name(path, r->video_frame++, 2);
    if (r->ahead_status) {
        fail_frame(f, &r->ahead_err, 1); /* the file as a whole is said to end */
        f->ends_input = 1;
        r->video_finished = 1;
        return 1;
    }
    if (!r->ahead_image) {
        free(f->name);
        f->name = NULL;
        r->video_finished = 1;
        return 0; /* a video without frames */
    }
    if (r->video_frame == 1)
        r->video_gain = pt_frame_gain_resolve(&r->opt, r->ahead_image);
    pt_frame_gain_apply(r->ahead_image, r->video_gain);
    f->image = r->ahead_image;
    f->seconds = r->ahead_seconds;
    r->stats.decoded++;
    video_fetch(r);
    f->ends_input = !r->ahead_status && !r->ahead_image;
    return 1;
}

static void end_video(pt_reader *r)
{
    if (r->video) {
        pt_video_ahead_stop(r->video_ahead);
        pt_video_close(r->video);
    }
    if (r->ahead_image)
        pt_image_destroy(r->ahead_image);
    r->ahead_image = NULL;
    r->video_ahead = NULL;
    r->video = NULL;
    r->video_finished = 0;
}

int pt_reader_next(pt_reader *r, pt_read_frame *f)
{
    memset(f, 0, sizeof *f);
    f->seconds = NAN;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        plan(r);
        if (r->head == r->tail) {
            pthread_mutex_unlock(&r->lock);
            return 0;
        }
        job *j = &r->ring[r->head % r->window];
        if (!j->done) {
            pthread_cond_wait(&r->done, &r->lock);
            continue;
        }
        const char *path = r->paths[j->input];
        if (j->kind == JOB_VIDEO) {
            pthread_mutex_unlock(&r->lock);
            int got = next_video_frame(r, j, f);
            pthread_mutex_lock(&r->lock);
            if (!got) {
                end_video(r);
                r->head++;
                continue;
            }
            if (f->ends_input) {
                end_video(r);
                r->head++;
            }
        } else if (j->kind == JOB_FILE) {
            if (j->status) {
                f->name = frame_name(path, 0, 1);
                fail_frame(f, &j->err, 1);
                f->ends_input = 1;
                r->head++;
            } else {
                int p = j->taken++;
                f->name = frame_name(path, p, j->frames.count);
                f->image = j->frames.frames[p];
                j->frames.frames[p] = NULL;
                if (!f->image)
                    fail_frame(f, &j->frames.page_errors[p], 0);
                f->ends_input = j->taken == j->frames.count;
                if (f->ends_input) {
                    pt_frames_free(&j->frames);
                    r->head++;
                }
                if (f->image)
                    r->stats.decoded++;
            }
        } else {
            mapped *m = j->map;
            long count = m ? m->stack.count : 1;
            f->name = frame_name(path, j->page, count);
            f->ends_input = !m || j->page == count - 1;
            if (!m) {
                fail_frame(f, &j->err, 1);
            } else if (j->in_place) {
                pt_image *view = malloc(sizeof *view);
                if (view && pt_stack_frame_in_place(&m->stack, j->page, view)) {
                    f->image = view;
                    f->in_place = 1;
                    f->owner = m;
                    m = NULL; /* its reference goes with the frame */
                    r->stats.in_place++;
                } else {
                    free(view);
                    pt_error_set(&j->err, PT_ERR_NOMEM, path, "out of memory");
                    fail_frame(f, &j->err, 0);
                }
            } else if (j->status) {
                fail_frame(f, &j->err, count == 1);
            } else {
                f->image = j->image;
                if (m->stack.pages && m->stack.pages[j->page].read == PT_PAGE_LIBTIFF)
                    r->stats.decoded++;
                else
                    r->stats.converted++;
            }
            unref(r, m);
            r->head++;
        }
        if (!f->image)
            r->stats.errors++;
        r->stats.frames++;
        pthread_mutex_unlock(&r->lock);
        return 1;
    }
}

void pt_reader_release(pt_reader *r, pt_read_frame *f)
{
    if (f->in_place) {
        free(f->image);
        pthread_mutex_lock(&r->lock);
        unref(r, f->owner);
        pthread_mutex_unlock(&r->lock);
    } else {
        pt_image_destroy(f->image);
    }
    free(f->name);
    f->image = NULL;
    f->name = NULL;
    f->owner = NULL;
    f->in_place = 0;
}

pt_status pt_reader_open(char *const *paths, int count, const pt_load_options *opt,
                         const pt_reader_options *ro, pt_reader **out, pt_error *err)
{
    *out = NULL;
    pt_reader *r = calloc(1, sizeof *r);
    if (!r)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the reader");
    r->paths = paths;
    r->count = count;
    r->opt = *opt;
    r->ro = *ro;
    r->window = ro->ahead > 0 ? ro->ahead : 64;
    r->ring = calloc((size_t)r->window, sizeof *r->ring);
    int threads = ro->threads > 0 ? ro->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->work, NULL);
    pthread_cond_init(&r->done, NULL);
    if (!r->ring) {
        pt_reader_close(r);
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the reader");
    }
    for (int t = 0; t < threads; t++) {
        if (pthread_create(&r->threads[t], NULL, worker, r))
            break;
        r->nthreads++;
    }
    if (r->nthreads == 0) {
        pt_reader_close(r);
        return pt_error_set(err, PT_ERR_INTERNAL, "", "cannot start a reading thread");
    }
    r->stats.threads = r->nthreads;
    *out = r;
    return PT_OK;
}

void pt_reader_stats_get(pt_reader *r, pt_reader_stats *st)
{
    pthread_mutex_lock(&r->lock);
    *st = r->stats;
    pthread_mutex_unlock(&r->lock);
}

void pt_reader_close(pt_reader *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->stopping = 1;
    pthread_cond_broadcast(&r->work);
    pthread_mutex_unlock(&r->lock);
    for (int t = 0; t < r->nthreads; t++)
        pthread_join(r->threads[t], NULL);
    end_video(r);
    /* jobs planned but not taken */
    for (long n = r->head; n < r->tail; n++) {
        job *j = &r->ring[n % r->window];
        pt_frames_free(&j->frames);
        pt_image_destroy(j->image);
        unref(r, j->map);
    }
    unref(r, r->plan_map);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->work);
    pthread_cond_destroy(&r->done);
    free(r->ring);
    free(r);
}
