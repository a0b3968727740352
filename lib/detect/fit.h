/* Circle and ellipse fits and point-to-model distances, shared by the CPU and
 * CUDA back ends (every function is PT_HD; header-only so nvcc compiles it
 * into device code). Double precision internally, no allocation, no
 * recursion, fixed-size local arrays only.
 *
 * Point selection: idx == NULL uses pts[0..n); otherwise pts[idx[k]], k < n.
 * Conventions (pupiltrack(1), FILES): x right, y down; an ellipse has a >= b and theta in
 * [0,180) degrees, the angle of the a axis from +x towards +y. */
#ifndef PT_FIT_H
#define PT_FIT_H

#include <math.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"

/* ---- small helpers -------------------------------------------------------- */

static inline PT_HD pt_point pt_fit_point_at(const pt_point *pts, const int *idx, int k)
{
    return idx ? pts[idx[k]] : pts[k];
}

static inline PT_HD int pt_fit_finite(double v)
{
    /* v - v is NaN for NaN and inf; avoids isfinite differences across C and CUDA headers */
    return v - v == 0.0;
}

/* The centring and scaling both fits start with, in pieces that fits
 * adding their sums elsewhere (the CUDA select step) share: the mean from
 * the coordinate sums (0 when not finite), and the scale, the RMS distance
 * from the mean, from the sum of pt_fit_square_term (0 when the points all
 * coincide or are not finite). */
static inline PT_HD int pt_fit_mean_from_sums(double sx, double sy, int n, double *mx, double *my)
{
    *mx = sx / n;
    *my = sy / n;
    return pt_fit_finite(*mx) && pt_fit_finite(*my);
}

static inline PT_HD double pt_fit_square_term(pt_point p, double mx, double my)
{
    double u = p.x - mx, v = p.y - my;
    return u * u + v * v;
}

static inline PT_HD int pt_fit_scale_from_sum(double s, int n, double *scale, double *inv)
{
    *scale = sqrt(s / n);
    if (!(*scale > 0.0) || !pt_fit_finite(*scale))
        return 0;
    *inv = 1.0 / *scale;
    return 1;
}

/* Every sum over the points (the mean's, the scale's, the moments') is
 * taken in lane order: lane l < PT_FIT_LANES adds the terms of points l,
 * l + PT_FIT_LANES, l + 2 PT_FIT_LANES, ... in turn, starting from point
 * l's term, and the lanes' sums are then added in lane order. A warp takes
 * the same sums in parallel with the same roundings (cuda/detect/warp_fit.cuh),
 * its dependent additions n / PT_FIT_LANES + PT_FIT_LANES long instead of n;
 * up to PT_FIT_LANES points it is the plain sum in point order. */
#define PT_FIT_LANES 32

/* The mean (mx, my) of the selected points and the RMS distance from it
 * (scale, inv = 1 / scale). Returns 0 when the points are not finite or all
 * coincide. */
static inline PT_HD int pt_fit_normalise(const pt_point *pts, const int *idx, int n, double *mx,
                                         double *my, double *scale, double *inv)
{
    double sx = 0.0, sy = 0.0;
    for (int l = 0; l < PT_FIT_LANES && l < n; l++) {
        pt_point p = pt_fit_point_at(pts, idx, l);
        double lx = p.x, ly = p.y;
        for (int k = l + PT_FIT_LANES; k < n; k += PT_FIT_LANES) {
            p = pt_fit_point_at(pts, idx, k);
            lx += p.x;
            ly += p.y;
        }
        sx = l ? sx + lx : lx;
        sy = l ? sy + ly : ly;
    }
    if (!pt_fit_mean_from_sums(sx, sy, n, mx, my))
        return 0;
    double s = 0.0;
    for (int l = 0; l < PT_FIT_LANES && l < n; l++) {
        double ls = pt_fit_square_term(pt_fit_point_at(pts, idx, l), *mx, *my);
        for (int k = l + PT_FIT_LANES; k < n; k += PT_FIT_LANES)
            ls += pt_fit_square_term(pt_fit_point_at(pts, idx, k), *mx, *my);
        s = l ? s + ls : ls;
    }
    return pt_fit_scale_from_sum(s, n, scale, inv);
}

/* ---- circle: Taubin algebraic fit ----------------------------------------- */

