/* Multi-target tracker (see mtt.h). Gating by a grid of d_max cells splits
 * each frame's assignment into independent components: pairs farther than
 * d_max have utility 0, so solving the components separately is exactly the
 * optimum of the full measurement x track problem, at a fraction of the cost. */
#include "mtt.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "assign.h"

void pt_mtt_default(pt_mtt_params *params)
{
    *params = (pt_mtt_params){.d_max = 10.0,
                              .process_noise = 0.5,
                              .measurement_noise = 1.0,
                              .init_vx = 0.0,
                              .init_vy = 0.0,
                              .init_velocity_sd = 5.0,
                              .score_initial = 5,
                              .score_hit = 2,
                              .score_miss = 1,
                              .score_max = 10,
                              .solver = pt_assign_backend_by_name("seq"),
                              .threads = 0};
}

typedef struct {
    int64_t key;
    int track;
} cell_entry;

typedef struct {
    int root, pair;
} pair_entry;

struct pt_tracker {
    pt_mtt_params params;
    pt_track *tracks;
    int count, capacity, next_id;
    /* Scratch, grown on demand and reused frame to frame. */
    int meas_cap, track_cap;
    long pair_cap, sub_cap, sub_rows_cap;
    cell_entry *cells;
    int *parent, *track_of_meas, *meas_of_track, *local_meas, *local_track, *comp_meas, *comp_track;
    int *pair_meas, *pair_track;
    double *pair_dist;
    pair_entry *pair_order;
    pt_assign_problem sub;
    int *sub_col_of_row;
};

static pt_status grow(void **buf, size_t elem, long need, long *cap_inout, pt_error *err)
{
    if (need <= *cap_inout)
        return PT_OK;
    long cap = *cap_inout ? *cap_inout : 256;
    while (cap < need)
        cap *= 2;
    void *more = realloc(*buf, elem * (size_t)cap);
    if (!more)
        return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory (%ld items)", cap);
    *buf = more;
    *cap_inout = cap;
    return PT_OK;
}

/* Grows every per-measurement and per-track scratch array together. */
static pt_status ensure_scratch(pt_tracker *t, int n, int tracks, pt_error *err)
{
    if (n > t->meas_cap || tracks > t->track_cap) {
        int mc = n > t->meas_cap ? n * 2 : t->meas_cap, tc = tracks > t->track_cap ? tracks * 2 : t->track_cap;
        if (mc < 64)
            mc = 64;
        if (tc < 64)
            tc = 64;
        void *cells = realloc(t->cells, sizeof(cell_entry) * (size_t)tc);
        void *parent = realloc(t->parent, sizeof(int) * (size_t)(mc + tc));
        void *tom = realloc(t->track_of_meas, sizeof(int) * (size_t)mc);
        void *mot = realloc(t->meas_of_track, sizeof(int) * (size_t)tc);
        void *lm = realloc(t->local_meas, sizeof(int) * (size_t)mc);
        void *lt = realloc(t->local_track, sizeof(int) * (size_t)tc);
        void *cm = realloc(t->comp_meas, sizeof(int) * (size_t)mc);
        void *ct = realloc(t->comp_track, sizeof(int) * (size_t)tc);
        if (cells)
            t->cells = cells;
        if (parent)
            t->parent = parent;
        if (tom)
            t->track_of_meas = tom;
        if (mot)
            t->meas_of_track = mot;
        if (lm)
            t->local_meas = lm;
        if (lt)
            t->local_track = lt;
        if (cm)
            t->comp_meas = cm;
        if (ct)
            t->comp_track = ct;
        if (!cells || !parent || !tom || !mot || !lm || !lt || !cm || !ct)
            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for %d measurements", n);
        t->meas_cap = mc;
        t->track_cap = tc;
    }
    return PT_OK;
}

pt_status pt_tracker_create(const pt_mtt_params *params, pt_tracker **tracker, pt_error *err)
{
    *tracker = NULL;
    if (!(params->d_max > 0) || !(params->process_noise >= 0) || !(params->measurement_noise > 0) ||
        !(params->init_velocity_sd >= 0) || params->score_hit < 0 || params->score_miss < 0 ||
        params->score_initial < 0 || params->score_max < params->score_initial)
        return pt_error_set(err, PT_ERR_PARAM, "mtt",
                            "need d_max > 0, measurement noise > 0, noises >= 0, scores >= 0, "
                            "score_max >= score_initial");
    if (!params->solver || !params->solver->solve)
        return pt_error_set(err, PT_ERR_PARAM, "mtt", "no assignment solver given");
    if (params->solver->available) {
        pt_status st = params->solver->available(err);
        if (st)
            return st;
    }
    pt_tracker *t = calloc(1, sizeof *t);
    if (!t)
        return pt_error_set(err, PT_ERR_NOMEM, "mtt", "out of memory");
    t->params = *params;
    *tracker = t;
    return PT_OK;
}

