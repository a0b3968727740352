/* Identity metrics of a tracking result against true ids (see mtt.h). */
#include <stdlib.h>
#include <string.h>

#include "lib/assign/assign.h"
#include "lib/assign/mtt.h"

typedef struct {
    int id, track, frame;
    long index;
} observation;

/* One (object, track) co-occurrence with its measurement count; object and
 * track are dense indices. */
typedef struct {
    int object, track, root;
    long count;
} overlap;

static int cmp_id_frame(const void *a, const void *b)
{
    const observation *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int cmp_id_track(const void *a, const void *b)
{
    const observation *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->track > y->track) - (x->track < y->track);
}

static int cmp_overlap_track(const void *a, const void *b)
{
    const overlap *x = a, *y = b;
    if (x->track != y->track)
        return x->track < y->track ? -1 : 1;
    return (x->object > y->object) - (x->object < y->object);
}

static int cmp_overlap_root(const void *a, const void *b)
{
    const overlap *x = a, *y = b;
    if (x->root != y->root)
        return x->root < y->root ? -1 : 1;
    return (x->object > y->object) - (x->object < y->object);
}

static int find_root(int *parent, int k)
{
    while (parent[k] != k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

/* Best one-to-one object-track matching, component by component. */
static pt_status best_matching(overlap *ov, long pairs, int objects, int tracks, long *idtp, pt_error *err)
{
    *idtp = 0;
    int *parent = malloc(sizeof(int) * ((size_t)objects + (size_t)tracks));
    int *local = malloc(sizeof(int) * ((size_t)objects + (size_t)tracks));
    if (!parent || !local) {
        free(parent);
        free(local);
        return pt_error_set(err, PT_ERR_NOMEM, "", "metrics: out of memory");
    }
    for (int k = 0; k < objects + tracks; k++) {
        parent[k] = k;
        local[k] = -1;
    }
    for (long p = 0; p < pairs; p++) {
        int a = find_root(parent, ov[p].object), b = find_root(parent, objects + ov[p].track);
        if (a != b)
            parent[a > b ? a : b] = a < b ? a : b;
    }
    for (long p = 0; p < pairs; p++)
        ov[p].root = find_root(parent, ov[p].object);
    qsort(ov, (size_t)pairs, sizeof *ov, cmp_overlap_root);
    pt_status st = PT_OK;
    for (long start = 0, end; start < pairs && !st; start = end) {
        for (end = start; end < pairs && ov[end].root == ov[start].root; end++)
            ;
        if (end - start == 1) {
            *idtp += ov[start].count;
            continue;
        }
        int rows = 0, cols = 0;
        for (long p = start; p < end; p++) {
            if (local[ov[p].object] < 0)
                local[ov[p].object] = rows++;
            if (local[objects + ov[p].track] < 0)
                local[objects + ov[p].track] = cols++;
        }
        pt_assign_problem prob;
        pt_assign_result res = {NULL, 0.0};
        if (!(st = pt_assign_problem_alloc(&prob, rows, cols, err))) {
            memset(prob.cost, 0, sizeof(double) * (size_t)rows * (size_t)cols);
            prob.maximize = 1;
            for (long p = start; p < end; p++)
                prob.cost[(size_t)local[ov[p].object] * cols + local[objects + ov[p].track]] = (double)ov[p].count;
            if (!(st = pt_assign_result_alloc(&res, rows, err)) && !(st = pt_assign_exact(&prob, &res, err)))
                *idtp += (long)res.total;
            pt_assign_result_free(&res);
            pt_assign_problem_free(&prob);
        }
        for (long p = start; p < end; p++) {
            local[ov[p].object] = -1;
            local[objects + ov[p].track] = -1;
        }
    }
    free(parent);
    free(local);
    return st;
}

pt_status pt_mtt_metrics_compute(const int *frame, const int *true_id, const int *track, long n,
                                 pt_mtt_metrics *metrics, pt_error *err)
{
    memset(metrics, 0, sizeof *metrics);
    metrics->measurements = n;
    if (n <= 0)
        return PT_OK;
    observation *obs = malloc(sizeof *obs * (size_t)n);
    overlap *ov = malloc(sizeof *ov * (size_t)n);
    if (!obs || !ov) {
        free(obs);
        free(ov);
        return pt_error_set(err, PT_ERR_NOMEM, "", "metrics: out of memory for %ld measurements", n);
    }
    for (long k = 0; k < n; k++)
        obs[k] = (observation){true_id[k], track[k], frame[k], k};
    /* An ID switch: an object's track differs from its previous measurement's. */
    qsort(obs, (size_t)n, sizeof *obs, cmp_id_frame);
    for (long k = 1; k < n; k++)
        if (obs[k].id == obs[k - 1].id && obs[k].track != obs[k - 1].track)
            metrics->id_switches++;
    qsort(obs, (size_t)n, sizeof *obs, cmp_id_track);
    long pairs = 0;
    int objects = 0;
    for (long k = 0; k < n; k++) {
        int new_object = k == 0 || obs[k].id != obs[k - 1].id;
        if (new_object)
            objects++;
        if (new_object || obs[k].track != obs[k - 1].track) {
            /* The object's second distinct track makes it a split object. */
            if (!new_object && ov[pairs - 1].object == objects - 1 &&
                (pairs < 2 || ov[pairs - 2].object != objects - 1))
                metrics->objects_split++;
            ov[pairs++] = (overlap){objects - 1, obs[k].track, 0, 0};
        }
        ov[pairs - 1].count++;
    }
    /* Dense track indices, and tracks that hold several objects. */
    qsort(ov, (size_t)pairs, sizeof *ov, cmp_overlap_track);
    int tracks = 0, previous = 0, run = 0;
    for (long p = 0; p < pairs; p++) {
        int original = ov[p].track;
        if (p == 0 || original != previous) {
            tracks++;
            run = 1;
        } else if (++run == 2) {
            metrics->tracks_merged++;
        }
        previous = original;
        ov[p].track = tracks - 1;
    }
    metrics->objects = objects;
    metrics->tracks = tracks;
    pt_status st = best_matching(ov, pairs, objects, tracks, &metrics->idtp, err);
    metrics->mota = 1.0 - (double)metrics->id_switches / (double)n;
    metrics->idf1 = (double)metrics->idtp / (double)n;
    free(obs);
    free(ov);
    return st;
}
