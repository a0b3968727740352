/* Sequential border tracking that reproduces OpenCV findContours exactly:
 * the raster scan, labels and parent search of OpenCV's cvFindNextContour
 * (Suzuki & Abe 1985, appendix 1), plus storage, ordering and writers shared
 * with the parallel back ends. */
#include "lib/contours/contours.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Freeman directions: 0 = +x, counterclockwise on screen (2 = up). */
static const int dir_dx[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int dir_dy[8] = {0, -1, -1, -1, 0, 1, 1, 1};

void pt_contours_init(pt_contours *c)
{
    memset(c, 0, sizeof *c);
    c->max_points = PT_CONTOURS_DEFAULT_MAX_POINTS;
}

void pt_contours_free(pt_contours *c)
{
    int64_t max_points = c->max_points;
    free(c->borders);
    free(c->points);
    memset(c, 0, sizeof *c);
    c->max_points = max_points;
}

static int64_t point_limit(const pt_contours *out)
{
    return out->max_points > 0 ? out->max_points : PT_CONTOURS_DEFAULT_MAX_POINTS;
}

pt_status pt_contours_reserve_points(pt_contours *out, int64_t points, pt_error *err)
{
    int64_t need = out->point_count + points;
    int64_t limit = point_limit(out);
    if (need > limit)
        return pt_error_set(err, PT_ERR_NOMEM, "",
                            "contours: more than %lld border points (limit)",
                            (long long)limit);
    if (need <= out->point_capacity)
        return PT_OK;
    int64_t cap = out->point_capacity ? out->point_capacity : 4096;
    while (cap < need)
        cap *= 2;
    if (cap > limit)
        cap = limit;
    pt_contour_point *grown = realloc(out->points, (size_t)cap * sizeof *grown);
    if (!grown)
        return pt_error_set(err, PT_ERR_NOMEM, "",
                            "contours: cannot allocate %lld points", (long long)cap);
    out->points = grown;
    out->point_capacity = cap;
    return PT_OK;
}

pt_status pt_contours_reserve_borders(pt_contours *out, int n, pt_error *err)
{
    if (n <= out->border_capacity)
        return PT_OK;
    pt_border *grown = realloc(out->borders, (size_t)n * sizeof *grown);
    if (!grown)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %d borders", n);
    out->borders = grown;
    out->border_capacity = n;
    return PT_OK;
}

void pt_contours_list_border(pt_contours *out, int n, int r, int is_hole, int64_t first,
                             int64_t count)
{
    pt_border *b = &out->borders[n - 1 - r];
    b->is_hole = is_hole;
    b->next = r > 0 ? n - r : -1;
    b->prev = r < n - 1 ? n - 2 - r : -1;
    b->first_child = -1;
    b->parent = -1;
    b->first = first;
    b->count = count;
}

pt_status pt_contours_emit(pt_contours *out, const pt_contour_found *found, int n,
                           pt_error *err)
{
    pt_status st = pt_contours_reserve_borders(out, n, err);
    if (st)
        return st;
    out->count = n;
    if (n == 0)
        return PT_OK;
    /* first_child/next in discovery numbers, then the output number of each. */
    int *links = malloc((size_t)(3 * n + 1) * sizeof *links);
    if (!links)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %d links", n);
    int *child = links; /* child[p + 1]: first child of p; child[0] the frame's */
    int *sibling = links + n + 1;
    int *order = links + 2 * n + 1;
    memset(child, 0xff, (size_t)(n + 1) * sizeof *child); /* all -1 */
    /* OpenCV inserts each new border at the head of its parent's child list. */
    for (int i = 0; i < n; i++) {
        sibling[i] = child[found[i].parent + 1];
        child[found[i].parent + 1] = i;
    }
    int k = 0;
    for (int node = child[0]; node >= 0;) {
        order[node] = k++;
        if (child[node + 1] >= 0) {
            node = child[node + 1];
            continue;
        }
        while (node >= 0 && sibling[node] < 0)
            node = found[node].parent;
        if (node >= 0)
            node = sibling[node];
    }
    for (int i = 0; i < n; i++) {
        pt_border *b = &out->borders[order[i]];
        b->is_hole = found[i].is_hole;
        b->first = found[i].first;
        b->count = found[i].count;
        b->next = sibling[i] >= 0 ? order[sibling[i]] : -1;
        b->first_child = child[i + 1] >= 0 ? order[child[i + 1]] : -1;
        b->parent = found[i].parent >= 0 ? order[found[i].parent] : -1;
        b->prev = -1;
    }
    for (int i = 0; i < n; i++)
        if (out->borders[i].next >= 0)
            out->borders[out->borders[i].next].prev = i;
    free(links);
    return PT_OK;
}

/* ---- the sequential scan ------------------------------------------------ */

/* Bookkeeping of one border, as OpenCV's _CvContourInfo. */
typedef struct {
    int is_hole, parent;
    int origin_x, origin_y;       /* padded coordinates */
    int rect_x, rect_y, rect_w, rect_h;
    int next_same_label;          /* earlier border with the same 7-bit label */
    int64_t first, count;
} scan_border;

typedef struct {
    int8_t *lab; /* padded image: 0, 1, or border labels (negative: right edge) */
    int step, width, height;       /* padded step; scan limits as OpenCV's */
    ptrdiff_t deltas[16];
    int mode, approx;
    scan_border *borders;
    int count, capacity;
    int label_head[128];
    pt_contours *out;
    pt_contours_trace_fn trace; /* NULL: follow the border here */
    void *trace_ctx;
} scan_state;

static pt_status push_point(pt_contours *out, int x, int y, pt_error *err)
{
    if (out->point_count == out->point_capacity) {
        pt_status st = pt_contours_reserve_points(out, 1, err);
        if (st)
            return st;
    }
    out->points[out->point_count].x = x;
    out->points[out->point_count].y = y;
    out->point_count++;
    return PT_OK;
}

/* Follow one border from i0 (OpenCV's icvFetchContourEx): label its pixels,
 * write its points (padded coordinates minus one) and its bounding box. */
static pt_status follow_border(scan_state *s, ptrdiff_t i0, int is_hole, int nbd,
                               scan_border *b, pt_error *err)
{
    int8_t *lab = s->lab;
    const ptrdiff_t *deltas = s->deltas;
    int px = b->origin_x, py = b->origin_y;
    int min_x = px, max_x = px, min_y = py, max_y = py;
    int d, d_end, prev_d;
    ptrdiff_t i1, i3, i4;
    pt_status st = PT_OK;

    d_end = d = is_hole ? 0 : 4;
    do {
        d = (d - 1) & 7;
        i1 = i0 + deltas[d];
    } while (lab[i1] == 0 && d != d_end);

    if (d == d_end) { /* isolated pixel */
        lab[i0] = (int8_t)(nbd | 0x80);
        st = push_point(s->out, px - 1, py - 1, err);
    } else {
        i3 = i0;
        prev_d = d ^ 4;
        for (;;) {
            d_end = d;
            do
                i4 = i3 + deltas[++d];
            while (lab[i4] == 0);
            d &= 7;
            /* the right neighbour was examined and is 0: mark the right edge */
            if ((unsigned)(d - 1) < (unsigned)d_end)
                lab[i3] = (int8_t)(nbd | 0x80);
            else if (lab[i3] == 1)
                lab[i3] = (int8_t)nbd;
            if (d != prev_d || s->approx == PT_CONTOURS_APPROX_NONE) {
                st = push_point(s->out, px - 1, py - 1, err);
                if (st)
                    break;
                prev_d = d;
            }
            px += dir_dx[d];
            py += dir_dy[d];
            if (px < min_x) min_x = px;
            if (px > max_x) max_x = px;
            if (py < min_y) min_y = py;
            if (py > max_y) max_y = py;
            if (i4 == i0 && i3 == i1)
                break;
            i3 = i4;
            d = (d + 4) & 7;
        }
    }
    b->rect_x = min_x;
    b->rect_y = min_y;
    b->rect_w = max_x - min_x + 1;
    b->rect_h = max_y - min_y + 1;
    return st;
}

/* Whether the border starting at i0 passes through stop (icvTraceContour). */
static int border_passes(const scan_state *s, ptrdiff_t i0, ptrdiff_t stop, int is_hole)
{
    const int8_t *lab = s->lab;
    const ptrdiff_t *deltas = s->deltas;
    int d, d_end;
    ptrdiff_t i1, i3 = i0, i4;

    d_end = d = is_hole ? 0 : 4;
    do {
        d = (d - 1) & 7;
        i1 = i0 + deltas[d];
    } while (lab[i1] == 0 && d != d_end);
    if (d != d_end) {
        for (;;) {
            do
                i4 = i3 + deltas[++d];
            while (lab[i4] == 0);
            if (i3 == stop || (i4 == i0 && i3 == i1))
                break;
            i3 = i4;
            d = (d + 4) & 7;
        }
    }
    return i3 == stop;
}

/* OpenCV's parent search: the border that labelled the last labelled pixel
 * left of the start (lnbd), found among borders sharing its 7-bit label. */
static int find_parent(const scan_state *s, int y, int lnbd_x, int is_hole)
{
    if (s->mode == PT_CONTOURS_LIST || lnbd_x <= 0 ||
        (!is_hole && s->mode == PT_CONTOURS_CCOMP))
        return -1;
    ptrdiff_t at = (ptrdiff_t)y * s->step + lnbd_x;
    int label = s->lab[at] & 0x7f;
    int par = -2;
    for (int cur = s->label_head[label]; cur >= 0; cur = s->borders[cur].next_same_label) {
        const scan_border *c = &s->borders[cur];
        if ((unsigned)(lnbd_x - c->rect_x) < (unsigned)c->rect_w &&
            (unsigned)(y - c->rect_y) < (unsigned)c->rect_h) {
            if (par >= 0) {
                const scan_border *pb = &s->borders[par];
                ptrdiff_t o = (ptrdiff_t)pb->origin_y * s->step + pb->origin_x;
                if (border_passes(s, o, at, pb->is_hole))
                    break;
            }
            par = cur;
        }
    }
    if (par < 0) /* cannot happen with a consistent label image */
        return -1;
    /* same type as the lnbd border: share its parent, else it is the parent */
    if (s->borders[par].is_hole == is_hole)
        par = s->borders[par].parent;
    return par;
}

static pt_status add_border(scan_state *s, pt_error *err)
{
    if (s->count < s->capacity)
        return PT_OK;
    int cap = s->capacity ? 2 * s->capacity : 256;
    if (cap < s->capacity)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: too many borders");
    scan_border *grown = realloc(s->borders, (size_t)cap * sizeof *grown);
    if (!grown)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %d borders", cap);
    s->borders = grown;
    s->capacity = cap;
    return PT_OK;
}

static pt_status scan_image(scan_state *s, pt_error *err)
{
    int nbd = 2;
    for (int y = 1; y < s->height; y++) {
        int8_t *row = s->lab + (ptrdiff_t)y * s->step;
        int prev = 0, lnbd_x = 0;
        for (int x = 1; x < s->width; x++) {
            int p = row[x];
            if (p == prev)
                continue;
            int is_hole = 0;
            if (!(prev == 0 && p == 1)) {
                if (p != 0 || prev < 1) {
                    prev = p;
                    if (prev & -2)
                        lnbd_x = x;
                    continue;
                }
                if (prev & -2)
                    lnbd_x = x - 1;
                is_hole = 1;
            }
            int parent = find_parent(s, y, lnbd_x, is_hole);
            lnbd_x = x - is_hole;
            pt_status st = add_border(s, err);
            if (st)
                return st;
            scan_border *b = &s->borders[s->count];
            b->is_hole = is_hole;
            b->parent = parent;
            b->origin_x = x - is_hole;
            b->origin_y = y;
            b->first = s->out->point_count;
            int label = 2;
            if (s->mode != PT_CONTOURS_LIST) {
                label = nbd;
                nbd = (nbd + 1) & 127;
                nbd += nbd == 0 ? 3 : 0;
            }
            ptrdiff_t i0 = row - s->lab + x - is_hole;
            if (s->trace) {
                int rect[4];
                st = s->trace(s->trace_ctx, s->lab, i0, s->count, is_hole, label, rect,
                              &b->first, &b->count, err);
                b->rect_x = rect[0];
                b->rect_y = rect[1];
                b->rect_w = rect[2];
                b->rect_h = rect[3];
            } else {
                st = follow_border(s, i0, is_hole, label, b, err);
                b->count = s->out->point_count - b->first;
            }
            if (st)
                return st;
            b->next_same_label = s->label_head[label];
            s->label_head[label] = s->count;
            s->count++;
            prev = row[x];
        }
    }
    return PT_OK;
}

static pt_status check_args(const pt_image *img, int mode, int approx, pt_error *err)
{
    if (!img || !img->buf || img->width <= 0 || img->height <= 0)
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: empty image");
    if (img->width > PT_IMAGE_MAX_SIDE || img->height > PT_IMAGE_MAX_SIDE ||
        (long long)img->width * img->height > PT_IMAGE_MAX_PIXELS)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: image %dx%d too large",
                            img->width, img->height);
    if (mode != PT_CONTOURS_LIST && mode != PT_CONTOURS_CCOMP && mode != PT_CONTOURS_TREE)
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: unknown mode %d", mode);
    if (approx != PT_CONTOURS_APPROX_NONE && approx != PT_CONTOURS_APPROX_SIMPLE)
        return pt_error_set(err, PT_ERR_PARAM, "", "contours: unknown approximation %d",
                            approx);
    return PT_OK;
}

