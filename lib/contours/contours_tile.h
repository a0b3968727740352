/* Per-tile border tracing of the CUDA contours back end, written once for the
 * device (one thread per tile) and the host (tests emulate the kernels with
 * these same functions, so the algorithm is checked without a GPU).
 *
 * As in omp/contours/contours.c: a tracer state is (pixel, back direction b); the next
 * direction d is the first foreground neighbour counterclockwise after b. A
 * tile traces (1) the piece of every cycle entering it through its sides, in
 * raster order of the entry state (pixel, b), so its entry keys are sorted,
 * then (2) every cycle lying wholly inside it that examines a 4-neighbour zero
 * and is not yet traced (a visited bit per (pixel, b)). Pieces are stored
 * compactly: a header plus one byte (d) per state; x, y, b of each state follow
 * from the entry state. The pass runs twice: once counting (dirs == NULL),
 * once writing at offsets from a prefix sum of the counts. */
#ifndef PT_CONTOURS_TILE_H
#define PT_CONTOURS_TILE_H

#include <stdint.h>

#include "lib/core/pt_hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One border piece (a cycle's run of states inside one tile). */
typedef struct {
    int64_t entry_key;  /* (y * step + x) * 8 + b of its first state */
    int64_t exit_key;   /* the state after its last, -1 for a closed cycle */
    int64_t first;      /* index of its first direction byte */
    int64_t count;      /* states */
    int64_t area2;      /* twice the signed area swept by its moves */
    int64_t min_pixel;  /* smallest pixel index visited */
    int64_t min_right;  /* smallest pixel index whose right neighbour is examined as 0 */
    int32_t min_x, max_x, min_y, max_y;
    int32_t next;       /* global index of the following piece (join) */
    int32_t flags;      /* PT_CPIECE_* */
} pt_cpiece;

enum { PT_CPIECE_GAP = 1, PT_CPIECE_ISOLATED = 2 };

/* Shared read-only description of the padded image and its tiling. */
typedef struct {
    const int8_t *lab;  /* (width+2) x (height+2), 0/1, zero frame */
    uint8_t *visited;   /* bit b of a pixel: state (pixel, b) traced (tile-private) */
    int step, width, height, tile, grid_x, grid_y;
} pt_ctiles;

/* Per-tile counts / offsets. */
typedef struct {
    int64_t pieces, states; /* counts (count pass) */
    int64_t piece_base, state_base; /* offsets (write pass) */
    int32_t entries;        /* entry pieces (sorted by entry_key) */
    int32_t status;         /* 0, or 1 when a count overflowed */
} pt_ctile_info;

PT_HD static inline int pt_cdir_dx(int d) { return ((36890 >> (2 * (d & 7))) & 3) - 1; }
PT_HD static inline int pt_cdir_dy(int d) { return ((43265 >> (2 * (d & 7))) & 3) - 1; }
PT_HD static inline int64_t pt_cdelta(int step, int d)
{
    return (int64_t)pt_cdir_dy(d) * step + pt_cdir_dx(d);
}

PT_HD static inline int pt_cnext_dir(const int8_t *lab, int step, int64_t q, int b)
{
    int d = b;
    do
        d = (d + 1) & 7;
    while (lab[q + pt_cdelta(step, d)] == 0);
    return d;
}

/* The state examines a 4-neighbour zero (the mark of a real border). */
PT_HD static inline int pt_cexamines_side(int b, int d)
{
    int zeros = (d - b - 1) & 7;
    return zeros >= 2 || (zeros == 1 && ((b + 1) & 1) == 0);
}

/* Where a tile writes: NULL pieces/dirs in the count pass. */
typedef struct {
    pt_cpiece *pieces;
    uint8_t *dirs;
    int64_t npieces, nstates; /* running counts (relative to the tile's bases) */
    int64_t piece_base, state_base;
} pt_ctile_sink;

PT_HD static inline void pt_cpiece_begin(pt_cpiece *p, int64_t first)
{
    p->entry_key = 0;
    p->exit_key = -1;
    p->first = first;
    p->count = 0;
    p->area2 = 0;
    p->min_pixel = INT64_MAX;
    p->min_right = INT64_MAX;
    p->min_x = p->min_y = INT32_MAX;
    p->max_x = p->max_y = INT32_MIN;
    p->next = -1;
    p->flags = 0;
}

/* Trace one piece from (x, y, b): until it leaves the box (closed = 0) or
 * returns to its first state (closed = 1). Statistics go to *p; directions to
 * sink->dirs when writing. */
