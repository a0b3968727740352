/* Border assembly of the CUDA contours back end, written once for the device
 * (one thread per piece or per border) and the host (the CPU emulation runs
 * these same functions in loops), after the pieces of borders are compacted
 * (lib/contours/contours_tile.h):
 *
 * 1. each piece knows its cycle's representative, the lowest piece index of
 *    the cycle (pointer jumping, pt_cjump_round); representatives number
 *    the borders (a prefix sum of pt_cborder_head);
 * 2. each piece adds its extent to its border (pt_cborder_add): smallest
 *    pixel, smallest pixel with a right-edge mark, box, swept area, states;
 * 3. each border gets OpenCV's start (pt_cborder_start): outer borders start
 *    at their raster-first pixel, holes at the first pixel whose right
 *    neighbour is background (Suzuki & Abe 1985, appendix 1); the first
 *    direction is OpenCV's first foreground neighbour clockwise;
 * 4. the piece holding the start state records it (pt_cborder_locate);
 * 5. borders are sorted by the raster index of the pixel whose scan finds
 *    them (OpenCV's discovery order) and laid out (pt_cborder_rank);
 * 6. list ranking (Wyllie's pointer jumping, pt_crank_*) gives every piece
 *    the number of states from it to the end of its border, counted from the
 *    start piece, so each piece copies its direction bytes to their place in
 *    its border's chain code (pt_cborder_rotate).
 * What goes to the host is a chain code per border: start pixel, flags and
 * the direction of each state from the start (lib/contours/contours_chains.h). */
#ifndef PT_CONTOURS_BORDERS_H
#define PT_CONTOURS_BORDERS_H

#include <stdint.h>

#include "lib/contours/contours_tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A border's extent and start while it is assembled. */
typedef struct {
    int64_t min_pixel, min_right, area2, states, changes;
    int64_t start_pixel, start_off, key;
    int32_t min_x, max_x, min_y, max_y;
    int32_t start_piece, start_b, is_hole, isolated;
} pt_cborder;

/* Flags of a border in the chain-code output. */
enum { PT_CCHAIN_HOLE = 1, PT_CCHAIN_ISOLATED = 2, PT_CCHAIN_B_SHIFT = 2 };

/* Atomic updates on the device; the host emulation runs one element at a time. */
PT_HD static inline void pt_cmin64(int64_t *a, int64_t v) /* v >= 0 */
{
#ifdef __CUDA_ARCH__
    atomicMin((unsigned long long *)a, (unsigned long long)v);
#else
    if (v < *a)
        *a = v;
#endif
}

PT_HD static inline void pt_cadd64(int64_t *a, int64_t v)
{
#ifdef __CUDA_ARCH__
    atomicAdd((unsigned long long *)a, (unsigned long long)v);
#else
    *a += v;
#endif
}

PT_HD static inline void pt_cmin32(int32_t *a, int32_t v)
{
#ifdef __CUDA_ARCH__
    atomicMin((int *)a, (int)v);
#else
    if (v < *a)
        *a = v;
#endif
}

PT_HD static inline void pt_cmax32(int32_t *a, int32_t v)
{
#ifdef __CUDA_ARCH__
    atomicMax((int *)a, (int)v);
#else
    if (v > *a)
        *a = v;
#endif
}

/* 1 for the piece that represents its cycle (input of the border numbering). */
PT_HD static inline int64_t pt_cborder_head(const int32_t *rep, int64_t i)
{
    return rep[i] == (int32_t)i;
}

PT_HD static inline void pt_cborder_init(pt_cborder *B, int64_t b)
{
    pt_cborder *e = &B[b];
    e->min_pixel = e->min_right = INT64_MAX;
    e->area2 = e->states = e->changes = 0;
    e->start_pixel = e->start_off = e->key = 0;
    e->min_x = e->min_y = INT32_MAX;
    e->max_x = e->max_y = INT32_MIN;
    e->start_piece = -1;
    e->start_b = e->is_hole = e->isolated = 0;
}