pt_status pt_contours_check_args(const pt_image *img, int mode, int approx, pt_error *err)
{
    return check_args(img, mode, approx, err);
}

int8_t *pt_contours_binarize(const pt_image *img, int threshold)
{
    int step = img->width + 2;
    int8_t *lab = malloc((size_t)step * (size_t)(img->height + 2));
    if (!lab)
        return NULL;
    memset(lab, 0, (size_t)step);
    memset(lab + (ptrdiff_t)(img->height + 1) * step, 0, (size_t)step);
#pragma omp parallel for schedule(static) if (img->height > 256)
    for (int y = 0; y < img->height; y++) {
        const uint8_t *src = img->buf + (ptrdiff_t)y * img->stride;
        int8_t *dst = lab + (ptrdiff_t)(y + 1) * step;
        dst[0] = 0;
        dst[img->width + 1] = 0;
        for (int x = 0; x < img->width; x++)
            dst[x + 1] = src[x] > threshold;
    }
    return lab;
}

pt_status pt_contours_scan(int8_t *lab, int width, int height, int mode, int approx,
                           pt_contours_trace_fn trace, void *trace_ctx, pt_contours *out,
                           pt_contour_found **found_out, int *count_out, pt_error *err)
{
    scan_state s;
    memset(&s, 0, sizeof s);
    s.lab = lab;
    s.step = width + 2;
    s.width = width + 1;
    s.height = height + 1;
    s.mode = mode;
    s.approx = approx;
    s.out = out;
    s.trace = trace;
    s.trace_ctx = trace_ctx;
    for (int i = 0; i < 128; i++)
        s.label_head[i] = -1;
    for (int d = 0; d < 16; d++)
        s.deltas[d] = (ptrdiff_t)dir_dy[d & 7] * s.step + dir_dx[d & 7];
    *found_out = NULL;
    *count_out = 0;
    pt_status st = scan_image(&s, err);
    pt_contour_found *found = NULL;
    if (!st && s.count > 0) {
        found = malloc((size_t)s.count * sizeof *found);
        if (!found)
            st = pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %d borders",
                              s.count);
    }
    if (!st) {
        for (int i = 0; i < s.count; i++) {
            found[i].is_hole = s.borders[i].is_hole;
            found[i].parent = s.borders[i].parent;
            found[i].first = s.borders[i].first;
            found[i].count = s.borders[i].count;
        }
        *found_out = found;
        *count_out = s.count;
    }
    free(s.borders);
    return st;
}

