#include "cli/track_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/params/params_preset.h"
#include "lib/api/registry.h"
#include "cli/cli.h"

const char pt_detector_setup_help[] =
    "  -a ALG           detector: starburst (default), tl, hough\n"
    "  -b BACKEND       omp (default) or cuda\n"
    "  -j N             OpenMP threads (default: all cores; 1 = sequential)\n"
    "  -p KEY=VALUE     set a detector parameter (see 'pupiltrack params')\n"
    "  --preset NAME    start from these parameter values instead of the defaults:\n"
    "                   paper (the pupil paper's detectors) or default; -p wins\n"
    "  --ellipse        fit ellipses instead of circles\n"
    "  --binocular      two eyes: left eye in the left half, right eye in the right half\n"
    "  --sequence       frames are a sequence: start from the previous centre\n"
    "  --streams N      -b cuda: CUDA streams in flight (1..64, default 4)\n"
    "  --cuda-off LIST  -b cuda: optimisations to switch off, for measuring them:\n"
    "                   pinned, mapped, batch, graphs (comma-separated) or all;\n"
    "                   the results stay the same\n"
    "  --bits N         significant bits of 16-bit images (8..16; default: the\n"
    "                   file's own (PNG sBIT, TIFF MaxSampleValue, PGM maxval), else 16)\n"
    "  --gain G         grey levels times G (1..64; 1: as read), or auto (default):\n"
    "                   a dark file (99th percentile of its first frame's levels\n"
    "                   below 250 under 100) is stretched to bring it to 100, at most\n"
    "                   x8; -a hough reads its frames as they are\n"
    "  --size WxH       frame size of .raw stacks (headerless frames, one after another)\n"
    "  --depth 8|16     bits a sample of .raw stacks (default 8; 16: little-endian)\n";

