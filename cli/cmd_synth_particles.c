/* pupiltrack synth --particles: conveyor-belt measurement streams with true ids. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/output_file.h"
#include "lib/assign/particles.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
    pt_particles_params d;
    pt_particles_default(&d);
    fprintf(out,
            "usage: pupiltrack synth --particles [--objects N] [--frames F] [--noise S] [--seed S]\n"
            "                        [--speed V] [--spacing D] [--jitter J] [--radius R] [-o FILE.csv]\n"
            "Synthetic conveyor belt for 'pupiltrack mtt': objects enter at x = 0, move along +x\n"
            "with their own speed and jitter, bounce off each other, and leave at the far end.\n"
            "Writes frame,x,y,id (true ids), one row per object and frame.\n"
            "  --objects N   mean objects per frame (default %d)\n"
            "  --frames F    frames (default %d)\n"
            "  --noise S     measurement noise sd, px (default %g)\n"
            "  --seed S      random seed (default %llu)\n"
            "  --speed V     mean speed, px/frame (default %g); --jitter J velocity noise (default %g)\n"
            "  --spacing D   mean distance between objects, px (default %g)\n"
            "  --radius R    collision radius, px (default %g)\n"
            "  -o FILE.csv   output file (default stdout)\n",
            d.objects, d.frames, d.noise, (unsigned long long)d.seed, d.speed, d.jitter, d.spacing, d.radius);
}



int pt_cmd_synth_particles(int argc, char **argv)
{
    pt_particles_params params;
    pt_particles_default(&params);
    const char *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc, ok = 1;
        long value;
        if (!strcmp(a, "--particles")) {
            continue;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(a, "-o") && has_value) {
            out_path = argv[++i];
        } else if (!strcmp(a, "--objects") && has_value) {
            ok = pt_cli_parse_long(argv[++i], 1, 1000000, &value);
            params.objects = (int)value;
        } else if (!strcmp(a, "--frames") && has_value) {
            ok = pt_cli_parse_long(argv[++i], 1, 10000000, &value);
            params.frames = (int)value;
        } else if (!strcmp(a, "--seed") && has_value) {
            ok = pt_cli_parse_long(argv[++i], 0, 0x7fffffffffffffffL, &value);
            params.seed = (uint64_t)value;
        } else if (!strcmp(a, "--noise") && has_value) {
            ok = pt_cli_parse_double(argv[++i], &params.noise) && params.noise >= 0;
        } else if (!strcmp(a, "--speed") && has_value) {
            ok = pt_cli_parse_double(argv[++i], &params.speed) && params.speed > 0;
        } else if (!strcmp(a, "--jitter") && has_value) {
            ok = pt_cli_parse_double(argv[++i], &params.jitter) && params.jitter >= 0;
        } else if (!strcmp(a, "--spacing") && has_value) {
            ok = pt_cli_parse_double(argv[++i], &params.spacing) && params.spacing > 0;
        } else if (!strcmp(a, "--radius") && has_value) {
            ok = pt_cli_parse_double(argv[++i], &params.radius) && params.radius >= 0;
        } else {
            pt_cli_fail("synth --particles: unknown argument '%s' (try --particles --help)", a);
            return PT_EXIT_USAGE;
        }
        if (!ok) {
            pt_cli_fail("%s: bad value '%s'", a, argv[i]);
            return PT_EXIT_USAGE;
        }
    }
    pt_measurement_set set;
    pt_error err;
    pt_error_clear(&err);
    if (pt_particles_generate(&params, &set, &err)) {
        pt_cli_report(&err);
        return err.status == PT_ERR_PARAM ? PT_EXIT_USAGE : PT_EXIT_INPUT;
    }
    int rc = PT_EXIT_OK;
    pt_output out;
    if (pt_output_open(&out, out_path, 0, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    } else {
        pt_measurements_write_csv(out.fp, &set, NULL);
        if (pt_output_close(&out, &err)) {
            pt_cli_report(&err);
            rc = PT_EXIT_INPUT;
        }
    }
    pt_measurement_set_free(&set);
    return rc;
}