/* The second half of pt_fit_circle: the circle from the mean moments of the
 * centred, RMS-scaled points (x, y, z = x^2 + y^2), their mean (mx, my) and
 * scale. Shared with fits that sum the moments in parallel. */
static inline PT_HD PT_DEV_NOINLINE int
pt_fit_circle_from_moments(double Mxx, double Myy, double Mxy, double Mxz, double Myz, double Mzz,
                           double mx, double my, double scale, pt_circle *out)
{
    double Mz = Mxx + Myy;
    double cov_xy = Mxx * Myy - Mxy * Mxy;
    double var_z = Mzz - Mz * Mz;
    double A3 = 4.0 * Mz;
    double A2 = -3.0 * Mz * Mz - Mzz;
    double A1 = var_z * Mz + 4.0 * cov_xy * Mz - Mxz * Mxz - Myz * Myz;
    double A0 = Mxz * (Mxz * Myy - Myz * Mxy) + Myz * (Myz * Mxx - Mxz * Mxy) - var_z * cov_xy;

    double x = 0.0, y = A0;
    for (int it = 0; it < 50; it++) {
        double dy = A1 + x * (2.0 * A2 + 3.0 * A3 * x);
        if (dy == 0.0)
            break;
        double xnew = x - y / dy;
        if (xnew == x || !pt_fit_finite(xnew))
            break;
        double ynew = A0 + xnew * (A1 + xnew * (A2 + xnew * A3));
        /* Newton from 0 decreases |P| monotonically towards the wanted root; stop when it stops improving */
        if (fabs(ynew) >= fabs(y))
            break;
        x = xnew;
        y = ynew;
    }
    if (x < 0.0)
        x = 0.0;

    double det = x * x - x * Mz + cov_xy;
    /* collinear data: the 2x2 system for the centre is singular (Mz == 1 after scaling) */
    if (fabs(det) < 1e-12)
        return 0;
    double ccx = (Mxz * (Myy - x) - Myz * Mxy) / (2.0 * det);
    double ccy = (Myz * (Mxx - x) - Mxz * Mxy) / (2.0 * det);
    double r = sqrt(ccx * ccx + ccy * ccy + Mz);

    out->cx = mx + ccx * scale;
    out->cy = my + ccy * scale;
    out->r = r * scale;
    return pt_fit_finite(out->cx) && pt_fit_finite(out->cy) && pt_fit_finite(out->r) &&
           out->r > 0.0;
}

/* The terms of pt_fit_circle's moment sums for the normalised point (x, y),
 * in the order Mxx, Myy, Mxy, Mxz, Myz, Mzz. */
#define PT_FIT_CIRCLE_MOMENTS 6
static inline PT_HD void pt_fit_circle_terms(double x, double y, double t[PT_FIT_CIRCLE_MOMENTS])
{
    double z = x * x + y * y;
    t[0] = x * x;
    t[1] = y * y;
    t[2] = x * y;
    t[3] = x * z;
    t[4] = y * z;
    t[5] = z * z;
}

/* pt_fit_circle from its moment sums m[] (term order, not yet divided by n). */
static inline PT_HD int pt_fit_circle_from_sums(const double m[PT_FIT_CIRCLE_MOMENTS], int n,
                                                double mx, double my, double scale,
                                                pt_circle *out)
{
    return pt_fit_circle_from_moments(m[0] / n, m[1] / n, m[2] / n, m[3] / n, m[4] / n,
                                      m[5] / n, mx, my, scale, out);
}

/* Taubin's fit in Chernov's formulation: moments of the centred (and here also
 * RMS-scaled) data, Newton on the characteristic polynomial from 0, which
 * converges to the smallest non-negative root (Chernov, "Circular and linear
 * regression", 2010, sec. 5.10). Returns 1 on success, 0 if degenerate. */
