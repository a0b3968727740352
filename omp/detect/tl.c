/* Threshold-and-labeling detector (pupiltrack(1), PARAMETERS): for each threshold, the dark
 * pixels are labeled, the biggest plausible blob is taken, its border is fitted
 * by RANSAC, and the fit with the most votes over all thresholds wins. */
#include <math.h>
#include <string.h>

#include "lib/detect/border_crossings.h"
#include "lib/detect/confidence.h"
#include "lib/detect/eye_levels.h"
#include "lib/contours/contours.h"
#include "lib/detect/fit.h"
#include "lib/detect/pt_trace.h"
#include "lib/detect/tl_flat.h"
#include "lib/detect/tl_level.h"
#include "lib/detect/tl_nest.h"
#include "lib/detect/tl_retry.h"
#include "lib/detect/tl_shape.h"
#include "lib/detect/tl_small.h"
#include "omp/detect/detect.h"
#include "omp/detect/labeling.h"

/* score=support: fits covering at least this share of the best support compete on votes. */
#define TL_SUPPORT_NEAR 0.9
/* score=quality: fits within this share of the best quality compete on votes. */
#define TL_QUALITY_NEAR 0.9
/* px from a border pixel's centre to the blob's boundary */
#define TL_BORDER_OFFSET 0.5

/* RANSAC inlier distance: the fixed ransac_inlier, or for circles at least
 * tl_circle_band times the blob's equivalent radius, so a circle fitted to an
 * elliptical pupil keeps the whole outline as inliers. */
static double tl_inlier_band(const pt_config *cfg, double blob_r, int ellipse)
{
    double band = cfg->pre.ransac_inlier;
    if (!ellipse && cfg->tl.circle_band * blob_r > band)
        band = cfg->tl.circle_band * blob_r;
    return band;
}

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
 * full-frame coordinates, in raster order; row_start[y - b->y0] receives
 * the index of row y's first (row_start[rows] = n); returns their number. */
static int blob_border(const pt_labeling *lab, int32_t k, int x_off, int y_off,
                       pt_point *points, int *row_start)
{
    const pt_blob *b = &lab->blobs[k - 1];
    int w = lab->width, h = lab->height, n = 0;
    for (int y = b->y0; y <= b->y1; y++) {
        const int32_t *row = lab->labels + (size_t)y * w;
        row_start[y - b->y0] = n;
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
    row_start[b->y1 - b->y0 + 1] = n;
    return n;
}

/* tl_flat (lib/detect/tl_flat.h): the border points[0..n) (raster order,
 * rows from y0 with their first indices in row_start) less the pixels on
 * edges flatter than a pupil of max_r, in order; flags: n bytes of
 * scratch; normals: room for n points' edge directions, or NULL (each is
 * then taken as a search needs it). Returns the number kept. */
static int drop_flat(const pt_image *img, pt_point *points, int n, const int *row_start, int y0,
                     int rows, double max_r, uint8_t *flags, pt_point *normals)
{
    double reach = pt_tl_flat_reach(max_r);
    if (normals)
        for (int i = 0; i < n; i++)
            normals[i] = pt_tl_flat_normal(img->buf, img->stride, img->width, img->height,
                                           (int)points[i].x, (int)points[i].y);
    int flat = 0;
    for (int i = 0; i < n; i++) {
        flags[i] = (uint8_t)pt_tl_flat_point(points, row_start, y0, rows, n, img->buf,
                                             img->stride, img->width, img->height, i, reach,
                                             normals);
        flat += flags[i];
    }
    if (!pt_tl_flat_drops(flat, n, reach))
        return n;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!flags[i])
            points[m++] = points[i];
    return m;
}

/* The outer border of blob k, traced as OpenCV findContours does (start at
 * its raster-first pixel, counterclockwise on screen), each pixel once, in
 * full-frame coordinates; holes in the blob add no points. canvas receives
 * the blob's bounding box as a binary image; returns the number of points,
 * or -1 when tracing fails (out of memory). */
