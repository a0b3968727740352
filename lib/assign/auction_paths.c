/* Successive shortest augmenting paths on the auction's integer benefits,
 * for problems with many more objects than persons (pupiltrack-assign(1)):
 * the auction pads such problems with dummy persons that all want the
 * cheapest objects and bid each other up by epsilon for thousands of
 * rounds, while a path search from an empty assignment stops at the first
 * free object it reaches, which is near while many are free. The same
 * searches as the CUDA back end's (cuda/assign/auction_finish.cuh) and as
 * pt_assign_exact, in integers: optimal for the benefits. */
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/assign/assign.h"

#define PATH_INF (INT64_MAX / 4)
/* Below this many objects a search step is too short to share out. */
#define PATH_PARALLEL_OBJECTS 32768

int pt_auction_prefers_paths(int persons, int objects)
{
    return (long)objects * 100 >= (long)persons * (100 + PT_AUCTION_PATHS_MIN_SPARE_PERCENT);
}

typedef struct {
    const pt_auction_benefits *b;
    int64_t *v;      /* object potentials */
    int64_t *dist;   /* tentative distance + the search's accumulated delta */
    int *way;        /* the object before each one on its path (-1: the person searched for) */
    unsigned char *used;
    int team;
} path_search;

static inline int64_t benefit_at(const pt_auction_benefits *b, int person, int object)
{
    size_t k = (size_t)person * (size_t)b->objects + (size_t)object;
    return b->benefit32 ? (int64_t)b->benefit32[k] : b->benefit[k];
}

/* Relaxes the objects not yet reached from person i0 (reached by way of
 * object j0, its potential u0, the search's accumulated delta shift) over
 * [first, last); returns the least distance among them in *least and its
 * object (the lowest index on ties) in *at. */
static void relax(const path_search *ps, int i0, int j0, int64_t u0, int64_t shift, int first, int last,
                  int64_t *least, int *at)
{
    const pt_auction_benefits *b = ps->b;
    int64_t best = PATH_INF;
    int best_j = -1;
    for (int j = first; j < last; j++) {
        if (ps->used[j])
            continue;
        int64_t d = -benefit_at(b, i0, j) - u0 - ps->v[j] + shift;
        if (d < ps->dist[j]) {
            ps->dist[j] = d;
            ps->way[j] = j0;
        }
        if (ps->dist[j] < best) {
            best = ps->dist[j];
            best_j = j;
        }
    }
    *least = best;
    *at = best_j;
}

static void relax_all(const path_search *ps, int i0, int j0, int64_t u0, int64_t shift, int64_t *least,
                      int *at)
{
    int m = ps->b->objects;
    if (ps->team <= 1 || m < PATH_PARALLEL_OBJECTS) {
        relax(ps, i0, j0, u0, shift, 0, m, least, at);
        return;
    }
    int64_t best = PATH_INF;
    int best_j = -1;
#pragma omp parallel num_threads(ps->team)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        int first = (int)((long)m * t / team), last = (int)((long)m * (t + 1) / team);
        int64_t mine;
        int mine_j;
        relax(ps, i0, j0, u0, shift, first, last, &mine, &mine_j);
#pragma omp critical
        if (mine_j >= 0 && (mine < best || (mine == best && mine_j < best_j))) {
            best = mine;
            best_j = mine_j;
        }
    }
    *least = best;
    *at = best_j;
}

pt_status pt_auction_paths(const pt_auction_benefits *b, int threads, int *object_of_person, pt_error *err)
{
    int n = b->persons, m = b->objects;
    int64_t *u = calloc((size_t)n, sizeof *u), *v = calloc((size_t)m, sizeof *v);
    int64_t *dist = malloc(sizeof(int64_t) * (size_t)m);
    int *way = malloc(sizeof(int) * (size_t)m), *owner = malloc(sizeof(int) * (size_t)m);
    int *reached = malloc(sizeof(int) * (size_t)m);
    unsigned char *used = calloc((size_t)m, 1);
    pt_status st = PT_OK;
    if (!u || !v || !dist || !way || !owner || !reached || !used) {
        st = pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for the path solve (%d x %d)", n, m);
        goto done;
    }
    path_search ps = {b, v, dist, way, used, threads <= 0 ? omp_get_max_threads() : threads};
    for (int j = 0; j < m; j++)
        owner[j] = -1;
    for (int s = 0; s < n; s++) {
        for (int j = 0; j < m; j++)
            dist[j] = PATH_INF;
        int i0 = s, j0 = -1, nreached = 0;
        int64_t shift = 0; /* sum of the deltas so far: dist[j] - shift is the true slack */
        for (;;) {
            int64_t least;
            int j1;
            relax_all(&ps, i0, j0, u[i0], shift, &least, &j1);
            if (j1 < 0) {
                st = pt_error_set(err, PT_ERR_INTERNAL, "", "path solve: person %d reaches no object", s);
                goto done;
            }
            int64_t delta = least - shift;
            /* the person searched for and every person reached so far move by delta */
            u[s] += delta;
            for (int k = 0; k < nreached; k++) {
                int j = reached[k];
                u[owner[j]] += delta;
                v[j] -= delta;
            }
            shift += delta;
            used[j1] = 1;
            reached[nreached++] = j1;
            j0 = j1;
            if (owner[j1] < 0)
                break;
            i0 = owner[j1];
        }
        /* flip the path back to the person searched for */
        while (j0 >= 0) {
            int before = way[j0];
            owner[j0] = before < 0 ? s : owner[before];
            j0 = before;
        }
        for (int k = 0; k < nreached; k++)
            used[reached[k]] = 0;
    }
    for (int i = 0; i < n; i++)
        object_of_person[i] = -1;
    for (int j = 0; j < m; j++)
        if (owner[j] >= 0)
            object_of_person[owner[j]] = j;
done:
    free(u);
    free(v);
    free(dist);
    free(way);
    free(owner);
    free(reached);
    free(used);
    return st;
}
