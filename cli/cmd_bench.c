/* pupiltrack bench: throughput (batches) and latency (one frame at a time)
 * of a detector on a back end, frames read from host memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/bench_files.h"
#include "cli/cli.h"
#include "cli/inputs.h"
#include "lib/io/load_group.h"
#include "cli/track_options.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack bench [OPTIONS] IMAGE|DIR...\n"
            "       pupiltrack bench --from-files [OPTIONS] IMAGE|STACK|VIDEO|DIR...\n"
            "Time a detector on frames held in memory: throughput in batches, then\n"
            "latency with one frame per call. Prints one line per mode; a back end\n"
            "that can keep two calls in flight (cuda) is timed that way too\n"
            "('throughput') and one call at a time.\n"
            "With --from-files: frames per second from the files to the results rows,\n"
            "reading as track does (decoding ahead on -j threads, stacks mapped and\n"
            "their frames used in place), and the time of each stage: read/decode,\n"
            "upload, detect, results.\n\n"
            "%s"
            "  --batch N        frames per back-end call in throughput mode (default 256)\n"
            "  --frames N       frames to process per mode (default 2000; --from-files:\n"
            "                   at most N frames a pass, default all)\n"
            "  --devices LIST   CUDA devices to split each batch across: all, or e.g. 0,1\n"
            "  --from-files     time files to results (see above)\n"
            "  --passes N       --from-files: read the inputs N times (default 1)\n"
            "  --decode-only    --from-files: read the frames only: the reading rate\n"
            "  --pin            --from-files, -b cuda: pin each mapping (page-lock it for\n"
            "                   the copies) instead of copying through staging\n"
            "  -o FILE          --from-files: write the results rows here (default: nowhere)\n",
            pt_detector_setup_help);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* Runs `total` frames through the back end in calls of `batch`, cycling over
 * the loaded frames; returns seconds, or -1 on failure (reported).
 * pipelined: through submit, two calls in flight (results has room for two
 * batches, used in turn), and a drain at the end. */
static double timed_run(const pt_detector_setup *s, void *state, pt_image **frames, int nframes,
                        int batch, int total, int pipelined, pt_result *results)
{
    pt_image **call = malloc(2 * (size_t)batch * sizeof *call);
    if (!call)
        return -1;
    int eyes = s->track.binocular ? 2 : 1;
    double t0 = now_s();
    int next = 0, half = 0;
    pt_error err;
    pt_error_clear(&err);
    for (int done = 0; done < total; done += batch) {
        int n = total - done < batch ? total - done : batch;
        pt_image **these = call + (size_t)half * batch;
        pt_result *into = results + (size_t)half * batch * eyes;
        for (int i = 0; i < n; i++)
            these[i] = frames[(next + i) % nframes];
        next = (next + n) % nframes;
        pt_status st = pipelined ? s->backend->submit(state, these, n, into, NULL, &err)
                                 : s->backend->track(state, these, n, into, NULL, &err);
        if (st) {
            pt_cli_report(&err);
            free(call);
            return -1;
        }
        half = pipelined ? 1 - half : 0;
    }
    if (pipelined && s->backend->drain(state, &err)) {
        pt_cli_report(&err);
        free(call);
        return -1;
    }
    double t = now_s() - t0;
    free(call);
    return t;
}

