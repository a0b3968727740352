/* Border tracking: seq and omp reproduce OpenCV findContours golden files
 * (testdata/contours, made by scripts/make_contour_golden.py) point for point,
 * omp equals seq on random images, and bad input fails cleanly. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/contours/contours.h"
#include "omp/contours/contours_omp.h"
#include "lib/io/pt_image.h"
#include "tests/pt_noise.h"
#include "tests/pt_test.h"

#define GOLDEN_DIR "testdata/contours"

typedef pt_status (*find_fn)(const pt_image *, int, int, int, pt_contours *, pt_error *);

/* Small tiles so that the golden images are cut into many rectangles. */
static pt_status find_omp4(const pt_image *img, int t, int mode, int approx,
                           pt_contours *out, pt_error *err)
{
    return pt_contours_find_tiled(img, t, mode, approx, 4, 8, out, err);
}

static int mode_of(const char *name)
{
    if (!strcmp(name, "list"))
        return PT_CONTOURS_LIST;
    if (!strcmp(name, "ccomp"))
        return PT_CONTOURS_CCOMP;
    return PT_CONTOURS_TREE;
}

/* Compare c with NAME.MODE.APPROX.csv and .hier.csv; returns mismatches. */
static int compare_golden(const pt_contours *c, const char *stem, const char *who)
{
    char path[512];
    snprintf(path, sizeof path, GOLDEN_DIR "/%s.csv", stem);
    FILE *f = fopen(path, "r");
    if (!f) {
        PT_CHECK(0, "cannot open %s", path);
        return 1;
    }
    char line[256];
    int bad = 0;
    int64_t rows = 0;
    if (!fgets(line, sizeof line, f))
        bad++;
    while (!bad && fgets(line, sizeof line, f)) {
        int b, parent, x, y;
        long long idx;
        char type[16];
        if (sscanf(line, "%d,%15[a-z],%d,%lld,%d,%d", &b, type, &parent, &idx, &x, &y) != 6) {
            bad++;
            break;
        }
        rows++;
        if (b >= c->count || idx >= c->borders[b].count) {
            fprintf(stderr, "%s %s: extra golden point border %d index %lld\n", who, stem, b, idx);
            bad++;
            break;
        }
        const pt_border *br = &c->borders[b];
        const pt_contour_point *p = &c->points[br->first + idx];
        if (p->x != x || p->y != y || br->parent != parent ||
            br->is_hole != !strcmp(type, "hole")) {
            fprintf(stderr, "%s %s: border %d point %lld: got (%d,%d) %s parent %d, "
                            "want (%d,%d) %s parent %d\n", who, stem, b, idx, p->x, p->y,
                    br->is_hole ? "hole" : "outer", br->parent, x, y, type, parent);
            bad++;
            break;
        }
    }
    fclose(f);
    int64_t total = 0;
    for (int b = 0; b < c->count; b++)
        total += c->borders[b].count;
    if (!bad && total != rows) {
        fprintf(stderr, "%s %s: %lld points, golden %lld\n", who, stem, (long long)total,
                (long long)rows);
        bad++;
    }
    snprintf(path, sizeof path, GOLDEN_DIR "/%s.hier.csv", stem);
    f = fopen(path, "r");
    if (!f) {
        PT_CHECK(0, "cannot open %s", path);
        return bad + 1;
    }
    int n = 0;
    if (!fgets(line, sizeof line, f))
        bad++;
    while (fgets(line, sizeof line, f)) {
        int b, nx, pv, ch, pa;
        if (sscanf(line, "%d,%d,%d,%d,%d", &b, &nx, &pv, &ch, &pa) != 5 || b >= c->count) {
            bad++;
            break;
        }
        const pt_border *br = &c->borders[b];
        if (br->next != nx || br->prev != pv || br->first_child != ch || br->parent != pa) {
            fprintf(stderr, "%s %s: hierarchy of %d: got %d,%d,%d,%d want %d,%d,%d,%d\n", who,
                    stem, b, br->next, br->prev, br->first_child, br->parent, nx, pv, ch, pa);
            bad++;
            break;
        }
        n++;
    }
    fclose(f);
    if (n != c->count) {
        fprintf(stderr, "%s %s: %d borders, golden %d\n", who, stem, c->count, n);
        bad++;
    }
    return bad;
}

