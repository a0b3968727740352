/* pupiltrack track: detect pupils in images and write the results CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/core/output_file.h"
#include "lib/io/gt.h"
#include "lib/params/params_auto.h"
#include "lib/io/reader.h"
#include "lib/io/results.h"
#include "lib/api/registry.h"
#include "cli/cli.h"
#include "lib/detect/notfound_reason.h"
#include "cli/draw.h"
#include "cli/draw_stages.h"
#include "cli/stage_trace.h"
#include "cli/inputs.h"
#include "cli/track_options.h"

#define TRACK_BATCH 32

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack track [OPTIONS] IMAGE|DIR...\n"
            "Detect the pupil in each frame; one results row per frame and eye.\n\n"
            "%s"
            "  --gt GT.csv      ground truth, drawn with --draw\n"
            "  --draw DIR       write each frame as a PNG showing what the detector saw\n"
            "  --draw-stages DIR  write each frame's preprocessing stages as PNGs: image,\n"
            "                   top-hat, reflection mask, reflections filled, smoothed;\n"
            "                   then -a hough: the Canny edges; -a tl: the threshold\n"
            "                   fitted, its labels, the chosen blob, its border and fit;\n"
            "                   -a starburst: the rays of each iteration\n"
            "  --glints FILE    with --sequence: corneal reflections with stable ids per eye,\n"
            "                   CSV image,eye,glint,x,y (ids from the multi-target tracker)\n"
            "  --devices LIST   -b cuda: split each batch across these GPUs (all, or e.g. 0,1)\n"
            "  -o FILE          results CSV (default: stdout)\n",
            pt_detector_setup_help);
}

typedef struct {
    pt_detector_setup setup;
    const char *out_path, *draw_dir, *gt_path;
    const char *stages_dir; /* --draw-stages */
    pt_stage_tracer *tracer; /* --draw-stages -a tl|starburst: the omp detector's stages */
    pt_gt gt; /* --gt: drawn with --draw */
    int have_gt;
    /* --glints FILE (with --sequence): corneal reflections with stable ids */
    const char *glints_path;
    pt_glints_track_fn glints; /* the back end's, from the registry */
    pt_output glints_out;
    pt_tracker *glint_trackers[2];
    pt_arena glint_arena;
    pt_output out;
    void *state;
    int state_width, state_height;
    /* the batch being filled, in input order: a frame, or (image NULL) a
     * file or page that could not be read and why, written in its place;
     * each goes back to the reader once its rows are written */
    pt_reader *reader;
    pt_read_frame read[TRACK_BATCH];
    int count;
    pt_result *results;
    pt_overlay *overlays;
    int eyes;
    int failures;
    long draw_failures;
    long done, total; /* input files tracked, of all given */
    double started;   /* pt_cli_seconds() when tracking began */
} track_run;

/* --draw failures reported one by one up to this many; the rest counted. */
#define DRAW_FAILURES_SHOWN 3

static void write_error_rows(track_run *run, const char *name, const char *message)
{
    for (int e = 0; e < run->eyes; e++) {
        pt_result r;
        memset(&r, 0, sizeof r);
        r.status = PT_DETECT_ERROR;
        r.eye = run->setup.track.binocular ? (e ? 'R' : 'L') : 0;
        snprintf(r.message, sizeof r.message, "%.255s", message);
        pt_results_write_row(run->out.fp, name, pt_algorithm_name(run->setup.track.algorithm),
                             run->setup.backend->name, &r);
    }
    run->failures++;
}

/* (Re)create the back end so it can take frames of this size. */
static int ensure_backend(track_run *run, int width, int height)
{
    return pt_detector_fit(&run->setup, width, height, &run->state, &run->state_width,
                           &run->state_height);
}

#define MAX_GLINTS_PER_EYE 16

/* --glints: the reflections around each eye's pupil (or in the eye's region
 * when no pupil was found), followed by one tracker per eye. */