static inline PT_HD int pt_fit_circle(const pt_point *pts, const int *idx, int n,
                                      pt_circle *out)
{
    if (n < 3)
        return 0;
    double mx, my, scale, inv;
    if (!pt_fit_normalise(pts, idx, n, &mx, &my, &scale, &inv))
        return 0;
    /* the moments' sums in lane order (PT_FIT_LANES) */
    double m[PT_FIT_CIRCLE_MOMENTS] = {0};
    for (int l = 0; l < PT_FIT_LANES && l < n; l++) {
        double lm[PT_FIT_CIRCLE_MOMENTS], t[PT_FIT_CIRCLE_MOMENTS];
        pt_point p = pt_fit_point_at(pts, idx, l);
        pt_fit_circle_terms((p.x - mx) * inv, (p.y - my) * inv, lm);
        for (int k = l + PT_FIT_LANES; k < n; k += PT_FIT_LANES) {
            p = pt_fit_point_at(pts, idx, k);
            pt_fit_circle_terms((p.x - mx) * inv, (p.y - my) * inv, t);
            for (int j = 0; j < PT_FIT_CIRCLE_MOMENTS; j++)
                lm[j] += t[j];
        }
        for (int j = 0; j < PT_FIT_CIRCLE_MOMENTS; j++)
            m[j] = l ? m[j] + lm[j] : lm[j];
    }
    return pt_fit_circle_from_sums(m, n, mx, my, scale, out);
}

/* ---- ellipse: Halir-Flusser direct least squares ---------------------------- */