static void test_golden(void)
{
    FILE *index = fopen(GOLDEN_DIR "/index.txt", "r");
    PT_CHECK(index != NULL, "golden index %s/index.txt missing", GOLDEN_DIR);
    if (!index)
        return;
    char name[128], mode[16], approx[16];
    int sets = 0, seq_bad = 0, omp_bad = 0;
    pt_contours c;
    pt_contours_init(&c);
    while (fscanf(index, "%127s %15s %15s", name, mode, approx) == 3) {
        char path[512], stem[256];
        snprintf(path, sizeof path, GOLDEN_DIR "/%s.png", name);
        snprintf(stem, sizeof stem, "%s.%s.%s", name, mode, approx);
        pt_frames frames = {0};
        pt_error err;
        pt_error_clear(&err);
        if (pt_image_load(path, NULL, &frames, &err) || frames.count != 1) {
            PT_CHECK(0, "cannot load %s: %s", path, err.what);
            pt_frames_free(&frames);
            continue;
        }
        int m = mode_of(mode);
        int a = strcmp(approx, "simple") ? PT_CONTOURS_APPROX_NONE : PT_CONTOURS_APPROX_SIMPLE;
        const find_fn fns[2] = {pt_contours_find_seq, find_omp4};
        for (int k = 0; k < 2; k++) {
            pt_status st = fns[k](frames.frames[0], 0, m, a, &c, &err);
            int bad = st ? 1 : compare_golden(&c, stem, k ? "omp" : "seq");
            if (st)
                fprintf(stderr, "%s %s: %s\n", k ? "omp" : "seq", stem, err.what);
            if (k)
                omp_bad += bad != 0;
            else
                seq_bad += bad != 0;
        }
        sets++;
        pt_frames_free(&frames);
    }
    fclose(index);
    pt_contours_free(&c);
    PT_CHECK(sets >= 200, "only %d golden sets", sets);
    PT_CHECK(seq_bad == 0, "seq differs from OpenCV on %d of %d golden sets", seq_bad, sets);
    PT_CHECK(omp_bad == 0, "omp differs from OpenCV on %d of %d golden sets", omp_bad, sets);
}

