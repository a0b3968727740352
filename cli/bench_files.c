/* bench --from-files: the inputs read as track reads them (lib/io/reader.h:
 * decoded ahead on -j threads, stacks mapped and their frames handed on in
 * place), tracked in calls of --batch frames (two in flight where the back
 * end can), and their results rows written; the wall time of each stage is
 * the time the calling thread spends in it. */
#include "cli/bench_files.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "lib/core/output_file.h"
#include "lib/detect/notfound_reason.h"
#include "lib/io/reader.h"
#include "lib/io/results.h"

/* One back-end call's frames: all read frames in order (errors included),
 * the images among them, their results. */
typedef struct {
    pt_read_frame *read;
    pt_image **images;
    pt_result *results;
    int count, tracked;
} call_frames;

typedef struct {
    const pt_detector_setup *s;
    const pt_bench_files_options *o;
    char *const *paths;
    int npaths;
    pt_reader *reader;
    void *state;
    int state_width, state_height;
    FILE *rows;
    int eyes;
    int report; /* say why a frame could not be read (the timed passes) */
    double read_s, backend_s, results_s;
    long frames, errors;
    int maxw, maxh;
} bench_run;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int pin_mapping(void *ctx, const void *base, size_t bytes)
{
    bench_run *b = ctx;
    pt_error err;
    pt_error_clear(&err);
    if (!b->state || !b->s->backend->pin_region)
        return 0;
    if (b->s->backend->pin_region(b->state, base, bytes, &err)) {
        pt_cli_fail("warning: %s: not pinned, copied through staging: %s",
                    err.file[0] ? err.file : "mapping", err.what);
        return 0;
    }
    return 1;
}

static void unpin_mapping(void *ctx, const void *base)
{
    bench_run *b = ctx;
    b->s->backend->unpin_region(b->state, base);
}

/* Up to batch frames into c (and up to *left of them; -1: no limit). */
static void gather(bench_run *b, call_frames *c, long *left)
{
    double t0 = now_s();
    c->count = c->tracked = 0;
    while (c->count < b->o->batch && *left != 0 &&
           pt_reader_next(b->reader, &c->read[c->count])) {
        pt_read_frame *f = &c->read[c->count++];
        if (*left > 0)
            (*left)--;
        if (!f->image)
            continue;
        c->images[c->tracked++] = f->image;
        if (f->image->width > b->maxw)
            b->maxw = f->image->width;
        if (f->image->height > b->maxh)
            b->maxh = f->image->height;
    }
    b->read_s += now_s() - t0;
}

/* The rows of c's frames (an error row for a frame that could not be
 * read), then its frames back to the reader. */
static void write_rows(bench_run *b, call_frames *c)
{
    double t0 = now_s();
    const char *alg = pt_algorithm_name(b->s->track.algorithm), *be = b->s->backend->name;
    for (int i = 0, k = 0; i < c->count; i++) {
        pt_read_frame *f = &c->read[i];
        if (!f->image && b->report) {
            if (f->whole_file)
                pt_cli_report(&f->error);
            else
                pt_cli_fail("%s: %s", f->name, f->error.what);
        }
        if (b->rows && !f->image) {
            for (int e = 0; e < b->eyes; e++) {
                pt_result r;
                memset(&r, 0, sizeof r);
                r.status = PT_DETECT_ERROR;
                r.eye = b->s->track.binocular ? (e ? 'R' : 'L') : 0;
                snprintf(r.message, sizeof r.message, "%.255s", f->error.what);
                pt_results_write_row(b->rows, f->name, alg, be, &r);
            }
        } else if (b->rows) {
            pt_result *res = c->results + (size_t)k++ * b->eyes;
            pt_explain_notfound(res, b->eyes, f->image, b->s->track.algorithm);
            for (int e = 0; e < b->eyes; e++)
                pt_results_write_row_at(b->rows, f->name, alg, be, &res[e], f->seconds);
        }
        b->frames++;
        b->errors += !f->image;
        pt_reader_release(b->reader, f);
    }
    c->count = c->tracked = 0;
    b->results_s += now_s() - t0;
}