/* 3x3 determinant, row-major. */
static inline PT_HD double pt_fit_det3(const double m[9])
{
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
           m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/* Real roots of the characteristic polynomial of a 3x3 matrix whose
 * eigenvalues are known to be real (trigonometric form, then Newton polish). */
static inline PT_HD PT_DEV_NOINLINE int pt_fit_eig3_real(const double m[9], double root[3])
{
    double tr = m[0] + m[4] + m[8];
    double minors = (m[0] * m[4] - m[1] * m[3]) + (m[0] * m[8] - m[2] * m[6]) +
                    (m[4] * m[8] - m[5] * m[7]);
    double det = pt_fit_det3(m);
    /* l^3 + c2 l^2 + c1 l + c0 */
    double c2 = -tr, c1 = minors, c0 = -det;
    double shift = c2 / 3.0;
    double p = c1 - c2 * shift;
    double q = 2.0 * shift * shift * shift - shift * c1 + c0;
    if (!pt_fit_finite(p) || !pt_fit_finite(q))
        return 0;
    if (p >= 0.0) {
        /* all three coincide (numerically): no separated ellipse solution */
        return 0;
    }
    double mag = 2.0 * sqrt(-p / 3.0);
    double arg = 3.0 * q / (p * mag);
    if (arg > 1.0)
        arg = 1.0;
    if (arg < -1.0)
        arg = -1.0;
    double phi = acos(arg) / 3.0;
    const double two_pi_3 = 2.0943951023931954923;
    for (int k = 0; k < 3; k++) {
        double l = mag * cos(phi - two_pi_3 * k) - shift;
        for (int it = 0; it < 3; it++) {
            double f = ((l + c2) * l + c1) * l + c0;
            double df = (3.0 * l + 2.0 * c2) * l + c1;
            if (df == 0.0)
                break;
            double ln = l - f / df;
            if (!pt_fit_finite(ln))
                break;
            double fn = ((ln + c2) * ln + c1) * ln + c0;
            if (fabs(fn) >= fabs(f))
                break;
            l = ln;
        }
        root[k] = l;
    }
    return 1;
}

/* Null vector of (m - l I): the largest cross product of two of its rows. */
static inline PT_HD void pt_fit_null3(const double m[9], double l, double v[3])
{
    double r0[3] = {m[0] - l, m[1], m[2]};
    double r1[3] = {m[3], m[4] - l, m[5]};
    double r2[3] = {m[6], m[7], m[8] - l};
    const double *a[3] = {r0, r0, r1};
    const double *b[3] = {r1, r2, r2};
    double best = -1.0;
    v[0] = v[1] = v[2] = 0.0;
    for (int k = 0; k < 3; k++) {
        double c[3] = {a[k][1] * b[k][2] - a[k][2] * b[k][1],
                       a[k][2] * b[k][0] - a[k][0] * b[k][2],
                       a[k][0] * b[k][1] - a[k][1] * b[k][0]};
        double nn = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        if (nn > best) {
            best = nn;
            v[0] = c[0];
            v[1] = c[1];
            v[2] = c[2];
        }
    }
}

/* Conic A x^2 + B xy + C y^2 + D x + E y + F = 0 to the ellipse of pupiltrack(1).
 * Returns 0 if the conic is not a real ellipse. */
static inline PT_HD PT_DEV_NOINLINE int pt_fit_conic_to_ellipse(const double c[6], pt_ellipse *e)
{
    double A = c[0], B = c[1], C = c[2], D = c[3], E = c[4], F = c[5];
    if (A + C < 0.0) {
        A = -A; B = -B; C = -C; D = -D; E = -E; F = -F;
    }
    double disc = 4.0 * A * C - B * B;
    if (!(disc > 0.0))
        return 0;
    double x0 = (B * E - 2.0 * C * D) / disc;
    double y0 = (B * D - 2.0 * A * E) / disc;
    /* the conic's value at its centre: A u^2 + B uv + C v^2 = -f0 in centred coordinates */
    double f0 = F + 0.5 * (D * x0 + E * y0);
    double half_sum = 0.5 * (A + C);
    double rad = 0.5 * sqrt((A - C) * (A - C) + B * B);
    double lmax = half_sum + rad, lmin = half_sum - rad;
    if (!(lmin > 0.0) || !(-f0 > 0.0))
        return 0;
    e->cx = x0;
    e->cy = y0;
    e->a = sqrt(-f0 / lmin);
    e->b = sqrt(-f0 / lmax);
    /* 0.5*atan2(B, A-C) is the direction of lmax (the minor axis); the major axis is 90 degrees on */
    double theta = 0.0;
    if (rad > 1e-14 * half_sum)
        theta = 0.5 * atan2(B, A - C) * (180.0 / 3.14159265358979323846) + 90.0;
    /* atan2 is within [-pi, pi], so theta is within [0, 180]: only 180
     * itself folds (fmod is a loop on the GPU) */
    if (!(theta >= 0.0 && theta < 180.0))
        theta = 0.0;
    e->theta = theta;
    return pt_fit_finite(e->a) && pt_fit_finite(e->b) && pt_fit_finite(e->cx) &&
           pt_fit_finite(e->cy) && e->b > 0.0;
}

/* The terms of pt_fit_ellipse's moment sums for the normalised point (x, y),
 * in the order x, y, xx, xy, yy, xxx, xxy, xyy, yyy, xxxx, xxxy, xxyy,
 * xyyy, yyyy. */
#define PT_FIT_ELLIPSE_MOMENTS 14
static inline PT_HD void pt_fit_ellipse_terms(double x, double y,
                                              double t[PT_FIT_ELLIPSE_MOMENTS])
{
    double xx = x * x, xy = x * y, yy = y * y;
    t[0] = x;
    t[1] = y;
    t[2] = xx;
    t[3] = xy;
    t[4] = yy;
    t[5] = xx * x;
    t[6] = xx * y;
    t[7] = x * yy;
    t[8] = yy * y;
    t[9] = xx * xx;
    t[10] = xx * xy;
    t[11] = xx * yy;
    t[12] = xy * yy;
    t[13] = yy * yy;
}

static inline PT_HD PT_DEV_NOINLINE int
pt_fit_ellipse_from_sums(const double m[PT_FIT_ELLIPSE_MOMENTS], int n, double mx, double my,
                         double scale, pt_ellipse *out);

/* Halir & Flusser, "Numerically stable direct least squares fitting of
 * ellipses" (1998), on data centred on its mean and scaled to unit RMS radius.
 * The reduced 3x3 eigenproblem is solved in closed form (its eigenvalues are
 * real: the pencil (M, C1) has M positive semi-definite); the eigenvector with
 * 4ac - b^2 > 0 is the ellipse. Returns 1 on success, 0 if degenerate (n < 5,
 * collinear, non-finite) or if the best conic is not an ellipse. */
static inline PT_HD int pt_fit_ellipse(const pt_point *pts, const int *idx, int n,
                                       pt_ellipse *out)
{
    if (n < 5)
        return 0;
    double mx, my, scale, inv;
    if (!pt_fit_normalise(pts, idx, n, &mx, &my, &scale, &inv))
        return 0;

    /* moments of degree 1..4 of the normalised data, in lane order (PT_FIT_LANES) */
    double sums[PT_FIT_ELLIPSE_MOMENTS] = {0};
    for (int l = 0; l < PT_FIT_LANES && l < n; l++) {
        double lm[PT_FIT_ELLIPSE_MOMENTS], t[PT_FIT_ELLIPSE_MOMENTS];
        pt_point p = pt_fit_point_at(pts, idx, l);
        pt_fit_ellipse_terms((p.x - mx) * inv, (p.y - my) * inv, lm);
        for (int k = l + PT_FIT_LANES; k < n; k += PT_FIT_LANES) {
            p = pt_fit_point_at(pts, idx, k);
            pt_fit_ellipse_terms((p.x - mx) * inv, (p.y - my) * inv, t);
            for (int j = 0; j < PT_FIT_ELLIPSE_MOMENTS; j++)
                lm[j] += t[j];
        }
        for (int j = 0; j < PT_FIT_ELLIPSE_MOMENTS; j++)
            sums[j] = l ? sums[j] + lm[j] : lm[j];
    }
    return pt_fit_ellipse_from_sums(sums, n, mx, my, scale, out);
}

/* The rest of pt_fit_ellipse from its moment sums m[] (pt_fit_ellipse_terms
 * order) of the n points centred on (mx, my) and divided by scale. */
static inline PT_HD PT_DEV_NOINLINE int
pt_fit_ellipse_from_sums(const double m[PT_FIT_ELLIPSE_MOMENTS], int n, double mx, double my,
                         double scale, pt_ellipse *out)
{
    double s_x = m[0], s_y = m[1], s_xx = m[2], s_xy = m[3], s_yy = m[4];
    double s_xxx = m[5], s_xxy = m[6], s_xyy = m[7], s_yyy = m[8];
    double s_xxxx = m[9], s_xxxy = m[10], s_xxyy = m[11], s_xyyy = m[12], s_yyyy = m[13];
    double w = 1.0 / n;
    /* S1 = D1'D1, S2 = D1'D2, S3 = D2'D2 with D1 = [x^2 xy y^2], D2 = [x y 1] (row-major, /n) */
    double S1[9] = {s_xxxx, s_xxxy, s_xxyy, s_xxxy, s_xxyy, s_xyyy, s_xxyy, s_xyyy, s_yyyy};
    double S2[9] = {s_xxx, s_xxy, s_xx, s_xxy, s_xyy, s_xy, s_xyy, s_yyy, s_yy};
    double S3[9] = {s_xx, s_xy, s_x, s_xy, s_yy, s_y, s_x, s_y, (double)n};
    for (int k = 0; k < 9; k++) {
        S1[k] *= w;
        S2[k] *= w;
        S3[k] *= w;
    }
    double det3 = pt_fit_det3(S3);
    /* collinear data make S3 singular (its trace is ~3 after scaling) */
    if (!(det3 > 1e-10))
        return 0;
    double id = 1.0 / det3; /* one division, not nine (each a chain of steps on the GPU) */
    double S3i[9] = {
        (S3[4] * S3[8] - S3[5] * S3[7]) * id, (S3[2] * S3[7] - S3[1] * S3[8]) * id,
        (S3[1] * S3[5] - S3[2] * S3[4]) * id, (S3[5] * S3[6] - S3[3] * S3[8]) * id,
        (S3[0] * S3[8] - S3[2] * S3[6]) * id, (S3[2] * S3[3] - S3[0] * S3[5]) * id,
        (S3[3] * S3[7] - S3[4] * S3[6]) * id, (S3[1] * S3[6] - S3[0] * S3[7]) * id,
        (S3[0] * S3[4] - S3[1] * S3[3]) * id};
    /* T = -S3^-1 S2^T gives the linear part from the quadratic part */
    double T[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++)
                s += S3i[i * 3 + k] * S2[j * 3 + k];
            T[i * 3 + j] = -s;
        }
    /* M = S1 + S2 T, then premultiplied by C1^-1 for C1 = [0 0 2; 0 -1 0; 2 0 0] */
    double M[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = S1[i * 3 + j];
            for (int k = 0; k < 3; k++)
                s += S2[i * 3 + k] * T[k * 3 + j];
            M[i * 3 + j] = s;
        }
    double N[9] = {0.5 * M[6], 0.5 * M[7], 0.5 * M[8], -M[3], -M[4], -M[5],
                   0.5 * M[0], 0.5 * M[1], 0.5 * M[2]};

    double roots[3];
    if (!pt_fit_eig3_real(N, roots))
        return 0;
    double best_cond = 0.0, a1[3] = {0.0, 0.0, 0.0};
    for (int k = 0; k < 3; k++) {
        double v[3];
        pt_fit_null3(N, roots[k], v);
        double nn = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (!(nn > 0.0))
            continue;
        /* ellipse constraint 4ac - b^2 > 0, scale-free */
        double cond = (4.0 * v[0] * v[2] - v[1] * v[1]) / nn;
        if (cond > best_cond) {
            best_cond = cond;
            a1[0] = v[0];
            a1[1] = v[1];
            a1[2] = v[2];
        }
    }
    if (!(best_cond > 1e-12))
        return 0;
    double conic[6] = {a1[0], a1[1], a1[2],
                       T[0] * a1[0] + T[1] * a1[1] + T[2] * a1[2],
                       T[3] * a1[0] + T[4] * a1[1] + T[5] * a1[2],
                       T[6] * a1[0] + T[7] * a1[1] + T[8] * a1[2]};
    pt_ellipse e;
    if (!pt_fit_conic_to_ellipse(conic, &e))
        return 0;
    out->cx = mx + e.cx * scale;
    out->cy = my + e.cy * scale;
    out->a = e.a * scale;
    out->b = e.b * scale;
    out->theta = e.theta;
    return 1;
}