void pt_detector_setup_default(pt_detector_setup *s)
{
    memset(s, 0, sizeof *s);
    s->track.algorithm = PT_ALG_STARBURST;
    pt_config_default(&s->config);
    s->backend = pt_track_backend("omp");
    pt_load_options_default(&s->load);
    s->load.gain = 0.0; /* --gain auto */
}

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        pt_cli_fail("option %s needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

int pt_option_int(const char *opt, const char *text, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end || v < lo || v > hi) {
        pt_cli_fail("%s: '%s' is not an integer in [%d, %d]", opt, text, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int pt_option_devices(const char *text, pt_track_options *t)
{
    if (!strcmp(text, "all")) {
        t->ndevices = -1;
        return 0;
    }
    t->ndevices = 0;
    const char *p = text;
    while (*p) {
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || d < 0 || d > 255 || (*end && *end != ',') ||
            t->ndevices == PT_MAX_DEVICES) {
            pt_cli_fail("--devices: '%s' is not 'all' or a list of up to %d device numbers",
                        text, PT_MAX_DEVICES);
            return -1;
        }
        t->devices[t->ndevices++] = (int)d;
        p = *end ? end + 1 : end;
    }
    if (t->ndevices == 0) {
        pt_cli_fail("--devices: empty list");
        return -1;
    }
    return 0;
}

/* --cuda-off LIST: names of PT_CUDA_OFF_* bits, comma-separated, or all / none. */
int pt_option_cuda_off(const char *text, int *mask)
{
    static const struct {
        const char *name;
        int bit;
    } names[] = {{"pinned", PT_CUDA_OFF_PINNED}, {"mapped", PT_CUDA_OFF_MAPPED},
                 {"batch", PT_CUDA_OFF_BATCH},   {"graphs", PT_CUDA_OFF_GRAPHS},
                 {"all", PT_CUDA_OFF_ALL},       {"none", 0}};
    int m = 0;
    const char *p = text;
    do {
        size_t len = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof names / sizeof names[0] &&
               (strlen(names[k].name) != len || strncmp(names[k].name, p, len)))
            k++;
        if (k == sizeof names / sizeof names[0]) {
            pt_cli_fail("--cuda-off: '%.*s' is not one of pinned, mapped, batch, graphs, all, none",
                        (int)len, p);
            return -1;
        }
        m |= names[k].bit;
        p += len;
    } while (*p++ == ',');
    *mask = m;
    return 0;
}

int pt_detector_setup_option(pt_detector_setup *s, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--ellipse"))
        s->track.ellipse = 1;
    else if (!strcmp(a, "--binocular"))
        s->track.binocular = 1;
    else if (!strcmp(a, "--sequence"))
        s->track.sequence = 1;
    else if (!strcmp(a, "-a")) {
        if (!(v = value_of(argc, argv, i)))
            return -1;
        s->track.algorithm = pt_algorithm_from_name(v);
        if (!s->track.algorithm) {
            pt_cli_fail("-a: unknown detector '%s' (starburst, tl, hough)", v);
            return -1;
        }
    } else if (!strcmp(a, "-b")) {
        if (!(v = value_of(argc, argv, i)))
            return -1;
        s->backend = pt_track_backend(v);
        if (!s->backend) {
            char names[64];
            pt_cli_fail("-b: unknown back end '%s' (%s)", v,
                        pt_backend_list(PT_CAP_TRACK, names, sizeof names));
            return -1;
        }
    } else if (!strcmp(a, "-j")) {
        if (!(v = value_of(argc, argv, i)) || pt_option_int("-j", v, 0, 4096, &s->track.threads))
            return -1;
    } else if (!strcmp(a, "--bits")) {
        if (!(v = value_of(argc, argv, i)) ||
            pt_option_int("--bits", v, 8, 16, &s->load.significant_bits))
            return -1;
        s->load.bits_from_file = 0;
    } else if (!strcmp(a, "--gain")) {
        if (!(v = value_of(argc, argv, i)))
            return -1;
        char *end;
        double g = strtod(v, &end);
        if (!strcmp(v, "auto")) {
            s->load.gain = 0.0;
        } else if (end == v || *end || !(g >= 1.0 && g <= 64.0)) {
            pt_cli_fail("--gain: '%s' is not auto or a number in [1, 64]", v);
            return -1;
        } else {
            s->load.gain = g;
        }
    } else if (!strcmp(a, "--streams")) {
        if (!(v = value_of(argc, argv, i)) || pt_option_int("--streams", v, 1, 64, &s->track.streams))
            return -1;
    } else if (!strcmp(a, "--cuda-off")) {
        if (!(v = value_of(argc, argv, i)) || pt_option_cuda_off(v, &s->track.cuda_off))
            return -1;
    } else if (!strcmp(a, "--size")) {
        char *x;
        if (!(v = value_of(argc, argv, i)))
            return -1;
        long w = strtol(v, &x, 10), h = *x == 'x' ? strtol(x + 1, &x, 10) : 0;
        if (*x || w < 1 || h < 1 || w > PT_IMAGE_MAX_SIDE || h > PT_IMAGE_MAX_SIDE) {
            pt_cli_fail("--size: '%s' is not WxH (e.g. 640x480)", v);
            return -1;
        }
        s->load.raw_width = (int)w;
        s->load.raw_height = (int)h;
    } else if (!strcmp(a, "--depth")) {
        if (!(v = value_of(argc, argv, i)) ||
            pt_option_int("--depth", v, 8, 16, &s->load.raw_depth))
            return -1;
        if (s->load.raw_depth != 8 && s->load.raw_depth != 16) {
            pt_cli_fail("--depth: %d is not 8 or 16", s->load.raw_depth);
            return -1;
        }
    } else if (!strcmp(a, "-p")) {
        if (!(v = value_of(argc, argv, i)))
            return -1;
        pt_error err;
        if (pt_config_set(&s->config, v, &err)) {
            pt_cli_report(&err);
            return -1;
        }
        char key[128];
        size_t len = strcspn(v, "=");
        snprintf(key, sizeof key, "%.*s", (int)(len < sizeof key ? len : sizeof key - 1), v);
        const pt_param_def *d = pt_param_find(key);
        if (d && s->ngiven < PT_SETUP_MAX_GIVEN)
            s->given[s->ngiven++] = d;
        if (s->nassignments == PT_MAX_ASSIGNMENTS) {
            pt_cli_fail("-p: more than %d parameters set", PT_MAX_ASSIGNMENTS);
            return -1;
        }
        s->assignments[s->nassignments++] = v;
    } else if (!strcmp(a, "--preset")) {
        if (!(v = value_of(argc, argv, i)))
            return -1;
        const pt_preset *preset = pt_preset_find(v);
        if (!preset) {
            pt_cli_fail("--preset: unknown preset '%s' (%s)", v, pt_preset_names());
            return -1;
        }
        /* The preset replaces the defaults; -p values given so far stay. */
        pt_error err;
        pt_config_default(&s->config);
        if (pt_config_apply_preset(&s->config, preset, &err)) {
            pt_cli_report(&err);
            return -1;
        }
        for (int k = 0; k < s->nassignments; k++)
            if (pt_config_set(&s->config, s->assignments[k], &err)) {
                pt_cli_report(&err);
                return -1;
            }
        s->preset = preset->name;
    } else {
        return 0;
    }
    return 1;
}

void pt_detector_setup_gain(pt_detector_setup *s)
{
    int paper = s->preset && !strcmp(s->preset, "paper");
    if (s->load.gain < 1.0 && (s->track.algorithm == PT_ALG_HOUGH || paper))
        s->load.gain = 1.0;
}

int pt_detector_setup_check(const pt_detector_setup *s)
{
    pt_error err;
    if (pt_config_check(&s->config, &err)) {
        pt_cli_report(&err);
        return -1;
    }
    const char *alg = pt_algorithm_name(s->track.algorithm);
    for (int k = 0; k < s->ngiven; k++) {
        const pt_param_def *d = s->given[k];
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= s->given[j] == d;
        if (seen || (d->algorithms & s->track.algorithm))
            continue;
        char users[64] = "";
        for (unsigned a = PT_ALG_STARBURST; a <= PT_ALG_HOUGH; a <<= 1)
            if (d->algorithms & a)
                snprintf(users + strlen(users), sizeof users - strlen(users), "%s%s",
                         users[0] ? " and " : "", pt_algorithm_name((pt_algorithm)a));
        pt_cli_fail("warning: -p %s: a parameter of %s, not used by %s (-a)", d->name, users, alg);
    }
    int cuda = s->backend->gpu_options;
    if (!cuda && s->track.ndevices != 0)
        pt_cli_fail("warning: --devices applies to -b cuda only; ignored with -b %s",
                    s->backend->name);
    if (!cuda && s->track.cuda_off != 0)
        pt_cli_fail("warning: --cuda-off applies to -b cuda only; ignored with -b %s",
                    s->backend->name);
    if (!cuda && s->track.streams != 0)
        pt_cli_fail("warning: --streams applies to -b cuda only; ignored with -b %s",
                    s->backend->name);
    return 0;
}

int pt_detector_fit(const pt_detector_setup *s, int width, int height, void **state,
                    int *state_width, int *state_height)
{
    if (*state && width <= *state_width && height <= *state_height)
        return 0;
    if (*state)
        s->backend->destroy(*state);
    *state = NULL;
    int w = width > *state_width ? width : *state_width;
    int h = height > *state_height ? height : *state_height;
    pt_error err;
    pt_error_clear(&err);
    if (s->backend->create(&s->config, &s->track, w, h, state, &err)) {
        pt_cli_report(&err);
        return err.status == PT_ERR_UNAVAILABLE ? PT_EXIT_UNAVAILABLE : PT_EXIT_INPUT;
    }
    *state_width = w;
    *state_height = h;
    return 0;
}
