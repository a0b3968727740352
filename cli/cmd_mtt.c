/* pupiltrack mtt: multi-target tracking of point measurements. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backends/registry.h"
#include "lib/assign/mtt.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    pt_mtt_params d;
    pt_mtt_default(&d);
    fprintf(out,
            "usage: pupiltrack mtt [-b seq|omp|cuda|exact] [-j N] [--dmax D] [OPTIONS] [-o OUT.csv] "
            "MEASUREMENTS.csv\n"
            "Track points through frames: constant-velocity Kalman filter per track, auction\n"
            "assignment with utility d_max - min(d_max, distance), track scores.\n"
            "Input frame,x,y[,id] (header optional); output frame,x,y,track[,id]. With ids,\n"
            "identity metrics go to stderr (MOTA = 1 - switches/measurements, IDF1).\n"
            "  -b seq|omp|cuda|exact assignment solver (default seq); gated clusters smaller\n"
            "                        than 64x64 (omp) or 256x256 (cuda) use the sequential auction\n"
            "  -j N                  threads for -b omp (default all cores)\n"
            "  --dmax D              gate and utility cut-off, px (default %g)\n"
            "  --process-noise A     acceleration sd, px/frame^2 (default %g)\n"
            "  --measurement-noise R position sd, px (default %g)\n"
            "  --velocity VX,VY      velocity of a new track, px/frame (default %g,%g)\n"
            "  --velocity-sd S       its uncertainty, px/frame (default %g)\n"
            "  --score-initial N  --score-hit N  --score-miss N  --score-max N\n"
            "                        track score rules (defaults %d, +%d, -%d, max %d; deleted below 0)\n"
            "  -o OUT.csv            output file (default stdout)\n",
            d.d_max, d.process_noise, d.measurement_noise, d.init_vx, d.init_vy, d.init_velocity_sd,
            d.score_initial, d.score_hit, d.score_miss, d.score_max);
}



int pt_cmd_mtt(int argc, char **argv)
{
    pt_mtt_params params;
    pt_mtt_default(&params);
    const char *input = NULL, *out_path = NULL, *backend = "seq";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(a, "-b") && v) {
            backend = argv[++i];
        } else if (!strcmp(a, "-o") && v) {
            out_path = argv[++i];
        } else if (!strcmp(a, "-j") && v) {
            ok = pt_cli_parse_int(argv[++i], 1, 4096, &params.threads);
        } else if (!strcmp(a, "--dmax") && v) {
            ok = pt_cli_parse_double(argv[++i], &params.d_max) && params.d_max > 0;
        } else if (!strcmp(a, "--process-noise") && v) {
            ok = pt_cli_parse_double(argv[++i], &params.process_noise) && params.process_noise >= 0;
        } else if (!strcmp(a, "--measurement-noise") && v) {
            ok = pt_cli_parse_double(argv[++i], &params.measurement_noise) && params.measurement_noise > 0;
        } else if (!strcmp(a, "--velocity-sd") && v) {
            ok = pt_cli_parse_double(argv[++i], &params.init_velocity_sd) && params.init_velocity_sd >= 0;
        } else if (!strcmp(a, "--velocity") && v) {
            char buf[128];
            snprintf(buf, sizeof buf, "%s", argv[++i]);
            char *comma = strchr(buf, ',');
            ok = comma != NULL;
            if (ok) {
                *comma = '\0';
                ok = pt_cli_parse_double(buf, &params.init_vx) && pt_cli_parse_double(comma + 1, &params.init_vy);
            }
        } else if (!strcmp(a, "--score-initial") && v) {
            ok = pt_cli_parse_int(argv[++i], 0, 1000000, &params.score_initial);
        } else if (!strcmp(a, "--score-hit") && v) {
            ok = pt_cli_parse_int(argv[++i], 0, 1000000, &params.score_hit);
        } else if (!strcmp(a, "--score-miss") && v) {
            ok = pt_cli_parse_int(argv[++i], 0, 1000000, &params.score_miss);
        } else if (!strcmp(a, "--score-max") && v) {
            ok = pt_cli_parse_int(argv[++i], 0, 1000000, &params.score_max);
        } else if (a[0] == '-' && a[1]) {
            pt_cli_fail("mtt: unknown option '%s' (try --help)", a);
            return PT_EXIT_USAGE;
        } else if (!input) {
            input = a;
        } else {
            pt_cli_fail("mtt: more than one measurements file ('%s', '%s')", input, a);
            return PT_EXIT_USAGE;
        }
        if (!ok) {
            pt_cli_fail("%s: bad value '%s' (try --help)", a, argv[i]);
            return PT_EXIT_USAGE;
        }
    }
    params.solver = pt_assign_backend_by_name(backend);
    if (!params.solver) {
        char names[64];
        pt_cli_fail("-b: unknown back end '%s' (%s)", backend,
                    pt_backend_list(PT_CAP_ASSIGN, names, sizeof names));
        return PT_EXIT_USAGE;
    }
    pt_error err;
    pt_error_clear(&err);
    if (params.solver->available && params.solver->available(&err)) {
        pt_cli_report(&err);
        return PT_EXIT_UNAVAILABLE;
    }
    if (params.score_max < params.score_initial) {
        pt_cli_fail("--score-max must be at least --score-initial");
        return PT_EXIT_USAGE;
    }
    if (!input) {
        pt_cli_fail("mtt: no measurements file (try --help)");
        return PT_EXIT_USAGE;
    }
    pt_measurement_set set;
    if (pt_measurements_load_csv(input, &set, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    int *tracks = malloc(sizeof(int) * (size_t)set.count);
    int rc = PT_EXIT_OK;
    pt_status st;
    double ms = 0.0;
    if (!tracks) {
        pt_cli_fail("%s: out of memory for %ld measurements", input, set.count);
        rc = PT_EXIT_INPUT;
    } else if ((st = pt_mtt_run(&params, &set, tracks, &ms, &err))) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", input);
        pt_cli_report(&err);
        rc = st == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
    }
    if (rc == PT_EXIT_OK) {
        FILE *out = out_path ? fopen(out_path, "w") : stdout;
        if (!out) {
            pt_cli_fail("%s: cannot open for writing: %s", out_path, strerror(errno));
            rc = PT_EXIT_INPUT;
        } else {
            int failed = pt_measurements_write_csv(out, &set, tracks) != 0;
            if (out_path && fclose(out))
                failed = 1;
            if (failed) {
                pt_cli_fail("%s: write error", out_path ? out_path : "stdout");
                rc = PT_EXIT_INPUT;
            }
        }
    }
    if (rc == PT_EXIT_OK) {
        int frames = set.items[set.count - 1].frame - set.items[0].frame + 1;
        fprintf(stderr, "mtt: %ld measurements, %d frames, %.3f ms per frame (%s)\n", set.count, frames, ms,
                backend);
        if (set.has_ids) {
            int *frame = malloc(sizeof(int) * (size_t)set.count), *id = malloc(sizeof(int) * (size_t)set.count);
            pt_mtt_metrics m;
            if (!frame || !id) {
                pt_cli_fail("%s: out of memory for the metrics", input);
                rc = PT_EXIT_INPUT;
            } else {
                for (long k = 0; k < set.count; k++) {
                    frame[k] = set.items[k].frame;
                    id[k] = set.items[k].id;
                }
                if (pt_mtt_metrics_compute(frame, id, tracks, set.count, &m, &err)) {
                    pt_cli_report(&err);
                    rc = PT_EXIT_INPUT;
                } else {
                    fprintf(stderr,
                            "metrics: objects %d, tracks %d, split objects %d, merged tracks %d, "
                            "ID switches %ld, MOTA %.4f, IDF1 %.4f\n",
                            m.objects, m.tracks, m.objects_split, m.tracks_merged, m.id_switches, m.mota,
                            m.idf1);
                }
            }
            free(frame);
            free(id);
        }
    }
    free(tracks);
    pt_measurement_set_free(&set);
    return rc;
}