/* ---- distances -------------------------------------------------------------- */

/* Distance to the circle outline: | |p - c| - r |. */
static inline PT_HD double pt_circle_distance(const pt_circle *c, double x, double y)
{
    double dx = x - c->cx, dy = y - c->cy;
    return fabs(sqrt(dx * dx + dy * dy) - c->r);
}

/* An ellipse with its rotation precomputed, for distance loops over many points. */
typedef struct {
    double cx, cy, cos_t, sin_t, a, b;
} pt_ellipse_frame;

static inline PT_HD void pt_ellipse_frame_init(const pt_ellipse *e, pt_ellipse_frame *f)
{
    double t = e->theta * (3.14159265358979323846 / 180.0);
    f->cx = e->cx;
    f->cy = e->cy;
    f->cos_t = cos(t);
    f->sin_t = sin(t);
    f->a = e->a;
    f->b = e->b;
}

/* Geometric (closest-point) distance to the ellipse outline. In the ellipse
 * frame, folded into the first quadrant, the closest point is found by a fixed
 * 4 iterations of the evolute construction: for the current outline point
 * (a cos t, b sin t) the centre of curvature E lies on the evolute; the point
 * of the osculating circle on the ray E->p is mapped back onto the ellipse.
 * This converges from t = 45 degrees for every point (inside or outside) to a
 * distance error below 1e-4 px for pupil-sized ellipses (tests/test_fit.c
 * checks it against a dense reference). */