static int write_glints(track_run *run, const char *name, const pt_image *frame,
                        const pt_result *res)
{
    for (int e = 0; e < run->eyes; e++) {
        int ex0 = run->setup.track.binocular ? e * (frame->width / 2) : 0;
        int ew = run->setup.track.binocular ? (e ? frame->width - frame->width / 2
                                                 : frame->width / 2)
                                            : frame->width;
        int x0 = ex0, y0 = 0, x1 = ex0 + ew, y1 = frame->height;
        if (res[e].status == PT_DETECT_OK && res[e].has_circle) {
            double reach = 2.5 * res[e].circle.r;
            x0 = (int)fmax(ex0, res[e].circle.cx - reach);
            x1 = (int)fmin(ex0 + ew, res[e].circle.cx + reach);
            y0 = (int)fmax(0, res[e].circle.cy - reach);
            y1 = (int)fmin(frame->height, res[e].circle.cy + reach);
        }
        pt_error err;
        pt_error_clear(&err);
        if (!run->glint_trackers[e]) {
            pt_mtt_params mp;
            pt_mtt_default(&mp);
            mp.d_max = 0.05 * (ew < frame->height ? ew : frame->height);
            if (pt_tracker_create(&mp, &run->glint_trackers[e], &err)) {
                pt_cli_report(&err);
                return PT_EXIT_INPUT;
            }
        }
        pt_auto_params autos;
        pt_resolve_auto(&run->setup.config, ew, frame->height, &autos);
        pt_glint g[MAX_GLINTS_PER_EYE];
        int ids[MAX_GLINTS_PER_EYE];
        pt_arena_reset(&run->glint_arena);
        int n = x1 > x0 && y1 > y0
                    ? run->glints(run->glint_trackers[e], frame, x0, y0, x1 - x0, y1 - y0,
                                      autos.reflection_kernel,
                                      run->setup.config.pre.reflection_threshold, g, ids,
                                      MAX_GLINTS_PER_EYE, &run->glint_arena, &err)
                    : run->glints(run->glint_trackers[e], frame, 0, 0, 0, 0, 3, 255, g, ids,
                                      MAX_GLINTS_PER_EYE, &run->glint_arena, &err);
        if (n < 0) {
            pt_cli_report(&err);
            return PT_EXIT_INPUT;
        }
        const char *eye = run->setup.track.binocular ? (e ? "R" : "L") : "";
        for (int k = 0; k < n; k++)
            fprintf(run->glints_out.fp, "%s,%s,%d,%.3f,%.3f\n", name, eye, ids[k], g[k].x,
                    g[k].y);
    }
    return 0;
}

static int flush_batch(track_run *run)
{
    if (run->count == 0)
        return 0;
    int maxw = 0, maxh = 0, tracked = 0;
    pt_image *frames[TRACK_BATCH];
    for (int i = 0; i < run->count; i++) {
        pt_image *f = run->read[i].image;
        if (!f)
            continue;
        frames[tracked++] = f;
        if (f->width > maxw)
            maxw = f->width;
        if (f->height > maxh)
            maxh = f->height;
    }
    pt_error err;
    pt_error_clear(&err);
    if (tracked) {
        int rc = ensure_backend(run, maxw, maxh);
        if (rc)
            return rc;
        for (int i = 0; i < tracked * run->eyes && run->overlays; i++)
            pt_overlay_clear(&run->overlays[i]);
        if (run->setup.backend->track(run->state, frames, tracked, run->results, run->overlays,
                                      &err)) {
            pt_cli_report(&err);
            return err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
        }
    }
    for (int i = 0, k = 0; i < run->count; i++) {
        pt_read_frame *rf = &run->read[i];
        const char *name = rf->name;
        pt_image *frame = rf->image;
        run->done += rf->ends_input;
        if (!frame) {
            write_error_rows(run, name, rf->error.what);
            pt_reader_release(run->reader, rf);
            continue;
        }
        pt_result *res = run->results + (size_t)k * run->eyes;
        const pt_overlay *ov = run->overlays ? run->overlays + (size_t)k * run->eyes : NULL;
        k++;
        pt_explain_notfound(res, run->eyes, frame, run->setup.track.algorithm);
        for (int e = 0; e < run->eyes; e++) {
            pt_results_write_row_at(run->out.fp, name,
                                    pt_algorithm_name(run->setup.track.algorithm),
                                    run->setup.backend->name, &res[e], rf->seconds);
            if (res[e].status == PT_DETECT_ERROR) {
                pt_cli_fail("%s: %s", name, res[e].message);
                run->failures++;
            }
        }
        if (run->glints_out.fp && res[0].status != PT_DETECT_ERROR) {
            int grc = write_glints(run, name, frame, res);
            if (grc)
                return grc;
        }
        if (run->draw_dir) {
            pt_result truth[2];
            for (int e = 0; e < run->eyes && run->have_gt; e++) {
                const pt_gt_entry *g =
                    pt_gt_find(&run->gt, name, run->setup.track.binocular ? "LR"[e] : 0);
                memset(&truth[e], 0, sizeof truth[e]);
                truth[e].status = PT_DETECT_NOTFOUND;
                if (g)
                    pt_gt_entry_to_result(g, &truth[e]);
            }
            if (pt_draw_frame(run->draw_dir, name, frame, res, ov,
                              run->have_gt ? truth : NULL, run->eyes, &err) &&
                ++run->draw_failures <= DRAW_FAILURES_SHOWN)
                pt_cli_report(&err);
        }
        if (run->stages_dir) {
            int region = run->setup.track.binocular ? frame->width / 2
                                                    : frame->width;
            /* -a tl, starburst: the omp detector's stages (cli/stage_trace.h) */
            pt_stage_tracer *t = run->tracer;
            if (t && pt_stage_tracer_run(t, frame, name, &err)) {
                pt_cli_report(&err);
                t = NULL; /* the preprocessing stages still */
            }
            if (pt_draw_stages(run->stages_dir, name, frame, &run->setup.config,
                               run->setup.track.algorithm, region, t ? t->traces : NULL,
                               t ? t->results : NULL, run->eyes, &err))
                pt_cli_report(&err);
        }
        /* written: back to the reader (a failure after this entry leaves
         * the rest to the caller's clean-up, which releases those left) */
        pt_reader_release(run->reader, rf);
    }
    run->count = 0;
    /* a full disk or a closed pipe is found here, not after the last frame */
    if (pt_output_check(&run->out, &err) ||
        (run->glints_out.fp && pt_output_check(&run->glints_out, &err))) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    pt_cli_progress("track", run->done, run->total, pt_cli_seconds() - run->started);
    return 0;
}

