/* Parallel border tracking equal to pt_contours_find_seq (OpenCV findContours).
 *
 * Border following is a permutation on tracer states (pixel, back direction
 * b): from a state the next direction d is the first foreground neighbour
 * counterclockwise after b. Its cycles that examine a background pixel are
 * exactly OpenCV's borders. So: every tile (power-of-two side) traces, with
 * one thread, the pieces of cycles entering it through its sides and the
 * cycles lying wholly inside (a per-pixel bit per back direction marks traced
 * states, so none is traced twice); pieces are joined by looking up each exit
 * state among the entry states of the neighbouring tile; each closed border
 * is rotated to OpenCV's start state (outer: raster-first pixel; hole: pixel
 * left of the hole's raster-first zero) and numbered in OpenCV's discovery
 * order (the raster position of that trigger). The hierarchy of CCOMP/TREE
 * replays OpenCV's scan with these borders' labels, so it matches OpenCV's
 * label-based parent search exactly. */
#include "omp/contours/contours_omp.h"
#include "lib/contours/contours_cycles.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const int dir_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dir_dy[8] = {0, -1, -1, -1, 0, 1, 1, 1};

/* One tracer state: pixel (padded coordinates), back direction, next direction. */
typedef struct {
    int32_t x, y;
    uint8_t b, d;
} trace_state;

typedef struct {
    int64_t entry_key, exit_key; /* pixel index * 8 + b; exit -1 when closed */
    int64_t first, count;        /* states in the tile's array */
    int64_t area2;               /* twice the signed area swept by its moves */
    int64_t min_pixel, min_right; /* see border_start() */
    int min_x, max_x, min_y, max_y;
    int tile, next, isolated, gap;
} piece;

typedef struct {
    trace_state *states;
    int64_t state_count, state_capacity;
    piece *pieces;
    int piece_count, piece_capacity, entry_count;
    pt_status status;
    pt_error err;
} tile_out;

typedef struct {
    const int8_t *lab;
    uint8_t *visited; /* bit b of a pixel: state (pixel, b) traced */
    int step, width, height, tile, grid_x, grid_y;
    ptrdiff_t deltas[16];
    int64_t max_states;
} tracer;


static int next_dir(const int8_t *lab, const ptrdiff_t *deltas, ptrdiff_t q, int b)
{
    int d = b;
    do
        d++;
    while (lab[q + deltas[d]] == 0);
    return d & 7;
}

/* A state examines a 4-neighbour zero: the mark of a real border (a state
 * that examines only a diagonal zero lies on a triangle of three pixels). */
static int examines_side(int b, int d)
{
    int zeros = (d - b - 1) & 7;
    return zeros >= 2 || (zeros == 1 && ((b + 1) & 1) == 0);
}

static pt_status push_state(const tracer *t, tile_out *o, int x, int y, int b, int d)
{
    if (o->state_count == o->state_capacity) {
        int64_t cap = o->state_capacity ? 2 * o->state_capacity : 1024;
        if (o->state_count >= t->max_states)
            return pt_error_set(&o->err, PT_ERR_NOMEM, "",
                                "contours: more than %lld traced states (limit)",
                                (long long)t->max_states);
        trace_state *grown = realloc(o->states, (size_t)cap * sizeof *grown);
        if (!grown)
            return pt_error_set(&o->err, PT_ERR_NOMEM, "", "contours: cannot allocate states");
        o->states = grown;
        o->state_capacity = cap;
    }
    trace_state *s = &o->states[o->state_count++];
    s->x = x;
    s->y = y;
    s->b = (uint8_t)b;
    s->d = (uint8_t)d;
    return PT_OK;
}

