/* Starburst (Li, Winfield & Parkhurst 2005) as in the seed paper: rays from a
 * start point find the first dark-to-bright step, a second stage of rays cast
 * back towards the start adds points on the far side, a RANSAC circle or
 * ellipse is fitted, and the whole is repeated from the fitted centre until it
 * moves less than converge_px. */
#include <math.h>

#include "../lib/confidence.h"
#include "../lib/params_auto.h"
#include "detect.h"

#define PI 3.14159265358979323846

typedef struct {
    const pt_image *img;
    const uint8_t *mask; /* reflections to skip, or NULL */
    double xmin, ymin, xmax, ymax; /* roi, pixel centres, inclusive */
    double threshold;
    int gap; /* half-distance of the intensity difference, px */
} ray_ctx;

/* Bilinear sample; (x,y) is inside the roi, hence inside the image. */
static double sample(const pt_image *img, double x, double y)
{
    int xi = (int)x, yi = (int)y;
    double fx = x - xi, fy = y - yi;
    int x1 = xi + 1 < img->width ? xi + 1 : xi, y1 = yi + 1 < img->height ? yi + 1 : yi;
    const uint8_t *r0 = img->buf + (size_t)yi * img->stride;
    const uint8_t *r1 = img->buf + (size_t)y1 * img->stride;
    double top = r0[xi] + fx * (r0[x1] - r0[xi]);
    double bottom = r1[xi] + fx * (r1[x1] - r1[xi]);
    return top + fy * (bottom - top);
}

static int inside(const ray_ctx *c, double x, double y)
{
    return x >= c->xmin && x <= c->xmax && y >= c->ymin && y <= c->ymax;
}

static int masked(const ray_ctx *c, double x, double y)
{
    if (!c->mask)
        return 0;
    int xi = (int)(x + 0.5), yi = (int)(y + 0.5);
    return c->mask[(size_t)yi * c->img->stride + xi] != 0;
}

/* Longest ray walked; longer rays are cut (a 4096 px ray crosses any frame). */
#define RAY_MAX 4096

/* Walk from (sx,sy) along the unit vector (dx,dy), t = 0..len, sampling the
 * profile once; the edge is the first t where I(t+g) - I(t-g) > threshold,
 * then uphill to the steepest point of that step (the first crossing alone
 * sits on the blurred ramp's dark side, biasing the radius inwards), refined
 * by a parabola through the differences around it. The gap g grows with the
 * image, so the step is measured over the same share of a blurred edge on a
 * 128 px crop and on a 1280x1024 frame. Reflection pixels (skip mode) never
 * take part in a difference. */
static int cast_ray(const ray_ctx *c, double sx, double sy, double dx, double dy, int len,
                    pt_point *edge)
{
    float v[RAY_MAX];
    unsigned char skip[RAY_MAX];
    if (len > RAY_MAX - 1)
        len = RAY_MAX - 1;
    int n = 0;
    for (; n <= len; n++) {
        double x = sx + n * dx, y = sy + n * dy;
        if (!inside(c, x, y))
            break;
        v[n] = (float)sample(c->img, x, y);
        skip[n] = (unsigned char)masked(c, x, y);
    }
    const int g = c->gap;
    for (int t = g; t + g < n; t++) {
        if (skip[t - g] | skip[t + g] | skip[t])
            continue;
        float d = v[t + g] - v[t - g];
        if (d <= c->threshold)
            continue;
        int tb = t;
        while (tb + 1 + g < n && !(skip[tb + 1 - g] | skip[tb + 1 + g]) &&
               v[tb + 1 + g] - v[tb + 1 - g] > v[tb + g] - v[tb - g])
            tb++;
        double best = v[tb + g] - v[tb - g], offset = 0.0;
        if (tb - 1 - g >= 0 && tb + 1 + g < n) {
            double prev = v[tb - 1 + g] - v[tb - 1 - g];
            double next = v[tb + 1 + g] - v[tb + 1 - g];
            double denom = prev - 2 * best + next;
            if (denom < 0)
                offset = 0.5 * (prev - next) / denom;
            if (offset > 0.5)
                offset = 0.5;
            if (offset < -0.5)
                offset = -0.5;
        }
        edge->x = (float)(sx + (tb + offset) * dx);
        edge->y = (float)(sy + (tb + offset) * dy);
        return 1;
    }
    return 0;
}

static pt_point clamp_to_roi(const ray_ctx *c, pt_point p)
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

