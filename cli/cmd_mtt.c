/* pupiltrack mtt: multi-target tracking of point measurements. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/api/registry.h"
#include "lib/core/output_file.h"
#include "lib/assign/mtt.h"
#include "cli/cli.h"
#include "cli/options.h"

static void usage(FILE *out)
{
    pt_mtt_params d;
    pt_mtt_default(&d);
    fprintf(out,
            "usage: pupiltrack mtt [-b seq|omp|cuda|exact] [-j N] [--auction A] [--dense] [--dmax D] [OPTIONS]\n"
            "                      [--frame-times FILE] [-o OUT.csv] "
            "MEASUREMENTS.csv\n"
            "Track points through frames: constant-velocity Kalman filter per track, auction\n"
            "assignment with utility d_max - min(d_max, distance), track scores.\n"
            "Input frame,x,y[,id] (header optional); output frame,x,y,track[,id]. With ids,\n"
            "identity metrics go to stderr (MOTA = 1 - switches/measurements, IDF1).\n"
            "  -b seq|omp|cuda|exact assignment solver (default seq); gated clusters of fewer\n"
            "                        than 4096 (omp) or 65536 (cuda) cells use the exact solver\n"
            "  -j N                  threads for -b omp (default all cores)\n"
            "  --auction default|jacobi  the auction (-b seq, omp, cuda): pupiltrack's (default)\n"
            "                        or Maier et al.'s Jacobi auction with packed 32-bit bids\n"
            "  --dense               solve each frame's whole measurements x tracks matrix\n"
            "                        (utilities in tenths of a pixel), as Maier et al. do,\n"
            "                        instead of the gated clusters\n"
            "  --frame-times FILE    write frame,measurements,ms (each frame's tracker step)\n"
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



/* --velocity VX,VY: the initial velocity of new tracks. */
static int parse_velocity(const char *text, pt_mtt_params *params)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    char *comma = strchr(buf, ',');
    if (!comma)
        return 0;
    *comma = '\0';
    return pt_cli_parse_double(buf, &params->init_vx) &&
           pt_cli_parse_double(comma + 1, &params->init_vy);
}

/* --frame-times FILE: frame,measurements,ms for every frame with measurements. */
static int write_frame_times(const char *path, const pt_measurement_set *set, const double *frame_ms,
                             pt_error *err)
{
    pt_output out;
    if (pt_output_open(&out, path, 0, err))
        return -1;
    fprintf(out.fp, "frame,measurements,ms\n");
    long first = set->items[0].frame;
    for (long a = 0, b; a < set->count; a = b) {
        for (b = a; b < set->count && set->items[b].frame == set->items[a].frame; b++)
            ;
        fprintf(out.fp, "%d,%ld,%.4f\n", set->items[a].frame, b - a, frame_ms[set->items[a].frame - first]);
    }
    return pt_output_close(&out, err) ? -1 : 0;
}

static const char *const auction_names[] = {"default", "jacobi", NULL};
static const int auction_values[] = {0, 1};