/* One pass over the inputs; returns 0 or the exit status after a report. */
static int run_pass(bench_run *b, call_frames calls[2], long limit)
{
    const pt_backend *be = b->s->backend;
    int pipelined = be->submit && be->drain && !b->o->decode_only;
    int busy = -1, next = 0, rc = 0;
    long left = limit > 0 ? limit : -1;
    pt_error err;
    pt_error_clear(&err);
    for (;;) {
        call_frames *c = &calls[next];
        gather(b, c, &left);
        if (c->count == 0)
            break;
        if (b->o->decode_only || c->tracked == 0) {
            write_rows(b, c);
            continue;
        }
        double t0 = now_s();
        if (b->maxw > b->state_width || b->maxh > b->state_height) {
            /* larger frames: the calls in flight end before the back end grows */
            if (busy >= 0 && be->drain(b->state, &err)) {
                pt_cli_report(&err);
                return PT_EXIT_INPUT;
            }
            b->backend_s += now_s() - t0;
            if (busy >= 0)
                write_rows(b, &calls[busy]);
            busy = -1;
            t0 = now_s();
            if ((rc = pt_detector_fit(b->s, b->maxw, b->maxh, &b->state, &b->state_width,
                                      &b->state_height)))
                return rc;
        }
        pt_status st = pipelined ? be->submit(b->state, c->images, c->tracked, c->results, NULL,
                                              &err)
                                 : be->track(b->state, c->images, c->tracked, c->results, NULL,
                                             &err);
        b->backend_s += now_s() - t0;
        if (st) {
            pt_cli_report(&err);
            return err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
        }
        /* pipelined: the call before this one is complete now */
        if (pipelined && busy >= 0)
            write_rows(b, &calls[busy]);
        if (!pipelined)
            write_rows(b, c);
        busy = pipelined ? next : -1;
        next = pipelined ? 1 - next : 0;
    }
    if (busy >= 0) {
        double t0 = now_s();
        pt_status st = be->drain(b->state, &err);
        b->backend_s += now_s() - t0;
        if (st) {
            pt_cli_report(&err);
            return PT_EXIT_INPUT;
        }
        write_rows(b, &calls[busy]);
    }
    return 0;
}

/* Frees what a failed pass left in the calls. */
static void release_calls(bench_run *b, call_frames calls[2])
{
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < calls[h].count; i++)
            pt_reader_release(b->reader, &calls[h].read[i]);
        calls[h].count = 0;
    }
}

