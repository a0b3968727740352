/* Canny-Hough's coarse pupil localisation, shared by omp/detect/hough.c and
 * cuda/detect/hough_vote.cu (PT_HD, header-only).
 *
 * Gradient voting finds the centre most edges point at; on remote-camera
 * crops that is often the iris (a strong outline against the sclera) while
 * the pupil, barely darker than the iris and with weak edges, lies off its
 * centre, so no radius around that centre fits it. The pupil is the darkest
 * compact region of the eye: the roi is also searched at reduced
 * resolution for the darkest box of 7 x 7 cells (cells of half the smallest
 * radius searched: a box about as wide as 3.5 x that radius, within a pupil
 * of any radius in the searched range). Its centre is a second centre whose
 * radii come from the edges that face it, as for the voting's centre; the
 * choice among all candidates stays with lib/detect/hough_choose.h.
 *
 * Cells of the grid hold the sums of cell x cell pixels of the smoothed
 * image (reflections filled in by the preprocessing); boxes are sums of
 * cells read from an integral image (int32: 8-bit pixels of a roi of at most
 * 2^23 pixels). Integer arithmetic only, so host and device find the same
 * seed. */
#ifndef PT_HOUGH_SEED_H
#define PT_HOUGH_SEED_H

#include <stdint.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/hough_choose.h"
#include "lib/io/pt_image.h"

#define PT_HOUGH_SEEDS 1      /* seed centres offered */
#define PT_HOUGH_SEED_HALF 3  /* half-side of the dark box, cells */
#define PT_HOUGH_SEED_RADII 2 /* radius candidates per seed */
#define PT_HOUGH_SEED_SAME_SHIFT 0.35 /* pt_hough_seed_repeats: centre shift / radius */
#define PT_HOUGH_SEED_SAME_RATIO 1.25 /* pt_hough_seed_repeats: larger / smaller radius */
#define PT_HOUGH_SEED_SAME_SLACK 0.2  /* pt_hough_seed_repeats: within the disc + this x r */

/* Side of the grid's cells: half the smallest radius searched, at least 1 px. */
static inline PT_HD int pt_hough_seed_cell(int min_r)
{
    int c = min_r / 2;
    return c < 1 ? 1 : c;
}

/* Sum of the pixels of grid cell (gx, gy) of the roi at (x0, y0) of img. */
static inline PT_HD int32_t pt_hough_seed_cell_sum(const pt_image *img, int x0, int y0, int cell,
                                                   int gx, int gy)
{
    int32_t s = 0;
    for (int y = 0; y < cell; y++) {
        const uint8_t *p = img->buf + (long)(y0 + gy * cell + y) * img->stride + x0 + gx * cell;
        for (int x = 0; x < cell; x++)
            s += p[x];
    }
    return s;
}

/* Cell sums at ii[(gy + 1) * (gw + 1) + gx + 1] turned into their integral
 * image in place (row 0 and column 0 set to 0). */
static inline PT_HD void pt_hough_seed_prefix(int32_t *ii, int gw, int gh)
{
    for (int gx = 0; gx <= gw; gx++)
        ii[gx] = 0;
    for (int gy = 0; gy < gh; gy++) {
        int32_t row = 0;
        int32_t *above = ii + (long)gy * (gw + 1), *here = above + (gw + 1);
        here[0] = 0;
        for (int gx = 0; gx < gw; gx++) {
            row += here[gx + 1];
            here[gx + 1] = above[gx + 1] + row;
        }
    }
}

/* Integral image ii ((gw + 1) x (gh + 1), gw = w / cell, gh = h / cell) of the
 * cell sums of the w x h roi at (x0, y0) of img. */
static inline PT_HD void pt_hough_seed_integral(const pt_image *img, int x0, int y0, int w, int h,
                                                int cell, int32_t *ii)
{
    int gw = w / cell, gh = h / cell;
    for (int gy = 0; gy < gh; gy++)
        for (int gx = 0; gx < gw; gx++)
            ii[(long)(gy + 1) * (gw + 1) + gx + 1] = pt_hough_seed_cell_sum(img, x0, y0, cell, gx, gy);
    pt_hough_seed_prefix(ii, gw, gh);
}

/* Sum of cells [x0, x1) x [y0, y1) of the integral image (row length gw + 1). */
static inline PT_HD int32_t pt_hough_seed_box(const int32_t *ii, int gw, int x0, int y0, int x1,
                                              int y1)
{
    long s = gw + 1;
    return ii[y1 * s + x1] - ii[y0 * s + x1] - ii[y1 * s + x0] + ii[y0 * s + x0];
}