int pt_cmd_mtt(int argc, char **argv)
{
    pt_mtt_params params;
    pt_mtt_default(&params);
    const char *input = NULL, *out_path = NULL, *backend = "seq", *velocity = NULL, *times_path = NULL;
    int jacobi = 0;
    const pt_cli_option opts[] = {
        {"-b", PT_OPT_STRING, &backend, 0, 0, "a back end", NULL, NULL, NULL},
        {"-o", PT_OPT_STRING, &out_path, 0, 0, "a file", NULL, NULL, NULL},
        {"-j", PT_OPT_INT, &params.threads, 1, 4096, "a thread count", NULL, NULL, NULL},
        {"--dmax", PT_OPT_DOUBLE, &params.d_max, 0, 0, "a distance > 0", NULL, NULL, NULL},
        {"--process-noise", PT_OPT_DOUBLE, &params.process_noise, 0, 0, "a deviation >= 0", NULL, NULL, NULL},
        {"--measurement-noise", PT_OPT_DOUBLE, &params.measurement_noise, 0, 0, "a deviation > 0", NULL, NULL, NULL},
        {"--velocity-sd", PT_OPT_DOUBLE, &params.init_velocity_sd, 0, 0, "a deviation >= 0", NULL, NULL, NULL},
        {"--velocity", PT_OPT_STRING, &velocity, 0, 0, "VX,VY", NULL, NULL, NULL},
        {"--auction", PT_OPT_CHOICE, &jacobi, 0, 0, "auction", auction_names, auction_values, NULL},
        {"--dense", PT_OPT_FLAG, &params.dense, 1, 0, NULL, NULL, NULL, NULL},
        {"--frame-times", PT_OPT_STRING, &times_path, 0, 0, "a file", NULL, NULL, NULL},
        {"--score-initial", PT_OPT_INT, &params.score_initial, 0, 1000000, "a score", NULL, NULL, NULL},
        {"--score-hit", PT_OPT_INT, &params.score_hit, 0, 1000000, "a score", NULL, NULL, NULL},
        {"--score-miss", PT_OPT_INT, &params.score_miss, 0, 1000000, "a score", NULL, NULL, NULL},
        {"--score-max", PT_OPT_INT, &params.score_max, 0, 1000000, "a score", NULL, NULL, NULL},
    };
    int npos, rc0 = pt_cli_parse("mtt", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                                 usage, &input, 1, &npos);
    if (rc0)
        return PT_CLI_PARSE_EXIT(rc0);
    if (!(params.d_max > 0) || params.process_noise < 0 || !(params.measurement_noise > 0) ||
        params.init_velocity_sd < 0) {
        pt_cli_fail("mtt: --dmax and --measurement-noise must be > 0, the other deviations >= 0");
        return PT_EXIT_USAGE;
    }
    if (velocity && !parse_velocity(velocity, &params)) {
        pt_cli_fail("--velocity: expected VX,VY, got '%s'", velocity);
        return PT_EXIT_USAGE;
    }
    if (jacobi && !params.dense) {
        /* the gated clusters' utilities are not integers: the bid word cannot hold them */
        pt_cli_fail("mtt: --auction jacobi needs --dense (integer utilities in tenths of a pixel)");
        return PT_EXIT_USAGE;
    }
    params.solver = jacobi ? pt_assign_jacobi_by_name(backend) : pt_assign_backend_by_name(backend);
    if (!params.solver) {
        char names[64];
        pt_cli_fail("-b: %s back end '%s' (%s)", jacobi ? "--auction jacobi has no" : "unknown", backend,
                    pt_backend_list(jacobi ? PT_CAP_ASSIGN_JACOBI : PT_CAP_ASSIGN, names, sizeof names));
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
    double *frame_ms = NULL;
    if (times_path && set.count > 0)
        frame_ms = malloc(sizeof(double) *
                          (size_t)(set.items[set.count - 1].frame - set.items[0].frame + 1));
    int rc = PT_EXIT_OK;
    pt_status st;
    double ms = 0.0;
    if (!tracks || (times_path && set.count > 0 && !frame_ms)) {
        pt_cli_fail("%s: out of memory for %ld measurements", input, set.count);
        rc = PT_EXIT_INPUT;
    } else if ((st = pt_mtt_run_timed(&params, &set, tracks, &ms, frame_ms, &err))) {
        if (!err.file[0])
            snprintf(err.file, sizeof err.file, "%s", input);
        pt_cli_report(&err);
        rc = st == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
    }
    if (rc == PT_EXIT_OK) {
        pt_output out;
        if (pt_output_open(&out, out_path, 0, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
        } else {
            pt_measurements_write_csv(out.fp, &set, tracks);
            if (pt_output_close(&out, &err)) {
                pt_cli_report(&err);
                rc = PT_EXIT_INPUT;
            }
        }
    }
    if (rc == PT_EXIT_OK && frame_ms && write_frame_times(times_path, &set, frame_ms, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    if (rc == PT_EXIT_OK) {
        int frames = set.items[set.count - 1].frame - set.items[0].frame + 1;
        fprintf(stderr, "mtt: %ld measurements, %d frames, %.3f ms per frame (%s%s%s)\n", set.count, frames, ms,
                backend, jacobi ? ", jacobi" : "", params.dense ? ", dense" : "");
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
    free(frame_ms);
    pt_measurement_set_free(&set);
    return rc;
}
