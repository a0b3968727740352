/* The CPU emulation of the CUDA contours kernels (see contours_pieces.h). */
#include "lib/contours/contours_pieces.h"

#include "lib/contours/contours_borders.h"
#include "lib/contours/contours_chains.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>


int pt_contours_gpu_tile(int width, int height)
{
    int tile = 64;
    while (tile > 8 &&
           (int64_t)((width + tile - 1) / tile) * ((height + tile - 1) / tile) < 65536)
        tile /= 2;
    return tile;
}

/* ---- CPU emulation of the CUDA kernels ---------------------------------- */

static int compare_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Kernels 6-11 (contours_borders.h) over nk kept pieces of border cycles, one
 * element after another, then the host's part (contours_chains.h). lab is
 * the padded 0/1 image; the hierarchy replay labels it. */
static pt_status emulate_borders(const pt_cpiece *kept, int64_t nk, const uint8_t *dirs,
                                 int64_t nd, const int32_t *rep, int8_t *lab, int width,
                                 int height, int mode, int approx, pt_contours *out,
                                 pt_error *err)
{
    const int step = width + 2, simple = approx == PT_CONTOURS_APPROX_SIMPLE;
    const size_t n1 = (size_t)nk + 1;
    int64_t *bid = malloc(n1 * sizeof *bid);
    pt_cborder *B = malloc(n1 * sizeof *B);
    uint64_t *keys = malloc(3 * n1 * sizeof *keys); /* keys, then (key, border) pairs */
    int32_t *order = malloc(n1 * sizeof *order), *rank_of = malloc(n1 * sizeof *rank_of);
    int32_t *index = malloc(n1 * sizeof *index);
    int64_t *start = malloc(n1 * sizeof *start), *states = malloc(n1 * sizeof *states);
    int64_t *points = malloc(n1 * sizeof *points), *dfirst = malloc(n1 * sizeof *dfirst);
    int64_t *pfirst = malloc(n1 * sizeof *pfirst);
    uint8_t *flags = malloc(n1), *chain = malloc(nd ? (size_t)nd : 1);
    int32_t *link = malloc(2 * n1 * sizeof *link);
    int64_t *sum = malloc(2 * n1 * sizeof *sum);
    pt_status st = PT_OK;
    if (!bid || !B || !keys || !order || !rank_of || !index || !start || !states || !points ||
        !dfirst || !pfirst || !flags || !chain || !link || !sum) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate borders");
        goto done;
    }
    /* kernel 6: border numbers (prefix sum of the representatives) */
    int64_t nb = 0;
    for (int64_t i = 0; i < nk; i++) {
        bid[i] = nb;
        nb += pt_cborder_head(rep, i);
    }
    if (nb > INT32_MAX / 2) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many borders");
        goto done;
    }
    /* kernels 7-9: extents, starts, start states */
    int bad = 0;
    for (int64_t b = 0; b < nb; b++)
        pt_cborder_init(B, b);
    for (int64_t i = 0; i < nk; i++)
        bad |= pt_cborder_add(kept, dirs, rep, bid, i, simple, B);
    for (int64_t b = 0; b < nb && !bad; b++)
        bad |= pt_cborder_start(B, b, lab, step);
    for (int64_t i = 0; i < nk && !bad; i++)
        pt_cborder_locate(kept, dirs, rep, bid, i, step, B);
    /* kernel 10: discovery order (a radix sort on the device) and layout */
    uint64_t *pairs = keys + n1;
    for (int64_t b = 0; b < nb; b++)
        pt_cborder_key(B, b, keys, index);
    for (int64_t b = 0; b < nb; b++) { /* (key, border) pairs, sorted by key */
        pairs[2 * b] = keys[b];
        pairs[2 * b + 1] = (uint64_t)index[b];
    }
    qsort(pairs, (size_t)nb, 2 * sizeof *pairs, compare_key);
    for (int64_t r = 0; r < nb; r++)
        order[r] = (int32_t)pairs[2 * r + 1];
    for (int64_t r = 0; r < nb && !bad; r++)
        bad |= pt_cborder_rank(B, order, r, simple, rank_of, start, flags, states, points);
    if (bad) {
        st = pt_error_set(err, PT_ERR_INTERNAL, "", "contours: border pieces do not close");
        goto done;
    }
    dfirst[0] = pfirst[0] = 0;
    for (int64_t r = 0; r < nb; r++) {
        dfirst[r + 1] = dfirst[r] + states[r];
        pfirst[r + 1] = pfirst[r] + points[r];
    }
    /* kernel 11: list ranking, then each piece's directions into its chain */
    for (int64_t i = 0; i < nk; i++)
        pt_crank_init(kept, rep, bid, B, i, link, sum);
    int rounds = pt_cjump_rounds(nk);
    for (int r = 0; r < rounds; r++) {
        size_t in = (size_t)(r & 1) * n1, o = (size_t)((r + 1) & 1) * n1;
        for (int64_t i = 0; i < nk; i++)
            pt_crank_round(i, link + in, sum + in, link + o, sum + o);
    }
    const int64_t *sfinal = sum + (size_t)(rounds & 1) * n1;
    for (int64_t i = 0; i < nk; i++)
        pt_cborder_rotate(kept, dirs, rep, bid, B, rank_of, dfirst, sfinal, i, chain);
    pt_contour_chains ch = {(int)nb, start, flags, dfirst, pfirst, chain, width, height};
    /* lab is still the binarized image: tracing only reads it */
    st = pt_contours_from_chains(&ch, lab, mode, approx, 1, out, err);
done:
    free(bid);
    free(B);
    free(keys);
    free(order);
    free(rank_of);
    free(index);
    free(start);
    free(states);
    free(points);
    free(dfirst);
    free(pfirst);
    free(flags);
    free(chain);
    free(link);
    free(sum);
    return st;
}

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
    int32_t *jump = NULL, *low = NULL, *rep = NULL;
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
    low = malloc(2 * (size_t)(np ? np : 1) * sizeof *low);
    gap = malloc(2 * (size_t)(np ? np : 1));
    sums = malloc(4 * (size_t)(np ? np : 1) * sizeof *sums);
    kept = malloc((size_t)(np ? np : 1) * sizeof *kept);
    rep = malloc((size_t)(np ? np : 1) * sizeof *rep);
    kept_dirs = malloc(ns ? (size_t)ns : 1);
    if (!jump || !low || !gap || !sums || !kept || !rep || !kept_dirs) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate border pieces");
        goto done;
    }
    for (int64_t i = 0; i < np; i++)
        pt_cjump_init(pieces, i, jump, gap, low);
    int rounds = pt_cjump_rounds(np);
    for (int r = 0; r < rounds; r++) {
        size_t in = (size_t)(r & 1) * (size_t)np, o = (size_t)((r + 1) & 1) * (size_t)np;
        for (int64_t i = 0; i < np; i++)
            pt_cjump_round(i, jump + in, gap + in, low + in, jump + o, gap + o, low + o);
    }
    const uint8_t *gfinal = gap + (size_t)(rounds & 1) * (size_t)np;
    const int32_t *lfinal = low + (size_t)(rounds & 1) * (size_t)np;
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
        pt_ccompact(pieces, dirs, gfinal, lfinal, pidx, doff, i, kept, kept_dirs, rep);
    /* border assembly (contours_borders.h), then the host's part */
    st = emulate_borders(kept, nk, kept_dirs, nd, rep, lab, img->width, img->height, mode,
                         approx, out, err);
done:
    free(kept_dirs);
    free(rep);
    free(kept);
    free(low);
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
