/* Threshold-and-labeling detector (SPEC §1): for each threshold, the dark
 * pixels are labeled, the biggest plausible blob is taken, its border is fitted
 * by RANSAC, and the fit with the most votes over all thresholds wins. */
#include <math.h>

#include "../lib/confidence.h"
#include "../lib/fit.h"
#include "detect.h"
#include "labeling.h"

/* score=support: fits covering at least this share of the best support compete on votes. */
#define TL_SUPPORT_NEAR 0.9

/* The label of the blob to fit: the biggest one whose equivalent radius lies
 * in [min_r, max_r], preferring blobs that do not touch the roi border; 0 if none. */
static int32_t pick_blob(const pt_labeling *lab, double min_r, double max_r)
{
    int32_t best_inner = 0, best_any = 0;
    for (int32_t k = 1; k <= lab->count; k++) {
        const pt_blob *b = &lab->blobs[k - 1];
        double r = sqrt(b->size / M_PI);
        if (r < min_r || r > max_r)
            continue;
        if (!best_any || b->size > lab->blobs[best_any - 1].size)
            best_any = k;
        if (!b->touches_border && (!best_inner || b->size > lab->blobs[best_inner - 1].size))
            best_inner = k;
    }
    return best_inner ? best_inner : best_any;
}

/* Blob pixels with a 4-neighbour outside the blob (or outside the roi), in
 * full-frame coordinates; returns their number. */
static int blob_border(const pt_labeling *lab, int32_t k, int x_off, int y_off,
                       pt_point *points)
{
    const pt_blob *b = &lab->blobs[k - 1];
    int w = lab->width, h = lab->height, n = 0;
    for (int y = b->y0; y <= b->y1; y++) {
        const int32_t *row = lab->labels + (size_t)y * w;
        for (int x = b->x0; x <= b->x1; x++) {
            if (row[x] != k)
                continue;
            int inner = x > 0 && x + 1 < w && y > 0 && y + 1 < h && row[x - 1] == k &&
                        row[x + 1] == k && row[x - w] == k && row[x + w] == k;
            if (!inner) {
                points[n].x = (float)(x + x_off);
                points[n].y = (float)(y + y_off);
                n++;
            }
        }
    }
    return n;
}

/* Pixels along the fitted outline (Ramanujan's perimeter for an ellipse). */
static double outline_length(const pt_ransac_fit *fit, int ellipse)
{
    if (!ellipse)
        return fmax(2.0 * M_PI * fit->circle.r, 1.0);
    double a = fit->ellipse.a, b = fit->ellipse.b;
    return fmax(M_PI * (3.0 * (a + b) - sqrt((3.0 * a + b) * (a + 3.0 * b))), 1.0);
}

/* Threshold the roi at t, label it and return the border of the chosen blob
 * (0 points when no blob is plausible). */
static int threshold_border(const pt_image *img, const pt_roi *roi, int t,
                            const pt_eye_input *in, uint8_t *mask, pt_labeling *lab,
                            pt_point *border)
{
    for (int y = 0; y < roi->height; y++) {
        const uint8_t *src = img->buf + (size_t)(roi->y0 + y) * img->stride + roi->x0;
        uint8_t *dst = mask + (size_t)y * roi->width;
        for (int x = 0; x < roi->width; x++)
            dst[x] = src[x] <= t;
    }
    pt_label_components(mask, roi->width, roi->width, roi->height, lab);
    int32_t k = pick_blob(lab, in->min_radius, in->max_radius);
    return k ? blob_border(lab, k, roi->x0, roi->y0, border) : 0;
}

