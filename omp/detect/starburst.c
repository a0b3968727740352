/* Starburst (Li, Winfield & Parkhurst 2005) as in the seed paper: rays from a
 * start point find the first dark-to-bright step, a second stage of rays cast
 * back towards the start adds points on the far side, a RANSAC circle or
 * ellipse is fitted, and the whole is repeated from the fitted centre until it
 * moves less than converge_px. */
#include <math.h>

#include "lib/detect/confidence.h"
#include "lib/detect/pt_trace.h"
#include "lib/params/params_auto.h"
#include "lib/detect/starburst_choice.h"
#include "lib/detect/starburst_config.h"
#include "lib/detect/starburst_flat.h"
#include "lib/detect/starburst_inner.h"
#include "lib/detect/starburst_radial.h"
#include "lib/detect/starburst_ray.h"
#include "lib/detect/starburst_refit.h"
#include "lib/detect/starburst_size.h"
#include "lib/detect/starburst_visible.h"
#include "omp/detect/detect.h"

static pt_point clamp_to_roi(const pt_sb_view *c, pt_point p)
{
    if (!(p.x >= c->xmin)) /* also catches NaN */
        p.x = (float)c->xmin;
    if (p.x > c->xmax)
        p.x = (float)c->xmax;
    if (!(p.y >= c->ymin))
        p.y = (float)c->ymin;
    if (p.y > c->ymax)
        p.y = (float)c->ymax;
    return p;
}

/* pt_ransac_circle's semantics (lib/detect/ransac.h), samples scored by
 * pt_sb_circle_vote and, with vote_angle, pt_sb_radial_vote on the points'
 * edge directions nrm (NULL: not tested), as ransac.c's vectorised counts
 * reproduce them at circle_votes=inlier; the refit on the inlier band of
 * pt_sb_circle_band: cuda/detect/starburst.cu does the same in parallel. */
static int ransac_circle_band(const pt_point *pts, const pt_point *nrm, int n,
                              const pt_ransac_table *t, int rows,
                              const pt_sb_config *k, double min_r, double max_r, int *inl,
                              pt_ransac_fit *out)
{
    out->found = 0;
    out->votes = 0;
    out->sample = -1;
    int size = t->sample_size;
    if (rows > t->samples)
        rows = t->samples;
    if (n < size)
        return 0;
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    int best_votes = -1, best_s = -1;
    pt_circle best = {0.0, 0.0, 0.0};
    for (int s = 0; s < rows; s++) {
        pt_circle c;
        if (!pt_ransac_sample_indices(t->values, size, s, n, idx) ||
            !pt_fit_circle(pts, idx, size, &c) || !pt_ransac_circle_in_range(&c, min_r, max_r))
            continue;
        /* at circle_votes=inlier the vectorised counts of ransac.c, which
         * stop once the sample cannot beat the best (it would not be taken);
         * nrm is given only there (pt_sb_radial_on) */
        int votes = 0;
        if (k->circle_votes == PT_SB_VOTES_INLIER)
            votes = nrm ? pt_ransac_circle_radial_votes(pts, nrm, n, &c, k->inlier, k->vote_cos,
                                                        best_votes)
                        : pt_ransac_circle_votes(pts, n, &c, k->inlier, best_votes);
        else
            for (int j = 0; j < n; j++)
                votes += pt_sb_circle_vote(k, &c, pts[j].x, pts[j].y);
        if (votes > best_votes) {
            best_votes = votes;
            best_s = s;
            best = c;
        }
    }
    if (best_s < 0)
        return 0;
    int count = 0;
    for (int j = 0; j < n; j++)
        if (pt_sb_circle_inlier(k, &best, pts[j].x, pts[j].y))
            inl[count++] = j;
    pt_circle refit;
    if (pt_fit_circle(pts, inl, count, &refit) && pt_ransac_circle_in_range(&refit, min_r, max_r))
        best = refit;
    int votes = 0;
    for (int j = 0; j < n; j++)
        votes += pt_sb_circle_inlier(k, &best, pts[j].x, pts[j].y);
    out->found = 1;
    out->votes = votes;
    out->sample = best_s;
    out->circle = best;
    pt_ellipse_from_circle(&best, &out->ellipse);
    pt_ellipse refined;
    if (k->circle_refit == PT_SB_REFIT_ELLIPSE &&
        pt_sb_circle_ellipse(k, pts, n, &best, t->values, t->samples, t->sample_size, min_r,
                             max_r, inl, &refined)) {
        out->ellipse = refined;
        out->circle.cx = refined.cx;
        out->circle.cy = refined.cy;
        out->circle.r = 0.5 * (refined.a + refined.b);
    }
    return 1;
}

/* pts[0..n) (edge directions normals) without the points on flat edges
 * when there are enough of them (lib/detect/starburst_flat.h), in order,
 * their normals with them; returns their number. keep: scratch for n. */