static piece *new_piece(tile_out *o, int tile)
{
    if (o->piece_count == o->piece_capacity) {
        int cap = o->piece_capacity ? 2 * o->piece_capacity : 64;
        piece *grown = realloc(o->pieces, (size_t)cap * sizeof *grown);
        if (!grown) {
            pt_error_set(&o->err, PT_ERR_NOMEM, "", "contours: cannot allocate pieces");
            return NULL;
        }
        o->pieces = grown;
        o->piece_capacity = cap;
    }
    piece *p = &o->pieces[o->piece_count++];
    memset(p, 0, sizeof *p);
    p->tile = tile;
    p->exit_key = -1;
    p->first = o->state_count;
    p->min_pixel = INT64_MAX;
    p->min_right = INT64_MAX;
    p->min_x = p->min_y = INT32_MAX;
    p->max_x = p->max_y = INT32_MIN;
    p->next = -1;
    return p;
}

/* Follow states from (x, y, b) until the walk leaves the tile (closed = 0) or
 * returns to its first state (closed = 1). */
static pt_status trace_piece(const tracer *t, tile_out *o, piece *p, int x, int y, int b,
                             const int box[4], int closed)
{
    const int sx = x, sy = y, sb = b;
    p->entry_key = ((int64_t)y * t->step + x) * 8 + b;
    for (;;) {
        ptrdiff_t q = (ptrdiff_t)y * t->step + x;
        int d = next_dir(t->lab, t->deltas, q, b);
        pt_status st = push_state(t, o, x, y, b, d);
        if (st)
            return st;
        t->visited[q] |= (uint8_t)(1u << b);
        p->gap |= examines_side(b, d);
        if (q < p->min_pixel)
            p->min_pixel = q;
        /* the right neighbour was examined and is 0 (OpenCV's right-edge mark) */
        if ((unsigned)(d - 1) < (unsigned)b && q < p->min_right)
            p->min_right = q;
        if (x < p->min_x) p->min_x = x;
        if (x > p->max_x) p->max_x = x;
        if (y < p->min_y) p->min_y = y;
        if (y > p->max_y) p->max_y = y;
        int nx = x + dir_dx[d], ny = y + dir_dy[d];
        p->area2 += (int64_t)x * ny - (int64_t)nx * y;
        x = nx;
        y = ny;
        b = d ^ 4;
        if (closed) {
            if (x == sx && y == sy && b == sb)
                break;
        } else if (x < box[0] || x > box[1] || y < box[2] || y > box[3]) {
            p->exit_key = ((int64_t)y * t->step + x) * 8 + b;
            break;
        }
    }
    p->count = o->state_count - p->first;
    return PT_OK;
}

static int fg_mask(const tracer *t, ptrdiff_t q)
{
    int m = 0;
    for (int k = 0; k < 8; k++)
        m |= (t->lab[q + t->deltas[k]] != 0) << k;
    return m;
}

/* All pieces of one tile: entries through its sides in raster order of
 * (pixel, b) so they are sorted by entry_key, then closed cycles inside. */