void pt_tracker_destroy(pt_tracker *t)
{
    if (!t)
        return;
    free(t->tracks);
    free(t->cells);
    free(t->parent);
    free(t->track_of_meas);
    free(t->meas_of_track);
    free(t->local_meas);
    free(t->local_track);
    free(t->comp_meas);
    free(t->comp_track);
    free(t->pair_meas);
    free(t->pair_track);
    free(t->pair_dist);
    free(t->pair_order);
    free(t->sub.cost);
    free(t->sub_col_of_row);
    free(t);
}

const pt_track *pt_tracker_tracks(const pt_tracker *t, int *count)
{
    *count = t->count;
    return t->tracks;
}

static int64_t cell_key(double x, double y, double size, int dx, int dy)
{
    /* Cells clamped to +-2^29 so the packed key stays positive and exact. */
    double cx = floor(x / size), cy = floor(y / size), lim = 536870912.0;
    cx = cx < -lim ? -lim : cx > lim ? lim : cx;
    cy = cy < -lim ? -lim : cy > lim ? lim : cy;
    return ((int64_t)cy + dy + (1LL << 30)) * (1LL << 32) + ((int64_t)cx + dx + (1LL << 30));
}

static int cmp_cell(const void *a, const void *b)
{
    const cell_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->track - y->track;
}

static int cmp_pair(const void *a, const void *b)
{
    const pair_entry *x = a, *y = b;
    if (x->root != y->root)
        return x->root - y->root;
    return x->pair - y->pair;
}

