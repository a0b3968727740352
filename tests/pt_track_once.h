/* One frame through a back end's table: create, track, destroy, with one
 * thread and default options for the detector. */
#ifndef PT_TRACK_ONCE_H
#define PT_TRACK_ONCE_H

#include <string.h>

#include "lib/detect/pt_backend.h"

/* Returns 0 and the frame's result in res[0] (and res[1] binocular: not
 * here), non-zero when the back end fails. */
static int pt_track_once(const pt_backend *b, const pt_config *cfg, pt_algorithm alg,
                         pt_image *f, pt_result *res)
{
    pt_track_options opt;
    memset(&opt, 0, sizeof opt);
    opt.algorithm = alg;
    opt.threads = 1;
    void *state = NULL;
    pt_error err;
    pt_error_clear(&err);
    if (b->create(cfg, &opt, f->width, f->height, &state, &err))
        return 1;
    int rc = b->track(state, &f, 1, res, NULL, &err) != PT_OK;
    b->destroy(state);
    return rc;
}

#endif
