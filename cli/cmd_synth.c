/* pupiltrack synth: synthetic infrared eye images with ground truth. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <omp.h>

#include "lib/core/output_file.h"
#include "lib/io/pt_image.h"
#include "lib/synth/synth.h"
#include "cli/cli.h"

/* Frames rendered side by side: at most this many, and their buffers at
 * most SYNTH_GROUP_BYTES. */
#define SYNTH_GROUP_MAX 64
#define SYNTH_GROUP_BYTES (256L << 20)

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pupiltrack synth [-n N] [--binocular] [--sequence] [--size WxH] [--seed S]\n"
            "                        [--difficulty easy|normal|hard] [--hazard LIST]\n"
            "                        [--exposure E]\n"
            "                        [--format png|pgm] -o DIR\n"
            "       pupiltrack synth --particles ...\n\n"
            "Writes N synthetic near-infrared eye images DIR/000000.png ... and\n"
            "DIR/groundtruth.csv (image,eye,cx,cy,r,a,b,theta; cx empty when the\n"
            "pupil is hidden by a closed eyelid). Same seed, same images.\n\n"
            "  -n N              number of frames (default 100)\n"
            "  --binocular       two eyes per frame: L in the left half, R in the right\n"
            "  --sequence        one scene whose eye moves smoothly from frame to frame\n"
            "                    (for track --sequence); also writes DIR/glints.csv\n"
            "                    (image,eye,glint,x,y: each visible corneal reflection)\n"
            "  --size WxH        frame size (default 320x256)\n"
            "  --seed S          seed (default 1)\n"
            "  --difficulty D    easy, normal (default) or hard (normal plus one or two\n"
            "                    failure classes drawn per frame from the six below)\n"
            "  --hazard LIST     failure classes on every frame, comma-separated:\n"
            "                    low-contrast (iris 8..18 grey levels above the pupil),\n"
            "                    glint-ring (4..9 reflections on or just outside the\n"
            "                    border), lid (lids hide 20..45 %% of the pupil's\n"
            "                    diameter), small-pupil (radius = iris radius / 3..6.5),\n"
            "                    motion-blur, defocus; also writes DIR/hazards.csv\n"
            "  --exposure E      every grey level times E (0.05..1, default 1): an\n"
            "                    under-exposed camera whose pupil border rises by a few\n"
            "                    grey levels\n"
            "  --format F        png (default) or pgm (binary, 8-bit): DIR/000000.pgm ...\n"
            "  -o DIR            output folder, created if needed\n");
}

/* mkdir -p: create each missing component of path. */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char saved = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        buf[i] = saved;
    }
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
}


static void write_truth_row(FILE *csv, const char *name, const pt_synth_truth *t)
{
    const char *eye = t->eye == 'L' ? "L" : (t->eye == 'R' ? "R" : "");
    if (!t->visible)
        fprintf(csv, "%s,%s,,,,,,\n", name, eye);
    else
        fprintf(csv, "%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f\n", name, eye, t->pupil.cx,
                t->pupil.cy, t->r, t->pupil.a, t->pupil.b, t->pupil.theta);
}

