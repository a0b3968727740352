/* Starburst's reported size (size_fraction), shared by omp/detect/starburst.c and
 * cuda/detect/starburst.cu (PT_HD, header-only).
 *
 * The fit uses the edge points as found (the steepest point of each step, an
 * unbiased estimate of the border's midpoint). size_fraction > 0 then moves
 * only the reported radius (or the ellipse's axes) to where the grey level
 * across the fitted outline crosses that share of the step, from its dark
 * (inside) level to its bright (outside) level: the centre stays the fit's.
 * The step is read along PT_SB_SIZE_NORMALS normals of the outline, and the
 * median of their crossings is the shift, so lids, lashes and reflections on
 * a few normals do not move it.
 *
 * Only IEEE-exact operations (pt_sb_cos_sin, sqrt, + - * /): the CPU and the
 * GPU read the same samples and report the same size. */
#ifndef PT_STARBURST_SIZE_H
#define PT_STARBURST_SIZE_H

#include "lib/detect/fit.h"
#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/starburst_ray.h"

#define PT_SB_SIZE_NORMALS 32

/* Where along the normal of ellipse e at angle k of PT_SB_SIZE_NORMALS the
 * grey level crosses `fraction` of the step, in px from the outline
 * (negative: inside). The profile is read from reach px inside to reach px
 * outside (reach = 2 gap + 1, at most the minor semi-axis inside); its dark
 * level is the least value inside, its bright level the greatest outside.
 * From the outline the walk goes inwards while the level is above the share
 * (outwards while below it) and interpolates linearly between the two
 * samples around the crossing. Returns 0 when a sample leaves the roi, the
 * step does not rise by the threshold or no crossing lies within reach. */
static inline PT_HD int pt_sb_size_normal(const pt_sb_view *c, const pt_ellipse *e, double ct,
                                          double st, int k, double fraction, double *cross)
{
    double cp, sp;
    pt_sb_cos_sin(2.0 * 3.14159265358979323846 * k / PT_SB_SIZE_NORMALS, &cp, &sp);
    double u = e->a * cp, v = e->b * sp;      /* outline point, ellipse frame */
    double nu = e->b * cp, nv = e->a * sp;    /* outward normal, ellipse frame */
    double nl = sqrt(nu * nu + nv * nv);
    if (!(nl > 0.0))
        return 0;
    nu /= nl;
    nv /= nl;
    double px = e->cx + u * ct - v * st, py = e->cy + u * st + v * ct;
    double dx = nu * ct - nv * st, dy = nu * st + nv * ct;
    int reach = 2 * c->gap + 1, inner = reach;
    if (inner > (int)e->b)
        inner = (int)e->b;
    if (inner < 1)
        return 0;
    /* profile sample i (0..inner+reach) lies at offset i - inner from the outline */
    double sx = px - inner * dx, sy = py - inner * dy;
    int len = inner + reach;
    float prof[2 * (2 * 64 + 1) + 1];
    if (len >= (int)(sizeof prof / sizeof prof[0]))
        return 0;
    float dark = 255.0f, bright = 0.0f;
    for (int i = 0; i <= len; i++) {
        int skip;
        if (!pt_sb_at(c, sx, sy, dx, dy, len, i, &prof[i], &skip) || skip)
            return 0;
        if (i <= inner && prof[i] < dark)
            dark = prof[i];
        if (i >= inner && prof[i] > bright)
            bright = prof[i];
    }
    if (!((double)bright - dark > c->threshold))
        return 0;
    double level = dark + fraction * ((double)bright - dark);
    int i = inner;
    if (prof[i] > level) {
        while (i > 0 && prof[i - 1] > level)
            i--;
        if (i == 0)
            return 0;
        i--; /* prof[i] <= level < prof[i + 1] */
    } else {
        while (i < len && prof[i + 1] <= level)
            i++;
        if (i == len)
            return 0;
    }
    *cross = i - inner + (level - prof[i]) / ((double)prof[i + 1] - prof[i]);
    return 1;
}

/* The median crossing of ellipse e's outline over the normals
 * (pt_sb_size_normal): returns 1 and *shift (px, negative inside), or 0
 * when fewer than half the normals give one. */
static inline PT_HD int pt_sb_size_shift(const pt_sb_view *c, const pt_ellipse *e,
                                         double fraction, double *shift)
{
    double ct, st;
    pt_sb_cos_sin(e->theta * (3.14159265358979323846 / 180.0), &ct, &st);
    double v[PT_SB_SIZE_NORMALS];
    int n = 0;
    for (int k = 0; k < PT_SB_SIZE_NORMALS; k++) {
        double x;
        if (!pt_sb_size_normal(c, e, ct, st, k, fraction, &x))
            continue;
        int j = n++; /* insertion sort */
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    if (2 * n < PT_SB_SIZE_NORMALS)
        return 0;
    *shift = n & 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return 1;
}

/* The reported fit (circle, and its ellipse: the refined ellipse in circle
 * mode, the fit with --ellipse) moved by size_fraction: the ellipse's axes
 * and the circle's radius change by the median crossing of the ellipse's
 * outline, when there is one and it leaves both axes above half their
 * size. The centres stay. */
static inline PT_HD void pt_sb_report_size(const pt_sb_view *c, const pt_sb_config *k,
                                           pt_circle *circle, pt_ellipse *ellipse)
{
    double shift;
    if (!(k->size_fraction > 0.0) || !pt_sb_size_shift(c, ellipse, k->size_fraction, &shift))
        return;
    if (!(ellipse->b + shift > 0.5 * ellipse->b) || !(circle->r + shift > 0.5 * circle->r))
        return;
    ellipse->a += shift;
    ellipse->b += shift;
    circle->r += shift;
}

#endif