static int same_contours(const pt_contours *a, const pt_contours *b)
{
    if (a->count != b->count)
        return 0;
    for (int i = 0; i < a->count; i++) {
        const pt_border *x = &a->borders[i], *y = &b->borders[i];
        if (x->is_hole != y->is_hole || x->next != y->next || x->prev != y->prev ||
            x->first_child != y->first_child || x->parent != y->parent || x->count != y->count)
            return 0;
        if (memcmp(a->points + x->first, b->points + y->first,
                   (size_t)x->count * sizeof *a->points))
            return 0;
    }
    return 1;
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random image: noise of random density, or blocky noise that makes big shapes. */
static pt_image *random_image(uint64_t *rng)
{
    int w = 1 + (int)(rng_next(rng) % 150), h = 1 + (int)(rng_next(rng) % 150);
    pt_image *img = pt_image_create(w, h);
    if (!img)
        return NULL;
    int density = (int)(rng_next(rng) % 100);
    int block = 1 + (int)(rng_next(rng) % 9);
    for (int by = 0; by < h; by += block)
        for (int bx = 0; bx < w; bx += block) {
            uint8_t v = (int)(rng_next(rng) % 100) < density ? 200 : 0;
            for (int y = by; y < by + block && y < h; y++)
                for (int x = bx; x < bx + block && x < w; x++)
                    img->buf[(size_t)y * img->stride + x] =
                        block > 2 && rng_next(rng) % 23 == 0 ? (uint8_t)(200 - v) : v;
        }
    return img;
}

static void test_omp_equals_seq(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    pt_contours a, b;
    pt_contours_init(&a);
    pt_contours_init(&b);
    int differ = 0, failed = 0;
    for (int i = 0; i < 200; i++) {
        pt_image *img = random_image(&rng);
        if (!img) {
            failed++;
            continue;
        }
        int mode = 1 + (int)(rng_next(&rng) % 3);
        int approx = 1 + (int)(rng_next(&rng) % 2);
        int threads = 1 + (int)(rng_next(&rng) % 8);
        int tile = 1 << (int)(rng_next(&rng) % 8); /* 1 .. 128, 128: often one tile */
        pt_error err;
        if (pt_contours_find_seq(img, 100, mode, approx, &a, &err) ||
            pt_contours_find_tiled(img, 100, mode, approx, threads, tile, &b, &err)) {
            if (!failed)
                fprintf(stderr, "random image %d: %s\n", i, err.what);
            failed++;
        }
        else if (!same_contours(&a, &b)) {
            if (!differ)
                fprintf(stderr, "omp != seq: image %d (%dx%d) mode %d approx %d threads %d tile %d\n",
                        i, img->width, img->height, mode, approx, threads, tile);
            differ++;
        }
        pt_image_destroy(img);
    }
    PT_CHECK(failed == 0, "%d random images failed", failed);
    PT_CHECK(differ == 0, "omp differs from seq on %d of 200 random images", differ);
    pt_contours_free(&a);
    pt_contours_free(&b);
}

static void test_known_shapes(void)
{
    /* 3x3 square at (1,1) in 5x5: outer border starts top-left, runs
     * counterclockwise on screen (down first), 8 points; with SIMPLE 4 corners. */
    pt_image *img = pt_image_create(5, 5);
    for (int y = 1; y <= 3; y++)
        for (int x = 1; x <= 3; x++)
            img->buf[y * img->stride + x] = 255;
    pt_contours c;
    pt_contours_init(&c);
    pt_error err;
    PT_CHECK(pt_contours_find_seq(img, 0, PT_CONTOURS_TREE, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_OK, "square");
    PT_CHECK(c.count == 1 && c.borders[0].count == 8, "square: one border of 8 points");
    if (c.count == 1 && c.borders[0].count == 8)
        PT_CHECK(c.points[0].x == 1 && c.points[0].y == 1 && c.points[1].x == 1 &&
                     c.points[1].y == 2, "square starts at (1,1) going down");
    PT_CHECK(pt_contours_find_seq(img, 0, PT_CONTOURS_TREE, PT_CONTOURS_APPROX_SIMPLE, &c,
                                  &err) == PT_OK && c.count == 1 && c.borders[0].count == 4,
             "square SIMPLE: 4 corners");
    /* the centre as a hole: outer + hole, hole's parent is the outer */
    img->buf[2 * img->stride + 2] = 0;
    PT_CHECK(pt_contours_find_seq(img, 0, PT_CONTOURS_CCOMP, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_OK && c.count == 2 && !c.borders[0].is_hole &&
                 c.borders[1].is_hole && c.borders[1].parent == 0 &&
                 c.borders[0].first_child == 1,
             "ring: outer with one hole child");
    /* threshold: pixels equal to the threshold are background */
    PT_CHECK(pt_contours_find_seq(img, 255, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_OK && c.count == 0, "threshold 255: no borders");
    pt_image_destroy(img);
    pt_contours_free(&c);
}

static void test_bad_input(void)
{
    pt_contours c;
    pt_contours_init(&c);
    pt_error err;
    pt_image empty = {0, 0, 0, NULL};
    PT_CHECK(pt_contours_find_seq(&empty, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_ERR_PARAM, "empty image is a parameter error");
    PT_CHECK(pt_contours_find_omp(&empty, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_NONE, 2, &c,
                                  &err) == PT_ERR_PARAM, "omp: empty image");
    pt_image huge = {PT_IMAGE_MAX_SIDE + 1, 2, PT_IMAGE_MAX_SIDE + 1, (uint8_t *)"x"};
    PT_CHECK(pt_contours_find_seq(&huge, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_ERR_NOMEM, "huge image refused");
    pt_image *img = pt_image_create(8, 8);
    PT_CHECK(pt_contours_find_seq(img, 0, 7, PT_CONTOURS_APPROX_NONE, &c, &err) ==
                 PT_ERR_PARAM, "unknown mode");
    PT_CHECK(pt_contours_find_seq(img, 0, PT_CONTOURS_LIST, 9, &c, &err) == PT_ERR_PARAM,
             "unknown approximation");
    /* point storage is bounded: a grid of dots needs many points */
    pt_image *many = pt_image_create(200, 200);
    for (int y = 0; y < 200; y++)
        for (int x = 0; x < 200; x++)
            many->buf[y * many->stride + x] = x % 3 || y % 3 ? 0 : 255;
    c.max_points = 1000;
    PT_CHECK(pt_contours_find_seq(many, 0, PT_CONTOURS_TREE, PT_CONTOURS_APPROX_NONE, &c,
                                  &err) == PT_ERR_NOMEM && c.count == 0,
             "seq: point limit gives PT_ERR_NOMEM");
    PT_CHECK(pt_contours_find_omp(many, 0, PT_CONTOURS_TREE, PT_CONTOURS_APPROX_NONE, 4, &c,
                                  &err) == PT_ERR_NOMEM && c.count == 0,
             "omp: point limit gives PT_ERR_NOMEM");
    c.max_points = 0;
    PT_CHECK(pt_contours_find_omp(many, 0, PT_CONTOURS_TREE, PT_CONTOURS_APPROX_NONE, 4, &c,
                                  &err) == PT_OK && c.count > 1000, "dots: many borders");
    pt_image_destroy(many);
    pt_image_destroy(img);
    pt_contours_free(&c);
}

/* The timed finds give the untimed result, fill the phases they time
 * (pupiltrack(1), contours --repeat) with non-negative times that add up to
 * no more than the whole call, and time only what they say. */
static void check_times(const pt_contours_times *t, unsigned want, const char *who)
{
    PT_CHECK(t->phases == want, "%s: phases 0x%x, wanted 0x%x", who, t->phases, want);
    const double ph[7] = {t->preprocess_ms, t->upload_ms, t->trace_ms, t->connect_ms,
                          t->assemble_ms, t->download_ms, t->host_ms};
    double sum = 0;
    for (int k = 0; k < 7; k++) {
        PT_CHECK(ph[k] >= 0, "%s: phase %d negative (%g ms)", who, k, ph[k]);
        PT_CHECK((t->phases >> k & 1) || ph[k] == 0, "%s: phase %d not timed but %g ms", who,
                 k, ph[k]);
        sum += ph[k];
    }
    PT_CHECK(t->total_ms > 0 && sum <= t->total_ms, "%s: phases %g ms, whole call %g ms", who,
             sum, t->total_ms);
}

static void test_times(void)
{
    pt_image *img = pt_image_create(300, 200);
    pt_test_rng rng = {12345};
    for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++)
            img->buf[y * img->stride + x] = pt_test_uniform(&rng) < 0.35 ? 255 : 0;
    pt_contours a, b;
    pt_contours_init(&a);
    pt_contours_init(&b);
    pt_error err;
    pt_contours_times t;
    for (int mode = PT_CONTOURS_LIST; mode <= PT_CONTOURS_TREE; mode++) {
        memset(&t, 0xff, sizeof t);
        PT_CHECK(pt_contours_find_seq(img, 0, mode, PT_CONTOURS_APPROX_NONE, &a, &err) ==
                         PT_OK &&
                     pt_contours_find_seq_timed(img, 0, mode, PT_CONTOURS_APPROX_NONE, &b, &t,
                                                &err) == PT_OK,
                 "seq timed, mode %d", mode);
        PT_CHECK(same_contours(&a, &b), "seq timed equals untimed, mode %d", mode);
        check_times(&t, PT_CONTOURS_PHASE_PREPROCESS | PT_CONTOURS_PHASE_TRACE |
                            PT_CONTOURS_PHASE_ASSEMBLE, "seq");
        memset(&t, 0xff, sizeof t);
        PT_CHECK(pt_contours_find_tiled_timed(img, 0, mode, PT_CONTOURS_APPROX_NONE, 2, 16, &b,
                                              &t, &err) == PT_OK,
                 "omp timed, mode %d", mode);
        PT_CHECK(same_contours(&a, &b), "omp timed equals seq, mode %d", mode);
        check_times(&t, PT_CONTOURS_PHASE_PREPROCESS | PT_CONTOURS_PHASE_TRACE |
                            PT_CONTOURS_PHASE_CONNECT | PT_CONTOURS_PHASE_ASSEMBLE, "omp");
    }
    /* the back-end tables time through the same calls; NULL times is allowed */
    memset(&t, 0xff, sizeof t);
    PT_CHECK(pt_contours_seq.find(NULL, img, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_SIMPLE, 0,
                                  0, &b, &t, &err) == PT_OK,
             "seq table");
    check_times(&t, PT_CONTOURS_PHASE_PREPROCESS | PT_CONTOURS_PHASE_TRACE |
                        PT_CONTOURS_PHASE_ASSEMBLE, "seq table");
    PT_CHECK(pt_contours_omp.find(NULL, img, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_SIMPLE, 2,
                                  0, &a, NULL, &err) == PT_OK && same_contours(&a, &b),
             "omp table without times equals seq");
    pt_contours_free(&a);
    pt_contours_free(&b);
    pt_image_destroy(img);
}

int main(void)
{
    test_known_shapes();
    test_times();
    test_bad_input();
    test_golden();
    test_omp_equals_seq();
    return PT_TEST_SUMMARY("contours");
}