static int blob_contour(const pt_labeling *lab, int32_t k, int x_off, int y_off,
                        uint8_t *canvas, pt_contours *contours, pt_point *points)
{
    const pt_blob *b = &lab->blobs[k - 1];
    pt_image box = {b->x1 - b->x0 + 1, b->y1 - b->y0 + 1, b->x1 - b->x0 + 1, canvas};
    for (int y = 0; y < box.height; y++) {
        const int32_t *row = lab->labels + (size_t)(b->y0 + y) * lab->width + b->x0;
        uint8_t *dst = canvas + (size_t)y * box.stride;
        for (int x = 0; x < box.width; x++)
            dst[x] = row[x] == k ? 255 : 0;
    }
    pt_error err;
    if (pt_contours_find_seq(&box, 0, PT_CONTOURS_LIST, PT_CONTOURS_APPROX_NONE, contours, &err))
        return -1;
    int n = 0;
    for (int c = 0; c < contours->count; c++) {
        const pt_border *border = &contours->borders[c];
        if (border->is_hole)
            continue;
        /* One component, so one outer border; a pixel visited twice (a
         * one-pixel-wide part walked out and back) is kept once. */
        for (int64_t i = 0; i < border->count; i++) {
            const pt_contour_point *q = &contours->points[border->first + i];
            uint8_t *px = canvas + (size_t)q->y * box.stride + q->x;
            if (*px != 255)
                continue;
            *px = 1;
            points[n].x = (float)(q->x + b->x0 + x_off);
            points[n].y = (float)(q->y + b->y0 + y_off);
            n++;
        }
    }
    return n;
}

/* Circle mode with tl_shape=auto (lib/detect/tl_shape.h): the border
 * points[0..n) of the chosen blob also fitted by an ellipse with the narrow
 * band (RANSAC over every k-th point, thin[] receives them; the best
 * sample's ellipse refitted on its inliers among all the points); *c becomes
 * the ellipse's circle where the ellipse describes the border clearly better
 * and, with tl_shape_confidence, the dark region about as well. */
static void circle_or_ellipse(const pt_point *points, int n, const pt_eye_input *in,
                              const pt_config *cfg, pt_point *thin, int *scratch_idx,
                              pt_circle *c)
{
    double band = cfg->pre.ransac_inlier;
    int circle_votes = 0;
    for (int i = 0; i < n; i++)
        circle_votes += pt_circle_distance(c, points[i].x, points[i].y) <= band;
    if (n <= 0 || !pt_tl_ellipse_may_win(circle_votes, n))
        return;
    int k = pt_tl_ellipse_step(n), m = 0;
    for (int i = 0; i < n; i += k)
        thin[m++] = points[i];
    pt_ransac_fit fit;
    if (!pt_ransac_ellipse(thin, m, in->ransac, cfg->pre.ransac_samples, band, in->min_radius,
                           in->max_radius, scratch_idx, &fit))
        return;
    /* the best sample's ellipse refitted on its inliers among all the points */
    int idx[PT_RANSAC_MAX_SAMPLE_SIZE];
    pt_ellipse e;
    if (!pt_ransac_sample_indices(in->ransac->values, in->ransac->sample_size, fit.sample, m,
                                  idx) ||
        !pt_fit_ellipse(thin, idx, in->ransac->sample_size, &e))
        return;
    pt_ellipse_frame f;
    pt_ellipse_frame_init(&e, &f);
    int inliers = 0;
    for (int i = 0; i < n; i++)
        if (pt_ellipse_frame_within(&f, points[i].x, points[i].y, band))
            scratch_idx[inliers++] = i;
    pt_circle ec;
    pt_ransac_refit_inliers(1, points, scratch_idx, inliers, in->min_radius, in->max_radius, &ec,
                            &e);
    pt_ellipse_frame_init(&e, &f);
    int ellipse_votes = 0;
    for (int i = 0; i < n; i++)
        ellipse_votes += pt_ellipse_frame_within(&f, points[i].x, points[i].y, band);
    if (!pt_tl_prefer_ellipse(c, circle_votes, &e, ellipse_votes))
        return;
    /* all as they would be reported: the border offset added */
    pt_circle as_circle = *c, as_ellipse = pt_tl_ellipse_circle(&e);
    pt_ellipse outline = e;
    as_circle.r += TL_BORDER_OFFSET;
    as_ellipse.r += TL_BORDER_OFFSET;
    outline.a += TL_BORDER_OFFSET;
    outline.b += TL_BORDER_OFFSET;
    if (cfg->tl.shape_confidence <= 0.0 ||
        pt_tl_ellipse_credible(pt_confidence_circle(in->smoothed, &as_circle),
                               pt_confidence_ellipse(in->smoothed, &outline),
                               pt_confidence_circle(in->smoothed, &as_ellipse),
                               cfg->tl.shape_confidence, ellipse_votes, n))
        *c = pt_tl_ellipse_circle(&e);
}