typedef struct {
    int gx, gy, half; /* grid cell of the box centre, box half-side in cells */
    int32_t sum;      /* grey levels in the box */
} pt_hough_seed;

/* The radius of a circle of seed s's box area, px (the seed's candidates
 * have at least half of it). */
static inline PT_HD double pt_hough_seed_radius(const pt_hough_seed *s, int cell)
{
    return 0.56418958 * (2 * s->half + 1) * cell; /* side / sqrt(pi) */
}

/* The darkest box of side 2 x PT_HOUGH_SEED_HALF + 1 cells of the grid
 * (the first in row order among equals) in *seed; 0 when the grid is
 * smaller than the box. */
static inline PT_HD int pt_hough_darkest(const int32_t *ii, int gw, int gh, pt_hough_seed *seed)
{
    int half = PT_HOUGH_SEED_HALF;
    int32_t best = 0;
    seed->gx = -1;
    for (int y = half; y + half < gh; y++)
        for (int x = half; x + half < gw; x++) {
            int32_t s = pt_hough_seed_box(ii, gw, x - half, y - half, x + half + 1, y + half + 1);
            if (seed->gx < 0 || s < best) {
                best = s;
                seed->gx = x;
                seed->gy = y;
            }
        }
    seed->half = half;
    seed->sum = best;
    return seed->gx >= 0;
}

/* Whether point (x, y) (roi coordinates) lies in seed s's box: the voting's
 * centre there already offers the radii around the seed's centre, and the
 * seed's candidates are not needed. */
static inline PT_HD int pt_hough_seed_near(const pt_hough_seed *s, int cell, double x, double y)
{
    double half = (s->half + 0.5) * cell;
    double dx = x - ((s->gx + 0.5) * cell - 0.5), dy = y - ((s->gy + 0.5) * cell - 0.5);
    return dx >= -half && dx <= half && dy >= -half && dy <= half;
}

/* Mean grey level of seed s's box. */
static inline PT_HD double pt_hough_seed_level(const pt_hough_seed *s, int cell)
{
    double side = (double)(2 * s->half + 1) * cell;
    return s->sum / (side * side);
}

/* The reported confidence's darkness factor (man page, hough): the darkest
 * box's mean level + 2 over the chosen outline's inside level + 2, at most 1
 * (1 when there is no seed: level < 0). The pupil holds the darkest box, so
 * its inside is as dark; an iris or a lid fold chosen instead is brighter. */
static inline PT_HD double pt_hough_dark_share(double level, int inside)
{
    if (level < 0.0)
        return 1.0;
    double s = (level + 2.0) / (inside + 2.0);
    return s < 1.0 ? s : 1.0;
}

/* Whether refined seed candidate c (inside level inside_c) repeats one of
 * the n refined voting candidates (ok[k] set; inside levels inside[k]): the
 * same pupil, either shifted (centres within PT_HOUGH_SEED_SAME_SHIFT x the
 * larger radius, radii within PT_HOUGH_SEED_SAME_RATIO of each other) or a
 * part of it (within its disc widened by PT_HOUGH_SEED_SAME_SLACK x its
 * radius, pt_hough_within, and not clearly darker
 * inside: a lid over the pupil leaves a smaller dark disc in its lower
 * part). The seed adds pupils the voting missed; where the voting found the
 * same pupil its estimate stands (its centre comes from the whole outline,
 * the seed's from a dark box that a lid pushes off centre). A pupil inside
 * the voting's iris is clearly darker than the iris and stays. */
static inline PT_HD int pt_hough_seed_repeats(const pt_circle *c, int inside_c, int n,
                                              const int *ok, const pt_circle *vote,
                                              const int *inside)
{
    for (int k = 0; k < n; k++) {
        if (!ok[k])
            continue;
        double big = c->r > vote[k].r ? c->r : vote[k].r, small = c->r > vote[k].r ? vote[k].r : c->r;
        double dx = c->cx - vote[k].cx, dy = c->cy - vote[k].cy, shift = PT_HOUGH_SEED_SAME_SHIFT * big;
        if (dx * dx + dy * dy <= shift * shift && small * PT_HOUGH_SEED_SAME_RATIO >= big)
            return 1;
        if (pt_hough_within(c, &vote[k], PT_HOUGH_SEED_SAME_SLACK) &&
            !pt_hough_clearly_darker(inside_c, inside[k]))
            return 1;
    }
    return 0;
}

#endif