static int drop_flat(pt_point *pts, pt_point *normals, int n, double reach, double band,
                     int *keep)
{
    for (int i = 0; i < n; i++)
        keep[i] = !pt_sb_flat_point(pts, normals, NULL, n, i, reach, band);
    int m = 0, flat = 0;
    for (int i = 0; i < n; i++)
        flat += !keep[i];
    if (!pt_sb_flat_drops(flat))
        return n;
    for (int i = 0; i < n; i++)
        if (keep[i]) {
            normals[m] = normals[i];
            pts[m++] = pts[i];
        }
    return m;
}

pt_status pt_omp_starburst(const pt_eye_input *in, const pt_config *cfg,
                           const pt_track_options *opt, pt_arena *arena,
                           pt_result *res, pt_overlay *ov, pt_error *err)
{
    const pt_starburst_params *sb = &cfg->starburst;
    res->status = PT_DETECT_NOTFOUND;
    res->has_circle = res->has_ellipse = 0;
    res->confidence = 0;

    pt_sb_config k;
    pt_sb_config_resolve(cfg, &k);
    pt_sb_config_mode(&k, opt->ellipse);
    pt_sb_view c;
    pt_sb_view_init(&c, &k, in->smoothed->buf,
                    cfg->pre.reflection == PT_REFLECTION_SKIP ? in->reflection_mask : NULL,
                    in->smoothed->width, in->smoothed->height, in->smoothed->stride, in->roi.x0,
                    in->roi.y0, in->roi.width, in->roi.height,
                    pt_auto_edge_gap(in->roi.width, in->roi.height));
    if (in->roi.width < 3 || in->roi.height < 3 || !in->ransac)
        return PT_OK;

    int rays = sb->rays > 0 ? sb->rays : 1;
    int rays2 = sb->stage2_rays > 0 ? sb->stage2_rays : 0;
    int capacity = rays * (1 + rays2);
    pt_point *pts = pt_arena_alloc(arena, (size_t)capacity * sizeof *pts);
    int *scratch_idx = pt_arena_alloc(arena, (size_t)capacity * sizeof *scratch_idx);
    /* edge directions: for the flat-edge test and the radial votes */
    int want_normals = k.flat_edges == PT_SB_FLAT_REJECT || pt_sb_radial_on(&k);
    pt_point *normals = NULL;
    if (want_normals)
        normals = pt_arena_alloc(arena, (size_t)capacity * sizeof *normals);
    if (!pts || !scratch_idx || (want_normals && !normals))
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for starburst points");

    int len1 = pt_auto_ray_length(cfg, in->max_radius);
    /* Second-stage rays cross the whole pupil from its far side. */
    int len2 = 2 * in->max_radius + 4;
    double spread = sb->stage2_spread * 3.14159265358979323846 / 180.0;
    pt_point start = clamp_to_roi(&c, in->start);
    c.threshold = pt_sb_eye_threshold(&k, c.buf, c.stride, in->roi.x0, in->roi.y0, in->roi.width,
                                      in->roi.height, start);
    pt_ransac_fit fit = {0}, best = {0};
    double best_conf = -1.0;
    int best_dark = 0;
    pt_trace *trace = ov ? ov->trace : NULL; /* --draw-stages */
    int n = 0;
    /* the inner pass (lib/detect/starburst_inner.h): the first pass's answer
     * and threshold, the limit of the rays (max_r) and of the radii (fit_r) */
    int inner = 0;
    pt_ransac_fit outer = {0};
    double outer_conf = -1.0, outer_threshold = c.threshold, max_r = in->max_radius;
    double fit_r = in->max_radius;
    int stall = 0; /* iterations in a row without a better fit (converge_stall) */

    for (int iter = 0; iter < (sb->max_iterations > 0 ? sb->max_iterations : 1); iter++) {
        n = 0;
        for (int i = 0; i < rays; i++) {
            double dx, dy;
            pt_sb_stage1_dir(i, rays, &dx, &dy);
            if (pt_sb_cast(&c, start.x, start.y, dx, dy, pt_sb_inner_len(len1, inner, max_r),
                           &pts[n]))
                n++;
        }
        int first = n;
        pt_trace_sb_stage1(trace, start, pts, first);
        for (int j = 0; j < first && rays2 > 0; j++) {
            int from = n;
            for (int q = 0; q < rays2; q++) {
                double dx, dy;
                if (pt_sb_stage2_dir(start, pts[j], q, rays2, spread, &dx, &dy) &&
                    pt_sb_cast(&c, pts[j].x, pts[j].y, dx, dy,
                               pt_sb_stage2_len(start, pts[j],
                                                pt_sb_inner_len(len2, inner, 2.0 * max_r),
                                                c.gap),
                               &pts[n]))
                    n++;
            }
            pt_trace_sb_stage2(trace, pts[j], pts + from, n - from);
        }
        for (int i = 0; normals && i < n; i++)
            normals[i] = pt_sb_edge_normal(&c, pts[i]);
        if (k.flat_edges == PT_SB_FLAT_REJECT) /* edges flatter than any pupil leave the fit */
            n = drop_flat(pts, normals, n, pt_sb_flat_reach(in->max_radius, k.flat_band),
                          k.flat_band, scratch_idx);
        pt_trace_sb_fitted(trace, pts, n);
        if (n < in->ransac->sample_size)
            break;
        int found = pt_sb_fits_ellipse(&k, opt->ellipse)
                        ? pt_ransac_ellipse(pts, n, in->ransac, cfg->pre.ransac_samples,
                                            cfg->pre.ransac_inlier, in->min_radius, fit_r,
                                            scratch_idx, &fit)
                        : ransac_circle_band(pts, pt_sb_radial_on(&k) ? normals : NULL, n,
                                             in->ransac, cfg->pre.ransac_samples, &k,
                                             in->min_radius, fit_r, scratch_idx, &fit);
        if (!found)
            break;
        /* Iterations can wander off (a start in the iris finds the limbus):
         * the answer is the fit of all iterations that looks most like a
         * pupil: without a darker disc inside, then by fit_choice
         * (lib/detect/starburst_inner.h, lib/detect/starburst_choice.h). */
        /* circle mode: fit.ellipse is the circle, or the refined ellipse it
         * reports; the inner pass's fits at pt_sb_inner_offset */
        double conf = inner ? pt_confidence_ellipse_off(in->smoothed, &fit.ellipse,
                                                        pt_sb_inner_offset(c.gap))
                            : pt_confidence_ellipse(in->smoothed, &fit.ellipse);
        pt_sb_levels levels = {0, 0, 0};
        if (k.inner_pass == PT_SB_INNER_ON)
            pt_sb_levels_of(in->smoothed, &fit.ellipse, &levels);
        int dark = pt_sb_fit_dark(&levels, conf);
        pt_trace_sb_fit(trace, &fit.ellipse, conf);
        int wins = pt_sb_fit_wins(&k, conf, dark, &fit.ellipse, best_conf, best_dark, &best.ellipse);
        if (!wins &&
            pt_sb_visible_wanted(&k, conf, dark, &fit.ellipse, best_conf, best_dark, &best.ellipse))
            wins = pt_sb_visible_wins(pt_visible_confidence(in->smoothed, &fit.ellipse), best_conf);
        if (wins) {
            best_conf = conf;
            best_dark = dark;
            best = fit;
            stall = 0;
        } else {
            stall++;
        }
        pt_point centre = {(float)fit.circle.cx, (float)fit.circle.cy};
        if (opt->ellipse) {
            centre.x = (float)fit.ellipse.cx;
            centre.y = (float)fit.ellipse.cy;
        }
        double moved = pt_sb_dist(centre.x, centre.y, start.x, start.y);
        start = clamp_to_roi(&c, centre);
        pt_sb_inner ip;
        if (!inner && k.inner_pass == PT_SB_INNER_ON &&
            pt_sb_inner_wanted(&fit.ellipse, &levels, conf, c.threshold, &ip)) {
            inner = 1;
            outer = best;
            outer_conf = best_conf;
            outer_threshold = c.threshold;
            best_conf = -1.0;
            c.threshold = ip.threshold;
            if (ip.reach < max_r)
                max_r = ip.reach;
            if (ip.radius < fit_r)
                fit_r = ip.radius;
            stall = 0;
            continue;
        }
        if (pt_sb_search_done(&k, moved, sb->converge_px, stall))
            break;
    }
    if (inner &&
        !pt_sb_inner_answer(in->smoothed, best_conf, &best.ellipse, outer_conf, &outer.ellipse)) {
        best = outer;
        best_conf = outer_conf;
        c.threshold = outer_threshold;
    }

    for (int k = 0; k < n && ov; k++)
        pt_overlay_add(ov, pts[k].x, pts[k].y);
    if (best_conf < 0)
        return PT_OK;
    pt_sb_report_size(&c, &k, &best.circle, &best.ellipse);

    if (opt->ellipse) {
        res->ellipse = best.ellipse;
        res->circle.cx = best.ellipse.cx;
        res->circle.cy = best.ellipse.cy;
        res->circle.r = sqrt(best.ellipse.a * best.ellipse.b);
        res->has_ellipse = 1;
    } else {
        res->circle = best.circle;
    }
    res->confidence = best_conf;
    res->has_circle = 1;
    if (res->confidence >= PT_CONFIDENCE_MIN)
        res->status = PT_DETECT_OK;
    else
        res->has_circle = res->has_ellipse = 0;
    return PT_OK;
}