/* Pixels along the fitted outline (Ramanujan's perimeter for an ellipse). */
static double outline_length(const pt_ransac_fit *fit, int ellipse)
{
    if (!ellipse)
        return fmax(2.0 * M_PI * fit->circle.r, 1.0);
    double a = fit->ellipse.a, b = fit->ellipse.b;
    return fmax(M_PI * (3.0 * (a + b) - sqrt((3.0 * a + b) * (a + 3.0 * b))), 1.0);
}

static double fit_confidence(const pt_image *img, const pt_ransac_fit *fit, int ellipse)
{
    return ellipse ? pt_confidence_ellipse(img, &fit->ellipse)
                   : pt_confidence_circle(img, &fit->circle);
}

/* Threshold the roi at t, label it and return the border of the chosen blob
 * (0 points when no blob is plausible); *blob_r receives the blob's
 * equivalent radius sqrt(size / pi). spare: scratch of spare_bytes, free
 * until the border is fitted. */
static int threshold_border(const pt_image *img, const pt_roi *roi, int t,
                            const pt_eye_input *in, const pt_tl_params *p, uint8_t *mask,
                            int *row_start, pt_labeling *lab, pt_contours *contours,
                            pt_point *border, void *spare, size_t spare_bytes, double *blob_r)
{
    /* compared as bytes, so the loop runs over whole vectors: t < 0
     * selects no pixel, t >= 255 every one */
    const uint8_t level = (uint8_t)(t < 0 ? 0 : t > 255 ? 255 : t), any = t >= 0;
    for (int y = 0; y < roi->height; y++) {
        const uint8_t *src = img->buf + (size_t)(roi->y0 + y) * img->stride + roi->x0;
        uint8_t *dst = mask + (size_t)y * roi->width;
#pragma omp simd
        for (int x = 0; x < roi->width; x++)
            dst[x] = (uint8_t)((src[x] <= level) & any);
    }
    pt_label_components(mask, roi->width, roi->width, roi->height, lab);
    int32_t k = pick_blob(lab, in->min_radius, in->max_radius);
    *blob_r = k ? sqrt(lab->blobs[k - 1].size / M_PI) : 0.0;
    if (!k)
        return 0;
    if (p->border == PT_TL_BORDER_CONTOUR) /* mask is free again: the canvas */
        return blob_contour(lab, k, roi->x0, roi->y0, mask, contours, border);
    int n = blob_border(lab, k, roi->x0, roi->y0, border, row_start);
    if (!p->flat)
        return n;
    const pt_blob *b = &lab->blobs[k - 1]; /* mask is free again: the flags */
    pt_point *normals = (size_t)n * sizeof(pt_point) <= spare_bytes ? spare : NULL;
    return drop_flat(img, border, n, row_start, roi->y0 + b->y0, b->y1 - b->y0 + 1,
                     in->max_radius, mask, normals);
}

typedef struct {
    const pt_image *img;
    const pt_roi *roi;
    const pt_eye_input *in;
    const pt_config *cfg;
    int ellipse;
    uint8_t *mask;
    int *row_start; /* roi height + 1: the border's rows (blob_border) */
    pt_labeling *lab;
    pt_contours *contours; /* tl_border=contour: reused for every threshold */
    pt_point *border;
    int *scratch_idx;
    pt_arena *arena;   /* keep: copies of each fit's border points */
    int keep;          /* 1: keep them (circle mode's shape check) */
} tl_work;

/* A fit's border points, kept for circle mode's shape check. */
typedef struct {
    pt_point *points;
    int n;
} tl_border_copy;

/* Fit of threshold t into *fit; returns its quality (0 when none). With
 * w->keep, *copy receives a copy of the border points (none when no fit). */