int pt_cmd_synth(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--particles"))
            return pt_cmd_synth_particles(argc, argv);

    pt_synth_params params;
    pt_synth_params_default(&params);
    long count = 100;
    uint64_t seed = 1;
    int sequence = 0, pgm = 0;
    const char *out_dir = NULL;
    pt_error err;
    pt_error_clear(&err);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage(stdout);
            return PT_EXIT_OK;
        } else if (!strcmp(arg, "--binocular")) {
            params.binocular = 1;
        } else if (!strcmp(arg, "--sequence")) {
            sequence = 1;
        } else if (!strcmp(arg, "--format")) {
            if (!val || (strcmp(val, "png") && strcmp(val, "pgm"))) {
                pt_cli_fail("synth: --format is png or pgm");
                return PT_EXIT_USAGE;
            }
            pgm = !strcmp(val, "pgm");
            i++;
        } else if (!strcmp(arg, "-n") || !strcmp(arg, "--size") || !strcmp(arg, "--seed") ||
                   !strcmp(arg, "--difficulty") || !strcmp(arg, "--hazard") ||
                   !strcmp(arg, "--exposure") || !strcmp(arg, "-o")) {
            if (!val) {
                pt_cli_fail("synth: %s needs a value", arg);
                return PT_EXIT_USAGE;
            }
            i++;
            if (!strcmp(arg, "-n")) {
                if (!pt_cli_parse_long(val, 0, 100000000L, &count)) {
                    pt_cli_fail("synth: -n: '%s' is not a count in 0..100000000", val);
                    return PT_EXIT_USAGE;
                }
            } else if (!strcmp(arg, "--size")) {
                int w, h;
                char tail;
                if (sscanf(val, "%dx%d%c", &w, &h, &tail) != 2 || w < 1 || h < 1 ||
                    w > PT_IMAGE_MAX_SIDE || h > PT_IMAGE_MAX_SIDE ||
                    (long long)w * h > PT_IMAGE_MAX_PIXELS / 8) {
                    pt_cli_fail("synth: --size: '%s' is not WxH with sides in 1..%d", val,
                                PT_IMAGE_MAX_SIDE);
                    return PT_EXIT_USAGE;
                }
                params.width = w;
                params.height = h;
            } else if (!strcmp(arg, "--seed")) {
                char *end;
                errno = 0;
                unsigned long long s = strtoull(val, &end, 0);
                if (errno || end == val || *end || val[0] == '-') {
                    pt_cli_fail("synth: --seed: '%s' is not a non-negative integer", val);
                    return PT_EXIT_USAGE;
                }
                seed = (uint64_t)s;
            } else if (!strcmp(arg, "--exposure")) {
                char *end;
                double e = strtod(val, &end);
                if (end == val || *end || !(e >= 0.05 && e <= 1.0)) {
                    pt_cli_fail("synth: --exposure: '%s' is not a number in 0.05..1", val);
                    return PT_EXIT_USAGE;
                }
                params.exposure = (float)e;
            } else if (!strcmp(arg, "--hazard")) {
                unsigned set;
                if (pt_synth_parse_hazards(val, &set, &err) != PT_OK) {
                    pt_cli_report(&err);
                    return PT_EXIT_USAGE;
                }
                params.hazards |= set;
            } else if (!strcmp(arg, "--difficulty")) {
                if (pt_synth_parse_difficulty(val, &params.difficulty, &err) != PT_OK) {
                    pt_cli_report(&err);
                    return PT_EXIT_USAGE;
                }
            } else {
                out_dir = val;
            }
        } else {
            pt_cli_fail("synth: unknown option '%s' (try 'pupiltrack synth --help')", arg);
            return PT_EXIT_USAGE;
        }
    }
    if (!out_dir) {
        pt_cli_fail("synth: -o DIR is required");
        return PT_EXIT_USAGE;
    }
    int eyes = params.binocular ? 2 : 1;
    if (params.width / eyes < PT_SYNTH_MIN_SIDE || params.height < PT_SYNTH_MIN_SIDE) {
        pt_cli_fail("synth: --size %dx%d is too small: each eye needs at least %dx%d",
                    params.width, params.height, PT_SYNTH_MIN_SIDE, PT_SYNTH_MIN_SIDE);
        return PT_EXIT_USAGE;
    }
    if (make_dirs(out_dir) != 0) {
        pt_error_set(&err, PT_ERR_IO, out_dir, "cannot create folder: %s", strerror(errno));
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }

    char path[4200];
    snprintf(path, sizeof path, "%s/groundtruth.csv", out_dir);
    pt_output csv_out, glints_out, hazards_out;
    memset(&glints_out, 0, sizeof glints_out);
    memset(&hazards_out, 0, sizeof hazards_out);
    if (pt_output_open(&csv_out, path, 0, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    FILE *csv = csv_out.fp, *glints = NULL;
    fprintf(csv, "image,eye,cx,cy,r,a,b,theta\n");
    if (sequence) {
        snprintf(path, sizeof path, "%s/glints.csv", out_dir);
        if (pt_output_open(&glints_out, path, 0, &err)) {
            pt_cli_report(&err);
            pt_output_discard(&csv_out);
            return PT_EXIT_INPUT;
        }
        glints = glints_out.fp;
        fprintf(glints, "image,eye,glint,x,y\n");
    }
    FILE *hazards = NULL;
    if (params.hazards || params.difficulty == PT_SYNTH_HARD) {
        snprintf(path, sizeof path, "%s/hazards.csv", out_dir);
        if (pt_output_open(&hazards_out, path, 0, &err)) {
            pt_cli_report(&err);
            pt_output_discard(&glints_out);
            pt_output_discard(&csv_out);
            return PT_EXIT_INPUT;
        }
        hazards = hazards_out.fp;
        fprintf(hazards, "image,hazards\n");
    }

    /* Every frame has its own seed (pt_synth_frame_seed), so frames are
     * rendered and encoded side by side, a group at a time (one image
     * buffer per frame of the group), and their truth rows then written in
     * frame order: the same files as one frame after the other (~175 ms a
     * 1280x1024 frame, most of it the PNG encoding). */
    int rc = PT_EXIT_OK;
    int threads = omp_get_max_threads();
    long frame_bytes = (long)params.width * params.height; /* sides >= 1 (checked above) */
    long fit = SYNTH_GROUP_BYTES / frame_bytes;
    int group = threads * 4 < SYNTH_GROUP_MAX ? threads * 4 : SYNTH_GROUP_MAX;
    if (group > fit)
        group = fit > 1 ? (int)fit : 1;
    pt_image *imgs[SYNTH_GROUP_MAX] = {NULL};
    pt_synth_frame_truth truths[SYNTH_GROUP_MAX];
    pt_error errs[SYNTH_GROUP_MAX];
    pt_status status[SYNTH_GROUP_MAX];
    for (int k = 0; k < group && rc == PT_EXIT_OK; k++)
        if (!(imgs[k] = pt_image_create(params.width, params.height))) {
            pt_cli_fail("synth: out of memory for a %dx%d frame", params.width, params.height);
            rc = PT_EXIT_INPUT;
        }
    for (long first = 0; first < count && rc == PT_EXIT_OK; first += group) {
        int n = count - first < group ? (int)(count - first) : group;
#pragma omp parallel for schedule(dynamic, 1)
        for (int k = 0; k < n; k++) {
            long i = first + k;
            char name[32], frame_path[4200];
            snprintf(name, sizeof name, "%06ld.%s", i, pgm ? "pgm" : "png");
            snprintf(frame_path, sizeof frame_path, "%s/%s", out_dir, name);
            pt_synth_params frame_params = params;
            if (sequence)
                pt_synth_sequence_frame(&params, i, 100, &frame_params);
            uint64_t frame_seed = pt_synth_frame_seed(seed, sequence ? 0 : i);
            pt_error_clear(&errs[k]);
            status[k] = pt_synth_render(&frame_params, frame_seed, imgs[k], &truths[k], &errs[k]);
            if (status[k] == PT_OK)
                status[k] = pgm ? pt_pgm_write(frame_path, imgs[k], &errs[k])
                                : pt_png_write_grey(frame_path, imgs[k], &errs[k]);
        }
        for (int k = 0; k < n; k++) {
            if (status[k] != PT_OK) {
                pt_cli_report(&errs[k]);
                rc = PT_EXIT_INPUT;
                break;
            }
            char name[32];
            snprintf(name, sizeof name, "%06ld.%s", first + k, pgm ? "pgm" : "png");
            const pt_synth_frame_truth *truth = &truths[k];
            if (hazards) {
                char names[128];
                pt_synth_hazard_format(truth->hazards, names, sizeof names);
                fprintf(hazards, "%s,%s\n", name, names);
            }
            for (int e = 0; e < truth->count; e++) {
                const pt_synth_truth *t = &truth->eyes[e];
                write_truth_row(csv, name, t);
                for (int g = 0; glints && g < t->glints; g++)
                    if (t->glint_visible[g])
                        fprintf(glints, "%s,%s,%d,%.3f,%.3f\n", name,
                                t->eye == 'L' ? "L" : (t->eye == 'R' ? "R" : ""), g,
                                t->glint_x[g], t->glint_y[g]);
            }
        }
    }
    for (int k = 0; k < SYNTH_GROUP_MAX; k++)
        pt_image_destroy(imgs[k]);
    if (rc == PT_EXIT_OK && ((glints && pt_output_close(&glints_out, &err)) ||
                             (hazards && pt_output_close(&hazards_out, &err)) ||
                             pt_output_close(&csv_out, &err))) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    pt_output_discard(&hazards_out);
    pt_output_discard(&glints_out);
    pt_output_discard(&csv_out);
    return rc;
}
