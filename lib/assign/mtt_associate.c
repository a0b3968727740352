/* The tracker's association step (see mtt_associate.h). Linear-time gating:
 * the predictions are counting-sorted into a hash grid of d_max cells, each
 * measurement looks at its 3 x 3 cells; the gate graph's components come from
 * union-find and a counting sort by root. Most components of a busy frame
 * are one measurement and one prediction; the rest are small clusters. */
#include "lib/assign/mtt_associate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pt_mtt_associate_free(pt_mtt_assoc *a)
{
    free(a->bucket_start);
    free(a->bucket_member);
    free(a->cell_x);
    free(a->cell_y);
    free(a->parent);
    free(a->group_start);
    free(a->local_meas);
    free(a->local_track);
    free(a->comp_meas);
    free(a->comp_track);
    free(a->pair_meas);
    free(a->pair_track);
    free(a->pair_grouped);
    free(a->pair_dist);
    free(a->sub.cost);
    free(a->sub_col_of_row);
    memset(a, 0, sizeof *a);
}

/* realloc that leaves *buf untouched on failure. */
static int resize(void **buf, size_t bytes)
{
    void *more = realloc(*buf, bytes ? bytes : 1);
    if (!more)
        return 0;
    *buf = more;
    return 1;
}

static pt_status ensure(pt_mtt_assoc *a, int n, int k, int buckets, pt_error *err)
{
    int ok = 1;
    if (n > a->meas_cap || k > a->track_cap) {
        int mc = n > a->meas_cap ? 2 * n : a->meas_cap, tc = k > a->track_cap ? 2 * k : a->track_cap;
        mc = mc < 64 ? 64 : mc;
        tc = tc < 64 ? 64 : tc;
        ok = resize((void **)&a->bucket_member, sizeof(int) * (size_t)tc) &&
             resize((void **)&a->cell_x, sizeof(int64_t) * (size_t)tc) &&
             resize((void **)&a->cell_y, sizeof(int64_t) * (size_t)tc) &&
             resize((void **)&a->parent, sizeof(int) * (size_t)(mc + tc)) &&
             resize((void **)&a->group_start, sizeof(int) * (size_t)(mc + tc + 1)) &&
             resize((void **)&a->local_meas, sizeof(int) * (size_t)mc) &&
             resize((void **)&a->local_track, sizeof(int) * (size_t)tc) &&
             resize((void **)&a->comp_meas, sizeof(int) * (size_t)mc) &&
             resize((void **)&a->comp_track, sizeof(int) * (size_t)tc);
        if (ok) {
            a->meas_cap = mc;
            a->track_cap = tc;
        }
    }
    if (ok && buckets > a->bucket_cap) {
        ok = resize((void **)&a->bucket_start, sizeof(int) * (size_t)(buckets + 1));
        if (ok)
            a->bucket_cap = buckets;
    }
    return ok ? PT_OK : pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for %d measurements", n);
}

static pt_status add_pair(pt_mtt_assoc *a, long pairs, int m, int track, double dist, pt_error *err)
{
    if (pairs == a->pair_cap) {
        long cap = a->pair_cap ? 2 * a->pair_cap : 1024;
        if (!resize((void **)&a->pair_meas, sizeof(int) * (size_t)cap) ||
            !resize((void **)&a->pair_track, sizeof(int) * (size_t)cap) ||
            !resize((void **)&a->pair_grouped, sizeof(int) * (size_t)cap) ||
            !resize((void **)&a->pair_dist, sizeof(double) * (size_t)cap))
            return pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for pairs");
        a->pair_cap = cap;
    }
    a->pair_meas[pairs] = m;
    a->pair_track[pairs] = track;
    a->pair_dist[pairs] = dist;
    return PT_OK;
}

/* Cell index of a coordinate, clamped to +-2^29 (clamped cells only merge). */
static int64_t cell_of(double v, double size)
{
    double c = floor(v / size), lim = 536870912.0;
    return (int64_t)(c < -lim ? -lim : c > lim ? lim : c);
}