/* Direction changes along a piece (the points CHAIN_APPROX_SIMPLE keeps):
 * the state before its first is the one whose move entered it (b ^ 4). */
PT_HD static inline int64_t pt_cpiece_changes(const pt_cpiece *p, const uint8_t *dirs)
{
    int prev = (int)(p->entry_key & 7) ^ 4;
    int64_t n = 0;
    for (int64_t k = 0; k < p->count; k++) {
        int d = dirs[p->first + k];
        n += d != prev;
        prev = d;
    }
    return n;
}

/* Piece i's extent into its border (bid: border number of each
 * representative); 1 for an unjoined piece (an internal error). */
PT_HD static inline int pt_cborder_add(const pt_cpiece *pieces, const uint8_t *dirs,
                                        const int32_t *rep, const int64_t *bid, int64_t i,
                                        int simple, pt_cborder *B)
{
    const pt_cpiece *p = &pieces[i];
    if (p->next < 0)
        return 1;
    pt_cborder *e = &B[bid[rep[i]]];
    int64_t changes = simple ? pt_cpiece_changes(p, dirs) : 0;
    if (p->next == (int32_t)i) { /* a cycle of one piece: its border alone */
        e->min_pixel = p->min_pixel;
        e->min_right = p->min_right;
        e->area2 = p->area2;
        e->states = p->count;
        e->changes = changes;
        e->min_x = p->min_x;
        e->max_x = p->max_x;
        e->min_y = p->min_y;
        e->max_y = p->max_y;
        e->isolated = (p->flags & PT_CPIECE_ISOLATED) != 0;
        return 0;
    }
    pt_cmin64(&e->min_pixel, p->min_pixel);
    pt_cmin64(&e->min_right, p->min_right);
    pt_cadd64(&e->area2, p->area2);
    pt_cadd64(&e->states, p->count);
    if (simple)
        pt_cadd64(&e->changes, changes);
    pt_cmin32(&e->min_x, p->min_x);
    pt_cmax32(&e->max_x, p->max_x);
    pt_cmin32(&e->min_y, p->min_y);
    pt_cmax32(&e->max_y, p->max_y);
    return 0;
}

/* OpenCV's start of border b: pixel, first direction, discovery key. lab is
 * the padded 0/1 image. Returns 1 for a hole without a right-edge pixel
 * (inconsistent pieces). */
PT_HD static inline int pt_cborder_start(pt_cborder *B, int64_t b, const int8_t *lab, int step)
{
    pt_cborder *e = &B[b];
    if (e->isolated) {
        e->is_hole = 0;
        e->start_pixel = e->key = e->min_pixel;
        e->start_b = 4;
        return 0;
    }
    /* holes run clockwise on screen: positive area with y pointing down */
    e->is_hole = e->area2 > 0;
    if (e->is_hole && e->min_right == INT64_MAX)
        return 1;
    e->start_pixel = e->is_hole ? e->min_right : e->min_pixel;
    e->key = e->is_hole ? e->min_right + 1 : e->min_pixel;
    /* OpenCV's first step: first foreground neighbour clockwise from 4 or 0 */
    int s_end = e->is_hole ? 0 : 4, s = s_end;
    do
        s = (s - 1) & 7;
    while (lab[e->start_pixel + pt_cdelta(step, s)] == 0 && s != s_end);
    e->start_b = s;
    return 0;
}

/* The piece holding border b's start state records where it lies. */
PT_HD static inline void pt_cborder_locate(const pt_cpiece *pieces, const uint8_t *dirs,
                                           const int32_t *rep, const int64_t *bid, int64_t i,
                                           int step, pt_cborder *B)
{
    const pt_cpiece *p = &pieces[i];
    pt_cborder *e = &B[bid[rep[i]]];
    if (e->isolated) {
        e->start_piece = (int32_t)i;
        e->start_off = 0;
        return;
    }
    int sx = (int)(e->start_pixel % step), sy = (int)(e->start_pixel / step);
    if (sx < p->min_x || sx > p->max_x || sy < p->min_y || sy > p->max_y)
        return;
    int64_t pix = p->entry_key >> 3;
    int x = (int)(pix % step), y = (int)(pix / step), bk = (int)(p->entry_key & 7);
    for (int64_t k = 0; k < p->count; k++) {
        int d = dirs[p->first + k];
        if (x == sx && y == sy && bk == e->start_b) {
            e->start_piece = (int32_t)i; /* a state lies on one cycle once */
            e->start_off = k;
            return;
        }
        x += pt_cdir_dx(d);
        y += pt_cdir_dy(d);
        bk = d ^ 4;
    }
}

