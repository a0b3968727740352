/* --draw-stages: the omp detectors' stages of a frame (cli/stage_trace.h). */
#include "cli/stage_trace.h"

#include <string.h>

void pt_stage_tracer_init(pt_stage_tracer *t, const pt_config *cfg, const pt_track_options *opt)
{
    memset(t, 0, sizeof *t);
    t->cfg = *cfg;
    t->opt = *opt;
    t->opt.threads = 1;
    t->opt.overlay = 1;
    t->eyes = opt->binocular ? 2 : 1;
    for (int e = 0; e < 2; e++) {
        pt_trace_reset(&t->traces[e]);
        t->overlays[e].trace = &t->traces[e];
    }
}

pt_status pt_stage_tracer_run(pt_stage_tracer *t, pt_image *frame, const char *name,
                              pt_error *err)
{
    if (!t->state || frame->width > t->width || frame->height > t->height) {
        if (t->state)
            pt_backend_omp.destroy(t->state);
        t->state = NULL;
        int w = frame->width > t->width ? frame->width : t->width;
        int h = frame->height > t->height ? frame->height : t->height;
        if (pt_backend_omp.create(&t->cfg, &t->opt, w, h, &t->state, err))
            return err->status;
        t->width = w;
        t->height = h;
    }
    for (int e = 0; e < t->eyes; e++) {
        pt_trace_reset(&t->traces[e]);
        pt_overlay_clear(&t->overlays[e]);
    }
    if (pt_backend_omp.track(t->state, &frame, 1, t->results, t->overlays, err))
        return err->status;
    for (int e = 0; e < t->eyes; e++)
        if (t->traces[e].failed)
            return pt_error_set(err, PT_ERR_NOMEM, name, "out of memory recording the stages");
    return PT_OK;
}

void pt_stage_tracer_free(pt_stage_tracer *t)
{
    if (t->state)
        pt_backend_omp.destroy(t->state);
    t->state = NULL;
    for (int e = 0; e < 2; e++) {
        pt_overlay_free(&t->overlays[e]);
        pt_trace_free(&t->traces[e]);
    }
}