/* Queue a frame from the reader (or a file's or page's error, written in
 * its place) in the batch; the batch takes it over. */
static int add_frame(track_run *run, pt_read_frame *f)
{
    if (!f->image) {
        if (f->whole_file)
            pt_cli_report(&f->error);
        else
            pt_cli_fail("%s: %s", f->name, f->error.what);
    }
    run->read[run->count++] = *f;
    return run->count == TRACK_BATCH ? flush_batch(run) : 0;
}


int pt_cmd_track(int argc, char **argv)
{
    track_run run;
    memset(&run, 0, sizeof run);
    pt_detector_setup_default(&run.setup);
    pt_input_list inputs = {0};
    int rc = PT_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        int used = pt_detector_setup_option(&run.setup, argc, argv, &i);
        if (used < 0) {
            rc = PT_EXIT_USAGE;
            goto done;
        }
        if (used)
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            goto done;
        } else if (!strcmp(a, "--devices") && i + 1 < argc) {
            if (pt_option_devices(argv[++i], &run.setup.track)) {
                rc = PT_EXIT_USAGE;
                goto done;
            }
        } else if (!strcmp(a, "--glints") && i + 1 < argc) {
            run.glints_path = argv[++i];
        } else if (!strcmp(a, "--draw-stages") && i + 1 < argc) {
            run.stages_dir = argv[++i];
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--draw") || !strcmp(a, "--gt"))) {
            if (i + 1 >= argc) {
                pt_cli_fail("option %s needs a value", a);
                rc = PT_EXIT_USAGE;
                goto done;
            }
            const char **dst = a[1] == 'o' ? &run.out_path
                               : a[2] == 'd' ? &run.draw_dir
                                             : &run.gt_path;
            *dst = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("track: unknown option '%s' (try --help)", a);
            rc = PT_EXIT_USAGE;
            goto done;
        } else if (pt_inputs_add(&inputs, a)) {
            pt_cli_fail("%s: cannot read the folder", a);
            run.failures++;
        }
    }
    pt_detector_setup_gain(&run.setup);
    if (pt_detector_setup_check(&run.setup)) {
        rc = PT_EXIT_USAGE;
        goto done;
    }
    if (inputs.count == 0) {
        /* a folder without images has been named already */
        if (!inputs.empty_folders)
            pt_cli_fail("track: no images given (try --help)");
        rc = inputs.empty_folders ? PT_EXIT_INPUT : PT_EXIT_USAGE;
        goto done;
    }
    if (run.draw_dir && !pt_path_is_dir(run.draw_dir) && mkdir(run.draw_dir, 0777)) {
        pt_cli_fail("%s: cannot create the --draw folder", run.draw_dir);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (run.stages_dir && !pt_path_is_dir(run.stages_dir) && mkdir(run.stages_dir, 0777)) {
        pt_cli_fail("%s: cannot create the --draw-stages folder", run.stages_dir);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    if (run.glints_path) {
        if (!run.setup.track.sequence) {
            pt_cli_fail("track: --glints follows reflections through a sequence: add --sequence");
            rc = PT_EXIT_USAGE;
            goto done;
        }
        const pt_backend_entry *be = pt_backend_find(run.setup.backend->name, PT_CAP_TRACK);
        if (!be || !be->glints) {
            pt_cli_fail("track: --glints: back end '%s' does not identify reflections",
                        run.setup.backend->name);
            rc = PT_EXIT_USAGE;
            goto done;
        }
        run.glints = be->glints->track;
        pt_error err;
        pt_error_clear(&err);
        if (pt_output_open(&run.glints_out, run.glints_path, PT_OUTPUT_SYNC, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
        fprintf(run.glints_out.fp, "image,eye,glint,x,y\n");
        pt_arena_init(&run.glint_arena);
    }
    if (run.gt_path && run.draw_dir) {
        pt_error err;
        pt_error_clear(&err);
        if (pt_gt_load(run.gt_path, &run.gt, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
        run.have_gt = 1;
    }
    run.setup.track.overlay = run.draw_dir != NULL;
    if (run.stages_dir && (run.setup.track.algorithm == PT_ALG_TL ||
                           run.setup.track.algorithm == PT_ALG_STARBURST)) {
        run.tracer = malloc(sizeof *run.tracer);
        if (!run.tracer) {
            pt_cli_fail("track: out of memory");
            rc = PT_EXIT_INPUT;
            goto done;
        }
        pt_stage_tracer_init(run.tracer, &run.setup.config, &run.setup.track);
    }
    run.eyes = run.setup.track.binocular ? 2 : 1;
    run.results = calloc((size_t)TRACK_BATCH * run.eyes, sizeof *run.results);
    if (run.setup.track.overlay)
        run.overlays = calloc((size_t)TRACK_BATCH * run.eyes, sizeof *run.overlays);
    /* Say at once when the back end cannot run here (exit 3), before any
     * work: prepared for the smallest frame, so that it costs little (the
     * first batch prepares it for its frames' size). */
    if ((rc = ensure_backend(&run, 1, 1)))
        goto done;
    pt_error err;
    pt_error_clear(&err);
    if (pt_output_open(&run.out, run.out_path, PT_OUTPUT_SYNC, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    pt_results_write_header(run.out.fp);
    run.total = inputs.count;
    run.started = pt_cli_seconds();
    /* Files are read ahead on -j threads, side by side, and tracked in their
     * order; stacks are mapped and their frames tracked where they lie. */
    run.setup.load.page_errors = 1; /* a bad TIFF page is a row of its own */
    pt_reader_options ro = {.threads = run.setup.track.threads,
                            .ahead = 2 * TRACK_BATCH,
                            .ctx = &run,
                            .touch_in_place = run.setup.backend->frames_in_place};
    if (pt_reader_open(inputs.paths, inputs.count, &run.setup.load, &ro, &run.reader, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
        goto done;
    }
    pt_read_frame f;
    while (!rc && pt_reader_next(run.reader, &f))
        rc = add_frame(&run, &f);
    if (!rc)
        rc = flush_batch(&run);
    /* the outputs are complete (error rows included): put them in place */
    if (!rc && pt_output_close(&run.out, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (!rc && run.glints_out.fp && pt_output_close(&run.glints_out, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (!rc && run.draw_failures) {
        pt_cli_fail("%s: %ld overlays could not be written", run.draw_dir, run.draw_failures);
        rc = PT_EXIT_INPUT;
    }
    if (!rc && run.failures)
        rc = PT_EXIT_INPUT;
done:
    /* after a failure: nothing half written under the final names */
    pt_output_discard(&run.out);
    pt_output_discard(&run.glints_out);
    for (int i = 0; i < run.count; i++)
        if (run.read[i].name || run.read[i].image)
            pt_reader_release(run.reader, &run.read[i]);
    /* the mappings go (and are unpinned) before the back end */
    pt_reader_close(run.reader);
    if (run.state)
        run.setup.backend->destroy(run.state);
    if (run.overlays)
        for (int i = 0; i < TRACK_BATCH * run.eyes; i++)
            pt_overlay_free(&run.overlays[i]);
    free(run.overlays);
    free(run.results);
    if (run.tracer)
        pt_stage_tracer_free(run.tracer);
    free(run.tracer);
    if (run.have_gt)
        pt_gt_free(&run.gt);
    pt_arena_free(&run.glint_arena);
    for (int e = 0; e < 2; e++)
        if (run.glint_trackers[e])
            pt_tracker_destroy(run.glint_trackers[e]);
    pt_inputs_free(&inputs);
    return rc;
}