static int open_reader(bench_run *b)
{
    int ahead = 2 * b->o->batch < 64 ? 64 : 2 * b->o->batch;
    pt_reader_options ro = {.threads = b->s->track.threads,
                            .ahead = ahead > 4096 ? 4096 : ahead,
                            .pin = b->o->pin && !b->o->decode_only ? pin_mapping : NULL,
                            .unpin = unpin_mapping,
                            .ctx = b,
                            .touch_in_place = b->s->backend->frames_in_place};
    pt_error err;
    pt_error_clear(&err);
    if (pt_reader_open(b->paths, b->npaths, &b->s->load, &ro,
                       &b->reader, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    return 0;
}

/* The reader's figures over all passes. */
static void add_stats(pt_reader_stats *sum, const pt_reader_stats *st)
{
    sum->frames += st->frames;
    sum->in_place += st->in_place;
    sum->converted += st->converted;
    sum->decoded += st->decoded;
    sum->errors += st->errors;
    sum->threads = st->threads;
    sum->work_seconds += st->work_seconds;
    sum->open_seconds += st->open_seconds;
    sum->pin_seconds += st->pin_seconds;
    sum->pinned_bytes += st->pinned_bytes;
    sum->maps += st->maps;
}

static void print_figures(const bench_run *b, const pt_reader_stats *st, double wall)
{
    const pt_detector_setup *s = b->s;
    const pt_bench_files_options *o = b->o;
    double n = b->frames > 0 ? (double)b->frames : 1.0;
    if (o->decode_only)
        printf("bench: reading only, from files: %ld frames (up to %dx%d) of %d input%s, "
               "threads=%d passes=%d\n",
               b->frames, b->maxw, b->maxh, b->npaths, b->npaths == 1 ? "" : "s", st->threads,
               o->passes);
    else
        printf("bench: %s %s %s%s from files: %ld frames (up to %dx%d) of %d input%s, "
               "batch=%d threads=%d passes=%d%s%s\n",
               pt_algorithm_name(s->track.algorithm), s->backend->name,
               s->track.ellipse ? "ellipse" : "circle", s->track.binocular ? " binocular" : "",
               b->frames, b->maxw, b->maxh, b->npaths, b->npaths == 1 ? "" : "s", o->batch,
               st->threads, o->passes, s->preset ? " preset=" : "", s->preset ? s->preset : "");
    printf("read: %ld in place (mapped, no copy), %ld converted from a mapping, %ld decoded, "
           "%ld errors; %d mapping%s",
           st->in_place, st->converted, st->decoded, st->errors, st->maps,
           st->maps == 1 ? "" : "s");
    if (st->pinned_bytes > 0)
        printf(", %.1f MB pinned (%.1f ms pinning and unpinning)", st->pinned_bytes / 1e6,
               1e3 * st->pin_seconds);
    else if (s->backend->pin_region && !o->decode_only)
        printf(", none pinned%s", o->pin ? "" : " (copied through staging)");
    printf("\n");
    printf("end to end: %.1f fps (%.4f ms/frame; %ld frames in %.3f s)\n", b->frames / wall,
           1e3 * wall / n, b->frames, wall);
    printf("stages (ms/frame; time of the calling thread in each, the reading threads "
           "work alongside):\n");
    double busy = st->threads > 0 ? st->work_seconds / st->threads : 0;
    printf("  %-12s %8.4f ms/frame  (waiting for frames, mapping and pinning; %d reading "
           "threads busy %.4f ms/frame each",
           "read/decode", 1e3 * b->read_s / n, st->threads, 1e3 * busy / n);
    if (st->work_seconds > 0)
        printf(": at most %.1f fps", n / busy);
    printf(")\n");
    if (o->decode_only)
        return;
    if (s->backend->upload_ms)
        printf("  %-12s %8.4f ms/frame  (copies to the device, within detect)\n", "upload",
               s->backend->upload_ms(b->state));
    else
        printf("  %-12s %8s           (%s reads the frames in host memory)\n", "upload", "none",
               s->backend->name);
    printf("  %-12s %8.4f ms/frame  (back-end calls)\n", "detect", 1e3 * b->backend_s / n);
    printf("  %-12s %8.4f ms/frame  (results rows%s)\n", "results", 1e3 * b->results_s / n,
           o->out ? "" : ", written to nowhere");
    if (s->backend->stage_report) {
        char report[1024];
        s->backend->stage_report(b->state, report, sizeof report);
        printf("back-end stages (mean over every frame processed):\n%s", report);
    }
}

int pt_bench_files(const pt_detector_setup *s, const pt_input_list *inputs,
                   const pt_bench_files_options *o)
{
    bench_run b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.o = o;
    b.paths = inputs->paths;
    b.npaths = inputs->count;
    b.eyes = s->track.binocular ? 2 : 1;
    int rc = 0;
    call_frames calls[2];
    memset(calls, 0, sizeof calls);
    for (int h = 0; h < 2; h++) {
        calls[h].read = calloc((size_t)o->batch, sizeof *calls[h].read);
        calls[h].images = calloc((size_t)o->batch, sizeof *calls[h].images);
        calls[h].results = calloc((size_t)o->batch * b.eyes, sizeof *calls[h].results);
        if (!calls[h].read || !calls[h].images || !calls[h].results)
            rc = PT_EXIT_INPUT;
    }
    pt_output out;
    memset(&out, 0, sizeof out);
    pt_error err;
    pt_error_clear(&err);
    if (!rc && o->out && !o->decode_only) {
        if (pt_output_open(&out, o->out, 0, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
        } else {
            b.rows = out.fp;
            pt_results_write_header(b.rows);
        }
    } else if (!rc && !o->decode_only) {
        b.rows = fopen("/dev/null", "w");
    }
    /* Warm-up, untimed: the first call's frames read and tracked once, so
     * that the back end exists (prepared for their size) before the timing. */
    if (!rc && !(rc = open_reader(&b))) {
        gather(&b, &calls[0], &(long){o->batch});
        if (calls[0].tracked && !o->decode_only) {
            rc = pt_detector_fit(s, b.maxw, b.maxh, &b.state, &b.state_width, &b.state_height);
            if (!rc && s->backend->track(b.state, calls[0].images, calls[0].tracked,
                                         calls[0].results, NULL, &err)) {
                pt_cli_report(&err);
                rc = err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
            }
        }
        release_calls(&b, calls);
        pt_reader_close(b.reader);
        b.reader = NULL;
    }
    /* The figures count from here (the back end's own stage times count
     * the warm-up call too). */
    b.report = 1;
    b.frames = b.errors = 0;
    b.read_s = b.backend_s = b.results_s = 0;
    pt_reader_stats sum;
    memset(&sum, 0, sizeof sum);
    double wall = 0;
    for (int pass = 0; pass < o->passes && !rc; pass++) {
        double t0 = now_s();
        if ((rc = open_reader(&b)))
            break;
        rc = run_pass(&b, calls, o->frames);
        release_calls(&b, calls);
        pt_reader_stats st;
        pt_reader_stats_get(b.reader, &st);
        pt_reader_close(b.reader);
        b.reader = NULL;
        wall += now_s() - t0;
        add_stats(&sum, &st);
    }
    if (!rc && b.rows && ferror(b.rows)) {
        pt_cli_fail("%s: cannot write the rows", o->out ? o->out : "/dev/null");
        rc = PT_EXIT_INPUT;
    }
    if (!rc && b.frames == 0) {
        pt_cli_fail("bench: no frames read");
        rc = PT_EXIT_INPUT;
    }
    if (!rc)
        print_figures(&b, &sum, wall);
    if (!rc && sum.errors)
        rc = PT_EXIT_INPUT;
    if (o->out && !o->decode_only && out.fp) {
        if (!rc && pt_output_close(&out, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
        }
        pt_output_discard(&out);
    } else if (b.rows) {
        fclose(b.rows);
    }
    if (b.state)
        s->backend->destroy(b.state);
    for (int h = 0; h < 2; h++) {
        free(calls[h].read);
        free(calls[h].images);
        free(calls[h].results);
    }
    return rc;
}
