/* Canny-Hough detector (pupiltrack(1), PARAMETERS): Canny edges, then circle Hough voting over
 * the radius range, one radius plane at a time so memory stays O(pixels).
 * Sampled votes (the paper: every angle_step degrees around each edge pixel)
 * may be limited to +-vote_spread degrees of the edge's dark side, since the
 * pupil is darker than its surround; 180 keeps the paper's whole circle.
 * Radii are compared by the share of a perfect circle's votes they got; the
 * best (centre, radius) is refined by a least-squares fit of the edge points
 * near it (an ellipse via RANSAC over the edges around it first). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <omp.h>

#include "lib/core/pt_clones.h"
#include "lib/detect/confidence.h"
#include "lib/detect/fit.h"
#include "lib/detect/hough_choose.h"
#include "lib/detect/hough_dark.h"
#include "lib/detect/hough_dark_vote.h"
#include "lib/detect/hough_flat.h"
#include "lib/detect/hough_peak.h"
#include "lib/detect/hough_radii.h"
#include "lib/detect/pupil_score.h"
#include "lib/detect/hough_refit.h"
#include "lib/detect/hough_seed.h"
#include "lib/detect/hough_sigma.h"
#include "lib/detect/ransac.h"
#include "omp/detect/canny.h"
#include "omp/detect/detect.h"

#define HOUGH_REFINE_PX 2.0
/* refinement band of a circle: at least this share of its radius, so the
 * outline of an elliptical pupil is kept whole */
#define HOUGH_REFINE_SHARE 0.1
/* the circle refinement looks at edges this far from the peak, in radii */
#define HOUGH_ANNULUS_IN 0.8
#define HOUGH_ANNULUS_OUT 1.25
/* gradient voting: an edge supports a centre when its dark direction points
 * at it within acos(HOUGH_AIM_COS) (30 degrees) */
#define HOUGH_AIM_COS 0.8660254
#define HOUGH_CANDIDATES 6
/* with those of the coarse localisation's seed (lib/detect/hough_seed.h) and
 * of the dark-edge vote (lib/detect/hough_dark_vote.h) */
#define HOUGH_ALL_CANDIDATES                                                                   \
    (HOUGH_CANDIDATES + PT_HOUGH_SEEDS * PT_HOUGH_SEED_RADII + PT_HOUGH_DARK_RADII)

typedef struct {
    int count;      /* edge pixels */
    int32_t *x, *y; /* roi coordinates */
    float *ux, *uy; /* unit vector towards the dark side */
    float *mag;     /* gradient magnitude (the weight of its gradient votes) */
    uint8_t *flat;  /* on a flat edge (lib/detect/hough_flat.h): left out of the
                       fits, the edge support and the dark-edge vote */
    const uint8_t *skip; /* when not NULL: edges with skip[i] set do not vote */
    double offset;  /* hough_edge_offset: the refinement's points moved this far
                       towards the dark side */
    int width, height; /* of the roi */
    int32_t *row_first; /* edges of row y: row_first[y] .. row_first[y+1]-1 */
} edge_list;

/* Edge i as the refinement sees it (full frame, moved by e->offset px
 * towards its dark side; cuda/detect/hough_refine.cu edge_point() alike). */
static inline void edge_point(const edge_list *e, int i, int x_off, int y_off, double *x,
                              double *y)
{
    *x = (double)(e->x[i] + x_off) + e->offset * e->ux[i];
    *y = (double)(e->y[i] + y_off) + e->offset * e->uy[i];
}

/* Offsets of the sampled votes for every tested radius, computed once per call. */
typedef struct {
    int radii;
    int *radius;     /* radius of each plane */
    int angles;      /* samples per circle */
    double step;     /* degrees between samples */
    int *first;      /* offsets of radius i are first[i] .. first[i+1]-1 */
    int *by_angle;   /* [i*(angles+1) + a]: first offset of radius i from sample >= a */
    int16_t *dx, *dy;
    int32_t *linear; /* dy * width + dx */
} vote_offsets;

/* Edge pixel (x, y) of c appended to e; flagged flat as collect_edges says. */
static inline void add_edge(const pt_canny_edges *c, double flat_reach, int x, int y,
                            edge_list *e)
{
    int k = e->count++;
    e->x[k] = x;
    e->y[k] = y;
    size_t i = (size_t)y * c->width + x;
    float m = c->magnitude[i] > 0.0f ? c->magnitude[i] : 1.0f;
    e->mag[k] = c->magnitude[i];
    e->flat[k] = flat_reach > 0.0 && pt_hough_flat_edge(c->edges, 1, c->gx, c->gy, c->width,
                                                        c->height, x, y, flat_reach);
    /* gradients point from dark to bright; the pupil centre is behind */
    e->ux[k] = -c->gx[i] / m;
    e->uy[k] = -c->gy[i] / m;
}

/* The edge pixels of c in row order, the map read 8 bytes at a time (its
 * values are 0 or 1); those on flat edges (lib/detect/hough_flat.h, at
 * flat_reach px along the tangent) flagged when flat_reach > 0. Its AVX2
 * clone, with the flat test inlined (flatten), floors in one instruction. */
PT_VECTOR_CLONES __attribute__((flatten)) static void scan_edges(const pt_canny_edges *c,
                                                                 double flat_reach,
                                                                 edge_list *e)
{
    for (int y = 0; y < c->height; y++) {
        const uint8_t *row = c->edges + (size_t)y * c->width;
        e->row_first[y] = e->count;
        for (int x = 0; x < c->width; x += 8) {
            uint64_t v = 0;
            memcpy(&v, row + x, c->width - x < 8 ? (size_t)(c->width - x) : sizeof v);
            while (v) {
                add_edge(c, flat_reach, x + (__builtin_ctzll(v) >> 3), y, e);
                v &= v - 1;
            }
        }
    }
    e->row_first[c->height] = e->count;
}