/* Sort input: border b's discovery key (unique: at most one outer border and
 * one hole start at a pixel, the hole's key one higher). */
PT_HD static inline void pt_cborder_key(const pt_cborder *B, int64_t b, uint64_t *keys,
                                        int32_t *index)
{
    keys[b] = (uint64_t)B[b].key;
    index[b] = (int32_t)b;
}

/* The border of rank r in discovery order: its start, flags, states and
 * points (inputs of the two offset sums); 1 when it has no start state. */
PT_HD static inline int pt_cborder_rank(const pt_cborder *B, const int32_t *order, int64_t r,
                                        int simple, int32_t *rank_of, int64_t *start,
                                        uint8_t *flags, int64_t *states, int64_t *points)
{
    int32_t b = order[r];
    const pt_cborder *e = &B[b];
    rank_of[b] = (int32_t)r;
    start[r] = e->start_pixel;
    flags[r] = (uint8_t)((e->is_hole ? PT_CCHAIN_HOLE : 0) |
                         (e->isolated ? PT_CCHAIN_ISOLATED : 0) |
                         (e->start_b << PT_CCHAIN_B_SHIFT));
    states[r] = e->states;
    points[r] = e->isolated ? 1 : simple ? e->changes : e->states;
    return e->start_piece < 0;
}

/* List ranking, round 0: the cycle is cut before its start piece. */
PT_HD static inline void pt_crank_init(const pt_cpiece *pieces, const int32_t *rep,
                                       const int64_t *bid, const pt_cborder *B, int64_t i,
                                       int32_t *link, int64_t *sum)
{
    int32_t next = pieces[i].next;
    link[i] = next == B[bid[rep[i]]].start_piece ? -1 : next;
    sum[i] = pieces[i].count;
}

/* One round: sum[i] becomes the states from i over 2^k pieces (or to the end). */
PT_HD static inline void pt_crank_round(int64_t i, const int32_t *link_in, const int64_t *sum_in,
                                        int32_t *link_out, int64_t *sum_out)
{
    int32_t j = link_in[i];
    if (j < 0) {
        link_out[i] = -1;
        sum_out[i] = sum_in[i];
        return;
    }
    sum_out[i] = sum_in[i] + sum_in[j];
    link_out[i] = link_in[j];
}

/* Piece i's direction bytes to their place in its border's chain: with S the
 * states from i to the end of the cut cycle, its first state is number
 * states - start_off - S (mod states) counted from the start state. */
PT_HD static inline void pt_cborder_rotate(const pt_cpiece *pieces, const uint8_t *dirs,
                                           const int32_t *rep, const int64_t *bid,
                                           const pt_cborder *B, const int32_t *rank_of,
                                           const int64_t *dfirst, const int64_t *sum, int64_t i,
                                           uint8_t *chain)
{
    const pt_cpiece *p = &pieces[i];
    int64_t b = bid[rep[i]];
    const pt_cborder *e = &B[b];
    int64_t total = e->states, pos = total - e->start_off - sum[i];
    while (pos < 0)
        pos += total;
    uint8_t *dst = chain + dfirst[rank_of[b]];
    const uint8_t *src = dirs + p->first;
    for (int64_t k = 0; k < p->count; k++) {
        dst[pos] = src[k];
        if (++pos == total)
            pos = 0;
    }
}

#ifdef __cplusplus
}
#endif

#endif