static int find_root(int *parent, int k)
{
    while (parent[k] != k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

static void predict(pt_track *tr, double accel_var)
{
    tr->x += tr->vx;
    tr->y += tr->vy;
    /* P = F P F' + Q, F = [1 1; 0 1], Q = accel_var * [1/4 1/2; 1/2 1]. */
    tr->p00 += 2.0 * tr->p01 + tr->p11 + 0.25 * accel_var;
    tr->p01 += tr->p11 + 0.5 * accel_var;
    tr->p11 += accel_var;
}

static void update(pt_track *tr, double zx, double zy, double meas_var)
{
    double s = tr->p00 + meas_var, k0 = tr->p00 / s, k1 = tr->p01 / s;
    double rx = zx - tr->x, ry = zy - tr->y;
    tr->x += k0 * rx;
    tr->y += k0 * ry;
    tr->vx += k1 * rx;
    tr->vy += k1 * ry;
    double p00 = tr->p00, p01 = tr->p01;
    tr->p00 = (1.0 - k0) * p00;
    tr->p01 = (1.0 - k0) * p01;
    tr->p11 -= k1 * p01;
}

/* Finds every (measurement, track) pair closer than d_max via a sorted grid. */
static pt_status gate(pt_tracker *t, const double *xy, int n, long *pairs_out, pt_error *err)
{
    double d = t->params.d_max;
    for (int k = 0; k < t->count; k++)
        t->cells[k] = (cell_entry){cell_key(t->tracks[k].x, t->tracks[k].y, d, 0, 0), k};
    qsort(t->cells, (size_t)t->count, sizeof *t->cells, cmp_cell);
    long pairs = 0;
    for (int m = 0; m < n; m++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int64_t key = cell_key(xy[2 * m], xy[2 * m + 1], d, dx, dy);
                int lo = 0, hi = t->count;
                while (lo < hi) {
                    int mid = (lo + hi) / 2;
                    if (t->cells[mid].key < key)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                for (int k = lo; k < t->count && t->cells[k].key == key; k++) {
                    const pt_track *tr = &t->tracks[t->cells[k].track];
                    double ex = xy[2 * m] - tr->x, ey = xy[2 * m + 1] - tr->y, dist = sqrt(ex * ex + ey * ey);
                    if (!(dist < d))
                        continue;
                    if (pairs == t->pair_cap) {
                        long cap = t->pair_cap;
                        pt_status st = grow((void **)&t->pair_meas, sizeof(int), pairs + 1, &cap, err);
                        void *a = st ? NULL : realloc(t->pair_track, sizeof(int) * (size_t)cap);
                        if (a)
                            t->pair_track = a;
                        void *b = a ? realloc(t->pair_dist, sizeof(double) * (size_t)cap) : NULL;
                        if (b)
                            t->pair_dist = b;
                        void *c = b ? realloc(t->pair_order, sizeof(pair_entry) * (size_t)cap) : NULL;
                        if (c)
                            t->pair_order = c;
                        if (!c)
                            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for pairs");
                        t->pair_cap = cap;
                    }
                    t->pair_meas[pairs] = m;
                    t->pair_track[pairs] = t->cells[k].track;
                    t->pair_dist[pairs] = dist;
                    pairs++;
                }
            }
    *pairs_out = pairs;
    return PT_OK;
}

static pt_status solve_component(pt_tracker *t, const pair_entry *group, long group_pairs, pt_error *err)
{
    int rows = 0, cols = 0;
    for (long g = 0; g < group_pairs; g++) {
        int p = group[g].pair, m = t->pair_meas[p], k = t->pair_track[p];
        if (t->local_meas[m] < 0) {
            t->local_meas[m] = rows;
            t->comp_meas[rows++] = m;
        }
        if (t->local_track[k] < 0) {
            t->local_track[k] = cols;
            t->comp_track[cols++] = k;
        }
    }
    pt_status st = PT_OK;
    if (rows == 1 && cols == 1) {
        t->track_of_meas[t->comp_meas[0]] = t->comp_track[0];
    } else {
        long entries = (long)rows * cols;
        if (entries > PT_ASSIGN_MAX_ENTRIES)
            st = pt_error_set(err, PT_ERR_NOMEM, "", "tracker: a gated cluster of %dx%d is too large", rows, cols);
        if (!st && entries > t->sub_cap) {
            long cap = t->sub_cap;
            st = grow((void **)&t->sub.cost, sizeof(double), entries, &cap, err);
            if (!st)
                t->sub_cap = cap;
        }
        if (!st && rows > t->sub_rows_cap) {
            long cap = t->sub_rows_cap;
            st = grow((void **)&t->sub_col_of_row, sizeof(int), rows, &cap, err);
            if (!st)
                t->sub_rows_cap = cap;
        }
        if (!st) {
            t->sub.rows = rows;
            t->sub.cols = cols;
            t->sub.maximize = 1;
            memset(t->sub.cost, 0, sizeof(double) * (size_t)entries);
            for (long g = 0; g < group_pairs; g++) {
                int p = group[g].pair;
                t->sub.cost[(size_t)t->local_meas[t->pair_meas[p]] * cols + t->local_track[t->pair_track[p]]] =
                    t->params.d_max - t->pair_dist[p];
            }
            pt_assign_result r = {t->sub_col_of_row, 0.0};
            const pt_assign_backend *solver = t->params.solver;
            if (entries >= solver->tracker_min_entries)
                st = solver->solve(&t->sub, t->params.threads, &r, err);
            else
                st = pt_assign_auction(&t->sub, &r, err);
            /* A zero-utility pairing is no association: that measurement starts a track. */
            for (int row = 0; !st && row < rows; row++) {
                int col = r.col_of_row[row];
                if (col >= 0 && t->sub.cost[(size_t)row * cols + col] > 0.0)
                    t->track_of_meas[t->comp_meas[row]] = t->comp_track[col];
            }
        }
    }
    for (int r = 0; r < rows; r++)
        t->local_meas[t->comp_meas[r]] = -1;
    for (int c = 0; c < cols; c++)
        t->local_track[t->comp_track[c]] = -1;
    return st;
}

pt_status pt_tracker_step(pt_tracker *t, const double *xy, int n, int *track_of, pt_error *err)
{
    const pt_mtt_params *q = &t->params;
    double accel_var = q->process_noise * q->process_noise, meas_var = q->measurement_noise * q->measurement_noise;
    for (int m = 0; m < 2 * n; m++)
        if (!isfinite(xy[m]) || fabs(xy[m]) > 1e12)
            return pt_error_set(err, PT_ERR_PARAM, "", "measurement %d is not a finite coordinate", m / 2);
    pt_status st = ensure_scratch(t, n, t->count + n, err);
    if (st)
        return st;
    for (int k = 0; k < t->count; k++)
        predict(&t->tracks[k], accel_var);
    long pairs = 0;
    if ((st = gate(t, xy, n, &pairs, err)))
        return st;
    /* Connected components of the gate graph: measurements 0..n-1, tracks n.. */
    for (int k = 0; k < n + t->count; k++)
        t->parent[k] = k;
    for (long p = 0; p < pairs; p++) {
        int a = find_root(t->parent, t->pair_meas[p]), b = find_root(t->parent, n + t->pair_track[p]);
        if (a != b)
            t->parent[a > b ? a : b] = a < b ? a : b;
    }
    for (long p = 0; p < pairs; p++)
        t->pair_order[p] = (pair_entry){find_root(t->parent, t->pair_meas[p]), (int)p};
    if (pairs > 0)
        qsort(t->pair_order, (size_t)pairs, sizeof *t->pair_order, cmp_pair);
    for (int m = 0; m < n; m++) {
        t->track_of_meas[m] = -1;
        t->local_meas[m] = -1;
    }
    for (int k = 0; k < t->count; k++) {
        t->local_track[k] = -1;
        t->meas_of_track[k] = -1;
    }
    for (long start = 0; start < pairs;) {
        long end = start + 1;
        while (end < pairs && t->pair_order[end].root == t->pair_order[start].root)
            end++;
        if ((st = solve_component(t, t->pair_order + start, end - start, err)))
            return st;
        start = end;
    }
    for (int m = 0; m < n; m++)
        if (t->track_of_meas[m] >= 0)
            t->meas_of_track[t->track_of_meas[m]] = m;
    /* Update or penalise every track, then drop those whose score fell below 0. */
    for (int k = 0; k < t->count; k++) {
        pt_track *tr = &t->tracks[k];
        int m = t->meas_of_track[k];
        if (m >= 0) {
            update(tr, xy[2 * m], xy[2 * m + 1], meas_var);
            tr->score = tr->score + q->score_hit > q->score_max ? q->score_max : tr->score + q->score_hit;
            track_of[m] = tr->id;
        } else {
            tr->score -= q->score_miss;
        }
    }
    int kept = 0;
    for (int k = 0; k < t->count; k++)
        if (t->tracks[k].score >= 0)
            t->tracks[kept++] = t->tracks[k];
    t->count = kept;
    long cap = t->capacity;
    if ((st = grow((void **)&t->tracks, sizeof(pt_track), (long)t->count + n, &cap, err)))
        return st;
    t->capacity = (int)cap;
    for (int m = 0; m < n; m++) {
        if (t->track_of_meas[m] >= 0)
            continue;
        pt_track *tr = &t->tracks[t->count++];
        *tr = (pt_track){.id = t->next_id++,
                         .score = q->score_initial,
                         .x = xy[2 * m],
                         .y = xy[2 * m + 1],
                         .vx = q->init_vx,
                         .vy = q->init_vy,
                         .p00 = meas_var,
                         .p01 = 0.0,
                         .p11 = q->init_velocity_sd * q->init_velocity_sd};
        track_of[m] = tr->id;
    }
    return PT_OK;
}

pt_status pt_mtt_run(const pt_mtt_params *params, const pt_measurement_set *set, int *tracks,
                     double *ms_per_frame, pt_error *err)
{
    *ms_per_frame = 0.0;
    if (set->count == 0)
        return PT_OK;
    pt_tracker *t;
    pt_status st = pt_tracker_create(params, &t, err);
    if (st)
        return st;
    int largest = 0;
    for (long a = 0, b; a < set->count; a = b) {
        for (b = a; b < set->count && set->items[b].frame == set->items[a].frame; b++)
            ;
        largest = b - a > largest ? (int)(b - a) : largest;
    }
    double *xy = malloc(sizeof(double) * 2 * (size_t)largest);
    if (!xy) {
        pt_tracker_destroy(t);
        return pt_error_set(err, PT_ERR_NOMEM, "mtt", "out of memory");
    }
    int first = set->items[0].frame, last = set->items[set->count - 1].frame;
    double start = omp_get_wtime();
    long at = 0;
    for (int frame = first; frame <= last && !st; frame++) {
        long b = at;
        for (; b < set->count && set->items[b].frame == frame; b++) {
            xy[2 * (b - at)] = set->items[b].x;
            xy[2 * (b - at) + 1] = set->items[b].y;
        }
        st = pt_tracker_step(t, xy, (int)(b - at), tracks + at, err);
        at = b;
    }
    *ms_per_frame = 1000.0 * (omp_get_wtime() - start) / (double)(last - first + 1);
    free(xy);
    pt_tracker_destroy(t);
    return st;
}