/* The edge pixels of c (scan_edges). */
static pt_status collect_edges(const pt_canny_edges *c, double flat_reach, pt_arena *arena,
                               edge_list *e, pt_error *err)
{
    e->count = 0;
    size_t n = (size_t)(c->edge_count ? c->edge_count : 1);
    e->x = pt_arena_alloc(arena, n * sizeof *e->x);
    e->y = pt_arena_alloc(arena, n * sizeof *e->y);
    e->ux = pt_arena_alloc(arena, n * sizeof *e->ux);
    e->uy = pt_arena_alloc(arena, n * sizeof *e->uy);
    e->mag = pt_arena_alloc(arena, n * sizeof *e->mag);
    e->flat = pt_arena_alloc(arena, n * sizeof *e->flat);
    e->width = c->width;
    e->height = c->height;
    e->row_first = pt_arena_alloc(arena, ((size_t)c->height + 1) * sizeof *e->row_first);
    if (!e->x || !e->y || !e->ux || !e->uy || !e->mag || !e->flat || !e->row_first)
        return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
    scan_edges(c, flat_reach, e);
    return PT_OK;
}

/* Rounded points every angle_step degrees on each circle; repeats of the
 * last few kept points are dropped so a pixel is voted for once per edge pixel. */
static pt_status make_offsets(int min_r, int max_r, int step, double angle_step, int width,
                              pt_arena *arena, vote_offsets *o, pt_error *err)
{
    int radii = (max_r - min_r) / step + 1;
    int angles = (int)lround(360.0 / angle_step);
    if (angles < 1)
        angles = 1;
    size_t total = (size_t)radii * (size_t)angles;
    o->radii = radii;
    o->angles = angles;
    o->step = angle_step;
    o->radius = pt_arena_alloc(arena, (size_t)radii * sizeof *o->radius);
    o->first = pt_arena_alloc(arena, (size_t)(radii + 1) * sizeof *o->first);
    o->by_angle = pt_arena_alloc(arena, (size_t)radii * (angles + 1) * sizeof *o->by_angle);
    o->dx = pt_arena_alloc(arena, total * sizeof *o->dx);
    o->dy = pt_arena_alloc(arena, total * sizeof *o->dy);
    o->linear = pt_arena_alloc(arena, total * sizeof *o->linear);
    if (!o->radius || !o->first || !o->by_angle || !o->dx || !o->dy || !o->linear)
        return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
    int n = 0;
    for (int i = 0; i < radii; i++) {
        int r = min_r + i * step;
        o->radius[i] = r;
        o->first[i] = n;
        int *by_angle = o->by_angle + (size_t)i * (angles + 1);
        for (int a = 0; a < angles; a++) {
            by_angle[a] = n;
            double t = a * angle_step * (M_PI / 180.0);
            int dx = (int)lround(r * cos(t)), dy = (int)lround(r * sin(t));
            int repeat = 0;
            for (int k = n - 1; k >= o->first[i] && k >= n - 4; k--)
                repeat |= o->dx[k] == dx && o->dy[k] == dy;
            if (n > o->first[i] && a == angles - 1)
                repeat |= o->dx[o->first[i]] == dx && o->dy[o->first[i]] == dy;
            if (repeat)
                continue;
            o->dx[n] = (int16_t)dx;
            o->dy[n] = (int16_t)dy;
            o->linear[n] = dy * width + dx;
            n++;
        }
        by_angle[angles] = n;
    }
    o->first[radii] = n;
    return PT_OK;
}

typedef struct {
    int votes, index;
} plane_peak;

/* Votes of one edge pixel at (x, y) with offsets k0..k1-1; pixels at least r
 * from the roi border skip the bounds checks. */
static inline void vote_range(int x, int y, int r, int w, int h, const vote_offsets *o,
                              int k0, int k1, uint16_t *restrict acc)
{
    if (x >= r && x + r < w && y >= r && y + r < h) {
        const int32_t *lin = o->linear;
        uint16_t *restrict centre = acc + (y * w + x);
        for (int k = k0; k < k1; k++)
            centre[lin[k]]++;
        return;
    }
    for (int k = k0; k < k1; k++) {
        int cx = x + o->dx[k], cy = y + o->dy[k];
        if ((unsigned)cx < (unsigned)w && (unsigned)cy < (unsigned)h)
            acc[cy * w + cx]++;
    }
}

/* The first maximum of rows y0..y1 of the plane, then those rows cleared for
 * the next radius (votes only land there). */
static plane_peak take_peak(uint16_t *restrict acc, int w, int y0, int y1)
{
    plane_peak peak = {0, 0};
    for (int y = y0; y <= y1; y++) {
        uint16_t *restrict row = acc + (size_t)y * w;
        unsigned row_max = 0;
#pragma omp simd reduction(max : row_max)
        for (int x = 0; x < w; x++)
            row_max = row[x] > row_max ? row[x] : row_max;
        if ((int)row_max > peak.votes) {
            int x = 0;
            while (row[x] != row_max)
                x++;
            peak.votes = (int)row_max;
            peak.index = y * w + x;
        }
        memset(row, 0, (size_t)w * sizeof *row);
    }
    return peak;
}

/* Each edge pixel's samples within spread degrees of its dark direction: first
 * sample index a0 and count (count >= angles: the whole circle). Radius-free,
 * so computed once per call. */
static pt_status sample_ranges(const edge_list *e, const vote_offsets *o, double spread,
                               pt_arena *arena, int32_t **first_out, int32_t **count_out,
                               pt_error *err)
{
    size_t n = (size_t)(e->count ? e->count : 1);
    int32_t *first = pt_arena_alloc(arena, n * sizeof *first);
    int32_t *count = pt_arena_alloc(arena, n * sizeof *count);
    if (!first || !count)
        return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
    int A = o->angles;
    for (int i = 0; i < e->count; i++) {
        /* the dark direction, degrees in [0, 360) */
        float a = atan2f(e->uy[i], e->ux[i]) * (float)(180.0 / M_PI);
        float angle = a < 0.0f ? a + 360.0f : a;
        int a0 = (int)ceil((angle - spread) / o->step);
        int k = (int)floor((angle + spread) / o->step) - a0 + 1;
        first[i] = ((a0 % A) + A) % A;
        count[i] = k < 0 ? 0 : k > A ? A : k;
    }
    *first_out = first;
    *count_out = count;
    return PT_OK;
}