int pt_cmd_bench(int argc, char **argv)
{
    pt_detector_setup s;
    pt_detector_setup_default(&s);
    pt_input_list inputs = {0};
    int batch = 256, total = 2000, rc = PT_EXIT_OK, total_given = 0;
    pt_bench_files_options files = {.passes = 1, .pin = 0};
    int from_files = 0;
    for (int i = 1; i < argc; i++) {
        int used = pt_detector_setup_option(&s, argc, argv, &i);
        if (used < 0)
            return PT_EXIT_USAGE;
        if (used)
            continue;
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(a, "--batch") && i + 1 < argc) {
            if (pt_option_int(a, argv[++i], 1, 65536, &batch))
                return PT_EXIT_USAGE;
        } else if (!strcmp(a, "--frames") && i + 1 < argc) {
            if (pt_option_int(a, argv[++i], 1, 100000000, &total))
                return PT_EXIT_USAGE;
            total_given = 1;
        } else if (!strcmp(a, "--from-files")) {
            from_files = 1;
        } else if (!strcmp(a, "--decode-only")) {
            files.decode_only = 1;
        } else if (!strcmp(a, "--pin")) {
            files.pin = 1;
        } else if (!strcmp(a, "--passes") && i + 1 < argc) {
            if (pt_option_int(a, argv[++i], 1, 1000000, &files.passes))
                return PT_EXIT_USAGE;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            files.out = argv[++i];
        } else if (!strcmp(a, "--devices") && i + 1 < argc) {
            if (pt_option_devices(argv[++i], &s.track))
                return PT_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("bench: unknown option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (pt_inputs_add(&inputs, a)) {
            pt_cli_fail("%s: cannot read the folder", a);
            return PT_EXIT_INPUT;
        }
    }
    pt_detector_setup_gain(&s);
    if (pt_detector_setup_check(&s))
        return PT_EXIT_USAGE;
    if (!from_files && (files.decode_only || files.pin || files.passes != 1 || files.out)) {
        pt_cli_fail("bench: --decode-only, --pin, --passes and -o go with --from-files");
        return PT_EXIT_USAGE;
    }
    if (inputs.count == 0) {
        if (!inputs.empty_folders)
            pt_cli_fail("bench: no images given (try --help)");
        return inputs.empty_folders ? PT_EXIT_INPUT : PT_EXIT_USAGE;
    }
    if (from_files) {
        files.batch = batch;
        files.frames = total_given ? total : 0;
        rc = pt_bench_files(&s, &inputs, &files);
        pt_inputs_free(&inputs);
        return rc;
    }
    /* Load every frame first: the benchmark reads frames from host memory.
     * Files are decoded up to 32 at a time, side by side. */
    pt_image **frames = NULL;
    int nframes = 0, maxw = 0, maxh = 0;
    pt_loaded_input group[PT_LOAD_GROUP];
    for (int i = 0; i < inputs.count;) {
        int k = pt_load_group_size(inputs.paths + i, inputs.count - i, PT_LOAD_GROUP);
        pt_load_group(inputs.paths + i, k, &s.load, s.track.threads, group);
        for (int j = 0; j < k; j++) {
            pt_frames *f = &group[j].frames;
            if (group[j].status) {
                pt_cli_report(&group[j].err);
                rc = PT_EXIT_INPUT;
                continue;
            }
            pt_image **grown = realloc(frames, (size_t)(nframes + f->count) * sizeof *frames);
            if (!grown) {
                pt_frames_free(f);
                rc = PT_EXIT_INPUT;
                continue;
            }
            frames = grown;
            for (int p = 0; p < f->count; p++) {
                frames[nframes++] = f->frames[p];
                if (f->frames[p]->width > maxw)
                    maxw = f->frames[p]->width;
                if (f->frames[p]->height > maxh)
                    maxh = f->frames[p]->height;
                f->frames[p] = NULL;
            }
            pt_frames_free(f);
        }
        i += k;
    }
    pt_inputs_free(&inputs);
    if (nframes == 0) {
        free(frames);
        return rc ? rc : PT_EXIT_INPUT;
    }
    void *state = NULL;
    int pinned = 0;
    pt_error err;
    pt_error_clear(&err);
    if (s.backend->create(&s.config, &s.track, maxw, maxh, &state, &err)) {
        pt_cli_report(&err);
        rc = err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
        goto done;
    }
    /* Frames are reused many times: let the back end page-lock them, as a
     * capture pipeline writing into pinned buffers would. */
    if (s.backend->pin) {
        if (s.backend->pin(state, frames, nframes, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
            goto done;
        }
        pinned = 1;
    }
    int eyes = s.track.binocular ? 2 : 1;
    pt_result *results = calloc(2 * (size_t)batch * eyes, sizeof *results);
    if (!results) {
        rc = PT_EXIT_INPUT;
        goto done;
    }
    const char *alg = pt_algorithm_name(s.track.algorithm);
    /* Warm-up: first-touch allocations, thread start, arena growth. */
    int warm = batch < nframes ? batch : nframes;
    /* A back end that can keep two calls in flight (submit) is timed both
     * ways: pipelined, as a capture loop feeding it would run, and one call
     * waited for before the next. */
    int pipelined = s.backend->submit && s.backend->drain;
    if (timed_run(&s, state, frames, nframes, batch, warm, 0, results) < 0) {
        rc = PT_EXIT_INPUT;
    } else {
        double tp = pipelined ? timed_run(&s, state, frames, nframes, batch, total, 1, results) : 0;
        double t = tp < 0 ? -1 : timed_run(&s, state, frames, nframes, batch, total, 0, results);
        int latency_frames = total < 500 ? total : 500;
        double tl =
            t < 0 ? -1 : timed_run(&s, state, frames, nframes, 1, latency_frames, 0, results);
        if (t < 0 || tl < 0) {
            rc = PT_EXIT_INPUT;
        } else {
            printf("bench: %s %s %s%s %dx%d frames=%d batch=%d threads=%d%s%s\n", alg,
                   s.backend->name, s.track.ellipse ? "ellipse" : "circle",
                   s.track.binocular ? " binocular" : "", maxw, maxh, total, batch,
                   s.track.threads, s.preset ? " preset=" : "", s.preset ? s.preset : "");
            if (pipelined)
                printf("throughput: %.1f fps (%.3f ms/frame; two calls in flight)\n", total / tp,
                       1e3 * tp / total);
            printf("%s: %.1f fps (%.3f ms/frame%s)\n",
                   pipelined ? "throughput, one call at a time" : "throughput", total / t,
                   1e3 * t / total, pipelined ? "; each call waited for" : "");
            printf("latency: %.3f ms/frame (one frame per call, %d frames)\n",
                   1e3 * tl / latency_frames, latency_frames);
            if (s.backend->stage_report) {
                char report[1024];
                s.backend->stage_report(state, report, sizeof report);
                printf("stages (mean over every frame processed):\n%s", report);
            }
        }
    }
    free(results);
done:
    if (pinned)
        s.backend->unpin(state, frames, nframes);
    if (state)
        s.backend->destroy(state);
    for (int i = 0; i < nframes; i++)
        pt_image_destroy(frames[i]);
    free(frames);
    return rc;
}