static pt_status trace_tile(const tracer *t, int tile, tile_out *o)
{
    int tx = tile % t->grid_x, ty = tile / t->grid_x;
    int box[4] = {1 + tx * t->tile, 1 + tx * t->tile + t->tile - 1, 1 + ty * t->tile,
                  1 + ty * t->tile + t->tile - 1};
    if (box[1] > t->width)
        box[1] = t->width;
    if (box[3] > t->height)
        box[3] = t->height;
    pt_status st;
    for (int y = box[2]; y <= box[3]; y++) {
        int on_edge_row = y == box[2] || y == box[3];
        for (int x = box[0]; x <= box[1]; x++) {
            if (!on_edge_row && x != box[0] && x != box[1])
                x = box[1];
            ptrdiff_t q = (ptrdiff_t)y * t->step + x;
            if (!t->lab[q])
                continue;
            for (int b = 0; b < 8; b++) {
                int bx = x + dir_dx[b], by = y + dir_dy[b];
                if (!t->lab[q + t->deltas[b]] ||
                    (bx >= box[0] && bx <= box[1] && by >= box[2] && by <= box[3]))
                    continue;
                piece *p = new_piece(o, tile);
                if (!p)
                    return PT_ERR_NOMEM;
                if ((st = trace_piece(t, o, p, x, y, b, box, 0)))
                    return st;
            }
        }
    }
    o->entry_count = o->piece_count;
    for (int y = box[2]; y <= box[3]; y++)
        for (int x = box[0]; x <= box[1]; x++) {
            ptrdiff_t q = (ptrdiff_t)y * t->step + x;
            /* a border pixel has a zero 4-neighbour, or no neighbour at all */
            if (!t->lab[q] || (t->lab[q - 1] && t->lab[q + 1] && t->lab[q - t->step] &&
                               t->lab[q + t->step]))
                continue;
            int fg = fg_mask(t, q);
            if (!fg) { /* isolated pixel: a one-point outer border */
                piece *p = new_piece(o, tile);
                if (!p)
                    return PT_ERR_NOMEM;
                if ((st = push_state(t, o, x, y, 4, 4)))
                    return st;
                p->count = 1;
                p->isolated = p->gap = 1;
                p->min_pixel = p->min_right = q;
                p->min_x = p->max_x = x;
                p->min_y = p->max_y = y;
                p->entry_key = q * 8 + 4;
                continue;
            }
            /* states that examine a 4-neighbour zero belong to borders */
            int gaps = 0;
            for (int b = 0; b < 8; b++)
                if ((fg >> b & 1) && !(fg >> ((b + 1) & 7) & 1) &&
                    (((b + 1) & 1) == 0 || !(fg >> ((b + 2) & 7) & 1)))
                    gaps |= 1 << b;
            while ((gaps &= ~t->visited[q]) != 0) {
                int b = __builtin_ctz((unsigned)gaps);
                piece *p = new_piece(o, tile);
                if (!p)
                    return PT_ERR_NOMEM;
                if ((st = trace_piece(t, o, p, x, y, b, box, 1)))
                    return st;
            }
        }
    return PT_OK;
}

static const trace_state *piece_states(tile_out *tiles, const piece *p)
{
    return tiles[p->tile].states + p->first;
}

/* OpenCV's first step from a start pixel: first foreground neighbour going
 * clockwise from 4 (outer) or 0 (hole). */
static int start_dir(const tracer *t, ptrdiff_t i0, int is_hole)
{
    int s_end = is_hole ? 0 : 4, s = s_end;
    do
        s = (s - 1) & 7;
    while (t->lab[i0 + t->deltas[s]] == 0 && s != s_end);
    return s;
}

typedef struct {
    tracer *t;
    tile_out *tiles;
    piece **all;
    pt_cycle_border *borders;
    int count;
} replay_ctx;

/* Scan callback: label the pixels of border `index` as OpenCV's tracer would. */
static pt_status replay_border(void *ctx, int8_t *lab, ptrdiff_t i0, int index, int is_hole,
                               int label, int rect[4], int64_t *first, int64_t *count,
                               pt_error *err)
{
    replay_ctx *r = ctx;
    if (index >= r->count || r->borders[index].start_pixel != i0 ||
        r->borders[index].is_hole != is_hole)
        return pt_error_set(err, PT_ERR_INTERNAL, "",
                            "contours: parallel borders disagree with the scan at border %d",
                            index);
    const pt_cycle_border *b = &r->borders[index];
    memcpy(rect, b->rect, sizeof b->rect);
    *first = b->first;
    *count = b->points;
    if (b->isolated) {
        lab[i0] = (int8_t)(label | 0x80);
        return PT_OK;
    }
    int pc = b->start_piece;
    int64_t off = b->start_offset, left = b->states;
    while (left > 0) {
        const piece *p = r->all[pc];
        const trace_state *s = piece_states(r->tiles, p);
        for (; off < p->count && left > 0; off++, left--) {
            ptrdiff_t q = (ptrdiff_t)s[off].y * r->t->step + s[off].x;
            if ((unsigned)(s[off].d - 1) < (unsigned)s[off].b)
                lab[q] = (int8_t)(label | 0x80);
            else if (lab[q] == 1)
                lab[q] = (int8_t)label;
        }
        pc = p->next;
        off = 0;
    }
    return PT_OK;
}

