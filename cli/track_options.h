/* Options shared by track and bench: detector, back end, parameters. */
#ifndef PT_CLI_TRACK_OPTIONS_H
#define PT_CLI_TRACK_OPTIONS_H

#include "lib/detect/pt_backend.h"

/* Parameters given with -p, remembered for pt_detector_setup_check. */
#define PT_SETUP_MAX_GIVEN 64
#define PT_MAX_ASSIGNMENTS 256

typedef struct {
    pt_track_options track;
    pt_config config;
    const pt_backend *backend;
    pt_load_options load;
    const pt_param_def *given[PT_SETUP_MAX_GIVEN];
    int ngiven;
    /* the -p values so far, so that --preset (wherever it stands) lies under them */
    const char *assignments[PT_MAX_ASSIGNMENTS];
    int nassignments;
    const char *preset; /* --preset NAME, or NULL */
} pt_detector_setup;

void pt_detector_setup_default(pt_detector_setup *s);
/* Consumes one option at argv[*i] (advancing *i past its value) if it is one of
 * -a -b -j -p --preset --ellipse --binocular --sequence --bits --gain --streams
 * --cuda-off --size --depth; returns 1 if consumed, 0 if not one of these, -1 on error (already
 * reported; exit 2). */
int pt_detector_setup_option(pt_detector_setup *s, int argc, char **argv, int *i);
extern const char pt_detector_setup_help[];
/* --gain auto (lib/io/frame_gain.h) for the chosen detector: Starburst's
 * and tl's steps are in grey levels and take the automatic gain; hough's
 * Canny thresholds are quantiles of each frame's own gradients, so its
 * frames are read as they are (gain 1), as are all with --preset paper (the
 * paper's detectors read frames as they are). A gain given stays. */
void pt_detector_setup_gain(pt_detector_setup *s);
/* After the options: refuses parameters that contradict each other (0, or
 * -1 after one line; exit 2) and warns, one line each, about options that
 * do nothing here: a -p parameter the chosen detector does not use,
 * --devices, --streams or --cuda-off without -b cuda. */
int pt_detector_setup_check(const pt_detector_setup *s);
/* *out = text as an integer in [lo, hi]; 0, or -1 after one clear line naming opt. */
int pt_option_int(const char *opt, const char *text, int lo, int hi, int *out);

/* --devices LIST: "all" or comma-separated CUDA device numbers -> t->devices.
 * 0, or -1 after a one-line message (exit 2). */
int pt_option_devices(const char *text, pt_track_options *t);
/* --cuda-off LIST: pinned, mapped, batch, graphs (comma-separated), all or
 * none -> *mask of PT_CUDA_OFF_* bits. 0, or -1 after a one-line message. */
int pt_option_cuda_off(const char *text, int *mask);
/* Have *state hold the setup's back end for frames up to width x height,
 * (re)creating it at the larger size when they do not fit; *state_width and
 * *state_height are its size. Returns 0, or the exit status (3 when the back
 * end cannot run here, else 1) after reporting the error. */
int pt_detector_fit(const pt_detector_setup *s, int width, int height, void **state,
                    int *state_width, int *state_height);

#endif
