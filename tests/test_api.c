/* The C interface of pupiltrack.h (pupiltrack(3)): results as the back end
 * gives them, frames with any stride, 16-bit frames, batches, binocular
 * frames, errors as values, independent detectors on two threads. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/api/pupiltrack.h"
#include "lib/synth/synth.h"
#include "pt_test.h"

#define FRAMES 4

static pt_image *render(int width, int height, int binocular, uint64_t seed)
{
    pt_synth_params sp;
    pt_synth_params_default(&sp);
    sp.width = width;
    sp.height = height;
    sp.binocular = binocular;
    pt_image *img = pt_image_create(width, height);
    pt_synth_frame_truth truth;
    pt_error err;
    if (!img || pt_synth_render(&sp, seed, img, &truth, &err)) {
        fprintf(stderr, "cannot render a synthetic frame\n");
        exit(1);
    }
    return img;
}

static int same_pupil(const pt_pupil *a, const pt_pupil *b)
{
    return a->status == b->status && a->eye == b->eye && a->has_circle == b->has_circle &&
           a->has_ellipse == b->has_ellipse && a->cx == b->cx && a->cy == b->cy &&
           a->radius == b->radius && a->ellipse_a == b->ellipse_a &&
           a->ellipse_theta == b->ellipse_theta && a->confidence == b->confidence;
}

static pt_detector *open_or_die(const char *alg, const char *const *params, int n)
{
    pt_detector *d;
    char msg[256];
    if (pt_detector_open(&d, alg, "omp", params, n, msg, sizeof msg) != PT_API_OK) {
        fprintf(stderr, "open %s: %s\n", alg, msg);
        exit(1);
    }
    return d;
}

/* What the omp back end itself gives for the frame. */
static void backend_result(const pt_image *img, pt_algorithm alg, int ellipse, pt_result *out)
{
    pt_config cfg;
    pt_config_default(&cfg);
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = alg;
    opt.ellipse = ellipse;
    opt.threads = 1;
    const pt_backend *b = pt_track_backend("omp");
    void *state;
    pt_error err;
    pt_image *frames[1] = {(pt_image *)img};
    if (b->create(&cfg, &opt, img->width, img->height, &state, &err) ||
        b->track(state, frames, 1, out, NULL, &err)) {
        fprintf(stderr, "omp back end: %s\n", err.what);
        exit(1);
    }
    b->destroy(state);
}

static void test_same_as_backend(void)
{
    static const char *const algs[] = {"starburst", "tl", "hough"};
    static const pt_algorithm ids[] = {PT_ALG_STARBURST, PT_ALG_TL, PT_ALG_HOUGH};
    pt_image *img = render(160, 128, 0, 11);
    for (int a = 0; a < 3; a++) {
        const char *params[] = {"ellipse=1", "threads=1"};
        pt_detector *d = open_or_die(algs[a], params, 2);
        pt_result want;
        backend_result(img, ids[a], 1, &want);
        pt_pupil got;
        PT_CHECK(pt_detector_detect(d, img->buf, img->width, img->height, (size_t)img->stride,
                                    8) == PT_API_OK,
                 "%s: detect: %s", algs[a], pt_detector_message(d));
        PT_CHECK(pt_detector_result(d, 0, 0, &got) == PT_API_OK, "%s: result", algs[a]);
        PT_CHECK((int)got.status == (int)want.status && got.has_ellipse == want.has_ellipse &&
                     got.ellipse_a == want.ellipse.a && got.ellipse_cx == want.ellipse.cx &&
                     got.confidence == want.confidence,
                 "%s: the interface's result differs from the back end's", algs[a]);
        PT_CHECK(got.status == PT_PUPIL_FOUND, "%s: pupil not found", algs[a]);
        pt_detector_close(d);
    }
    pt_image_destroy(img);
}

/* A padded stride, a 16-bit copy (v << 8) and a batch give what one tightly
 * packed 8-bit frame at a time gives. */