/* Votes of every edge pixel at the centres on a circle of radius r around it,
 * limited to its sample range (the whole circle is the paper's method). */
static void vote_sampled(const edge_list *e, const vote_offsets *o, int plane,
                         const int32_t *range_first, const int32_t *range_count, int w,
                         int h, uint16_t *acc)
{
    int r = o->radius[plane], A = o->angles;
    const int *by_angle = o->by_angle + (size_t)plane * (A + 1);
    int k_first = o->first[plane], k_end = o->first[plane + 1];
    for (int i = 0; i < e->count; i++) {
        int x = e->x[i], y = e->y[i], a0 = range_first[i], count = range_count[i];
        if (count >= A) {
            vote_range(x, y, r, w, h, o, k_first, k_end, acc);
        } else if (a0 + count <= A) {
            vote_range(x, y, r, w, h, o, by_angle[a0], by_angle[a0 + count], acc);
        } else {
            vote_range(x, y, r, w, h, o, by_angle[a0], k_end, acc);
            vote_range(x, y, r, w, h, o, k_first, by_angle[a0 + count - A], acc);
        }
    }
}

/* One vote per edge pixel at distance r towards the dark side. */
static void vote_gradient(const edge_list *e, int r, int w, int h, uint16_t *acc)
{
    for (int i = 0; i < e->count; i++) {
        int cx = (int)lrintf((float)e->x[i] + (float)r * e->ux[i]);
        int cy = (int)lrintf((float)e->y[i] + (float)r * e->uy[i]);
        if ((unsigned)cx >= (unsigned)w || (unsigned)cy >= (unsigned)h)
            continue;
        int j = cy * w + cx;
        if (acc[j] != UINT16_MAX)
            acc[j]++;
    }
}

/* Edge points are listed by row, and by column within a row
 * (collect_edges), so the edges whose refinement point (edge_point) lies
 * within reach px of (x, y) (full frame) along both axes are, row by row,
 * one index range each: the per-candidate loops below visit only those, in
 * edge order. A 1 px margin beyond edge_point's offset keeps them a
 * superset of the points any test with that reach can accept. */
typedef struct {
    int y0, y1; /* rows (roi) */
    int x0, x1; /* columns (roi) */
} edge_box;

/* [lo, hi] of a coordinate (an offset off) within reach of v: clamped to
 * [0, size - 1]; the whole of it when v is NaN. */
static void box_side(double v, double pad, int off, int size, int *lo_out, int *hi_out)
{
    double lo = floor(v - pad) - off, hi = ceil(v + pad) - off;
    if (!(lo <= hi)) { /* NaN */
        *lo_out = 0;
        *hi_out = size - 1;
        return;
    }
    *lo_out = lo < 0.0 ? 0 : lo > (double)size ? size : (int)lo;
    *hi_out = hi < -1.0 ? -1 : hi > (double)(size - 1) ? size - 1 : (int)hi;
}

/* The box of edges within reach of (x, y) (edge_box). */
static edge_box edge_box_around(const edge_list *e, int x_off, int y_off, double x, double y,
                                double reach)
{
    double pad = reach + fabs(e->offset) + 1.0;
    edge_box b;
    box_side(x, pad, x_off, e->width, &b.x0, &b.x1);
    box_side(y, pad, y_off, e->height, &b.y0, &b.y1);
    return b;
}