static unsigned bucket_of(int64_t cx, int64_t cy, unsigned mask)
{
    uint64_t h = (uint64_t)cx * 0x9E3779B97F4A7C15ull ^ (uint64_t)cy * 0xC2B2AE3D27D4EB4Full;
    return (unsigned)(h >> 32) & mask;
}

/* Every (measurement, prediction) pair closer than d_max, in measurement order. */
static pt_status gate(pt_mtt_assoc *a, const double *xy, int n, const double *pred, int k, double d,
                      unsigned mask, long *pairs_out, pt_error *err)
{
    int buckets = (int)mask + 1;
    memset(a->bucket_start, 0, sizeof(int) * (size_t)(buckets + 1));
    for (int t = 0; t < k; t++) {
        a->cell_x[t] = cell_of(pred[2 * t], d);
        a->cell_y[t] = cell_of(pred[2 * t + 1], d);
        a->bucket_start[bucket_of(a->cell_x[t], a->cell_y[t], mask)]++;
    }
    /* Running sums make bucket_start[b] the end of bucket b; filling from the
     * back moves it to the start and lists each bucket in index order. */
    for (int b = 1; b < buckets; b++)
        a->bucket_start[b] += a->bucket_start[b - 1];
    a->bucket_start[buckets] = k;
    for (int t = k - 1; t >= 0; t--)
        a->bucket_member[--a->bucket_start[bucket_of(a->cell_x[t], a->cell_y[t], mask)]] = t;
    long pairs = 0;
    for (int m = 0; m < n; m++) {
        int64_t mx = cell_of(xy[2 * m], d), my = cell_of(xy[2 * m + 1], d);
        for (int64_t cy = my - 1; cy <= my + 1; cy++)
            for (int64_t cx = mx - 1; cx <= mx + 1; cx++) {
                unsigned b = bucket_of(cx, cy, mask);
                for (int e = a->bucket_start[b]; e < a->bucket_start[b + 1]; e++) {
                    int t = a->bucket_member[e];
                    if (a->cell_x[t] != cx || a->cell_y[t] != cy)
                        continue;
                    double ex = xy[2 * m] - pred[2 * t], ey = xy[2 * m + 1] - pred[2 * t + 1];
                    double dist = sqrt(ex * ex + ey * ey);
                    if (!(dist < d))
                        continue;
                    pt_status st = add_pair(a, pairs, m, t, dist, err);
                    if (st)
                        return st;
                    pairs++;
                }
            }
    }
    *pairs_out = pairs;
    return PT_OK;
}