static int pick_tile(int width, int height, int threads)
{
    int tile = 256;
    while (tile > 16 && (int64_t)((width + tile - 1) / tile) * ((height + tile - 1) / tile) <
                            4 * (int64_t)threads)
        tile /= 2;
    return tile;
}

/* Rotate each closed cycle to its OpenCV start and size its output. */
static pt_status locate_start(tracer *t, tile_out *tiles, piece **all, pt_cycle_border *b,
                              int approx)
{
    const piece *p0 = all[b->any_piece];
    if (b->isolated) {
        pt_cycle_border_isolated(b, p0->min_pixel, p0->min_x, p0->min_y);
        return PT_OK;
    }
    pt_cycle_extent e;
    pt_cycle_extent_init(&e);
    int pc = b->any_piece;
    do {
        const piece *p = all[pc];
        pt_cycle_extent_add(&e, p->min_pixel, p->min_right, p->min_x, p->max_x, p->min_y,
                            p->max_y, p->area2, p->count);
        pc = p->next;
    } while (pc != b->any_piece);
    if (pt_cycle_extent_apply(&e, b))
        return PT_ERR_INTERNAL;
    b->start_b = start_dir(t, b->start_pixel, b->is_hole);
    int sx = (int)(b->start_pixel % t->step), sy = (int)(b->start_pixel / t->step);
    int64_t changes = 0;
    b->start_piece = -1;
    pc = b->any_piece;
    do {
        const piece *p = all[pc];
        const trace_state *s = piece_states(tiles, p);
        int prev_d = s[0].b ^ 4;
        for (int64_t i = 0; i < p->count; i++) {
            changes += s[i].d != prev_d;
            prev_d = s[i].d;
            if (s[i].x == sx && s[i].y == sy && s[i].b == b->start_b) {
                b->start_piece = pc;
                b->start_offset = i;
            }
        }
        pc = p->next;
    } while (pc != b->any_piece);
    if (b->start_piece < 0)
        return PT_ERR_INTERNAL;
    b->points = approx == PT_CONTOURS_APPROX_NONE ? b->states : changes;
    return PT_OK;
}

static void write_points(tile_out *tiles, piece **all, const pt_cycle_border *b, int approx,
                         pt_contour_point *dst)
{
    int pc = b->start_piece;
    int64_t off = b->start_offset, left = b->states, n = 0;
    int prev_d = b->start_b ^ 4;
    while (left > 0) {
        const piece *p = all[pc];
        const trace_state *s = piece_states(tiles, p);
        for (; off < p->count && left > 0; off++, left--) {
            if (approx == PT_CONTOURS_APPROX_NONE || s[off].d != prev_d || b->isolated) {
                dst[n].x = s[off].x - 1;
                dst[n].y = s[off].y - 1;
                n++;
            }
            prev_d = s[off].d;
        }
        pc = p->next;
        off = 0;
    }
}

static int source_locate(void *ctx, pt_cycle_border *b, int approx)
{
    replay_ctx *r = ctx;
    return locate_start(r->t, r->tiles, r->all, b, approx) != PT_OK;
}

static void source_write_points(void *ctx, const pt_cycle_border *b, int approx,
                                pt_contour_point *dst)
{
    replay_ctx *r = ctx;
    write_points(r->tiles, r->all, b, approx, dst);
}

/* Join: each piece's exit state is the entry state of a piece in the tile it
 * enters (binary search of that tile's sorted entries); next links them. */
