/* report.html of a finished sweep: the worst frames of the best
 * configuration drawn, then the page (pupiltrack-sweep(1), REPORT). */
#include "cli/sweep_html_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "eval/sweep_files.h"
#include "eval/sweep_html.h"
#include "lib/api/registry.h"
#include "cli/cli.h"
#include "cli/draw.h"
#include "cli/inputs.h"
#include "cli/track_options.h"

/* Load the frame a results row names ("file" or "file#page"). */
static pt_status load_named(const char *name, const pt_load_options *base, pt_frames *out,
                            pt_error *err)
{
    pt_load_options opt = *base;
    char path[4096];
    if (strlen(name) >= sizeof path)
        return pt_error_set(err, PT_ERR_IO, "", "frame name too long");
    memcpy(path, name, strlen(name) + 1);
    char *hash = strrchr(path, '#');
    struct stat st;
    if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1) &&
        stat(path, &st) != 0) {
        *hash = '\0';
        opt.page = atoi(hash + 1);
    }
    return pt_image_load(path, &opt, out, err);
}

/* Track one frame with the best configuration and draw it into dir as
 * --draw does; 0 when drawn. */
static int draw_one(pt_detector_setup *setup, void **state, int *sw, int *sh, const char *name,
                    const pt_gt *gt, const char *dir, pt_error *err)
{
    pt_frames frames = {0};
    if (load_named(name, &setup->load, &frames, err))
        return -1;
    int rc = -1, eyes = setup->track.binocular ? 2 : 1;
    pt_image *frame = frames.count ? frames.frames[0] : NULL;
    pt_result res[2], truth[2];
    pt_overlay ov[2];
    memset(ov, 0, sizeof ov);
    if (frame && !pt_detector_fit(setup, frame->width, frame->height, state, sw, sh) &&
        !setup->backend->track(*state, &frame, 1, res, ov, err)) {
        for (int e = 0; e < eyes; e++) {
            const pt_gt_entry *g = pt_gt_find(gt, name, setup->track.binocular ? "LR"[e] : 0);
            memset(&truth[e], 0, sizeof truth[e]);
            truth[e].status = PT_DETECT_NOTFOUND;
            if (g)
                pt_gt_entry_to_result(g, &truth[e]);
        }
        rc = pt_draw_frame(dir, name, frame, res, ov, truth, eyes, err) ? -1 : 0;
    }
    for (int e = 0; e < 2; e++)
        pt_overlay_free(&ov[e]);
    pt_frames_free(&frames);
    return rc;
}

int pt_sweep_report_html(const pt_sweep_job *sw)
{
    pt_error err;
    pt_error_clear(&err);
    long best;
    if (pt_sweep_html_best(sw->outdir, &best, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    pt_detector_setup setup;
    pt_detector_setup_default(&setup);
    setup.track = sw->track;
    setup.config = sw->config;
    setup.load = sw->load;
    setup.backend = sw->backend;
    const char *backend_name = NULL;
    if (pt_sweep_apply(&sw->grid, best, &setup.config, &setup.track, &backend_name, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_USAGE;
    }
    if (backend_name)
        setup.backend = pt_track_backend(backend_name);
    setup.track.overlay = 1;

    char results_path[4200], dir[4200];
    pt_sweep_results_path(results_path, sizeof results_path, sw->outdir, best, 1, 1);
    snprintf(dir, sizeof dir, "%s/report", sw->outdir);
    pt_results res;
    pt_gt gt;
    if (pt_results_load(results_path, &res, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_INPUT;
    }
    if (pt_gt_load(sw->gt_path, &gt, &err)) {
        pt_cli_report(&err);
        pt_results_free(&res);
        return PT_EXIT_INPUT;
    }
    pt_sweep_html_frame worst[PT_SWEEP_HTML_WORST];
    int n = pt_sweep_html_worst(&gt, &res, sw->shape, worst, PT_SWEEP_HTML_WORST);
    int rc = 0;
    if (n && !pt_path_is_dir(dir) && mkdir(dir, 0777)) {
        pt_cli_fail("%s: cannot create the report's image folder", dir);
        rc = PT_EXIT_INPUT;
    }
    void *state = NULL;
    int state_width = 0, state_height = 0;
    for (int i = 0; i < n && !rc; i++) {
        /* a frame that could not be read (already reported) or cannot be
         * drawn now is listed without an image */
        if (worst[i].error)
            continue;
        pt_error_clear(&err);
        if (draw_one(&setup, &state, &state_width, &state_height, worst[i].image, &gt, dir,
                     &err) == 0)
            pt_draw_path(worst[i].png, sizeof worst[i].png, "report", worst[i].image, "");
        else if (err.status)
            pt_cli_report(&err);
    }
    if (state)
        setup.backend->destroy(state);
    pt_results_free(&res);
    pt_gt_free(&gt);
    if (!rc && pt_sweep_html_write(sw->outdir, best, worst, n, &err)) {
        pt_cli_report(&err);
        rc = PT_EXIT_INPUT;
    }
    return rc;
}
