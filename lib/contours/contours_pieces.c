/* Joined border pieces to OpenCV-ordered contours (see contours_pieces.h), and
 * the CPU emulation of the CUDA contours kernels. */
#include "lib/contours/contours_pieces.h"

#include "lib/contours/contours_cycles.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
    const pt_contour_pieces *pc;
    const pt_image *img;
    int threshold, step;
} assembler;

/* A state walked from a piece's entry. */
typedef struct {
    int x, y, b, d;
} walk;

static void walk_start(const assembler *a, const pt_cpiece *p, walk *w)
{
    int64_t pix = p->entry_key >> 3;
    w->x = (int)(pix % a->step);
    w->y = (int)(pix / a->step);
    w->b = (int)(p->entry_key & 7);
    w->d = a->pc->dirs[p->first];
}

static void walk_step(const assembler *a, const pt_cpiece *p, int64_t i, walk *w)
{
    w->x += pt_cdir_dx(w->d);
    w->y += pt_cdir_dy(w->d);
    w->b = w->d ^ 4;
    w->d = a->pc->dirs[p->first + i];
}

/* Foreground at padded (x, y), from the source image. */
static int fg(const assembler *a, int x, int y)
{
    if (x < 1 || y < 1 || x > a->img->width || y > a->img->height)
        return 0;
    return a->img->buf[(size_t)(y - 1) * a->img->stride + (size_t)(x - 1)] > a->threshold;
}

/* OpenCV's first step: first foreground neighbour clockwise from 4 or 0. */
static int start_dir(const assembler *a, int x, int y, int is_hole)
{
    int s_end = is_hole ? 0 : 4, s = s_end;
    do
        s = (s - 1) & 7;
    while (!fg(a, x + pt_cdir_dx(s), y + pt_cdir_dy(s)) && s != s_end);
    return s;
}

static int locate_start(const assembler *a, pt_cycle_border *b, int approx)
{
    const pt_cpiece *all = a->pc->pieces;
    const pt_cpiece *p0 = &all[b->any_piece];
    if (b->isolated) {
        pt_cycle_border_isolated(b, p0->min_pixel, p0->min_x, p0->min_y);
        return 0;
    }
    pt_cycle_extent e;
    pt_cycle_extent_init(&e);
    int32_t pc = b->any_piece;
    do {
        const pt_cpiece *p = &all[pc];
        pt_cycle_extent_add(&e, p->min_pixel, p->min_right, p->min_x, p->max_x, p->min_y,
                            p->max_y, p->area2, p->count);
        pc = p->next;
    } while (pc != b->any_piece);
    if (pt_cycle_extent_apply(&e, b))
        return 1;
    int sx = (int)(b->start_pixel % a->step), sy = (int)(b->start_pixel / a->step);
    b->start_b = start_dir(a, sx, sy, b->is_hole);
    int64_t changes = 0;
    b->start_piece = -1;
    pc = b->any_piece;
    do {
        const pt_cpiece *p = &all[pc];
        walk w;
        walk_start(a, p, &w);
        int prev_d = w.b ^ 4;
        for (int64_t i = 0; i < p->count; i++) {
            if (i)
                walk_step(a, p, i, &w);
            changes += w.d != prev_d;
            prev_d = w.d;
            if (w.x == sx && w.y == sy && w.b == b->start_b) {
                b->start_piece = pc;
                b->start_offset = i;
            }
        }
        pc = p->next;
    } while (pc != b->any_piece);
    if (b->start_piece < 0)
        return 1;
    b->points = approx == PT_CONTOURS_APPROX_NONE ? b->states : changes;
    return 0;
}

/* Calls visit(ctx, w) for the border's states in OpenCV's order. */
typedef void (*visit_fn)(void *ctx, const walk *w);

static void walk_border(const assembler *a, const pt_cycle_border *b, visit_fn visit, void *ctx)
{
    const pt_cpiece *all = a->pc->pieces;
    int32_t pc = b->start_piece;
    int64_t off = b->start_offset, left = b->states;
    while (left > 0) {
        const pt_cpiece *p = &all[pc];
        walk w;
        walk_start(a, p, &w);
        for (int64_t i = 1; i <= off; i++)
            walk_step(a, p, i, &w);
        for (int64_t i = off; i < p->count && left > 0; i++, left--) {
            if (i > off)
                walk_step(a, p, i, &w);
            visit(ctx, &w);
        }
        pc = p->next;
        off = 0;
    }
}

typedef struct {
    pt_contour_point *dst;
    int64_t n;
    int prev_d, all;
} point_writer;

static void visit_point(void *ctx, const walk *w)
{
    point_writer *pw = ctx;
    if (pw->all || w->d != pw->prev_d) {
        pw->dst[pw->n].x = w->x - 1;
        pw->dst[pw->n].y = w->y - 1;
        pw->n++;
    }
    pw->prev_d = w->d;
}

typedef struct {
    int8_t *lab;
    int step, label;
} labeller;

static void visit_label(void *ctx, const walk *w)
{
    labeller *l = ctx;
    int64_t q = (int64_t)w->y * l->step + w->x;
    if ((unsigned)(w->d - 1) < (unsigned)w->b)
        l->lab[q] = (int8_t)(l->label | 0x80);
    else if (l->lab[q] == 1)
        l->lab[q] = (int8_t)l->label;
}