static pt_status join_pieces(const tracer *t, const tile_out *tiles, const int *tile_base,
                             piece **all, int64_t npieces, int threads, pt_error *err)
{
    int missing = 0;
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : missing)
    for (int64_t i = 0; i < npieces; i++) {
        piece *p = all[i];
        if (p->exit_key < 0) {
            p->next = (int)i;
            continue;
        }
        int64_t pix = p->exit_key >> 3;
        int x = (int)(pix % t->step), y = (int)(pix / t->step);
        int tt = ((y - 1) / t->tile) * t->grid_x + (x - 1) / t->tile;
        const tile_out *o = &tiles[tt];
        int lo = 0, hi = o->entry_count - 1;
        p->next = -1;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            int64_t k = o->pieces[mid].entry_key;
            if (k == p->exit_key) {
                p->next = tile_base[tt] + mid;
                break;
            }
            if (k < p->exit_key)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        missing += p->next < 0;
    }
    if (missing)
        return pt_error_set(err, PT_ERR_INTERNAL, "", "contours: %d border pieces unjoined",
                            missing);
    return PT_OK;
}

/* One border per closed cycle of pieces that examines a zero pixel (*borders
 * malloc'd, *count of them). */
static pt_status collect_cycles(piece **all, int64_t npieces, pt_cycle_border **borders,
                                int *count, pt_error *err)
{
    int nb = 0, cap = 0;
    pt_status st = PT_OK;
    for (int64_t i = 0; i < npieces && !st; i++) {
        piece *p = all[i];
        if (p->tile < 0)
            continue;
        int gap = 0, pc = (int)i;
        do {
            gap |= all[pc]->gap;
            all[pc]->tile = -1 - all[pc]->tile; /* mark: cycle seen */
            pc = all[pc]->next;
        } while (pc != (int)i);
        if (!gap)
            continue;
        if (nb == cap) {
            cap = cap ? 2 * cap : 256;
            pt_cycle_border *grown = realloc(*borders, (size_t)cap * sizeof *grown);
            if (!grown) {
                st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate borders");
                break;
            }
            *borders = grown;
        }
        memset(&(*borders)[nb], 0, sizeof **borders);
        (*borders)[nb].any_piece = (int)i;
        (*borders)[nb].isolated = p->isolated;
        nb++;
    }
    for (int64_t i = 0; i < npieces; i++)
        if (all[i]->tile < 0)
            all[i]->tile = -1 - all[i]->tile;
    *count = nb;
    return st;
}

/* Phases timed into *times as pt_contours_find_tiled_timed says. */
static pt_status find_tiled(const pt_image *img, int threshold, int mode, int approx,
                            int threads, int tile, pt_contours *out, pt_contours_times *times,
                            pt_error *err)
{
    double t0 = pt_contours_clock_ms(), t1 = t0, t2 = t0, t3 = t0, t4 = t0;
    pt_status st = pt_contours_check_args(img, mode, approx, err);
    if (st)
        return st;
    out->count = 0;
    out->point_count = 0;
    if (threads <= 0)
        threads = omp_get_max_threads();
    if (tile <= 0)
        tile = pick_tile(img->width, img->height, threads);

    tracer t;
    memset(&t, 0, sizeof t);
    t.step = img->width + 2;
    t.width = img->width;
    t.height = img->height;
    t.tile = tile;
    t.grid_x = (img->width + tile - 1) / tile;
    t.grid_y = (img->height + tile - 1) / tile;
    int64_t limit = out->max_points > 0 ? out->max_points : PT_CONTOURS_DEFAULT_MAX_POINTS;
    t.max_states = 2 * limit + 4096;
    for (int d = 0; d < 16; d++)
        t.deltas[d] = (ptrdiff_t)dir_dy[d & 7] * t.step + dir_dx[d & 7];
    size_t pixels = (size_t)t.step * (size_t)(img->height + 2);
    int ntiles = t.grid_x * t.grid_y;
    int8_t *lab = pt_contours_binarize(img, threshold);
    t.lab = lab;
    t.visited = calloc(pixels, 1);
    tile_out *tiles = calloc((size_t)ntiles, sizeof *tiles);
    piece **all = NULL;
    pt_cycle_border *borders = NULL;
    int *tile_base = NULL;
    int nb = 0;
    if (!lab || !t.visited || !tiles) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d image",
                          t.step, img->height + 2);
        goto done;
    }
    t1 = pt_contours_clock_ms();