PT_HD static inline void pt_ctrace_piece(const pt_ctiles *t, pt_ctile_sink *sink, pt_cpiece *p,
                                         int x, int y, int b, const int box[4], int closed)
{
    const int sx = x, sy = y, sb = b;
    pt_cpiece_begin(p, sink->state_base + sink->nstates);
    p->entry_key = ((int64_t)y * t->step + x) * 8 + b;
    for (;;) {
        int64_t q = (int64_t)y * t->step + x;
        int d = pt_cnext_dir(t->lab, t->step, q, b);
        if (sink->dirs)
            sink->dirs[sink->state_base + sink->nstates] = (uint8_t)d;
        sink->nstates++;
        p->count++;
        t->visited[q] |= (uint8_t)(1u << b);
        if (pt_cexamines_side(b, d))
            p->flags |= PT_CPIECE_GAP;
        if (q < p->min_pixel)
            p->min_pixel = q;
        /* the right neighbour was examined and is 0 (OpenCV's right-edge mark) */
        if ((unsigned)(d - 1) < (unsigned)b && q < p->min_right)
            p->min_right = q;
        if (x < p->min_x) p->min_x = x;
        if (x > p->max_x) p->max_x = x;
        if (y < p->min_y) p->min_y = y;
        if (y > p->max_y) p->max_y = y;
        int nx = x + pt_cdir_dx(d), ny = y + pt_cdir_dy(d);
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
}

/* Store p (write pass) and count it. */
PT_HD static inline void pt_csink_piece(pt_ctile_sink *sink, const pt_cpiece *p)
{
    if (sink->pieces)
        sink->pieces[sink->piece_base + sink->npieces] = *p;
    sink->npieces++;
}

PT_HD static inline void pt_ctile_box(const pt_ctiles *t, int tile, int box[4])
{
    int tx = tile % t->grid_x, ty = tile / t->grid_x;
    box[0] = 1 + tx * t->tile;
    box[1] = box[0] + t->tile - 1;
    box[2] = 1 + ty * t->tile;
    box[3] = box[2] + t->tile - 1;
    if (box[1] > t->width)
        box[1] = t->width;
    if (box[3] > t->height)
        box[3] = t->height;
}

/* All pieces of one tile; returns the number of entry pieces. The tile's
 * visited bits must be zero on entry. */
PT_HD static inline int64_t pt_ctrace_tile(const pt_ctiles *t, int tile, pt_ctile_sink *sink)
{
    int box[4];
    pt_ctile_box(t, tile, box);
    const int8_t *lab = t->lab;
    const int step = t->step;
    pt_cpiece p;
    for (int y = box[2]; y <= box[3]; y++) {
        int on_edge_row = y == box[2] || y == box[3];
        for (int x = box[0]; x <= box[1]; x++) {
            if (!on_edge_row && x != box[0] && x != box[1])
                x = box[1];
            int64_t q = (int64_t)y * step + x;
            if (!lab[q])
                continue;
            for (int b = 0; b < 8; b++) {
                int bx = x + pt_cdir_dx(b), by = y + pt_cdir_dy(b);
                if (!lab[q + pt_cdelta(step, b)] ||
                    (bx >= box[0] && bx <= box[1] && by >= box[2] && by <= box[3]))
                    continue;
                pt_ctrace_piece(t, sink, &p, x, y, b, box, 0);
                pt_csink_piece(sink, &p);
            }
        }
    }
    int64_t entries = sink->npieces;
    for (int y = box[2]; y <= box[3]; y++)
        for (int x = box[0]; x <= box[1]; x++) {
            int64_t q = (int64_t)y * step + x;
            /* a border pixel has a zero 4-neighbour, or no neighbour at all */
            if (!lab[q] || (lab[q - 1] && lab[q + 1] && lab[q - step] && lab[q + step]))
                continue;
            int fg = 0;
            for (int k = 0; k < 8; k++)
                fg |= (lab[q + pt_cdelta(step, k)] != 0) << k;
            if (!fg) { /* isolated pixel: a one-point outer border */
                pt_cpiece_begin(&p, sink->state_base + sink->nstates);
                if (sink->dirs)
                    sink->dirs[sink->state_base + sink->nstates] = 4;
                sink->nstates++;
                p.count = 1;
                p.flags = PT_CPIECE_GAP | PT_CPIECE_ISOLATED;
                p.min_pixel = p.min_right = q;
                p.min_x = p.max_x = x;
                p.min_y = p.max_y = y;
                p.entry_key = q * 8 + 4;
                pt_csink_piece(sink, &p);
                continue;
            }
            /* states that examine a 4-neighbour zero belong to borders */
            int gaps = 0;
            for (int b = 0; b < 8; b++)
                if ((fg >> b & 1) && !(fg >> ((b + 1) & 7) & 1) &&
                    (((b + 1) & 1) == 0 || !(fg >> ((b + 2) & 7) & 1)))
                    gaps |= 1 << b;
            while ((gaps &= ~(int)t->visited[q]) != 0) {
                int b = 0;
                while (!(gaps >> b & 1))
                    b++;
                pt_ctrace_piece(t, sink, &p, x, y, b, box, 1);
                pt_csink_piece(sink, &p);
            }
        }
    return entries;
}

/* Join: the global index of the piece that p's exit state enters, found by
 * binary search among the entry pieces of the tile it enters; -1 if none. */
PT_HD static inline int32_t pt_cjoin_piece(const pt_ctiles *t, const pt_cpiece *pieces,
                                           const pt_ctile_info *info, const pt_cpiece *p,
                                           int32_t self)
{
    if (p->exit_key < 0)
        return self;
    int64_t pix = p->exit_key >> 3;
    int x = (int)(pix % t->step), y = (int)(pix / t->step);
    if (x < 1 || x > t->width || y < 1 || y > t->height)
        return -1;
    int tt = ((y - 1) / t->tile) * t->grid_x + (x - 1) / t->tile;
    const pt_cpiece *e = pieces + info[tt].piece_base;
    int64_t lo = 0, hi = (int64_t)info[tt].entries - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        int64_t k = e[mid].entry_key;
        if (k == p->exit_key)
            return (int32_t)(info[tt].piece_base + mid);
        if (k < p->exit_key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}


/* ---- keeping only borders: pointer jumping over the joined pieces --------
 * Round k (one thread per piece, double-buffered) gives each piece the OR of
 * the gap flags of the 2^k pieces starting with it along its cycle; after
 * ceil(log2(pieces)) rounds, that of its whole cycle (and the lowest piece
 * index of the cycle, its representative). Pieces of cycles without
 * a gap (not borders, e.g. inside solid regions) are then dropped, the rest
 * compacted with their direction bytes, so only borders are downloaded. An
 * unjoined piece (next < 0, an internal error) is kept for the host to report. */

PT_HD static inline void pt_cjump_init(const pt_cpiece *pieces, int64_t i, int32_t *jump,
                                       uint8_t *gap, int32_t *low)
{
    jump[i] = pieces[i].next;
    gap[i] = (uint8_t)((pieces[i].flags & PT_CPIECE_GAP) || pieces[i].next < 0);
    low[i] = (int32_t)i;
}

/* low: the smallest piece index met, so after the last round that of the
 * whole cycle, its representative. */
PT_HD static inline void pt_cjump_round(int64_t i, const int32_t *jump_in, const uint8_t *gap_in,
                                        const int32_t *low_in, int32_t *jump_out,
                                        uint8_t *gap_out, int32_t *low_out)
{
    int32_t j = jump_in[i];
    if (j < 0) {
        jump_out[i] = j;
        gap_out[i] = 1;
        low_out[i] = low_in[i];
        return;
    }
    gap_out[i] = (uint8_t)(gap_in[i] | gap_in[j]);
    jump_out[i] = jump_in[j];
    low_out[i] = low_in[j] < low_in[i] ? low_in[j] : low_in[i];
}

/* Rounds needed for cycles of up to n pieces. */
PT_HD static inline int pt_cjump_rounds(int64_t n)
{
    int r = 0;
    while (r < 62 && ((int64_t)1 << r) < n)
        r++;
    return r;
}

/* Inputs of the two exclusive prefix sums: kept piece (1/0), its byte count. */
PT_HD static inline void pt_ckeep(const pt_cpiece *pieces, const uint8_t *gap, int64_t i,
                                  int64_t *keep, int64_t *bytes)
{
    keep[i] = gap[i] ? 1 : 0;
    bytes[i] = gap[i] ? pieces[i].count : 0;
}

/* Copy a kept piece to its compact place (pidx, doff: the prefix sums) with
 * its cycle's representative (kept pieces keep their relative order, so the
 * lowest index stays the lowest). */
PT_HD static inline void pt_ccompact(const pt_cpiece *pieces, const uint8_t *dirs,
                                     const uint8_t *gap, const int32_t *low, const int64_t *pidx,
                                     const int64_t *doff, int64_t i, pt_cpiece *out_pieces,
                                     uint8_t *out_dirs, int32_t *out_rep)
{
    if (!gap[i])
        return;
    pt_cpiece p = pieces[i];
    const uint8_t *src = dirs + p.first;
    uint8_t *dst = out_dirs + doff[i];
    for (int64_t k = 0; k < p.count; k++)
        dst[k] = src[k];
    p.first = doff[i];
    p.next = p.next >= 0 ? (int32_t)pidx[p.next] : -1;
    out_pieces[pidx[i]] = p;
    out_rep[pidx[i]] = (int32_t)pidx[low[i]];
}

#ifdef __cplusplus
}
#endif

#endif