typedef struct {
    const assembler *a;
    const pt_cycle_border *borders;
    int count;
} replay_ctx;

static pt_status replay_border(void *ctx, int8_t *lab, ptrdiff_t i0, int index, int is_hole,
                               int label, int rect[4], int64_t *first, int64_t *count,
                               pt_error *err)
{
    replay_ctx *r = ctx;
    if (index >= r->count || r->borders[index].start_pixel != i0 ||
        r->borders[index].is_hole != is_hole)
        return pt_error_set(err, PT_ERR_INTERNAL, "",
                            "contours: traced borders disagree with the scan at border %d",
                            index);
    const pt_cycle_border *b = &r->borders[index];
    memcpy(rect, b->rect, sizeof b->rect);
    *first = b->first;
    *count = b->points;
    if (b->isolated) {
        lab[i0] = (int8_t)(label | 0x80);
        return PT_OK;
    }
    labeller l = {lab, r->a->step, label};
    walk_border(r->a, b, visit_label, &l);
    return PT_OK;
}

static int source_locate(void *ctx, pt_cycle_border *b, int approx)
{
    return locate_start(((const replay_ctx *)ctx)->a, b, approx);
}

static void source_write_points(void *ctx, const pt_cycle_border *b, int approx,
                                pt_contour_point *dst)
{
    point_writer pw = {dst, 0, b->start_b ^ 4, approx == PT_CONTOURS_APPROX_NONE || b->isolated};
    walk_border(((const replay_ctx *)ctx)->a, b, visit_point, &pw);
}

pt_status pt_contours_assemble(const pt_contour_pieces *pc, const pt_image *img,
                               int threshold, int8_t *lab, int mode, int approx, int threads,
                               pt_contours *out, pt_error *err)
{
    out->count = 0;
    out->point_count = 0;
    if (threads <= 0)
        threads = omp_get_max_threads();
    assembler a = {pc, img, threshold, pc->width + 2};
    const pt_cpiece *all = pc->pieces;
    int64_t n = pc->count;
    pt_status st = PT_OK;
    pt_cycle_border *borders = NULL;
    int nb = 0, cap = 0;
    if (n < 0 || n > INT32_MAX / 2)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many border pieces");
    for (int64_t i = 0; i < n; i++)
        if (all[i].next < 0 || all[i].next >= n)
            return pt_error_set(err, PT_ERR_INTERNAL, "",
                                "contours: border piece %lld unjoined", (long long)i);
    uint8_t *seen = calloc(n ? (size_t)n : 1, 1);
    if (!seen)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate pieces");
    /* one border per closed cycle that examines a zero pixel */
    for (int64_t i = 0; i < n; i++) {
        if (seen[i])
            continue;
        int gap = 0;
        int32_t k = (int32_t)i;
        int64_t steps = 0;
        do {
            gap |= all[k].flags & PT_CPIECE_GAP;
            seen[k] = 1;
            k = all[k].next;
        } while (k != (int32_t)i && ++steps <= n);
        if (k != (int32_t)i) { /* joins that are not a permutation */
            st = pt_error_set(err, PT_ERR_INTERNAL, "", "contours: border pieces do not close");
            goto done;
        }
        if (!gap)
            continue;
        if (nb == cap) {
            if (cap > INT32_MAX / 4) {
                st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many borders");
                goto done;
            }
            cap = cap ? 2 * cap : 256;
            pt_cycle_border *grown = realloc(borders, (size_t)cap * sizeof *grown);
            if (!grown) {
                st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate borders");
                goto done;
            }
            borders = grown;
        }
        memset(&borders[nb], 0, sizeof borders[nb]);
        borders[nb].any_piece = (int32_t)i;
        borders[nb].isolated = (all[i].flags & PT_CPIECE_ISOLATED) != 0;
        nb++;
    }

    replay_ctx r = {&a, borders, nb};
    pt_cycle_source src = {&r, source_locate, source_write_points, replay_border};
    st = pt_contours_from_cycles(borders, nb, &src, img->width, img->height, lab, mode, approx,
                                 threads, out, err);

done:
    if (st) {
        out->count = 0;
        out->point_count = 0;
    }
    free(borders);
    free(seen);
    return st;
}

int pt_contours_gpu_tile(int width, int height)
{
    int tile = 64;
    while (tile > 8 &&
           (int64_t)((width + tile - 1) / tile) * ((height + tile - 1) / tile) < 65536)
        tile /= 2;
    return tile;
}

/* ---- CPU emulation of the CUDA kernels ---------------------------------- */

