/* --draw-stages: a frame tracked again by the omp back end's detectors with
 * their stages recorded (lib/detect/pt_trace.h), for the threshold-and-
 * labeling and Starburst stage images (man pupiltrack, track). */
#ifndef PT_CLI_STAGE_TRACE_H
#define PT_CLI_STAGE_TRACE_H

#include "lib/detect/pt_backend.h"
#include "lib/detect/pt_trace.h"

typedef struct {
    pt_config cfg;
    pt_track_options opt; /* the run's, on one thread, with overlays */
    void *state;          /* the omp back end's, made for width x height */
    int width, height;
    int eyes;
    pt_overlay overlays[2];
    pt_trace traces[2];   /* per eye, left first */
    pt_result results[2]; /* the omp detector's results for the traced frame */
} pt_stage_tracer;

/* Nothing is allocated until the first frame. */
void pt_stage_tracer_init(pt_stage_tracer *t, const pt_config *cfg, const pt_track_options *opt);
/* Track frame on the omp back end, recording each eye's stages. With
 * --sequence the tracer follows the frames it is given, in order, as the
 * omp back end does. */
pt_status pt_stage_tracer_run(pt_stage_tracer *t, pt_image *frame, const char *name,
                              pt_error *err);
void pt_stage_tracer_free(pt_stage_tracer *t);

#endif
