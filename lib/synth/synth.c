/* Synthetic near-infrared eye images: skin, almond-shaped opening, sclera,
 * fibrous iris, slightly elliptical dark pupil, a half ring of corneal
 * reflections, eyelids and eyelashes that may cover the pupil, illumination
 * gradient, blur and sensor noise, and on request the failure classes of
 * pupiltrack(1), synth --hazard. All sizes scale with the eye's region so
 * 128x128 crops and 1280x1024 frames look alike. */
#include "lib/synth/synth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/synth/synth_filter.h"
#include "lib/synth/synth_noise.h"

#define FIBRE_N 1024
#define MAX_GLINTS PT_SYNTH_MAX_GLINTS
#define HALF_RING_MAX 8 /* reflections of the default illuminator */
#define PI_F 3.14159265f

/* What the difficulty changes; everything else is drawn from the same ranges. */
typedef struct {
    double p_closed;       /* fully closed eye, no pupil */
    double p_lid_cover;    /* upper lid placed across the pupil */
    double lid_cover_max;  /* most of the pupil diameter an eyelid may hide */
    double p_lash_cross;   /* a few lashes hang down across the pupil */
    double iris_lo, iris_hi, pupil_lo, pupil_hi, min_contrast;
    double noise_lo, noise_hi, blur_lo, blur_hi; /* blur in px at a 256-px eye */
    double vignette_hi;
    double glint_ring_lo, glint_ring_hi;          /* ring radius / pupil radius */
} difficulty_knobs;

/* hard renders normal's scene and adds failure classes (apply_eye_hazards
 * and the blurs at the end of pt_synth_render). */
static const difficulty_knobs knob_table[2] = {
    /* easy */
    {0.0, 0.10, 0.25, 0.10, 90, 140, 8, 28, 60, 1.0, 3.0, 0.4, 0.9, 0.25, 0.9, 1.8},
    /* normal (and hard's scene) */
    {0.05, 0.18, 0.40, 0.20, 65, 125, 12, 40, 30, 2.0, 6.0, 0.5, 1.4, 0.40, 0.5, 1.5},
};

/* Failure-class severities (pupiltrack(1), synth --hazard); lengths are
 * shares of the eye region's short side ("unit") or of the pupil radius. */
#define HZ_CONTRAST_LO 8.0          /* iris minus pupil, grey levels */
#define HZ_CONTRAST_HI 18.0
#define HZ_SMALL_RATIO_LO 3.0       /* iris radius / pupil radius */
#define HZ_SMALL_RATIO_HI 6.5
#define HZ_LID_UP_LO 0.20           /* upper lid: share of the pupil diameter hidden */
#define HZ_LID_UP_HI 0.45
#define HZ_LID_LOWER_P 0.3          /* chance that the lower lid cuts it too */
#define HZ_LID_LOWER_LO 0.05
#define HZ_LID_LOWER_HI 0.15
#define HZ_LID_TOTAL_MAX 0.45       /* most of the diameter both lids hide */
#define HZ_RING_MIN 4               /* LED ring reflections */
#define HZ_RING_MAX 9
#define HZ_RING_SCALE_LO 0.9        /* ring radius / pupil radius */
#define HZ_RING_SCALE_HI 1.15
#define HZ_RING_OFFSET 0.12         /* ring centre off the pupil centre, / radius */
#define HZ_RING_GLINT_LO 0.008      /* reflection radius / unit */
#define HZ_RING_GLINT_HI 0.018
#define HZ_MOTION_LO 0.012          /* motion blur length / unit */
#define HZ_MOTION_HI 0.035
#define HZ_DEFOCUS_LO 0.006         /* defocus disc radius / unit */
#define HZ_DEFOCUS_HI 0.016

typedef struct {
    float x, y, radius, peak;
} glint;

typedef struct {
    int x0, x1;    /* columns of this eye's region */
    float unit;    /* min(region width, height): the length everything scales with */
    int temporal;  /* +1 when the outer corner is on the right */
    int closed;
    float ex, ey, half_w, h_up, h_lo, tilt, skew, lid_soft;
    float ix, iy, iris_r, limbus_soft;
    float px, py, pa, pb, cos_t, sin_t, theta_deg, edge;
    float sclera_level, iris_level, pupil_level;
    float fibre_amp, crypt_amp, limbal_dark, collarette_r, collarette_amp;
    float lid_shadow, shadow_band, crease_off, crease_dark, crease_w;
    float fibre[FIBRE_N];
    pt_synth_lattice crypts;
    int n_glints;
    glint glints[MAX_GLINTS];
    long pupil_pixels, pupil_visible_pixels;
} eye_scene;

typedef struct {
    float skin_level, grad_x, grad_y, vignette, illum_cx, illum_cy, gain;
    float blur_sigma, noise_sigma, lash_level;
    pt_synth_lattice skin_coarse, skin_fine;
    uint64_t noise_seed;
} frame_scene;