static void test_layouts(void)
{
    pt_image *imgs[FRAMES];
    pt_pupil one[FRAMES];
    pt_detector *d = open_or_die("starburst", NULL, 0);
    for (int i = 0; i < FRAMES; i++) {
        imgs[i] = render(160, 128, 0, 100 + (uint64_t)i);
        uint8_t *packed = malloc(160 * 128);
        for (int y = 0; y < 128; y++)
            memcpy(packed + y * 160, imgs[i]->buf + (size_t)y * imgs[i]->stride, 160);
        PT_CHECK(pt_detector_detect(d, packed, 160, 128, 160, 8) == PT_API_OK, "packed frame");
        pt_detector_result(d, 0, 0, &one[i]);
        free(packed);
    }
    const void *frames[FRAMES];
    for (int i = 0; i < FRAMES; i++)
        frames[i] = imgs[i]->buf;
    PT_CHECK(pt_detector_detect_batch(d, frames, FRAMES, 160, 128, (size_t)imgs[0]->stride, 8) ==
                 PT_API_OK,
             "batch: %s", pt_detector_message(d));
    for (int i = 0; i < FRAMES; i++) {
        pt_pupil p;
        PT_CHECK(pt_detector_result(d, i, 0, &p) == PT_API_OK && same_pupil(&p, &one[i]),
                 "batch frame %d differs from the single frame", i);
    }
    PT_CHECK(pt_detector_result(d, FRAMES, 0, &one[0]) == PT_API_ERR_PARAM,
             "frame past the batch accepted");
    /* 16-bit, rows 400 bytes apart */
    uint16_t *wide = calloc(200 * 128, sizeof *wide);
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 160; x++)
            wide[y * 200 + x] = (uint16_t)(imgs[2]->buf[(size_t)y * imgs[2]->stride + x] << 8 | 0x7f);
    pt_pupil p;
    PT_CHECK(pt_detector_detect(d, wide, 160, 128, 400, 16) == PT_API_OK, "16-bit frame: %s",
             pt_detector_message(d));
    PT_CHECK(pt_detector_result(d, 0, 0, &p) == PT_API_OK && same_pupil(&p, &one[2]),
             "16-bit frame differs from the 8-bit one");
    free(wide);
    pt_detector_close(d);
    for (int i = 0; i < FRAMES; i++)
        pt_image_destroy(imgs[i]);
}

static void test_binocular(void)
{
    pt_image *img = render(320, 128, 1, 5);
    const char *params[] = {"binocular=1"};
    pt_detector *d = open_or_die("starburst", params, 1);
    PT_CHECK(pt_detector_eyes(d) == 2, "binocular: %d eyes", pt_detector_eyes(d));
    PT_CHECK(pt_detector_detect(d, img->buf, 320, 128, (size_t)img->stride, 8) == PT_API_OK,
             "binocular detect");
    pt_pupil l, r;
    PT_CHECK(pt_detector_result(d, 0, 0, &l) == PT_API_OK && l.eye == 'L' &&
                 l.status == PT_PUPIL_FOUND && l.cx < 160,
             "left eye");
    PT_CHECK(pt_detector_result(d, 0, 1, &r) == PT_API_OK && r.eye == 'R' &&
                 r.status == PT_PUPIL_FOUND && r.cx >= 160,
             "right eye");
    PT_CHECK(pt_detector_result(d, 0, 2, &r) == PT_API_ERR_PARAM, "third eye accepted");
    pt_detector_close(d);
    pt_image_destroy(img);
}