static inline PT_HD PT_DEV_NOINLINE double
pt_ellipse_frame_distance(const pt_ellipse_frame *f, double x, double y)
{
    double dx = x - f->cx, dy = y - f->cy;
    double u = fabs(dx * f->cos_t + dy * f->sin_t);
    double v = fabs(-dx * f->sin_t + dy * f->cos_t);
    double a = f->a, b = f->b;
    double ca = 0.70710678118654752440, sb = 0.70710678118654752440; /* cos t, sin t */
    /* Two divisions and three square roots per iteration, the reciprocals
     * of a and b once: on the GPU each division or root is a chain of
     * dependent steps, and this loop is a thread's whole work in the CUDA
     * select step's ellipse tests (H100, one test per thread over the
     * block: 2.4 against 3.5 us with six divisions per iteration). */
    double ia = 1.0 / a, ib = 1.0 / b;
    double kx = (a * a - b * b) * ia, ky = (b * b - a * a) * ib;
    for (int it = 0; it < 4; it++) {
        double ex = kx * ca * ca * ca, ey = ky * sb * sb * sb;
        double rx = a * ca - ex, ry = b * sb - ey;
        double qx = u - ex, qy = v - ey;
        double r = sqrt(rx * rx + ry * ry), q = sqrt(qx * qx + qy * qy);
        if (!(q > 0.0))
            break;
        double t = r / q;
        double nc = (qx * t + ex) * ia, ns = (qy * t + ey) * ib;
        nc = nc < 0.0 ? 0.0 : (nc > 1.0 ? 1.0 : nc);
        ns = ns < 0.0 ? 0.0 : (ns > 1.0 ? 1.0 : ns);
        double len = sqrt(nc * nc + ns * ns);
        if (!(len > 0.0))
            break;
        double il = 1.0 / len;
        ca = nc * il;
        sb = ns * il;
    }
    double px = u - a * ca, py = v - b * sb;
    return sqrt(px * px + py * py);
}