double pt_contours_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Phases as the border-tracking literature times them (pupiltrack(1),
 * "contours --repeat"): preprocess (arguments, padded 0/1 image), trace (the
 * raster scan following each border, parent search included), assemble
 * (OpenCV's order and hierarchy links). */
pt_status pt_contours_find_seq_timed(const pt_image *img, int threshold, int mode, int approx,
                                     pt_contours *out, pt_contours_times *times,
                                     pt_error *err)
{
    double t0 = pt_contours_clock_ms();
    pt_contours_times t;
    memset(&t, 0, sizeof t);
    pt_status st = check_args(img, mode, approx, err);
    if (st)
        return st;
    out->count = 0;
    out->point_count = 0;
    /* one pixel of background around the image, as OpenCV >= 3.2 pads */
    int8_t *lab = pt_contours_binarize(img, threshold);
    if (!lab)
        return pt_error_set(err, PT_ERR_NOMEM, "", "contours: cannot allocate %dx%d labels",
                            img->width + 2, img->height + 2);
    double t1 = pt_contours_clock_ms();
    pt_contour_found *found = NULL;
    int n = 0;
    st = pt_contours_scan(lab, img->width, img->height, mode, approx, NULL, NULL, out, &found,
                          &n, err);
    double t2 = pt_contours_clock_ms();
    if (!st)
        st = pt_contours_emit(out, found, n, err);
    double t3 = pt_contours_clock_ms();
    if (st) {
        out->count = 0;
        out->point_count = 0;
    }
    free(found);
    free(lab);
    if (times && !st) {
        t.preprocess_ms = t1 - t0;
        t.trace_ms = t2 - t1;
        t.assemble_ms = t3 - t2;
        t.total_ms = pt_contours_clock_ms() - t0;
        t.phases = PT_CONTOURS_PHASE_PREPROCESS | PT_CONTOURS_PHASE_TRACE |
                   PT_CONTOURS_PHASE_ASSEMBLE;
        *times = t;
    }
    return st;
}

pt_status pt_contours_find_seq(const pt_image *img, int threshold, int mode, int approx,
                               pt_contours *out, pt_error *err)
{
    return pt_contours_find_seq_timed(img, threshold, mode, approx, out, NULL, err);
}

/* ---- writers ------------------------------------------------------------ */

static pt_status write_done(FILE *f, const char *path, pt_error *err)
{
    if (fflush(f) != 0 || ferror(f))
        return pt_error_set(err, PT_ERR_IO, path ? path : "", "cannot write contours");
    return PT_OK;
}

pt_status pt_contours_write_csv(const pt_contours *c, FILE *f, const char *path,
                                pt_error *err)
{
    fputs("border,type,parent,index,x,y\n", f);
    for (int b = 0; b < c->count; b++) {
        const pt_border *br = &c->borders[b];
        const pt_contour_point *pts = c->points + br->first;
        const char *type = br->is_hole ? "hole" : "outer";
        for (int64_t i = 0; i < br->count; i++)
            fprintf(f, "%d,%s,%d,%lld,%d,%d\n", b, type, br->parent, (long long)i,
                    pts[i].x, pts[i].y);
    }
    return write_done(f, path, err);
}

pt_status pt_contours_write_json(const pt_contours *c, FILE *f, const char *path,
                                 pt_error *err)
{
    fputs("{\"borders\":[", f);
    for (int b = 0; b < c->count; b++) {
        const pt_border *br = &c->borders[b];
        const pt_contour_point *pts = c->points + br->first;
        fprintf(f, "%s\n{\"type\":\"%s\",\"parent\":%d,\"next\":%d,\"prev\":%d,"
                   "\"first_child\":%d,\"points\":[",
                b ? "," : "", br->is_hole ? "hole" : "outer", br->parent, br->next,
                br->prev, br->first_child);
        for (int64_t i = 0; i < br->count; i++)
            fprintf(f, "%s[%d,%d]", i ? "," : "", pts[i].x, pts[i].y);
        fputs("]}", f);
    }
    fputs("\n]}\n", f);
    return write_done(f, path, err);
}

static pt_status find_backend(void *state, const pt_image *img, int threshold, int mode,
                              int approx, int threads, int tile, pt_contours *out,
                              pt_contours_times *times, pt_error *err)
{
    (void)state, (void)threads, (void)tile;
    return pt_contours_find_seq_timed(img, threshold, mode, approx, out, times, err);
}

const pt_contours_backend pt_contours_seq = {NULL, NULL, find_backend};