#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (int i = 0; i < ntiles; i++)
        tiles[i].status = trace_tile(&t, i, &tiles[i]);
    t2 = pt_contours_clock_ms();

    tile_base = malloc((size_t)(ntiles + 1) * sizeof *tile_base);
    if (!tile_base) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate tiles");
        goto done;
    }
    int64_t npieces = 0;
    for (int i = 0; i < ntiles; i++) {
        if (tiles[i].status) {
            *err = tiles[i].err;
            st = tiles[i].status;
            goto done;
        }
        tile_base[i] = (int)npieces;
        npieces += tiles[i].piece_count;
    }
    if (npieces > INT32_MAX / 2) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many border pieces");
        goto done;
    }
    tile_base[ntiles] = (int)npieces;
    all = malloc((size_t)(npieces + 1) * sizeof *all);
    if (!all) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate pieces");
        goto done;
    }
    for (int i = 0; i < ntiles; i++)
        for (int k = 0; k < tiles[i].piece_count; k++)
            all[tile_base[i] + k] = &tiles[i].pieces[k];

    if ((st = join_pieces(&t, tiles, tile_base, all, npieces, threads, err)) ||
        (st = collect_cycles(all, npieces, &borders, &nb, err)))
        goto done;
    t3 = pt_contours_clock_ms();

    replay_ctx r = {&t, tiles, all, borders, nb};
    pt_cycle_source src = {&r, source_locate, source_write_points, replay_border};
    st = pt_contours_from_cycles(borders, nb, &src, img->width, img->height, lab, mode, approx,
                                 threads, out, err);
    t4 = pt_contours_clock_ms();

done:
    if (st) {
        out->count = 0;
        out->point_count = 0;
    }
    if (tiles)
        for (int i = 0; i < ntiles; i++) {
            free(tiles[i].states);
            free(tiles[i].pieces);
        }
    free(tiles);
    free(all);
    free(tile_base);
    free(borders);
    free(t.visited);
    free(lab);
    if (times && !st) {
        memset(times, 0, sizeof *times);
        times->preprocess_ms = t1 - t0;
        times->trace_ms = t2 - t1;
        times->connect_ms = t3 - t2;
        times->assemble_ms = t4 - t3;
        times->total_ms = pt_contours_clock_ms() - t0;
        times->phases = PT_CONTOURS_PHASE_PREPROCESS | PT_CONTOURS_PHASE_TRACE |
                        PT_CONTOURS_PHASE_CONNECT | PT_CONTOURS_PHASE_ASSEMBLE;
    }
    return st;
}

pt_status pt_contours_find_tiled_timed(const pt_image *img, int threshold, int mode, int approx,
                                       int threads, int tile, pt_contours *out,
                                       pt_contours_times *times, pt_error *err)
{
    if (tile > 0 && (tile & (tile - 1)))
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: tile side %d not a power of two",
                            tile);
    return find_tiled(img, threshold, mode, approx, threads, tile, out, times, err);
}

pt_status pt_contours_find_tiled(const pt_image *img, int threshold, int mode, int approx,
                                 int threads, int tile, pt_contours *out, pt_error *err)
{
    return pt_contours_find_tiled_timed(img, threshold, mode, approx, threads, tile, out, NULL,
                                        err);
}

pt_status pt_contours_find_omp(const pt_image *img, int threshold, int mode, int approx,
                               int threads, pt_contours *out, pt_error *err)
{
    return find_tiled(img, threshold, mode, approx, threads, 0, out, NULL, err);
}

static pt_status find_backend(void *state, const pt_image *img, int threshold, int mode,
                              int approx, int threads, int tile, pt_contours *out,
                              pt_contours_times *times, pt_error *err)
{
    (void)state;
    return pt_contours_find_tiled_timed(img, threshold, mode, approx, threads, tile, out, times,
                                        err);
}

const pt_contours_backend pt_contours_omp = {NULL, NULL, find_backend};