static float clamp01(float v)
{
    return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

static float smoothstep01(float v)
{
    v = clamp01(v);
    return v * v * (3.0f - 2.0f * v);
}

static float frand(pt_synth_rng *rng, double lo, double hi)
{
    return (float)pt_synth_uniform(rng, lo, hi);
}

void pt_synth_params_default(pt_synth_params *params)
{
    params->width = 320;
    params->height = 256;
    params->binocular = 0;
    params->difficulty = PT_SYNTH_NORMAL;
    params->gaze_dx = params->gaze_dy = 0.0f;
    params->noise_salt = 0;
    params->exposure = 1.0f;
    params->hazards = 0;
}

pt_status pt_synth_parse_difficulty(const char *name, pt_synth_difficulty *out,
                                    pt_error *err)
{
    static const char *const names[] = {"easy", "normal", "hard"};
    for (int i = 0; i < 3; i++)
        if (name && !strcmp(name, names[i])) {
            *out = (pt_synth_difficulty)i;
            return PT_OK;
        }
    return pt_error_set(err, PT_ERR_PARAM, "--difficulty",
                        "unknown difficulty '%s' (easy, normal or hard)",
                        name ? name : "");
}

void pt_synth_sequence_frame(const pt_synth_params *params, long index, long period,
                             pt_synth_params *out)
{
    *out = *params;
    int region_w = params->binocular ? params->width / 2 : params->width;
    double unit = region_w < params->height ? region_w : params->height;
    double t = 2.0 * 3.14159265358979323846 * (double)(index % (period > 0 ? period : 1)) /
               (double)(period > 0 ? period : 1);
    out->gaze_dx = (float)(0.06 * unit * sin(t));
    out->gaze_dy = (float)(0.03 * unit * sin(2.0 * t));
    out->noise_salt = (uint64_t)index + 1;
}

uint64_t pt_synth_frame_seed(uint64_t seed, long index)
{
    return pt_synth_mix64(pt_synth_mix64(seed) + 0x9e3779b97f4a7c15ULL * (uint64_t)(index + 1));
}

/* Lid curves: parabolas meeting at the corners give the almond shape. */
static float lid_profile(const eye_scene *e, float x)
{
    float t = (x - e->ex) / e->half_w;
    float q = 1.0f - t * t;
    return q > 0.0f ? q * (1.0f + e->skew * t) : 0.0f;
}

static float lid_upper(const eye_scene *e, float x)
{
    return e->ey + e->tilt * (x - e->ex) - e->h_up * lid_profile(e, x);
}

static float lid_lower(const eye_scene *e, float x)
{
    return e->ey + e->tilt * (x - e->ex) + e->h_lo * lid_profile(e, x);
}

static float opening_from(float up, float lo, float y, float soft)
{
    if (lo <= up)
        return 0.0f;
    return clamp01((y - up) / soft + 0.5f) * clamp01((lo - y) / soft + 0.5f);
}

static float opening_at(const eye_scene *e, float x, float y)
{
    if (e->closed)
        return 0.0f;
    return opening_from(lid_upper(e, x), lid_lower(e, x), y, e->lid_soft);
}

/* Pupil geometry, lids and appearance of one eye inside columns [x0, x1). */
static pt_status plan_eye(eye_scene *e, int x0, int x1, int height, int temporal,
                          const difficulty_knobs *k, float skin_level, pt_synth_rng *rng,
                          pt_error *err)
{
    float rw = (float)(x1 - x0), h = (float)height;
    e->x0 = x0;
    e->x1 = x1;
    e->temporal = temporal;
    e->unit = rw < h ? rw : h;
    float unit = e->unit, px_scale = unit / 256.0f;

    e->half_w = rw * frand(rng, 0.40, 0.52);
    e->ex = (float)x0 + 0.5f * rw + rw * frand(rng, -0.05, 0.05);
    e->ey = 0.5f * h + h * frand(rng, -0.08, 0.08);
    e->tilt = frand(rng, -0.08, 0.08);
    e->skew = frand(rng, -0.25, 0.25) * (float)temporal;
    e->lid_soft = fmaxf(1.0f, unit * 0.005f);

    e->iris_r = unit * frand(rng, 0.19, 0.30);
    float ratio_iris = frand(rng, 2.2, 3.0);
    float r = e->iris_r / ratio_iris;
    float axis_ratio = frand(rng, 0.8, 1.0);
    e->pa = r / sqrtf(axis_ratio);
    e->pb = r * sqrtf(axis_ratio);
    e->theta_deg = frand(rng, 0.0, 180.0);
    if (e->theta_deg >= 180.0f)
        e->theta_deg = 0.0f;
    e->cos_t = cosf(e->theta_deg * PI_F / 180.0f);
    e->sin_t = sinf(e->theta_deg * PI_F / 180.0f);
    e->edge = frand(rng, 1.0, 2.0) * fmaxf(1.0f, px_scale);
    e->limbus_soft = fmaxf(1.0f, unit * frand(rng, 0.006, 0.015));

    float gaze_room = fmaxf(0.0f, e->half_w - 1.1f * e->iris_r);
    e->ix = e->ex + frand(rng, -0.6, 0.6) * gaze_room;
    e->iy = e->ey + frand(rng, -0.35, 0.25) * e->iris_r;
    e->px = e->ix + frand(rng, -0.06, 0.06) * e->iris_r;
    e->py = e->iy + frand(rng, -0.06, 0.06) * e->iris_r;
    /* Keep the whole pupil (and its soft edge) inside the region. */
    float margin = e->pa + e->edge + 2.0f;
    e->px = fminf(fmaxf(e->px, (float)x0 + margin), (float)x1 - 1.0f - margin);
    e->py = fminf(fmaxf(e->py, margin), h - 1.0f - margin);

    e->h_up = e->iris_r * frand(rng, 0.75, 1.25);
    e->h_lo = e->iris_r * frand(rng, 0.55, 1.0);
    float prof = lid_profile(e, e->px);
    if (pt_synth_chance(rng, k->p_lid_cover) && prof > 0.05f) {
        /* Put the upper lid edge a chosen share of the diameter below the pupil top. */
        float target = e->py - r + 2.0f * r * frand(rng, 0.08, k->lid_cover_max);
        e->h_up = fmaxf(0.15f * e->iris_r, (lid_upper(e, e->px) + e->h_up * prof - target) / prof);
    }
    if (pt_synth_chance(rng, k->p_lid_cover * 0.3) && prof > 0.05f) {
        float target = e->py + r - 2.0f * r * frand(rng, 0.05, 0.5 * k->lid_cover_max);
        e->h_lo = fmaxf(0.15f * e->iris_r, (target - lid_lower(e, e->px) + e->h_lo * prof) / prof);
    }
    e->closed = pt_synth_chance(rng, k->p_closed);

    e->sclera_level = fminf(230.0f, skin_level * frand(rng, 0.88, 1.12));
    e->iris_level = frand(rng, k->iris_lo, k->iris_hi);
    e->pupil_level = frand(rng, k->pupil_lo, k->pupil_hi);
    if (e->iris_level - e->pupil_level < (float)k->min_contrast)
        e->iris_level = e->pupil_level + (float)k->min_contrast;
    e->fibre_amp = frand(rng, 0.08, 0.22);
    e->crypt_amp = frand(rng, 0.04, 0.14);
    e->limbal_dark = frand(rng, 0.1, 0.35);
    e->collarette_r = r * frand(rng, 1.4, 1.8);
    e->collarette_amp = frand(rng, -0.1, 0.12);
    e->lid_shadow = frand(rng, 0.15, 0.45);
    e->shadow_band = e->iris_r * frand(rng, 0.3, 0.7);
    e->crease_off = e->iris_r * frand(rng, 0.4, 0.9);
    e->crease_dark = frand(rng, 0.05, 0.2);
    e->crease_w = unit * frand(rng, 0.01, 0.025);

    static const int cycles[3] = {36, 90, 200};
    const float amps[3] = {0.5f, 1.0f, 0.6f};
    pt_synth_periodic_table(e->fibre, FIBRE_N, cycles, amps, 3, rng);
    pt_status st = pt_synth_lattice_init(&e->crypts, 2.0f * e->iris_r, 2.0f * e->iris_r,
                                         fmaxf(2.0f, e->iris_r * 0.12f),
                                         pt_synth_next(rng), err);
    if (st != PT_OK)
        return st;

    /* Half ring of reflections from the illuminator LEDs, around the pupil. */
    e->n_glints = pt_synth_int(rng, 4, HALF_RING_MAX);
    float ring_cx = e->px + r * frand(rng, -0.3, 0.3);
    float ring_cy = e->py + r * frand(rng, -0.3, 0.3);
    float ring_r = r * frand(rng, k->glint_ring_lo, k->glint_ring_hi);
    float start = frand(rng, 0.0, 2.0 * PI_F), step = PI_F / (float)(e->n_glints - 1);
    for (int i = 0; i < e->n_glints; i++) {
        float ang = start + step * (float)i + step * frand(rng, -0.15, 0.15);
        float rad = ring_r * frand(rng, 0.9, 1.1);
        e->glints[i].x = ring_cx + rad * cosf(ang);
        e->glints[i].y = ring_cy + rad * sinf(ang);
        e->glints[i].radius = fmaxf(0.8f, unit * frand(rng, 0.006, 0.016));
        e->glints[i].peak = frand(rng, 330.0, 520.0);
    }
    e->pupil_pixels = e->pupil_visible_pixels = 0;
    return PT_OK;
}

/* Puts the eye-level failure classes in `classes` on a planned eye. Every
 * severity is drawn whether its class is on or not, so that a class's draw
 * is the same whichever others accompany it. */
static void apply_eye_hazards(eye_scene *e, unsigned classes, pt_synth_rng *hz)
{
    float contrast = frand(hz, HZ_CONTRAST_LO, HZ_CONTRAST_HI);
    float small_ratio = frand(hz, HZ_SMALL_RATIO_LO, HZ_SMALL_RATIO_HI);
    float up_share = frand(hz, HZ_LID_UP_LO, HZ_LID_UP_HI);
    int lower_too = pt_synth_chance(hz, HZ_LID_LOWER_P);
    float lower_u = frand(hz, 0.0, 1.0);
    int n_ring = pt_synth_int(hz, HZ_RING_MIN, HZ_RING_MAX);
    float ring_dx = frand(hz, -HZ_RING_OFFSET, HZ_RING_OFFSET);
    float ring_dy = frand(hz, -HZ_RING_OFFSET, HZ_RING_OFFSET);
    float ring_scale = frand(hz, HZ_RING_SCALE_LO, HZ_RING_SCALE_HI);
    float ring_start = frand(hz, 0.0, 2.0 * PI_F);
    float jitter_ang[HZ_RING_MAX], jitter_rad[HZ_RING_MAX], size[HZ_RING_MAX], peak[HZ_RING_MAX];
    for (int i = 0; i < HZ_RING_MAX; i++) {
        jitter_ang[i] = frand(hz, -0.12, 0.12);
        jitter_rad[i] = frand(hz, -0.04, 0.04);
        size[i] = frand(hz, HZ_RING_GLINT_LO, HZ_RING_GLINT_HI);
        peak[i] = frand(hz, 330.0, 520.0);
    }

    if (classes & PT_SYNTH_LOW_CONTRAST) {
        /* A dark iris: its mean a few grey levels above the pupil, its
         * texture and limbal ring fainter so it stays above the pupil. */
        e->iris_level = e->pupil_level + contrast;
        e->limbal_dark *= 0.3f;
        e->fibre_amp *= 0.6f;
        e->crypt_amp *= 0.6f;
    }
    if (classes & PT_SYNTH_SMALL_PUPIL) {
        float s = e->iris_r / small_ratio / sqrtf(e->pa * e->pb);
        if (s < 1.0f) {
            e->pa *= s;
            e->pb *= s;
            e->collarette_r *= s;
        }
    }
    float r = sqrtf(e->pa * e->pb);
    float prof = lid_profile(e, e->px);
    if ((classes & PT_SYNTH_LID) && prof > 0.05f) {
        /* Lid edges a chosen share of the diameter inside the pupil's top
         * (and bottom); a drooping upper lid may sag below the corners' line. */
        float corners = e->ey + e->tilt * (e->px - e->ex);
        float target = e->py - r + 2.0f * r * up_share;
        e->h_up = fmaxf(-0.2f * e->iris_r, (corners - target) / prof);
        float hi = fminf((float)HZ_LID_LOWER_HI, (float)HZ_LID_TOTAL_MAX - up_share);
        if (lower_too && hi > (float)HZ_LID_LOWER_LO) {
            float share = (float)HZ_LID_LOWER_LO + lower_u * (hi - (float)HZ_LID_LOWER_LO);
            target = e->py + r - 2.0f * r * share;
            e->h_lo = fmaxf(0.15f * e->iris_r, (target - corners) / prof);
        } else {
            /* Only the upper lid cuts: the lower one clears the pupil. */
            target = e->py + r + e->edge + 1.0f;
            e->h_lo = fmaxf(e->h_lo, (target - corners) / prof);
        }
        if (e->h_up + e->h_lo < 0.3f * e->iris_r)
            e->h_lo = 0.3f * e->iris_r - e->h_up;
    }
    if (classes & PT_SYNTH_GLINT_RING) {
        /* An LED ring around the lens: evenly spaced reflections on or just
         * outside the pupil border, replacing the default half ring. */
        float cx = e->px + ring_dx * r, cy = e->py + ring_dy * r, rad = ring_scale * r;
        float step = 2.0f * PI_F / (float)n_ring;
        e->n_glints = n_ring;
        for (int i = 0; i < n_ring; i++) {
            float ang = ring_start + step * ((float)i + jitter_ang[i]);
            float rr = rad * (1.0f + jitter_rad[i]);
            e->glints[i].x = cx + rr * cosf(ang);
            e->glints[i].y = cy + rr * sinf(ang);
            e->glints[i].radius = fmaxf(0.8f, e->unit * size[i]);
            e->glints[i].peak = peak[i];
        }
    }
}

/* Signed distance (px, negative inside) from the pupil ellipse, first-order. */
static float pupil_distance(const eye_scene *e, float dx, float dy)
{
    float u = dx * e->cos_t + dy * e->sin_t;
    float w = -dx * e->sin_t + dy * e->cos_t;
    float ia2 = 1.0f / (e->pa * e->pa), ib2 = 1.0f / (e->pb * e->pb);
    float q = u * u * ia2 + w * w * ib2;
    if (q < 1e-8f)
        return -e->pb;
    float sq = sqrtf(q);
    float grad = sqrtf(u * u * ia2 * ia2 + w * w * ib2 * ib2) / sq;
    return (sq - 1.0f) / grad;
}

/* Skin, lids, sclera, iris and pupil of one eye into its columns of base. */
static void paint_eye(eye_scene *e, const frame_scene *f, float *base, int width,
                      int height, float *upper, float *lower)
{
    for (int x = e->x0; x < e->x1; x++) {
        upper[x] = lid_upper(e, (float)x);
        lower[x] = lid_lower(e, (float)x);
    }
    const float iris_reach = e->iris_r + e->limbus_soft;
    const float pupil_reach = e->pa + e->edge;
    const float crypt_x0 = e->ix - e->iris_r, crypt_y0 = e->iy - e->iris_r;
    for (int y = 0; y < height; y++) {
        float fy = (float)y;
        float *row = base + (size_t)y * width;
        for (int x = e->x0; x < e->x1; x++) {
            float fx = (float)x;
            float t = (fx - e->ex) / e->half_w;
            float skin = f->skin_level *
                         (1.0f + 0.10f * pt_synth_lattice_at(&f->skin_coarse, fx, fy) +
                          0.035f * pt_synth_lattice_at(&f->skin_fine, fx, fy));
            /* Lid crease above the opening (and the closure line of a shut eye). */
            if (fabsf(t) < 1.15f) {
                float fade = 1.0f - smoothstep01((fabsf(t) - 0.8f) / 0.35f);
                float crease_y = upper[x] - e->crease_off * (1.0f - 0.5f * t * t);
                float u = (fy - crease_y) / e->crease_w;
                if (fabsf(u) < 1.0f)
                    skin *= 1.0f - e->crease_dark * fade * (1.0f - u * u) * (1.0f - u * u);
                if (e->closed) {
                    float v = (fy - upper[x]) / (1.5f * e->crease_w);
                    if (fabsf(v) < 1.0f)
                        skin *= 1.0f - 0.45f * fade * (1.0f - v * v);
                }
            }
            float open = e->closed ? 0.0f : opening_from(upper[x], lower[x], fy, e->lid_soft);
            float dxp = fx - e->px, dyp = fy - e->py;
            float pupil_alpha = 0.0f;
            if (fabsf(dxp) < pupil_reach && fabsf(dyp) < pupil_reach) {
                float d = pupil_distance(e, dxp, dyp);
                pupil_alpha = smoothstep01(0.5f - d / e->edge);
                if (d < 0.0f) {
                    e->pupil_pixels++;
                    if (open > 0.5f)
                        e->pupil_visible_pixels++;
                }
            }
            if (open <= 0.0f) {
                row[x] = skin;
                continue;
            }
            float shade = 1.0f - e->lid_shadow * (1.0f - smoothstep01((fy - upper[x]) / e->shadow_band));
            float ball = e->sclera_level * (1.0f - 0.3f * t * t);
            float dxi = fx - e->ix, dyi = fy - e->iy;
            float rho2 = dxi * dxi + dyi * dyi;
            if (rho2 < iris_reach * iris_reach) {
                float rho = sqrtf(rho2);
                float iris_alpha = smoothstep01((e->iris_r - rho) / e->limbus_soft + 0.5f);
                float rn = rho / e->iris_r;
                float crypt = pt_synth_lattice_at(&e->crypts, fx - crypt_x0, fy - crypt_y0);
                float turns = pt_synth_atan2_turns(dyi, dxi) + 0.01f * crypt;
                float pos = (turns - floorf(turns)) * (float)FIBRE_N;
                int i0 = (int)pos;
                float frac = pos - (float)i0;
                i0 &= FIBRE_N - 1;
                float fib = e->fibre[i0] + (e->fibre[(i0 + 1) & (FIBRE_N - 1)] - e->fibre[i0]) * frac;
                float window = rn * (1.2f - rn);
                float cu = (rho - e->collarette_r) / (0.12f * e->iris_r);
                float collar = fabsf(cu) < 1.0f ? e->collarette_amp * (1.0f - cu * cu) : 0.0f;
                float iris = e->iris_level *
                             (1.0f + e->fibre_amp * fib * 3.0f * window + e->crypt_amp * crypt + collar) *
                             (1.0f - e->limbal_dark * smoothstep01((rn - 0.75f) / 0.25f));
                ball += (iris - ball) * iris_alpha;
            }
            ball += (e->pupil_level - ball) * pupil_alpha;
            ball *= shade;
            row[x] = skin + (ball - skin) * open;
        }
    }
}

/* Anti-aliased stroke along a quadratic Bezier into the lash coverage buffer. */
static void stroke_lash(float *cover, int width, int height, int x0, int x1,
                        const float p[6], float thickness, float alpha)
{
    float len = hypotf(p[2] - p[0], p[3] - p[1]) + hypotf(p[4] - p[2], p[5] - p[3]);
    int steps = (int)ceilf(len / 0.5f) + 1;
    for (int s = 0; s <= steps; s++) {
        float t = (float)s / (float)steps, mt = 1.0f - t;
        float cx = mt * mt * p[0] + 2.0f * mt * t * p[2] + t * t * p[4];
        float cy = mt * mt * p[1] + 2.0f * mt * t * p[3] + t * t * p[5];
        float rad = 0.5f * thickness * (1.0f - 0.75f * t);
        int bx0 = (int)floorf(cx - rad - 1.0f), bx1 = (int)ceilf(cx + rad + 1.0f);
        int by0 = (int)floorf(cy - rad - 1.0f), by1 = (int)ceilf(cy + rad + 1.0f);
        if (bx0 < x0)
            bx0 = x0;
        if (bx1 > x1 - 1)
            bx1 = x1 - 1;
        if (by0 < 0)
            by0 = 0;
        if (by1 > height - 1)
            by1 = height - 1;
        for (int y = by0; y <= by1; y++)
            for (int x = bx0; x <= bx1; x++) {
                float d = hypotf((float)x - cx, (float)y - cy);
                float c = clamp01(rad + 0.5f - d) * alpha;
                float *dst = cover + (size_t)y * width + x;
                if (c > *dst)
                    *dst = c;
            }
    }
}

/* One lash from (rx, ry) in direction angle (radians), curling sideways. */
static void add_lash(float *cover, int width, int height, const eye_scene *e, float rx,
                     float ry, float angle, float length, float curl, float thickness,
                     float alpha)
{
    float dx = cosf(angle), dy = sinf(angle);
    float p[6] = {rx, ry,
                  rx + 0.5f * length * dx - curl * 0.5f * length * dy,
                  ry + 0.5f * length * dy + curl * 0.5f * length * dx,
                  rx + length * dx - curl * 1.2f * length * dy,
                  ry + length * dy + curl * 1.2f * length * dx};
    stroke_lash(cover, width, height, e->x0, e->x1, p, thickness, alpha);
}

static void paint_lashes(const eye_scene *e, const difficulty_knobs *k, float *cover,
                         int width, int height, pt_synth_rng *rng)
{
    float unit = e->unit, r = sqrtf(e->pa * e->pb);
    float base_thick = fmaxf(0.7f, unit * 0.007f);
    int n_upper = pt_synth_int(rng, 25, 60);
    for (int i = 0; i < n_upper; i++) {
        float t = frand(rng, -0.95, 0.9) * (float)e->temporal;
        float rx = e->ex + t * e->half_w;
        float ry = lid_upper(e, rx) - frand(rng, 0.0, 1.5) * base_thick;
        /* Upward and outward; a shut eye's lashes hang down; some droop anyway. */
        int droop = e->closed ? pt_synth_chance(rng, 0.7) : pt_synth_chance(rng, 0.15);
        float side = t * (float)e->temporal >= 0.0f ? 1.0f : -1.0f;
        float angle = droop ? PI_F * 0.5f - side * frand(rng, 0.1, 0.7)
                            : -PI_F * 0.5f + side * fabsf(t) * 0.9f + frand(rng, -0.25, 0.25);
        float length = unit * frand(rng, 0.04, 0.12) * (0.6f + 0.6f * (t * (float)e->temporal + 1.0f) * 0.5f);
        float curl = side * frand(rng, 0.1, 0.45) * (droop ? -1.0f : 1.0f);
        add_lash(cover, width, height, e, rx, ry, angle, length, curl,
                 base_thick * frand(rng, 0.7, 1.4), frand(rng, 0.6, 0.95));
    }
    int n_lower = pt_synth_int(rng, 8, 22);
    for (int i = 0; i < n_lower; i++) {
        float t = frand(rng, -0.8, 0.9) * (float)e->temporal;
        float rx = e->ex + t * e->half_w;
        float ry = lid_lower(e, rx) + frand(rng, 0.5, 2.0) * base_thick;
        float side = t * (float)e->temporal >= 0.0f ? 1.0f : -1.0f;
        float angle = PI_F * 0.5f - side * fabsf(t) * 0.9f + frand(rng, -0.25, 0.25);
        add_lash(cover, width, height, e, rx, ry, angle, unit * frand(rng, 0.02, 0.06),
                 side * frand(rng, 0.0, 0.3), base_thick * frand(rng, 0.5, 0.9),
                 frand(rng, 0.35, 0.7));
    }
    if (!e->closed && pt_synth_chance(rng, k->p_lash_cross)) {
        int n_cross = pt_synth_int(rng, 1, 3);
        for (int i = 0; i < n_cross; i++) {
            float rx = e->px + frand(rng, -1.0, 1.0) * r;
            float ry = lid_upper(e, rx);
            float reach = fmaxf(0.0f, e->py - ry) + r * frand(rng, 0.2, 1.3);
            add_lash(cover, width, height, e, rx, ry, PI_F * 0.5f + frand(rng, -0.4, 0.4),
                     reach, frand(rng, -0.25, 0.25), base_thick * frand(rng, 0.8, 1.5),
                     frand(rng, 0.7, 0.95));
        }
    }
}

static void paint_glints(const eye_scene *e, float *img, int width, int height)
{
    for (int i = 0; i < e->n_glints; i++) {
        const glint *g = &e->glints[i];
        /* The eyelid hides reflections that would fall on it. */
        if (opening_at(e, g->x, g->y) < 0.5f)
            continue;
        float reach = 1.6f * g->radius + 1.0f;
        int bx0 = (int)floorf(g->x - reach), bx1 = (int)ceilf(g->x + reach);
        int by0 = (int)floorf(g->y - reach), by1 = (int)ceilf(g->y + reach);
        bx0 = bx0 < e->x0 ? e->x0 : bx0;
        bx1 = bx1 > e->x1 - 1 ? e->x1 - 1 : bx1;
        by0 = by0 < 0 ? 0 : by0;
        by1 = by1 > height - 1 ? height - 1 : by1;
        for (int y = by0; y <= by1; y++)
            for (int x = bx0; x <= bx1; x++) {
                float d = hypotf((float)x - g->x, (float)y - g->y) / (1.6f * g->radius);
                if (d >= 1.0f)
                    continue;
                float fall = (1.0f - d * d) * (1.0f - d * d);
                float *v = img + (size_t)y * width + x;
                *v += (g->peak - *v) * fall;
            }
    }
}

static void plan_frame(frame_scene *f, const difficulty_knobs *k, float unit,
                       pt_synth_rng *rng)
{
    f->skin_level = frand(rng, 130.0, 190.0);
    f->grad_x = frand(rng, -0.2, 0.2);
    f->grad_y = frand(rng, -0.2, 0.2);
    f->vignette = frand(rng, 0.05, k->vignette_hi);
    f->illum_cx = frand(rng, -0.3, 0.3);
    f->illum_cy = frand(rng, -0.3, 0.3);
    f->gain = frand(rng, 0.85, 1.1);
    f->blur_sigma = frand(rng, k->blur_lo, k->blur_hi) * unit / 256.0f;
    f->noise_sigma = frand(rng, k->noise_lo, k->noise_hi);
    f->lash_level = frand(rng, 15.0, 45.0);
    f->noise_seed = pt_synth_next(rng);
}

pt_status pt_synth_render(const pt_synth_params *params, uint64_t seed, pt_image *img,
                          pt_synth_frame_truth *truth, pt_error *err)
{
    if (!params || !img || !img->buf || !truth)
        return pt_error_set(err, PT_ERR_PARAM, "", "synth: missing argument");
    const int width = params->width, height = params->height;
    const int eyes = params->binocular ? 2 : 1;
    if (img->width != width || img->height != height)
        return pt_error_set(err, PT_ERR_PARAM, "", "synth: image is %dx%d, parameters say %dx%d",
                            img->width, img->height, width, height);
    if (width / eyes < PT_SYNTH_MIN_SIDE || height < PT_SYNTH_MIN_SIDE)
        return pt_error_set(err, PT_ERR_PARAM, "--size",
                            "synth: %dx%d is too small (each eye needs %dx%d)", width,
                            height, PT_SYNTH_MIN_SIDE, PT_SYNTH_MIN_SIDE);
    if ((unsigned)params->difficulty > PT_SYNTH_HARD)
        return pt_error_set(err, PT_ERR_PARAM, "--difficulty", "synth: bad difficulty");
    if (params->hazards & ~PT_SYNTH_HAZARD_ALL)
        return pt_error_set(err, PT_ERR_PARAM, "--hazard", "synth: unknown hazard bits 0x%x",
                            params->hazards);
    const difficulty_knobs *k =
        &knob_table[params->difficulty == PT_SYNTH_EASY ? PT_SYNTH_EASY : PT_SYNTH_NORMAL];

    size_t npix = (size_t)width * (size_t)height;
    float *base = malloc(npix * sizeof(float));
    float *scratch = calloc(npix, sizeof(float));
    float *lids = malloc(2 * (size_t)width * sizeof(float));
    eye_scene *scene = calloc(2, sizeof(eye_scene));
    frame_scene f;
    memset(&f, 0, sizeof f);
    pt_status st = PT_OK;
    if (!base || !scratch || !lids || !scene) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "synth: out of memory for a %dx%d frame",
                          width, height);
        goto done;
    }

    pt_synth_rng rng;
    pt_synth_rng_seed(&rng, seed);
    int region_w = width / eyes;
    float unit = (float)(region_w < height ? region_w : height);
    plan_frame(&f, k, unit, &rng);
    st = pt_synth_lattice_init(&f.skin_coarse, (float)width, (float)height, unit * 0.25f,
                               pt_synth_next(&rng), err);
    if (st == PT_OK)
        st = pt_synth_lattice_init(&f.skin_fine, (float)width, (float)height, unit * 0.04f,
                                   pt_synth_next(&rng), err);
    int mono_temporal = pt_synth_chance(&rng, 0.5) ? 1 : -1;
    for (int i = 0; i < eyes && st == PT_OK; i++) {
        int x0 = i * region_w, x1 = (i == eyes - 1) ? width : x0 + region_w;
        /* Outer corners face the frame's sides in a binocular view. */
        int temporal = eyes == 1 ? mono_temporal : (i == 0 ? -1 : 1);
        st = plan_eye(&scene[i], x0, x1, height, temporal, k, f.skin_level, &rng, err);
    }
    if (st != PT_OK)
        goto done;
    /* Failure classes come from a stream of their own, so the scene under
     * them is the one the same seed gives without them. */
    pt_synth_rng hz;
    pt_synth_rng_seed(&hz, seed ^ 0x68617a6172647321ULL);
    unsigned classes = params->hazards;
    uint64_t mix_bits = pt_synth_next(&hz);
    if (params->difficulty == PT_SYNTH_HARD)
        classes |= pt_synth_hazard_mix(mix_bits);
    for (int i = 0; i < eyes; i++)
        apply_eye_hazards(&scene[i], classes, &hz);
    float motion_len = unit * frand(&hz, HZ_MOTION_LO, HZ_MOTION_HI);
    float motion_angle = frand(&hz, 0.0, PI_F);
    float defocus = unit * frand(&hz, HZ_DEFOCUS_LO, HZ_DEFOCUS_HI);
    /* Sequences: the eyeball turns, the corneal reflections follow half-way. */
    for (int i = 0; i < eyes; i++) {
        eye_scene *e = &scene[i];
        e->px += params->gaze_dx;
        e->py += params->gaze_dy;
        e->ix += params->gaze_dx;
        e->iy += params->gaze_dy;
        for (int g = 0; g < e->n_glints; g++) {
            e->glints[g].x += 0.5f * params->gaze_dx;
            e->glints[g].y += 0.5f * params->gaze_dy;
        }
    }
    if (params->noise_salt)
        f.noise_seed ^= pt_synth_mix64(params->noise_salt);

    for (int i = 0; i < eyes; i++) {
        paint_eye(&scene[i], &f, base, width, height, lids, lids + width);
        paint_lashes(&scene[i], k, scratch, width, height, &rng);
    }
    /* Lashes over everything, then the illumination falls on all of it. */
    for (int y = 0; y < height; y++) {
        float ny = 2.0f * (float)y / (float)height - 1.0f;
        float *row = base + (size_t)y * width;
        const float *cover = scratch + (size_t)y * width;
        for (int x = 0; x < width; x++) {
            float nx = 2.0f * (float)x / (float)width - 1.0f;
            float vx = nx - f.illum_cx, vy = ny - f.illum_cy;
            float illum = f.gain * (1.0f + f.grad_x * nx + f.grad_y * ny) *
                          (1.0f - f.vignette * 0.5f * (vx * vx + vy * vy));
            float v = row[x] + (f.lash_level - row[x]) * cover[x];
            row[x] = v * illum;
        }
    }
    for (int i = 0; i < eyes; i++)
        paint_glints(&scene[i], base, width, height);
    st = pt_synth_blur(base, scratch, width, height, f.blur_sigma, err);
    if (st == PT_OK && (classes & PT_SYNTH_MOTION_BLUR))
        st = pt_synth_motion_blur(base, scratch, width, height, motion_len, motion_angle, err);
    if (st == PT_OK && (classes & PT_SYNTH_DEFOCUS))
        st = pt_synth_disc_blur(base, width, height, defocus, err);
    if (st != PT_OK)
        goto done;
    float exposure = params->exposure > 0.0f && params->exposure <= 1.0f ? params->exposure : 1.0f;
    for (int y = 0; y < height; y++) {
        const float *row = base + (size_t)y * width;
        uint8_t *out = img->buf + (size_t)y * img->stride;
        uint64_t key = f.noise_seed + (uint64_t)y * (uint64_t)width;
        for (int x = 0; x < width; x++) {
            float v = row[x] + f.noise_sigma * pt_synth_gauss_from_bits(pt_synth_mix64(key + (uint64_t)x));
            v *= exposure; /* exact when 1 */
            v = v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v);
            out[x] = (uint8_t)(v + 0.5f > 255.0f ? 255.0f : v + 0.5f);
        }
    }

    memset(truth, 0, sizeof *truth);
    truth->count = eyes;
    truth->hazards = classes;
    for (int i = 0; i < eyes; i++) {
        const eye_scene *e = &scene[i];
        pt_synth_truth *t = &truth->eyes[i];
        memset(t, 0, sizeof *t);
        t->eye = eyes == 1 ? 0 : (i == 0 ? 'L' : 'R');
        t->iris_radius = e->iris_r;
        t->visible = !e->closed && e->pupil_visible_pixels > 0;
        t->occluded = e->pupil_pixels > 0
                          ? 1.0 - (double)e->pupil_visible_pixels / (double)e->pupil_pixels
                          : 1.0;
        t->glints = e->n_glints;
        for (int g = 0; g < e->n_glints; g++) {
            const glint *gl = &e->glints[g];
            t->glint_x[g] = gl->x;
            t->glint_y[g] = gl->y;
            t->glint_visible[g] = opening_at(e, gl->x, gl->y) >= 0.5f && gl->x >= e->x0 &&
                                  gl->x <= e->x1 - 1 && gl->y >= 0 && gl->y <= height - 1;
        }
        if (t->visible) {
            t->pupil.cx = e->px;
            t->pupil.cy = e->py;
            t->pupil.a = e->pa;
            t->pupil.b = e->pb;
            t->pupil.theta = e->theta_deg;
            t->r = sqrt((double)e->pa * (double)e->pb);
        }
    }

done:
    if (scene)
        for (int i = 0; i < 2; i++)
            pt_synth_lattice_free(&scene[i].crypts);
    pt_synth_lattice_free(&f.skin_coarse);
    pt_synth_lattice_free(&f.skin_fine);
    free(scene);
    free(lids);
    free(scratch);
    free(base);
    return st;
}