pt_status pt_omp_tl(const pt_eye_input *in, const pt_config *cfg,
                    const pt_track_options *opt, pt_arena *arena, pt_result *res,
                    pt_overlay *ov, pt_error *err)
{
    const pt_tl_params *p = &cfg->tl;
    const pt_image *img = in->smoothed;
    const pt_roi roi = in->roi;
    res->status = PT_DETECT_NOTFOUND;
    res->has_circle = res->has_ellipse = 0;
    res->confidence = 0.0;
    if (roi.x0 < 0 || roi.y0 < 0 || roi.x0 + roi.width > img->width ||
        roi.y0 + roi.height > img->height)
        return pt_error_set(err, PT_ERR_INTERNAL, "",
                            "tl: roi %dx%d+%d+%d outside the %dx%d frame", roi.width,
                            roi.height, roi.x0, roi.y0, img->width, img->height);
    if (roi.width <= 0 || roi.height <= 0 || p->threshold_step <= 0)
        return PT_OK;
    if (!in->ransac)
        return pt_error_set(err, PT_ERR_INTERNAL, "", "tl: no RANSAC sample table");
    size_t pixels = (size_t)roi.width * (size_t)roi.height;
    int thresholds = p->threshold_max < p->threshold_min
                         ? 0
                         : (p->threshold_max - p->threshold_min) / p->threshold_step + 1;
    uint8_t *mask = pt_arena_alloc(arena, pixels);
    pt_point *border = pt_arena_alloc(arena, pixels * sizeof *border);
    int *scratch_idx = pt_arena_alloc(arena, pixels * sizeof *scratch_idx);
    pt_ransac_fit *fits = pt_arena_calloc(arena, (size_t)(thresholds + 1) * sizeof *fits);
    if (!mask || !border || !scratch_idx || !fits)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tl: out of memory");
    pt_labeling lab;
    if (pt_labeling_reserve(&lab, roi.width, roi.height, arena, err))
        return err->status;

    double best_support = 0.0;
    for (int i = 0; i < thresholds; i++) {
        int n = threshold_border(img, &roi, p->threshold_min + i * p->threshold_step, in,
                                 mask, &lab, border);
        pt_ransac_fit *fit = &fits[i];
        if (n > 0 &&
            (opt->ellipse
                 ? pt_ransac_ellipse(border, n, in->ransac, cfg->pre.ransac_samples,
                                     cfg->pre.ransac_inlier, in->min_radius, in->max_radius,
                                     scratch_idx, fit)
                 : pt_ransac_circle(border, n, in->ransac, cfg->pre.ransac_samples,
                                    cfg->pre.ransac_inlier, in->min_radius, in->max_radius,
                                    scratch_idx, fit)))
            best_support = fmax(best_support, fit->votes / outline_length(fit, opt->ellipse));
        else
            fit->found = 0;
    }
    /* The paper: most votes wins. With score=support only fits whose share of
     * the outline covered is near the best one compete, so a half-hidden iris
     * blob (many votes, low support) cannot beat a whole pupil. Ties: the
     * lower threshold. */
    int winner = -1;
    for (int i = 0; i < thresholds; i++) {
        const pt_ransac_fit *fit = &fits[i];
        if (!fit->found)
            continue;
        if (p->score == PT_TL_SCORE_SUPPORT &&
            fit->votes / outline_length(fit, opt->ellipse) < TL_SUPPORT_NEAR * best_support)
            continue;
        if (winner < 0 || fit->votes > fits[winner].votes)
            winner = i;
    }
    if (winner < 0)
        return PT_OK;
    pt_ransac_fit best = fits[winner];
    if (ov) {
        int n = threshold_border(img, &roi, p->threshold_min + winner * p->threshold_step, in,
                                 mask, &lab, border);
        for (int i = 0; i < n; i++)
            pt_overlay_add(ov, border[i].x, border[i].y);
    }

    if (opt->ellipse) {
        res->ellipse = best.ellipse;
        res->circle.cx = best.ellipse.cx;
        res->circle.cy = best.ellipse.cy;
        res->circle.r = 0.5 * (best.ellipse.a + best.ellipse.b);
        res->confidence = pt_confidence_ellipse(img, &best.ellipse);
        res->has_ellipse = 1;
    } else {
        res->circle = best.circle;
        res->confidence = pt_confidence_circle(img, &best.circle);
    }
    res->has_circle = 1;
    if (res->confidence < PT_CONFIDENCE_MIN) {
        res->has_circle = res->has_ellipse = 0;
        return PT_OK;
    }
    res->status = PT_DETECT_OK;
    return PT_OK;
}