/* Whether a point lies clearly farther than d from the outline: u, v are
 * its coordinates in the ellipse's frame, folded into the first quadrant
 * (as pt_ellipse_frame_distance computes them). g(p) = |(u / a, v / b)| is
 * a norm whose unit circle is the ellipse and |g(p) - g(q)| <= |p - q| /
 * min(a, b), so every point q of the outline (g(q) = 1) has |p - q| >=
 * min(a, b) |g(p) - 1|: a lower bound on the true distance.
 * pt_ellipse_frame_distance returns the distance to one point of the
 * outline, never less than the true distance, so a point whose bound
 * exceeds d (by more than the rounding of either computation) would fail
 * its test too. a, b: the frame's axes; 0 unless both are positive. Exact
 * IEEE operations only: the same answer on the CPU and the GPU. */
static inline PT_HD int pt_ellipse_frame_beyond(double a, double b, double u, double v,
                                                double d)
{
    double gu = u / a, gv = v / b;
    double bound = (a < b ? a : b) * fabs(sqrt(gu * gu + gv * gv) - 1.0);
    double slack = 1e-9 * (d + a + b + u + v) + 1e-12;
    return (a > 0.0) & (b > 0.0) & (bound > d + slack);
}

#define PT_ELLIPSE_NEAR_RATIO 2.0   /* pt_ellipse_frame_near: long axis / short at most */
#define PT_ELLIPSE_NEAR_MARGIN 0.05 /* pt_ellipse_frame_near: px kept from d */

/* Whether a point lies clearly within d of the outline: the outline point
 * on the ray from the centre through it, (u, v) / g(p) with g as in
 * pt_ellipse_frame_beyond, lies |p| |1 - 1 / g(p)| from it, never less than
 * the distance to the closest outline point. pt_ellipse_frame_distance
 * exceeds that distance by its iterations' error: over 200,000 random
 * ellipses of axes 1.5-600 px and long / short axis up to 2, with points
 * up to 35 px from the outline, by less than 0.004 px (tests/test_fit.c
 * checks it against a dense reference). So an ellipse of long / short
 * axis at most PT_ELLIPSE_NEAR_RATIO and a point whose ray distance is at
 * most d - PT_ELLIPSE_NEAR_MARGIN pass pt_ellipse_frame_distance <= d too.
 * Exact IEEE operations only: the same answer on the CPU and the GPU. */
static inline PT_HD int pt_ellipse_frame_near(double a, double b, double u, double v, double d)
{
    double gu = u / a, gv = v / b;
    double g = sqrt(gu * gu + gv * gv);
    double ray = sqrt(u * u + v * v) * fabs(1.0 - 1.0 / g);
    double lo = a < b ? a : b, hi = a < b ? b : a;
    return (lo > 0.0) & (hi <= PT_ELLIPSE_NEAR_RATIO * lo) & (g > 0.0) &
           (ray <= d - PT_ELLIPSE_NEAR_MARGIN);
}

/* Whether the point lies within d of the outline: pt_ellipse_frame_distance
 * (f, x, y) <= d, far cheaper for the points that are clearly off it
 * (pt_ellipse_frame_beyond) or clearly on it (pt_ellipse_frame_near); the
 * rest take the full test. */
static inline PT_HD int pt_ellipse_frame_within(const pt_ellipse_frame *f, double x, double y,
                                                double d)
{
    double dx = x - f->cx, dy = y - f->cy;
    double u = fabs(dx * f->cos_t + dy * f->sin_t);
    double v = fabs(-dx * f->sin_t + dy * f->cos_t);
    if (pt_ellipse_frame_beyond(f->a, f->b, u, v, d))
        return 0;
    if (pt_ellipse_frame_near(f->a, f->b, u, v, d))
        return 1;
    return pt_ellipse_frame_distance(f, x, y) <= d;
}

/* Geometric distance to the ellipse outline (see pt_ellipse_frame_distance). */
static inline PT_HD double pt_ellipse_distance(const pt_ellipse *e, double x, double y)
{
    pt_ellipse_frame f;
    pt_ellipse_frame_init(e, &f);
    return pt_ellipse_frame_distance(&f, x, y);
}

static inline PT_HD void pt_ellipse_from_circle(const pt_circle *c, pt_ellipse *e)
{
    e->cx = c->cx;
    e->cy = c->cy;
    e->a = c->r;
    e->b = c->r;
    e->theta = 0.0;
}

#endif
