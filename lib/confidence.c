#include "confidence.h"

#include <math.h>

#include "starburst_ray.h"

static PT_HD int sample_at(const pt_image *img, double x, double y, int *value)
{
    int xi = (int)floor(x + 0.5), yi = (int)floor(y + 0.5);
    if (xi < 0 || yi < 0 || xi >= img->width || yi >= img->height)
        return 0;
    *value = img->buf[(long)yi * img->stride + xi];
    return 1;
}

PT_HD int pt_confidence_sample(const pt_image *img, const pt_ellipse *e, double ct, double st,
                               int k, int *dark)
{
    double phi = 2.0 * 3.14159265358979323846 * k / PT_CONFIDENCE_SAMPLES;
    double cp, sp;
    pt_sb_cos_sin(phi, &cp, &sp);
    double ai = e->a - PT_CONFIDENCE_OFFSET, bi = e->b - PT_CONFIDENCE_OFFSET;
    double ao = e->a + PT_CONFIDENCE_OFFSET, bo = e->b + PT_CONFIDENCE_OFFSET;
    if (ai < 0.5)
        ai = 0.5;
    if (bi < 0.5)
        bi = 0.5;
    double ui = ai * cp, vi = bi * sp, uo = ao * cp, vo = bo * sp;
    int inside, outside;
    if (!sample_at(img, e->cx + ui * ct - vi * st, e->cy + ui * st + vi * ct, &inside) ||
        !sample_at(img, e->cx + uo * ct - vo * st, e->cy + uo * st + vo * ct, &outside))
        return 0;
    *dark = outside - inside >= PT_CONFIDENCE_MARGIN;
    return 1;
}

PT_HD int pt_confidence_axes(const pt_ellipse *e, double *ct, double *st)
{
    if (!(e->a > 0) || !(e->b > 0))
        return 0;
    double t = e->theta * (3.14159265358979323846 / 180.0);
    /* exact-operation cos/sin: the CPU and the GPU sample the same points */
    pt_sb_cos_sin(t, ct, st);
    return 1;
}

PT_HD double pt_confidence_from_counts(int valid, int dark_inside)
{
    if (valid * 4 < PT_CONFIDENCE_SAMPLES)
        return 0.0;
    return (double)dark_inside / valid;
}

PT_HD double pt_confidence_ellipse(const pt_image *img, const pt_ellipse *e)
{
    double ct, st;
    if (!pt_confidence_axes(e, &ct, &st))
        return 0.0;
    int valid = 0, dark_inside = 0;
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++) {
        int dark;
        if (pt_confidence_sample(img, e, ct, st, k, &dark)) {
            valid++;
            dark_inside += dark;
        }
    }
    return pt_confidence_from_counts(valid, dark_inside);
}

PT_HD double pt_confidence_circle(const pt_image *img, const pt_circle *c)
{
    pt_ellipse e = {c->cx, c->cy, c->r, c->r, 0.0};
    return pt_confidence_ellipse(img, &e);
}