pt_status pt_contours_find_emulated(const pt_image *img, int threshold, int mode, int approx,
                                    int tile, pt_contours *out, pt_error *err)
{
    pt_status st = pt_contours_check_args(img, mode, approx, err);
    if (st)
        return st;
    out->count = 0;
    out->point_count = 0;
    if (tile <= 0)
        tile = pt_contours_gpu_tile(img->width, img->height);
    if (tile & (tile - 1))
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: tile side %d not a power of two",
                            tile);
    pt_ctiles t;
    memset(&t, 0, sizeof t);
    t.step = img->width + 2;
    t.width = img->width;
    t.height = img->height;
    t.tile = tile;
    t.grid_x = (img->width + tile - 1) / tile;
    t.grid_y = (img->height + tile - 1) / tile;
    int ntiles = t.grid_x * t.grid_y;
    size_t pixels = (size_t)t.step * (size_t)(img->height + 2);
    int8_t *lab = pt_contours_binarize(img, threshold);
    uint8_t *visited = calloc(pixels, 1);
    pt_ctile_info *info = calloc((size_t)ntiles, sizeof *info);
    pt_cpiece *pieces = NULL, *kept = NULL;
    uint8_t *dirs = NULL, *gap = NULL, *kept_dirs = NULL;
    int32_t *jump = NULL;
    int64_t *sums = NULL;
    if (!lab || !visited || !info) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d image",
                          t.step, img->height + 2);
        goto done;
    }
    t.lab = lab;
    t.visited = visited;
    /* count pass (kernel 1: one thread per tile) */
    for (int i = 0; i < ntiles; i++) {
        pt_ctile_sink sink = {NULL, NULL, 0, 0, 0, 0};
        info[i].entries = (int32_t)pt_ctrace_tile(&t, i, &sink);
        info[i].pieces = sink.npieces;
        info[i].states = sink.nstates;
    }
    /* prefix sums (host) */
    int64_t np = 0, ns = 0;
    for (int i = 0; i < ntiles; i++) {
        info[i].piece_base = np;
        info[i].state_base = ns;
        np += info[i].pieces;
        ns += info[i].states;
    }
    int64_t limit = out->max_points > 0 ? out->max_points : PT_CONTOURS_DEFAULT_MAX_POINTS;
    if (ns > 2 * limit + 4096 || np > INT32_MAX / 2) {
        st = pt_error_set(err, PT_ERR_NOMEM, "",
                          "contours: %lld traced states (limit %lld)", (long long)ns,
                          (long long)(2 * limit + 4096));
        goto done;
    }
    pieces = malloc((size_t)(np ? np : 1) * sizeof *pieces);
    dirs = malloc((size_t)(ns ? ns : 1));
    if (!pieces || !dirs) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate border pieces");
        goto done;
    }
    /* write pass (kernel 2) with fresh visited bits */
    memset(visited, 0, pixels);
    for (int i = 0; i < ntiles; i++) {
        pt_ctile_sink sink = {pieces, dirs, 0, 0, info[i].piece_base, info[i].state_base};
        pt_ctrace_tile(&t, i, &sink);
    }
    /* join (kernel 3: one thread per piece) */
    for (int64_t i = 0; i < np; i++)
        pieces[i].next = pt_cjoin_piece(&t, pieces, info, &pieces[i], (int32_t)i);
    /* pointer jumping (kernels 4), prefix sums, compaction (kernel 5) */
    jump = malloc(2 * (size_t)(np ? np : 1) * sizeof *jump);
    gap = malloc(2 * (size_t)(np ? np : 1));
    sums = malloc(4 * (size_t)(np ? np : 1) * sizeof *sums);
    kept = malloc((size_t)(np ? np : 1) * sizeof *kept);
    kept_dirs = malloc(ns ? (size_t)ns : 1);
    if (!jump || !gap || !sums || !kept || !kept_dirs) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate border pieces");
        goto done;
    }
    for (int64_t i = 0; i < np; i++)
        pt_cjump_init(pieces, i, jump, gap);
    int rounds = pt_cjump_rounds(np);
    for (int r = 0; r < rounds; r++) {
        const int32_t *jin = jump + (r & 1) * np;
        const uint8_t *gin = gap + (r & 1) * np;
        for (int64_t i = 0; i < np; i++)
            pt_cjump_round(i, jin, gin, jump + ((r + 1) & 1) * np, gap + ((r + 1) & 1) * np);
    }
    const uint8_t *gfinal = gap + (rounds & 1) * np;
    int64_t *keep = sums, *bytes = sums + np, *pidx = sums + 2 * np, *doff = sums + 3 * np;
    for (int64_t i = 0; i < np; i++)
        pt_ckeep(pieces, gfinal, i, keep, bytes);
    int64_t nk = 0, nd = 0;
    for (int64_t i = 0; i < np; i++) {
        pidx[i] = nk;
        doff[i] = nd;
        nk += keep[i];
        nd += bytes[i];
    }
    for (int64_t i = 0; i < np; i++)
        pt_ccompact(pieces, dirs, gfinal, pidx, doff, i, kept, kept_dirs);
    pt_contour_pieces pc = {kept, nk, kept_dirs, img->width, img->height};
    /* lab is still the binarized image: tracing only reads it */
    st = pt_contours_assemble(&pc, img, threshold, lab, mode, approx, 1, out, err);
done:
    free(kept_dirs);
    free(kept);
    free(sums);
    free(gap);
    free(jump);
    free(dirs);
    free(pieces);
    free(info);
    free(visited);
    free(lab);
    return st;
}