pt_status pt_omp_starburst(const pt_eye_input *in, const pt_config *cfg,
                           const pt_track_options *opt, pt_arena *arena,
                           pt_result *res, pt_overlay *ov, pt_error *err)
{
    const pt_starburst_params *sb = &cfg->starburst;
    res->status = PT_DETECT_NOTFOUND;
    res->has_circle = res->has_ellipse = 0;
    res->confidence = 0;

    ray_ctx c;
    c.img = in->smoothed;
    c.mask = cfg->pre.reflection == PT_REFLECTION_SKIP ? in->reflection_mask : NULL;
    c.xmin = in->roi.x0;
    c.ymin = in->roi.y0;
    c.xmax = in->roi.x0 + in->roi.width - 1;
    c.ymax = in->roi.y0 + in->roi.height - 1;
    c.threshold = sb->edge_threshold;
    c.gap = pt_auto_edge_gap(in->roi.width, in->roi.height);
    if (in->roi.width < 3 || in->roi.height < 3 || !in->ransac)
        return PT_OK;

    int rays = sb->rays > 0 ? sb->rays : 1;
    int rays2 = sb->stage2_rays > 0 ? sb->stage2_rays : 0;
    int capacity = rays * (1 + rays2);
    pt_point *pts = pt_arena_alloc(arena, (size_t)capacity * sizeof *pts);
    int *scratch_idx = pt_arena_alloc(arena, (size_t)capacity * sizeof *scratch_idx);
    if (!pts || !scratch_idx)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for starburst points");

    int len1 = pt_auto_ray_length(cfg, in->max_radius);
    /* Second-stage rays cross the whole pupil from its far side. */
    int len2 = 2 * in->max_radius + 4;
    double spread = sb->stage2_spread * PI / 180.0;
    pt_point start = clamp_to_roi(&c, in->start);
    pt_ransac_fit fit = {0};
    int n = 0, have_fit = 0;

    for (int iter = 0; iter < (sb->max_iterations > 0 ? sb->max_iterations : 1); iter++) {
        n = 0;
        for (int i = 0; i < rays; i++) {
            double a = 2 * PI * i / rays;
            if (cast_ray(&c, start.x, start.y, cos(a), sin(a), len1, &pts[n]))
                n++;
        }
        int first = n;
        for (int j = 0; j < first && rays2 > 0; j++) {
            double back = atan2(start.y - pts[j].y, start.x - pts[j].x);
            for (int k = 0; k < rays2; k++) {
                double a = rays2 > 1 ? back + spread * (2.0 * k / (rays2 - 1) - 1.0) : back;
                if (cast_ray(&c, pts[j].x, pts[j].y, cos(a), sin(a), len2, &pts[n]))
                    n++;
            }
        }
        if (n < in->ransac->sample_size) {
            have_fit = 0;
            break;
        }
        int found = opt->ellipse
                        ? pt_ransac_ellipse(pts, n, in->ransac, cfg->pre.ransac_samples,
                                            cfg->pre.ransac_inlier, in->min_radius,
                                            in->max_radius, scratch_idx, &fit)
                        : pt_ransac_circle(pts, n, in->ransac, cfg->pre.ransac_samples,
                                           cfg->pre.ransac_inlier, in->min_radius,
                                           in->max_radius, scratch_idx, &fit);
        if (!found) {
            have_fit = 0;
            break;
        }
        have_fit = 1;
        pt_point centre = {(float)fit.circle.cx, (float)fit.circle.cy};
        if (opt->ellipse) {
            centre.x = (float)fit.ellipse.cx;
            centre.y = (float)fit.ellipse.cy;
        }
        double moved = hypot(centre.x - start.x, centre.y - start.y);
        start = clamp_to_roi(&c, centre);
        if (moved < sb->converge_px)
            break;
    }

    for (int k = 0; k < n && ov; k++)
        pt_overlay_add(ov, pts[k].x, pts[k].y);
    if (!have_fit)
        return PT_OK;

    if (opt->ellipse) {
        res->ellipse = fit.ellipse;
        res->circle.cx = fit.ellipse.cx;
        res->circle.cy = fit.ellipse.cy;
        res->circle.r = sqrt(fit.ellipse.a * fit.ellipse.b);
        res->has_ellipse = 1;
        res->confidence = pt_confidence_ellipse(in->smoothed, &fit.ellipse);
    } else {
        res->circle = fit.circle;
        res->confidence = pt_confidence_circle(in->smoothed, &fit.circle);
    }
    res->has_circle = 1;
    if (res->confidence >= PT_CONFIDENCE_MIN)
        res->status = PT_DETECT_OK;
    else
        res->has_circle = res->has_ellipse = 0;
    return PT_OK;
}