static void test_errors(void)
{
    pt_detector *d = (pt_detector *)&d;
    char msg[256];
    PT_CHECK(pt_detector_open(&d, "nosuch", NULL, NULL, 0, msg, sizeof msg) == PT_API_ERR_PARAM &&
                 !d && strstr(msg, "nosuch"),
             "unknown detector: %s", msg);
    PT_CHECK(pt_detector_open(&d, NULL, "nosuch", NULL, 0, msg, sizeof msg) == PT_API_ERR_PARAM &&
                 strstr(msg, "nosuch"),
             "unknown back end: %s", msg);
    const char *bad[] = {"rays=many"};
    PT_CHECK(pt_detector_open(&d, NULL, NULL, bad, 1, msg, sizeof msg) == PT_API_ERR_PARAM &&
                 strstr(msg, "rays"),
             "bad parameter: %s", msg);
    const char *range[] = {"binocular=2"};
    PT_CHECK(pt_detector_open(&d, NULL, NULL, range, 1, msg, 8) == PT_API_ERR_PARAM &&
                 strlen(msg) == 7,
             "option out of range, message cut to its buffer: '%s'", msg);
    PT_CHECK(pt_detector_open(&d, NULL, NULL, NULL, 0, NULL, 0) == PT_API_OK && d, "defaults");
    uint8_t px[64] = {0};
    PT_CHECK(pt_detector_detect(d, px, 8, 8, 7, 8) == PT_API_ERR_PARAM &&
                 strstr(pt_detector_message(d), "stride"),
             "short stride: %s", pt_detector_message(d));
    PT_CHECK(pt_detector_detect(d, px, 8, 8, 8, 12) == PT_API_ERR_PARAM, "depth 12 accepted");
    PT_CHECK(pt_detector_detect(d, px, 0, 8, 8, 8) == PT_API_ERR_PARAM, "width 0 accepted");
    PT_CHECK(pt_detector_detect(d, NULL, 8, 8, 8, 8) == PT_API_ERR_PARAM, "NULL pixels accepted");
    PT_CHECK(pt_detector_detect(d, px, 70000, 1, 70000, 8) == PT_API_ERR_NOMEM,
             "70000 pixels wide accepted");
    PT_CHECK(pt_detector_detect(d, px, 8, 8, 8, 8) == PT_API_OK && !pt_detector_message(d)[0],
             "a blank frame: %s", pt_detector_message(d));
    pt_pupil p;
    PT_CHECK(pt_detector_result(d, 0, 0, &p) == PT_API_OK && p.status != PT_PUPIL_FOUND,
             "pupil found in a blank frame");
    pt_detector_close(d);
    pt_detector_close(NULL);
    PT_CHECK(!strcmp(pt_api_status_name(PT_API_ERR_UNAVAILABLE), "unavailable"), "status name");
    PT_CHECK(pt_api_version() == PUPILTRACK_API_VERSION && !strcmp(pt_version(), PT_VERSION),
             "versions");
}

typedef struct {
    const pt_image *img;
    pt_pupil result;
    int rc;
} thread_job;

static void *detect_many(void *arg)
{
    thread_job *job = arg;
    const char *params[] = {"threads=1"};
    pt_detector *d = open_or_die("tl", params, 1);
    for (int k = 0; k < 5 && !job->rc; k++)
        job->rc = pt_detector_detect(d, job->img->buf, job->img->width, job->img->height,
                                     (size_t)job->img->stride, 8) ||
                  pt_detector_result(d, 0, 0, &job->result);
    pt_detector_close(d);
    return NULL;
}

/* Two detectors on two threads at once give what one gives alone. */
static void test_threads(void)
{
    pt_image *img = render(160, 128, 0, 77);
    thread_job alone = {img, {0}, 0}, jobs[2] = {{img, {0}, 0}, {img, {0}, 0}};
    detect_many(&alone);
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, detect_many, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        PT_CHECK(!jobs[i].rc && same_pupil(&jobs[i].result, &alone.result),
                 "thread %d differs from the detector alone", i);
    pt_image_destroy(img);
}

int main(void)
{
    test_same_as_backend();
    test_layouts();
    test_binocular();
    test_errors();
    test_threads();
    return PT_TEST_SUMMARY("api");
}