static double fit_threshold(const tl_work *w, int t, pt_ransac_fit *fit, tl_border_copy *copy)
{
    double blob_r;
    /* the RANSAC's index scratch is free until the fit: the border's edge directions */
    size_t spare = (size_t)w->roi->width * (size_t)w->roi->height * sizeof *w->scratch_idx;
    int n = threshold_border(w->img, w->roi, t, w->in, &w->cfg->tl, w->mask, w->row_start,
                             w->lab, w->contours, w->border, w->scratch_idx, spare, &blob_r);
    copy->points = NULL;
    copy->n = 0;
    double band = tl_inlier_band(w->cfg, blob_r, w->ellipse);
    const pt_preprocess_params *pre = &w->cfg->pre;
    fit->found = 0;
    if (n <= 0 ||
        !(w->ellipse ? pt_ransac_ellipse(w->border, n, w->in->ransac, pre->ransac_samples, band,
                                         w->in->min_radius, w->in->max_radius, w->scratch_idx,
                                         fit)
                     : pt_ransac_circle(w->border, n, w->in->ransac, pre->ransac_samples, band,
                                        w->in->min_radius, w->in->max_radius, w->scratch_idx,
                                        fit))) {
        fit->found = 0;
        return 0.0;
    }
    if (w->keep) {
        copy->points = pt_arena_alloc(w->arena, (size_t)n * sizeof *copy->points);
        if (copy->points) {
            memcpy(copy->points, w->border, (size_t)n * sizeof *copy->points);
            copy->n = n;
        }
    }
    return (double)fit->votes / n * fit_confidence(w->img, fit, w->ellipse);
}

/* Median grey level of PT_TL_LEVEL_SAMPLES points on a circle of radius r
 * around c; -1 when fewer than half of them lie in the image. */
static int ring_median(const pt_image *img, const pt_circle *c, double r)
{
    int hist[256] = {0}, n = 0;
    for (int k = 0; k < PT_TL_LEVEL_SAMPLES; k++) {
        double phi = 2.0 * M_PI * k / PT_TL_LEVEL_SAMPLES;
        int x = (int)lround(c->cx + r * cos(phi)), y = (int)lround(c->cy + r * sin(phi));
        if (x < 0 || y < 0 || x >= img->width || y >= img->height)
            continue;
        hist[img->buf[(size_t)y * img->stride + x]]++;
        n++;
    }
    if (2 * n < PT_TL_LEVEL_SAMPLES)
        return -1;
    int half = (n + 1) / 2, sum = 0;
    for (int v = 0; v < 256; v++) {
        sum += hist[v];
        if (sum >= half)
            return v;
    }
    return 255;
}

/* The refit threshold for circle c (lib/detect/tl_level.h): share of the
 * way from the pupil's grey level to the surround's; -1 if unknown. */
static int mid_level(const pt_image *img, const pt_circle *c, double share, double gap)
{
    int inside = ring_median(img, c, 0.5 * c->r);
    int outside = ring_median(img, c, pt_tl_level_outside(c->r, gap));
    if (inside < 0 || outside <= inside)
        return -1;
    return inside + (int)lround(share * (outside - inside));
}

/* The thresholds tried on this eye (tl_range): between its dark and
 * surround levels (lib/detect/eye_levels.h pt_eye_threshold), n per dark
 * level of lib/detect/tl_small.h (slots n..slots-1: -1 where the second
 * level is not tried), or the fixed tl_min, tl_min + tl_step, ... */
static void eye_thresholds(const pt_image *img, const pt_roi *roi, const pt_tl_params *p, int n,
                           int slots, int *levels)
{
    if (p->range != PT_TL_RANGE_EYE) {
        for (int i = 0; i < n; i++)
            levels[i] = p->threshold_min + i * p->threshold_step;
        return;
    }
    unsigned hist[256];
    pt_eye_grid_histogram(img->buf, img->stride, roi->x0, roi->y0, roi->width, roi->height,
                          hist);
    int coarse = pt_eye_level_of_histogram(hist, PT_EYE_DARK_RANK);
    int surround = pt_eye_level_of_histogram(hist, PT_EYE_SURROUND_RANK);
    int below, other;
    int mid = pt_eye_fine_patch(img->buf, img->stride, roi->x0, roi->y0, roi->width, roi->height,
                                coarse, &below);
    int dark = pt_tl_small_darks(coarse, mid, below, p->small_share, p->small_also, &other);
    for (int i = 0; i < slots; i++)
        levels[i] = pt_tl_small_threshold(coarse, dark, other, surround, i, n, p->threshold_min,
                                          p->threshold_step, p->spacing + 1);
}