/* The first edge of row y at column x or beyond (row_first[y + 1] when none). */
static int row_edge_from(const edge_list *e, int y, int x)
{
    int a = e->row_first[y], b = e->row_first[y + 1];
    while (a < b) {
        int m = a + (b - a) / 2;
        if (e->x[m] < x)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

/* The edges of row y within the box's columns: [*i0, *i1). */
static inline void box_row(const edge_list *e, const edge_box *b, int y, int *i0, int *i1)
{
    *i0 = row_edge_from(e, y, b->x0);
    *i1 = row_edge_from(e, y, b->x1 + 1);
}

/* The radius candidates of centre (px, py) (roi coordinates): of the edge
 * pixels whose dark direction points at the centre (within HOUGH_AIM_COS),
 * the distances whose +-PT_HOUGH_RADIUS_BAND share holds most of them per px
 * of circumference; of its local maxima in [lo, hi], the `strong`
 * strongest, then the smallest, at most max, smallest first
 * (pt_hough_radius_peaks; circles in peak). hist and score hold max_r + 2
 * entries. */
static int radius_candidates(const edge_list *e, double px, double py, int min_r, int max_r,
                             int lo, int hi, long long *hist, double *score, pt_circle *peak,
                             int strong, int max)
{
    memset(hist, 0, (size_t)(max_r + 2) * sizeof *hist);
    /* distances that round to max_r or less lie within max_r + 1 */
    edge_box box = edge_box_around(e, 0, 0, px, py, max_r + 1.0);
    for (int ey = box.y0; ey <= box.y1; ey++) {
        int i0, i1;
        box_row(e, &box, ey, &i0, &i1);
        for (int i = i0; i < i1; i++) {
            double dx = px - e->x[i], dy = py - e->y[i], aim = e->ux[i] * dx + e->uy[i] * dy;
            /* a negative aim fails the aim test for any distance */
            if (aim < 0.0)
                continue;
            double d = hypot(dx, dy);
            int k = (int)lround(d);
            if (k < min_r || k > max_r || aim < HOUGH_AIM_COS * d)
                continue;
            if (e->skip && e->skip[i])
                continue;
            hist[k] += pt_hough_vote_weight(e->mag[i]);
        }
    }
    for (int r = min_r; r <= max_r; r++)
        score[r] = pt_hough_radius_score(hist, max_r, r);
    int radius[HOUGH_ALL_CANDIDATES];
    int count = pt_hough_radius_peaks(score, min_r, max_r, lo, hi, strong,
                                      max < HOUGH_ALL_CANDIDATES ? max : HOUGH_ALL_CANDIDATES,
                                      radius);
    for (int k = 0; k < count; k++) {
        peak[k].cx = px;
        peak[k].cy = py;
        peak[k].r = radius[k];
    }
    return count;
}

/* gradient_peak()'s votes: each edge's radii min_r, min_r + step, ... up to
 * max_r, GRADIENT_BLOCK at a time: the block's cells of the w x h
 * accumulator computed at once (vectorised), then added in radius order up
 * to the first that leaves the roi (further radii leave it too). The cells
 * have side 1 / inv px. */
#define GRADIENT_BLOCK 32
PT_VECTOR_CLONES static void gradient_votes(const edge_list *e, int min_r, int max_r, int step,
                                            float inv, int w, int h, float *restrict acc)
{
    int32_t at[GRADIENT_BLOCK];
    for (int i = 0; i < e->count; i++) {
        if (e->skip && e->skip[i])
            continue;
        float x = ((float)e->x[i] + 0.5f) * inv, y = ((float)e->y[i] + 0.5f) * inv;
        float ux = e->ux[i] * inv, uy = e->uy[i] * inv, m = e->mag[i];
        for (int r0 = min_r; r0 <= max_r; r0 += GRADIENT_BLOCK * step) {
            int n = (max_r - r0) / step + 1;
            n = n < GRADIENT_BLOCK ? n : GRADIENT_BLOCK;
#pragma omp simd
            for (int k = 0; k < n; k++) {
                float r = (float)(r0 + k * step);
                int cx = (int)floorf(x + r * ux), cy = (int)floorf(y + r * uy);
                int inside = ((unsigned)cx < (unsigned)w) & ((unsigned)cy < (unsigned)h);
                at[k] = inside ? (int32_t)((unsigned)cy * (unsigned)w + (unsigned)cx) : -1;
            }
            int k = 0;
            for (; k < n && at[k] >= 0; k++)
                acc[at[k]] += m;
            if (k < n)
                break;
        }
    }
}

/* Gradient voting in two stages (fast; hough_vote=gradient): every edge pixel
 * votes for the centres on its dark side at each tested radius, all radii in
 * one centre accumulator; the centre is the maximum of its 3x3 sums. Then the
 * radius (radius_candidates: `strong`, at most max). Edges with e->skip set
 * neither vote nor count. Returns -1 when nothing voted; the centre (roi
 * coordinates) in *centre_x, *centre_y. */
static int gradient_peak(const edge_list *e, int min_r, int max_r, int step, int cell,
                         int w, int h, float *acc, long long *hist, double *score,
                         pt_circle *peak, double *centre_x, double *centre_y, int strong,
                         int max)
{
    /* The centre accumulator has cells of cell x cell px; votes every cell px
     * of radius land once per cell crossed. */
    w = (w + cell - 1) / cell;
    h = (h + cell - 1) / cell;
    if (step < cell)
        step = cell;
    memset(acc, 0, (size_t)w * h * sizeof *acc);
    gradient_votes(e, min_r, max_r, step, 1.0f / (float)cell, w, h, acc);
    float best = 0.0f;
    int bx = -1, by = -1;
    for (int y = 1; y + 1 < h; y++) {
        const float *r0 = acc + (size_t)(y - 1) * w, *r1 = r0 + w, *r2 = r1 + w;
        for (int x = 1; x + 1 < w; x++) {
            if (!r1[x])
                continue;
            float v = r0[x - 1] + r0[x] + r0[x + 1] + r1[x - 1] + r1[x] + r1[x + 1] +
                     r2[x - 1] + r2[x] + r2[x + 1];
            if (v > best) {
                best = v;
                bx = x;
                by = y;
            }
        }
    }
    if (best <= 0.0f)
        return -1;
    /* the weighted mean of the 3x3 cells: a sub-cell centre estimate */
    pt_hough_peak_centre(acc, w, cell, bx, by, centre_x, centre_y);
    return radius_candidates(e, *centre_x, *centre_y, min_r, max_r, min_r, max_r, hist, score,
                             peak, strong, max);
}

/* pt_hough_seed_integral (lib/detect/hough_seed.h) of the roi: each grid
 * row's cell x cell sums from its image rows added column-wise first (a
 * vectorised loop), then `cell` columns at a time. Integer sums: the same
 * values in any order. ii holds (roi width + 1) x (roi height + 1) entries;
 * from cells of 2 px on, the integral ((gw + 1) x (gh + 1)) leaves the last
 * roi width of them free for the column sums. */
PT_VECTOR_CLONES static void seed_integral(const pt_image *img, const pt_roi *roi, int cell,
                                           int32_t *ii)
{
    int w = roi->width, gw = w / cell, gh = roi->height / cell;
    if (cell < 2) {
        pt_hough_seed_integral(img, roi->x0, roi->y0, roi->width, roi->height, cell, ii);
        return;
    }
    int32_t *column = ii + (size_t)roi->width * roi->height;
    for (int gy = 0; gy < gh; gy++) {
        memset(column, 0, (size_t)w * sizeof *column);
        for (int y = 0; y < cell; y++) {
            const uint8_t *p =
                img->buf + (size_t)(roi->y0 + gy * cell + y) * img->stride + roi->x0;
#pragma omp simd
            for (int x = 0; x < w; x++)
                column[x] += p[x];
        }
        int32_t *cells = ii + (size_t)(gy + 1) * (gw + 1) + 1;
        for (int gx = 0; gx < gw; gx++) {
            int32_t sum = 0;
            for (int x = gx * cell; x < (gx + 1) * cell; x++)
                sum += column[x];
            cells[gx] = sum;
        }
    }
    pt_hough_seed_prefix(ii, gw, gh);
}

/* Candidates around the coarse localisation's seed (lib/detect/hough_seed.h):
 * radius_candidates of its centre from half the radius of its box's area
 * up, at most PT_HOUGH_SEED_RADII, unless the voting's centre (vx, vy) lies
 * in the seed's box (pt_hough_seed_near: the voting's candidates already
 * stand for that centre). Appended to cand[n..); returns the new n.
 * *level: the mean grey level of the seed's box, -1 when there is none. ii
 * holds (roi width + 1) x (roi height + 1) entries. */
static int seed_candidates(const edge_list *e, const pt_image *img, const pt_roi *roi,
                           int min_r, int max_r, double vx, double vy, int32_t *ii,
                           long long *hist, double *score, pt_circle *cand, int n, double *level)
{
    int cell = pt_hough_seed_cell(min_r), gw = roi->width / cell, gh = roi->height / cell;
    *level = -1.0;
    if (gw < 3 || gh < 3)
        return n;
    seed_integral(img, roi, cell, ii);
    pt_hough_seed seed;
    if (!pt_hough_darkest(ii, gw, gh, &seed))
        return n;
    *level = pt_hough_seed_level(&seed, cell);
    if (pt_hough_seed_near(&seed, cell, vx, vy))
        return n;
    double px = (seed.gx + 0.5) * cell - 0.5, py = (seed.gy + 0.5) * cell - 0.5;
    int lo = (int)floor(0.5 * pt_hough_seed_radius(&seed, cell));
    return n + radius_candidates(e, px, py, min_r, max_r, lo, max_r, hist, score, cand + n, 0,
                                 PT_HOUGH_SEED_RADII);
}

/* Candidates of the dark-edge vote (lib/detect/hough_dark_vote.h): the
 * edges that are not flat and have a pixel at most limit behind them vote
 * (gradient_peak, acc and the radius histogram) for a centre whose
 * PT_HOUGH_DARK_RADII strongest radii are appended to cand[*n..) unless
 * cand[0..*n) repeats them (pt_hough_dark_vote_new). No
 * candidates when limit < 0 (no seed) or no edge votes. */
static int dark_vote_candidates(edge_list *e, const pt_image *img, const pt_roi *roi, int min_r,
                                int max_r, int step, int cell, int limit, pt_arena *arena,
                                float *acc, long long *hist, double *score, pt_circle *cand, int *n)
{
    if (limit < 0)
        return 0;
    uint8_t *skip = pt_arena_alloc(arena, (size_t)(e->count ? e->count : 1));
    if (!skip)
        return 1;
    double reach = pt_hough_dark_vote_reach(min_r);
    for (int i = 0; i < e->count; i++)
        skip[i] = !pt_hough_dark_vote_edge(img, e->x[i] + roi->x0, e->y[i] + roi->y0, e->ux[i],
                                           e->uy[i], e->flat[i], reach, limit);
    e->skip = skip;
    double cx, cy;
    int add = gradient_peak(e, min_r, max_r, step, cell, roi->width, roi->height, acc, hist,
                            score, cand + *n, &cx, &cy, PT_HOUGH_DARK_RADII, PT_HOUGH_DARK_RADII);
    e->skip = NULL;
    *n += add > 0 ? pt_hough_dark_vote_new(cand, *n, add) : 0;
    return 0;
}

/* 1 when the distance whose square is d2 lies surely below lo or above hi
 * (a 1 px margin over any rounding): those points fail a test of
 * lo <= distance <= hi whatever its own rounding, and skip it. */
static inline int outside_ring(double d2, double lo, double hi)
{
    double l = lo - 1.0, h = hi + 1.0;
    return (l > 0.0 && d2 < l * l) || d2 > h * h;
}

/* The edges whose refinement point (edge_point) may lie between lo and hi
 * px from (cx, cy) (full frame), in edge order: those of the box within hi
 * (edge_box_around), less those surely outside the ring (outside_ring).
 * ring_edges_next gives each one's index and point, -1 after the last; it
 * is always inlined (as a call per edge it added 1.8 % to the instructions
 * of hough on a 1280x1024 frame, valgrind --tool=callgrind). */
typedef struct {
    const edge_list *e;
    int x_off, y_off;
    double cx, cy, lo, hi;
    edge_box box;
    int ey, i, i1; /* the row, its next edge and its end */
} ring_edges;

static inline ring_edges ring_edges_of(const edge_list *e, int x_off, int y_off, double cx,
                                       double cy, double lo, double hi)
{
    ring_edges r = {e, x_off, y_off, cx, cy, lo, hi,
                    edge_box_around(e, x_off, y_off, cx, cy, hi), 0, 0, 0};
    r.ey = r.box.y0 - 1;
    return r;
}

static inline __attribute__((always_inline)) int ring_edges_next(ring_edges *r, double *x,
                                                                   double *y)
{
    for (;;) {
        while (r->i < r->i1) {
            int i = r->i++;
            edge_point(r->e, i, r->x_off, r->y_off, x, y);
            double dx = *x - r->cx, dy = *y - r->cy;
            if (!outside_ring(dx * dx + dy * dy, r->lo, r->hi))
                return i;
        }
        if (++r->ey > r->box.y1)
            return -1;
        box_row(r->e, &r->box, r->ey, &r->i, &r->i1);
    }
}

/* Edges within band of the circle that face its centre, not flat
 * (lib/detect/hough_flat.h: a lid's chord tangent to a circle in the
 * pupil's visible part), per px of its circumference, at most 1. */
static double circle_support(const edge_list *e, int x_off, int y_off, const pt_circle *c,
                             double band)
{
    int n = 0;
    ring_edges ring = ring_edges_of(e, x_off, y_off, c->cx, c->cy, c->r - band, c->r + band);
    double x, y;
    for (int i; (i = ring_edges_next(&ring, &x, &y)) >= 0;) {
        if (e->flat[i])
            continue;
        double dx = c->cx - x, dy = c->cy - y, d = hypot(dx, dy);
        n += fabs(d - c->r) <= band && e->ux[i] * dx + e->uy[i] * dy >= HOUGH_AIM_COS * d;
    }
    double s = n / fmax(2.0 * M_PI * c->r, 1.0);
    return s > 1.0 ? 1.0 : s;
}

/* Edge points (full frame) within band of the ellipse's outline, in edge
 * order. pt_ellipse_frame_within answers as pt_ellipse_frame_distance <=
 * band does; the outline lies between b and a from the centre, so points
 * surely outside that ring widened by band are skipped first. */
static int near_ellipse(const edge_list *e, int x_off, int y_off, const pt_ellipse *el,
                        double band, pt_point *pts)
{
    pt_ellipse_frame frame;
    pt_ellipse_frame_init(el, &frame);
    double a = el->a > el->b ? el->a : el->b, b = el->a > el->b ? el->b : el->a;
    int n = 0;
    ring_edges ring = ring_edges_of(e, x_off, y_off, el->cx, el->cy, b - band, a + band);
    double x, y;
    while (ring_edges_next(&ring, &x, &y) >= 0)
        if (pt_ellipse_frame_within(&frame, x, y, band)) {
            pts[n].x = (float)x;
            pts[n].y = (float)y;
            n++;
        }
    return n;
}

/* Edge points (full-frame) between r_in and r_out from the peak centre whose
 * dark direction points at it within 45 degrees: the candidates of an ellipse
 * the circle peak only approximates. Of these, those with skin or iris
 * rather than pupil behind them are left out when dark_limit < 255
 * (pt_hough_dark_behind, lib/detect/hough_dark.h), those on a flat edge
 * (lib/detect/hough_flat.h), and those on a corneal reflection when mask
 * is given (the reflection mask, img's stride: the
 * filled-in reflection bends the pupil's border outwards there). Returns
 * their number. */
static int around_peak(const edge_list *e, int x_off, int y_off, const pt_circle *c,
                       double r_in, double r_out, const pt_image *img, int dark_limit,
                       const uint8_t *mask, pt_point *pts)
{
    double reach = PT_HOUGH_DARK_REACH * c->r;
    const double cos45 = 0.70710678;
    int n = 0;
    ring_edges ring = ring_edges_of(e, x_off, y_off, c->cx, c->cy, r_in, r_out);
    double x, y;
    for (int i; (i = ring_edges_next(&ring, &x, &y)) >= 0;) {
        double dx = c->cx - x, dy = c->cy - y, aim = e->ux[i] * dx + e->uy[i] * dy;
        /* a negative aim fails the 45 degree test for any distance */
        if (aim < 0.0)
            continue;
        if (mask && mask[(size_t)(e->y[i] + y_off) * img->stride + (e->x[i] + x_off)])
            continue;
        if (e->flat[i])
            continue;
        double d = hypot(dx, dy);
        if (d < r_in || d > r_out || aim < cos45 * d)
            continue;
        if (dark_limit < 255 &&
            !pt_hough_dark_behind(img, x, y, e->ux[i], e->uy[i], reach, dark_limit))
            continue;
        pts[n].x = (float)x;
        pts[n].y = (float)y;
        n++;
    }
    return n;
}

/* around_peak()'s reflection mask: the frame's, with hough_glint_edges=skip
 * when reflections were found (reflection not off); else none. */
static const uint8_t *glint_mask(const pt_eye_input *in, const pt_config *cfg)
{
    return cfg->hough.glint_edges == PT_HOUGH_GLINT_EDGES_SKIP ? in->reflection_mask : NULL;
}

/* The ellipse of the annulus points pts[0..n): RANSAC, then refitted twice
 * on the edge points within HOUGH_REFINE_PX of it (pts is overwritten).
 * Returns 0 when RANSAC found none. */
static int annulus_ellipse(const edge_list *e, const pt_eye_input *in, const pt_config *cfg,
                           pt_point *pts, int n, int *idx, pt_ellipse *found)
{
    const pt_roi *roi = &in->roi;
    pt_ransac_fit fit;
    if (!in->ransac ||
        !pt_ransac_ellipse(pts, n, in->ransac, cfg->pre.ransac_samples,
                           cfg->pre.ransac_inlier, in->min_radius, in->max_radius, idx, &fit))
        return 0;
    *found = fit.ellipse;
    for (int pass = 0; pass < 2; pass++) {
        pt_ellipse next;
        n = near_ellipse(e, roi->x0, roi->y0, found, HOUGH_REFINE_PX, pts);
        if (!pt_fit_ellipse(pts, NULL, n, &next))
            break;
        *found = next;
    }
    return 1;
}

/* Ellipse mode's refinement of the RANSAC circle, and circle mode's with
 * hough_refit=ellipse: the annulus ellipse; circle mode reports its centre
 * and mean radius in *out when it is credible (lib/detect/hough_refit.h), *el the
 * ellipse then. Returns 0 when ellipse mode found no ellipse. */
static int ellipse_stage(const edge_list *e, const pt_eye_input *in, const pt_config *cfg,
                         int ellipse, pt_point *pts, int *idx, const pt_circle *circle,
                         pt_ellipse *el, pt_circle *out)
{
    const pt_roi *roi = &in->roi;
    int refit = !ellipse;
    int n = around_peak(e, roi->x0, roi->y0, circle, HOUGH_ANNULUS_IN * circle->r,
                        HOUGH_ANNULUS_OUT * circle->r, in->smoothed,
                        pt_hough_dark_limit_circle(in->smoothed, circle, cfg->hough.dark_spread),
                        glint_mask(in, cfg), pts);
    n = pt_hough_thin_annulus(pts, n);
    pt_ellipse found;
    if (!annulus_ellipse(e, in, cfg, pts, n, idx, &found))
        return refit; /* circle mode keeps its circle */
    if (refit && !pt_hough_refit_credible(circle, &found))
        return 1;
    *el = found;
    if (refit)
        *out = pt_hough_refit_circle(&found);
    return 1;
}

/* Least-squares refinement of the Hough peak on the edge points within
 * HOUGH_REFINE_PX of it. An ellipse is first found by RANSAC among the
 * candidates around the peak, then refitted on the points near it. Circle
 * mode with hough_refit=ellipse runs the ellipse's steps too and, when the
 * ellipse is credible (lib/detect/hough_refit.h), reports its centre and mean
 * radius in *out (else the circle). *circle: the RANSAC circle; *el: the
 * ellipse, or the circle as one when circle mode keeps the circle. */
static int refine(const edge_list *e, const pt_eye_input *in, const pt_config *cfg,
                  const pt_circle *peak, int ellipse, pt_point *pts, int *idx,
                  pt_circle *circle, pt_ellipse *el, pt_circle *out)
{
    const pt_roi *roi = &in->roi;
    /* The peak of an elliptical pupil lies off its centre (normals of an
     * ellipse miss the centre), and edges of reflections or lids lie near it:
     * a RANSAC circle among the edges around the peak that face it, with an
     * inlier band of HOUGH_REFINE_SHARE of the radius so an elliptical
     * outline stays whole, refitted on its inliers. */
    *circle = *peak;
    int m = around_peak(e, roi->x0, roi->y0, peak, HOUGH_ANNULUS_IN * peak->r,
                        HOUGH_ANNULUS_OUT * peak->r, in->smoothed,
                        pt_hough_dark_limit_circle(in->smoothed, peak, cfg->hough.dark_spread),
                        glint_mask(in, cfg), pts);
    pt_ransac_fit cfit;
    if (in->ransac &&
        pt_ransac_circle(pts, m, in->ransac, cfg->pre.ransac_samples,
                         fmax(HOUGH_REFINE_PX, HOUGH_REFINE_SHARE * peak->r), in->min_radius,
                         in->max_radius, idx, &cfit))
        *circle = cfit.circle;
    *out = *circle;
    pt_ellipse_from_circle(circle, el);
    int refit = !ellipse && cfg->hough.refit == PT_HOUGH_REFIT_ELLIPSE;
    if (!ellipse && !refit)
        return 1;
    return ellipse_stage(e, in, cfg, ellipse, pts, idx, circle, el, out);
}

/* Side of the gradient-vote accumulator's cells: hough_cell, or auto: one
 * cell per px up to a 256 px short side, then growing with it (4 at 1024). */
static int hough_cell(const pt_hough_params *p, int w, int h)
{
    if (p->cell > 0)
        return p->cell;
    int side = w < h ? w : h, cell = side / 256;
    return cell < 1 ? 1 : cell;
}

pt_status pt_omp_hough(const pt_eye_input *in, const pt_config *cfg,
                       const pt_track_options *opt, pt_arena *arena, pt_result *res,
                       pt_overlay *ov, pt_error *err)
{
    const pt_hough_params *p = &cfg->hough;
    const pt_image *img = in->smoothed;
    const pt_roi roi = in->roi;
    int w = roi.width, h = roi.height;
    res->status = PT_DETECT_NOTFOUND;
    res->has_circle = res->has_ellipse = 0;
    res->confidence = 0.0;
    int min_r = in->min_radius < 1 ? 1 : in->min_radius;
    int max_r = in->max_radius;
    int step = p->radius_step < 1 ? 1 : p->radius_step;
    if (roi.x0 < 0 || roi.y0 < 0 || roi.x0 + w > img->width || roi.y0 + h > img->height)
        return pt_error_set(err, PT_ERR_INTERNAL, "",
                            "hough: roi %dx%d+%d+%d outside the %dx%d frame", w, h, roi.x0,
                            roi.y0, img->width, img->height);
    /* A circle centred in the roi is never larger than its diagonal. */
    int diagonal = (int)ceil(hypot(w, h));
    if (max_r > diagonal)
        max_r = diagonal;
    if (w <= 0 || h <= 0 || max_r < min_r || p->angle_step <= 0.0)
        return PT_OK;
    if (opt->ellipse && !in->ransac)
        return pt_error_set(err, PT_ERR_INTERNAL, "", "hough: no RANSAC sample table");
    if (max_r > INT16_MAX)
        max_r = INT16_MAX;

    pt_canny_edges canny;
    const uint8_t *pix = img->buf + (size_t)roi.y0 * img->stride + roi.x0;
    if (pt_canny_detect(pix, img->stride, w, h, pt_hough_sigma(p->sigma, w, h), p->canny_high,
                        p->canny_low, arena, &canny, err))
        return err->status;
    int gradient = p->vote == PT_HOUGH_VOTE_GRADIENT;
    edge_list edges;
    double flat_reach =
        p->flat_edges == PT_HOUGH_FLAT_REJECT ? pt_hough_flat_reach(max_r) : 0.0;
    if (collect_edges(&canny, flat_reach, arena, &edges, err))
        return err->status;
    edges.offset = p->edge_offset;
    if (edges.count < 3)
        return PT_OK;
    for (int i = 0; ov && i < edges.count; i++)
        pt_overlay_add(ov, (float)(edges.x[i] + roi.x0), (float)(edges.y[i] + roi.y0));

    vote_offsets offsets = {0};
    int32_t *range_first = NULL, *range_count = NULL;
    if (!gradient &&
        (make_offsets(min_r, max_r, step, p->angle_step, w, arena, &offsets, err) ||
         sample_ranges(&edges, &offsets, p->vote_spread, arena, &range_first, &range_count,
                       err)))
        return err->status;
    size_t pixels = (size_t)w * (size_t)h;
    pt_circle peak = {0, 0, 0}, circle;
    pt_ellipse el;
    double reported = -1.0; /* gradient voting: the reported confidence (man page) */
    double pupil_shape = -1.0; /* gradient voting: the chosen outline's pupil score */
    if (gradient) {
        float *acc = pt_arena_alloc(arena, (size_t)(w + 1) * (h + 1) * sizeof *acc);
        long long *hist = pt_arena_alloc(arena, (size_t)(max_r + 2) * sizeof *hist);
        double *score = pt_arena_alloc(arena, (size_t)(max_r + 2) * sizeof *score);
        if (!acc || !hist || !score)
            return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
        pt_circle cand[HOUGH_ALL_CANDIDATES];
        double vx = 0.0, vy = 0.0;
        edges.skip = NULL;
        int nc = gradient_peak(&edges, min_r, max_r, step, hough_cell(p, w, h), w, h, acc,
                               hist, score, cand, &vx, &vy, PT_HOUGH_STRONG_RADII,
                               HOUGH_CANDIDATES);
        /* the seed grid's integral image fits in the accumulator's (w+1) x (h+1) */
        int nvote = nc < 0 ? 0 : nc;
        double seed_level = -1.0;
        if (nc >= 0)
            nc = seed_candidates(&edges, img, &roi, min_r, max_r, vx, vy, (int32_t *)acc, hist,
                                 score, cand, nc, &seed_level);
        else
            nc = 0;
        int dark_from = nc;
        if (nc > 0 && p->dark_vote == PT_HOUGH_DARK_VOTE_ON &&
            dark_vote_candidates(&edges, img, &roi, min_r, max_r, step, hough_cell(p, w, h),
                                 pt_hough_dark_vote_limit(seed_level, p->dark_spread), arena,
                                 acc, hist, score, cand, &nc))
            return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
        pt_point *cpts = pt_arena_alloc(arena, (size_t)edges.count * sizeof *cpts);
        int *cidx = pt_arena_alloc(arena, (size_t)edges.count * sizeof *cidx);
        if (!cpts || !cidx)
            return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
        /* Each candidate radius refined; the choice (lib/detect/hough_choose.h)
         * weighs how credible each outline is (confidence x edge support)
         * and how dark its inside (the pupil, not the iris around it). */
        int ok[HOUGH_ALL_CANDIDATES], inside[HOUGH_ALL_CANDIDATES];
        double value[HOUGH_ALL_CANDIDATES], shape[HOUGH_ALL_CANDIDATES];
        pt_circle fit_circle[HOUGH_ALL_CANDIDATES], fit_out[HOUGH_ALL_CANDIDATES];
        pt_ellipse fit_ellipse[HOUGH_ALL_CANDIDATES];
        for (int k = 0; k < nc; k++) {
            pt_circle c = cand[k];
            c.cx += roi.x0;
            c.cy += roi.y0;
            ok[k] = refine(&edges, in, cfg, &c, opt->ellipse, cpts, cidx, &fit_circle[k],
                           &fit_ellipse[k], &fit_out[k]);
            value[k] = shape[k] = inside[k] = 0;
            if (!ok[k])
                continue;
            const pt_circle *fc = &fit_circle[k];
            value[k] = pt_confidence_ellipse(img, &fit_ellipse[k]) *
                       circle_support(&edges, roi.x0, roi.y0, fc,
                                      fmax(HOUGH_REFINE_PX, HOUGH_REFINE_SHARE * fc->r));
            inside[k] = pt_hough_inside_level(img, &fit_ellipse[k]);
            shape[k] = pt_pupil_score(img, &fit_ellipse[k]);
        }
        for (int k = nvote; k < dark_from; k++)
            if (ok[k] && pt_hough_seed_repeats(&fit_out[k], inside[k], nvote, ok, fit_out, inside))
                ok[k] = 0;
        int chosen = pt_hough_choose_nest(nc, ok, value, inside, shape, fit_out, p->nest_keep);
        if (chosen < 0)
            return PT_OK;
        circle = fit_out[chosen];
        el = fit_ellipse[chosen];
        /* value = the outline confidence of el x edge support */
        reported = value[chosen] * pt_hough_dark_share(seed_level, inside[chosen]);
        pupil_shape = shape[chosen];
        if (nc == 0)
            return PT_OK;
    } else {
    int radii = (max_r - min_r) / step + 1;
    /* Radii are independent: one accumulator plane per worker. Inside an
     * enclosing parallel region (frames in parallel) this runs on one. */
    int workers = omp_in_parallel() ? 1 : omp_get_max_threads();
    if (opt->threads > 0 && workers > opt->threads)
        workers = opt->threads;
    if (workers > radii)
        workers = radii;
    uint16_t *planes = pt_arena_calloc(arena, (size_t)workers * pixels * sizeof *planes);
    plane_peak *peaks = pt_arena_alloc(arena, (size_t)radii * sizeof *peaks);
    if (!planes || !peaks)
        return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
    int ymin = h, ymax = -1;
    for (int i = 0; i < edges.count; i++) {
        ymin = edges.y[i] < ymin ? edges.y[i] : ymin;
        ymax = edges.y[i] > ymax ? edges.y[i] : ymax;
    }

#pragma omp parallel for num_threads(workers) schedule(dynamic, 1)
    for (int i = 0; i < radii; i++) {
        uint16_t *acc = planes + (size_t)omp_get_thread_num() * pixels;
        int r = min_r + i * step;
        if (gradient)
            vote_gradient(&edges, r, w, h, acc);
        else
            vote_sampled(&edges, &offsets, i, range_first, range_count, w, h, acc);
        /* Votes land within r rows of an edge pixel. */
        int y0 = ymin - r < 0 ? 0 : ymin - r, y1 = ymax + r >= h ? h - 1 : ymax + r;
        peaks[i] = take_peak(acc, w, y0, y1);
    }

    /* Compare radii by the share of a perfect circle's votes they got; in
     * radius order, so the result does not depend on the number of workers. */
    double best_score = 0.0;
    for (int i = 0; i < radii; i++) {
        int r = min_r + i * step;
        double possible = gradient ? 2.0 * M_PI * r : offsets.first[i + 1] - offsets.first[i];
        double score = peaks[i].votes / possible;
        if (score > best_score) {
            best_score = score;
            peak.cx = peaks[i].index % w + roi.x0;
            peak.cy = peaks[i].index / w + roi.y0;
            peak.r = r;
        }
    }
    if (best_score <= 0.0)
        return PT_OK;

    pt_point *pts = pt_arena_alloc(arena, (size_t)edges.count * sizeof *pts);
    int *idx = pt_arena_alloc(arena, (size_t)edges.count * sizeof *idx);
    if (!pts || !idx)
        return pt_error_set(err, PT_ERR_NOMEM, "", "hough: out of memory");
    pt_circle ransac_circle;
    if (!refine(&edges, in, cfg, &peak, opt->ellipse, pts, idx, &ransac_circle, &el, &circle))
        return PT_OK;
    }
    if (opt->ellipse) {
        res->ellipse = el;
        res->circle.cx = el.cx;
        res->circle.cy = el.cy;
        res->circle.r = 0.5 * (el.a + el.b);
        res->confidence = pt_confidence_ellipse(img, &el);
    } else {
        /* el: the circle, or the ellipse whose centre and mean radius it took */
        res->circle = circle;
        res->confidence = pt_confidence_ellipse(img, &el);
    }
    /* gradient voting also keeps a pupil-shaped outline whose border steps
     * are small (a dark iris: pupiltrack(1), hough_vote) */
    if (res->confidence < PT_CONFIDENCE_MIN && pupil_shape < PT_CONFIDENCE_FILTER)
        return PT_OK;
    if (reported >= 0.0)
        res->confidence = reported;
    res->has_circle = 1;
    res->has_ellipse = opt->ellipse;
    res->status = PT_DETECT_OK;
    return PT_OK;
}
