/* Options shared by track and bench: detector, back end, parameters. */
#ifndef PT_CLI_TRACK_OPTIONS_H
#define PT_CLI_TRACK_OPTIONS_H

#include "../lib/pt_backend.h"

typedef struct {
    pt_track_options track;
    pt_config config;
    const pt_backend *backend;
    pt_load_options load;
} pt_detector_setup;

void pt_detector_setup_default(pt_detector_setup *s);
/* Consumes one option at argv[*i] (advancing *i past its value) if it is one of
 * -a -b -j -p --ellipse --binocular --sequence --bits; returns 1 if consumed,
 * 0 if not one of these, -1 on error (already reported; exit 2). */
int pt_detector_setup_option(pt_detector_setup *s, int argc, char **argv, int *i);
extern const char pt_detector_setup_help[];

#endif