static pt_status tl_detect(const pt_eye_input *in, const pt_config *cfg,
                           const pt_track_options *opt, pt_arena *arena, pt_contours *contours,
                           pt_result *res, pt_overlay *ov, pt_error *err)
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
    int per_level = p->range == PT_TL_RANGE_EYE ? (p->count > 0 ? p->count : 1)
                    : p->threshold_max < p->threshold_min
                        ? 0
                        : (p->threshold_max - p->threshold_min) / p->threshold_step + 1;
    /* threshold slots: tl_small_also may add a second tl_count (lib/detect/tl_small.h) */
    int thresholds = p->range == PT_TL_RANGE_EYE
                         ? pt_tl_small_slots(per_level, p->small_share, p->small_also)
                         : per_level;
    int *levels = pt_arena_alloc(arena, (size_t)(thresholds + 1) * sizeof *levels);
    if (!levels)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tl: out of memory");
    eye_thresholds(img, &roi, p, per_level, thresholds, levels);
    uint8_t *mask = pt_arena_alloc(arena, pixels);
    int *row_start = pt_arena_alloc(arena, ((size_t)roi.height + 1) * sizeof *row_start);
    pt_point *border = pt_arena_alloc(arena, pixels * sizeof *border);
    int *scratch_idx = pt_arena_alloc(arena, pixels * sizeof *scratch_idx);
    pt_ransac_fit *fits = pt_arena_calloc(arena, (size_t)(thresholds + 1) * sizeof *fits);
    double *quality = pt_arena_alloc(arena, (size_t)(thresholds + 1) * sizeof *quality);
    if (!mask || !row_start || !border || !scratch_idx || !fits || !quality)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tl: out of memory");
    pt_labeling lab;
    if (pt_labeling_reserve(&lab, roi.width, roi.height, arena, err))
        return err->status;

    /* Per threshold: its fit, and the fit's quality = (share of the blob's
     * border on the fit) x (confidence: dark inside, bright outside). */
    int check = !opt->ellipse && p->shape == PT_TL_SHAPE_AUTO;
    tl_border_copy *copies = pt_arena_calloc(arena, (size_t)(thresholds + 1) * sizeof *copies);
    if (!copies)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tl: out of memory");
    tl_work wk = {img,  &roi,     in,     cfg,         opt->ellipse, mask, row_start,
                  &lab, contours, border, scratch_idx, arena,        check};
    double best_support = 0.0, best_quality = 0.0;
    for (int i = 0; i < thresholds; i++) {
        pt_ransac_fit *fit = &fits[i];
        quality[i] = 0.0;
        fit->found = 0;
        if (levels[i] < 0) /* a slot of the second dark level not tried */
            continue;
        quality[i] = fit_threshold(&wk, levels[i], fit, &copies[i]);
        if (!fit->found || i >= per_level)
            continue;
        best_support = fmax(best_support, fit->votes / outline_length(fit, opt->ellipse));
        best_quality = fmax(best_quality, quality[i]);
    }
    /* The paper: most votes wins. score=support: only fits whose share of the
     * outline covered is near the best one compete; score=quality: only fits
     * whose quality is near the best one compete, so a half-hidden iris blob
     * (many votes, few of its border pixels on the fit, not dark inside)
     * cannot beat a whole pupil. Ties: the lower threshold. The thresholds
     * from a second dark level (lib/detect/tl_small.h) are there for a small
     * pupil inside the iris the first ones fit: they compete below, as
     * enclosed fits, only. */
    int winner = -1;
    for (int i = 0; i < per_level; i++) {
        const pt_ransac_fit *fit = &fits[i];
        if (!fit->found)
            continue;
        if (p->score == PT_TL_SCORE_SUPPORT &&
            fit->votes / outline_length(fit, opt->ellipse) < TL_SUPPORT_NEAR * best_support)
            continue;
        if (p->score == PT_TL_SCORE_QUALITY && quality[i] < TL_QUALITY_NEAR * best_quality)
            continue;
        if (winner < 0 || (p->score != PT_TL_SCORE_QUALITY && fit->votes > fits[winner].votes))
            winner = i;
    }
    if (winner < 0)
        return PT_OK;
    /* The pupil inside the iris (lib/detect/tl_nest.h): the best enclosed
     * fit that is a credible outline itself wins over the enclosing one. */
    int inner = -1;
    for (int i = 0; p->pupil_prior && i < thresholds; i++) {
        const pt_ransac_fit *fit = &fits[i];
        if (i == winner || !fit->found ||
            !pt_tl_nested(&fits[winner].circle, &fit->circle) ||
            quality[i] < PT_TL_NEST_QUALITY * best_quality ||
            fit_confidence(img, fit, opt->ellipse) < PT_CONFIDENCE_MIN)
            continue;
        if (inner < 0 || quality[i] > quality[inner])
            inner = i;
    }
    if (inner >= 0)
        winner = inner;
    pt_ransac_fit best = fits[winner];
    int t_best = levels[winner];
    const tl_border_copy *best_border = &copies[winner];
    if (p->refine) {
        /* The winner's threshold lies anywhere between the pupil's grey level
         * and its surround's; the boundary is mid-way. Refit there and keep
         * the refit when it is as credible and describes the same pupil. */
        int t_mid = mid_level(img, &best.circle, p->level_share, p->level_gap);
        pt_ransac_fit *mid = &fits[thresholds];
        if (t_mid >= 0 && t_mid != t_best &&
            fit_threshold(&wk, t_mid, mid, &copies[thresholds]) >=
                TL_QUALITY_NEAR * quality[winner] &&
            mid->found &&
            hypot(mid->circle.cx - best.circle.cx, mid->circle.cy - best.circle.cy) <
                0.25 * best.circle.r) {
            best = *mid;
            t_best = t_mid;
            best_border = &copies[thresholds];
        }
    }
    if (ov) {
        double blob_r;
        int n = threshold_border(img, &roi, t_best, in, p, mask, row_start, &lab, contours,
                                 border, scratch_idx, pixels * sizeof *scratch_idx, &blob_r);
        for (int i = 0; i < n; i++)
            pt_overlay_add(ov, border[i].x, border[i].y);
        pt_trace_tl(ov->trace, t_best, lab.labels, lab.count, roi.x0, roi.y0, roi.width,
                    roi.height, border, n);
    }
    if (check)
        circle_or_ellipse(best_border->points, best_border->n, in, cfg, border, scratch_idx,
                          &best.circle);
    /* Border pixels are the blob's outermost pixels: the dark region's
     * boundary lies half a pixel beyond their centres. */
    best.circle.r += TL_BORDER_OFFSET;
    best.ellipse.a += TL_BORDER_OFFSET;
    best.ellipse.b += TL_BORDER_OFFSET;
    if (p->crossings) {
        /* the outline on its border's mid-level crossings (lib/detect/border_crossings.h) */
        pt_ellipse from, to;
        if (opt->ellipse)
            from = best.ellipse;
        else
            pt_ellipse_from_circle(&best.circle, &from);
        if (pt_border_crossings(img, &from, &to)) {
            best.ellipse = to;
            best.circle.cx = to.cx;
            best.circle.cy = to.cy;
            best.circle.r = 0.5 * (to.a + to.b);
        }
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
    res->darker_core =
        pt_tl_darker_core(img, &res->circle, res->has_ellipse ? &res->ellipse : NULL);
    return PT_OK;
}

pt_status pt_omp_tl(const pt_eye_input *in, const pt_config *cfg,
                    const pt_track_options *opt, pt_arena *arena, pt_result *res,
                    pt_overlay *ov, pt_error *err)
{
    pt_contours contours; /* tl_border=contour: grown once, reused per threshold */
    pt_contours_init(&contours);
    pt_status st = tl_detect(in, cfg, opt, arena, &contours, res, ov, err);
    pt_contours_free(&contours);
    return st;
}