static int find_root(int *parent, int v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

/* One component's pairs (indices into the pair arrays): its optimum into track_of_meas. */
static pt_status solve_component(pt_mtt_assoc *a, const int *group, int group_pairs, double d_max,
                                 const pt_assign_backend *solver, int threads, int *track_of_meas,
                                 double *utility, pt_error *err)
{
    int rows = 0, cols = 0, best = group[0];
    for (int g = 0; g < group_pairs; g++) {
        int p = group[g], m = a->pair_meas[p], t = a->pair_track[p];
        if (a->local_meas[m] < 0) {
            a->local_meas[m] = rows;
            a->comp_meas[rows++] = m;
        }
        if (a->local_track[t] < 0) {
            a->local_track[t] = cols;
            a->comp_track[cols++] = t;
        }
        if (a->pair_dist[p] < a->pair_dist[best])
            best = p;
    }
    pt_status st = PT_OK;
    if (rows == 1 || cols == 1) {
        /* A star: only one pair can be chosen, so the closest is the optimum. */
        track_of_meas[a->pair_meas[best]] = a->pair_track[best];
        *utility += d_max - a->pair_dist[best];
    } else {
        long entries = (long)rows * cols;
        if (entries > PT_ASSIGN_MAX_ENTRIES)
            st = pt_error_set(err, PT_ERR_NOMEM, "", "tracker: a gated cluster of %dx%d is too large", rows, cols);
        if (!st && entries > a->sub_cap) {
            if (resize((void **)&a->sub.cost, sizeof(double) * (size_t)entries))
                a->sub_cap = entries;
            else
                st = pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for a %dx%d cluster", rows, cols);
        }
        if (!st && rows > a->sub_rows_cap) {
            if (resize((void **)&a->sub_col_of_row, sizeof(int) * (size_t)rows))
                a->sub_rows_cap = rows;
            else
                st = pt_error_set(err, PT_ERR_NOMEM, "", "tracker: out of memory for a %dx%d cluster", rows, cols);
        }
        if (!st) {
            a->sub.rows = rows;
            a->sub.cols = cols;
            a->sub.maximize = 1;
            memset(a->sub.cost, 0, sizeof(double) * (size_t)entries);
            for (int g = 0; g < group_pairs; g++) {
                int p = group[g];
                a->sub.cost[(size_t)a->local_meas[a->pair_meas[p]] * cols + a->local_track[a->pair_track[p]]] =
                    d_max - a->pair_dist[p];
            }
            pt_assign_result r = {a->sub_col_of_row, 0.0};
            /* Below the back end's break-even a launch or a thread team costs more than the solve. */
            if (entries >= solver->tracker_min_entries)
                st = solver->solve(&a->sub, threads, &r, NULL, 0, err);
            else
                st = pt_assign_exact(&a->sub, &r, err);
            /* A zero-utility pairing is no association: that measurement starts a track. */
            for (int row = 0; !st && row < rows; row++) {
                int col = r.col_of_row[row];
                double u = col >= 0 ? a->sub.cost[(size_t)row * cols + col] : 0.0;
                if (u > 0.0) {
                    track_of_meas[a->comp_meas[row]] = a->comp_track[col];
                    *utility += u;
                }
            }
        }
    }
    for (int r = 0; r < rows; r++)
        a->local_meas[a->comp_meas[r]] = -1;
    for (int c = 0; c < cols; c++)
        a->local_track[a->comp_track[c]] = -1;
    return st;
}

pt_status pt_mtt_associate(pt_mtt_assoc *a, const double *xy, int n, const double *pred, int k, double d_max,
                           const pt_assign_backend *solver, int threads, int *track_of_meas, double *utility,
                           pt_error *err)
{
    double total = 0.0;
    if (utility)
        *utility = 0.0;
    for (int m = 0; m < n; m++)
        track_of_meas[m] = -1;
    if (n == 0 || k == 0)
        return PT_OK;
    unsigned buckets = 64;
    while (buckets < 2u * (unsigned)k && buckets < (1u << 30))
        buckets *= 2;
    pt_status st = ensure(a, n, k, (int)buckets, err);
    long pairs = 0;
    if (st || (st = gate(a, xy, n, pred, k, d_max, buckets - 1, &pairs, err)))
        return st;
    /* Components: measurements 0..n-1, predictions n..n+k-1; roots are the smallest member. */
    int nodes = n + k;
    for (int v = 0; v < nodes; v++)
        a->parent[v] = v;
    for (long p = 0; p < pairs; p++) {
        int r1 = find_root(a->parent, a->pair_meas[p]), r2 = find_root(a->parent, n + a->pair_track[p]);
        if (r1 != r2)
            a->parent[r1 > r2 ? r1 : r2] = r1 < r2 ? r1 : r2;
    }
    /* Counting sort of the pairs by root, stable, so each component is one run. */
    memset(a->group_start, 0, sizeof(int) * (size_t)(nodes + 1));
    for (long p = 0; p < pairs; p++)
        a->group_start[find_root(a->parent, a->pair_meas[p]) + 1]++;
    for (int v = 0; v < nodes; v++)
        a->group_start[v + 1] += a->group_start[v];
    for (long p = 0; p < pairs; p++)
        a->pair_grouped[a->group_start[find_root(a->parent, a->pair_meas[p])]++] = (int)p;
    /* group_start[v] now ends group v; runs follow each other in root order. */
    for (int m = 0; m < n; m++)
        a->local_meas[m] = -1;
    for (int t = 0; t < k; t++)
        a->local_track[t] = -1;
    for (int v = 0, begin = 0; v < nodes && !st; v++) {
        int end = a->group_start[v];
        if (end > begin)
            st = solve_component(a, a->pair_grouped + begin, end - begin, d_max, solver, threads, track_of_meas,
                                 &total, err);
        begin = end;
    }
    if (utility)
        *utility = total;
    return st;
}
