/* Measurement streams: CSV in and out, and the synthetic conveyor belt. */
#include "lib/assign/particles.h"
#include "lib/core/pt_rng.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

pt_status pt_measurement_add(pt_measurement_set *set, int frame, double x, double y, int id, pt_error *err)
{
    if (set->count == set->capacity) {
        long grown = set->capacity ? set->capacity * 2 : 4096;
        pt_measurement *more = realloc(set->items, sizeof *more * (size_t)grown);
        if (!more)
            return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory for %ld measurements", grown);
        set->items = more;
        set->capacity = grown;
    }
    set->items[set->count++] = (pt_measurement){frame, x, y, id};
    return PT_OK;
}

void pt_measurement_set_free(pt_measurement_set *set)
{
    free(set->items);
    memset(set, 0, sizeof *set);
}

/* Stable merge sort by frame (input files are usually sorted already). */
static void sort_by_frame(pt_measurement *items, pt_measurement *scratch, long n)
{
    if (n < 2)
        return;
    long half = n / 2;
    sort_by_frame(items, scratch, half);
    sort_by_frame(items + half, scratch, n - half);
    if (items[half - 1].frame <= items[half].frame)
        return;
    long a = 0, b = half, k = 0;
    while (a < half && b < n)
        scratch[k++] = items[b].frame < items[a].frame ? items[b++] : items[a++];
    while (a < half)
        scratch[k++] = items[a++];
    while (b < n)
        scratch[k++] = items[b++];
    memcpy(items, scratch, sizeof *items * (size_t)n);
}

enum { COL_FRAME, COL_X, COL_Y, COL_ID, COL_COUNT };

/* Splits line at commas in place; returns the cell count (at most max). */
static int split_cells(char *line, char **cells, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        if (n < max)
            cells[n] = s;
        n++;
        char *comma = strchr(s, ',');
        if (!comma)
            break;
        *comma = '\0';
        s = comma + 1;
    }
    return n;
}

static int parse_number(const char *cell, double *out)
{
    while (*cell == ' ' || *cell == '\t')
        cell++;
    char *end;
    errno = 0;
    double v = strtod(cell, &end);
    if (end == cell || errno == ERANGE || !isfinite(v))
        return 0;
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end)
        return 0;
    *out = v;
    return 1;
}

pt_status pt_measurements_load_csv(const char *path, pt_measurement_set *set, pt_error *err)
{
    memset(set, 0, sizeof *set);
    FILE *f = fopen(path, "r");
    if (!f)
        return pt_error_set(err, PT_ERR_IO, path, "cannot open: %s", strerror(errno));
    int column[COL_COUNT] = {0, 1, 2, -1}, columns = 0, have_layout = 0;
    char *line = NULL, *cells[64];
    size_t cap = 0;
    long lineno = 0;
    ssize_t len;
    pt_status st = PT_OK;
    static const char *const names[COL_COUNT] = {"frame", "x", "y", "id"};
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        if (len == 0 || line[0] == '#')
            continue;
        int n = split_cells(line, cells, 64);
        if (!have_layout) {
            have_layout = 1;
            columns = n;
            const char *first = cells[0];
            while (*first == ' ')
                first++;
            if ((*first >= 'a' && *first <= 'z') || (*first >= 'A' && *first <= 'Z')) {
                /* A header: find the named columns in any order. */
                for (int c = 0; c < COL_COUNT; c++)
                    column[c] = -1;
                for (int k = 0; k < n && k < 64; k++) {
                    char *name = cells[k];
                    while (*name == ' ')
                        name++;
                    for (int c = 0; c < COL_COUNT; c++)
                        if (!strcmp(name, names[c]))
                            column[c] = k;
                }
                for (int c = 0; c < COL_ID; c++)
                    if (column[c] < 0) {
                        st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: header lacks the '%s' column",
                                          lineno, names[c]);
                        goto done;
                    }
                continue;
            }
            if (n < 3 || n > 4) {
                st = pt_error_set(err, PT_ERR_FORMAT, path,
                                  "line %ld: expected frame,x,y[,id] (%d cells and no header)", lineno, n);
                goto done;
            }
            column[COL_ID] = n == 4 ? 3 : -1;
        }
        if (n != columns) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: %d cells, expected %d", lineno, n, columns);
            goto done;
        }
        double v[COL_COUNT] = {0, 0, 0, -1};
        for (int c = 0; c < COL_COUNT; c++) {
            if (column[c] < 0)
                continue;
            if (column[c] >= 64 || !parse_number(cells[column[c]], &v[c])) {
                st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: %s is not a finite number", lineno,
                                  names[c]);
                goto done;
            }
        }
        if (v[COL_FRAME] != floor(v[COL_FRAME]) || v[COL_FRAME] < 0 || v[COL_FRAME] > INT_MAX / 2) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: frame must be a non-negative integer",
                              lineno);
            goto done;
        }
        if (column[COL_ID] >= 0 && (v[COL_ID] != floor(v[COL_ID]) || v[COL_ID] < 0 || v[COL_ID] > INT_MAX)) {
            st = pt_error_set(err, PT_ERR_FORMAT, path, "line %ld: id must be a non-negative integer", lineno);
            goto done;
        }
        if ((st = pt_measurement_add(set, (int)v[COL_FRAME], v[COL_X], v[COL_Y], (int)v[COL_ID], err)))
            goto done;
    }
    if (set->count == 0) {
        st = pt_error_set(err, PT_ERR_FORMAT, path, "no measurements");
        goto done;
    }
    set->has_ids = column[COL_ID] >= 0;
    pt_measurement *scratch = malloc(sizeof *scratch * (size_t)set->count);
    if (!scratch) {
        st = pt_error_set(err, PT_ERR_NOMEM, path, "out of memory for %ld measurements", set->count);
        goto done;
    }
    sort_by_frame(set->items, scratch, set->count);
    free(scratch);
done:
    if (st)
        pt_measurement_set_free(set);
    free(line);
    fclose(f);
    return st;
}

int pt_measurements_write_csv(FILE *out, const pt_measurement_set *set, const int *tracks)
{
    fprintf(out, "frame,x,y%s%s\n", tracks ? ",track" : "", set->has_ids ? ",id" : "");
    for (long k = 0; k < set->count; k++) {
        const pt_measurement *m = &set->items[k];
        fprintf(out, "%d,%.3f,%.3f", m->frame, m->x, m->y);
        if (tracks)
            fprintf(out, ",%d", tracks[k]);
        if (set->has_ids)
            fprintf(out, ",%d", m->id);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

void pt_particles_default(pt_particles_params *params)
{
    *params = (pt_particles_params){.objects = 100,
                                    .frames = 200,
                                    .noise = 0.5,
                                    .speed = 4.0,
                                    .speed_spread = 0.15,
                                    .jitter = 0.05,
                                    .spacing = 25.0,
                                    .radius = 3.0,
                                    .seed = 1};
}

typedef struct {
    double x, y, vx, vy, target_vx;
    int id;
} particle;




static int cmp_particle_x(const void *a, const void *b)
{
    double xa = ((const particle *)a)->x, xb = ((const particle *)b)->x;
    return (xa > xb) - (xa < xb);
}

/* Places a new particle without overlapping; gives up after a few tries. */
static int place(particle *all, int count, double x_lo, double x_hi, double width, double min_dist,
                 uint64_t *rng, particle *out)
{
    for (int attempt = 0; attempt < 20; attempt++) {
        double x = x_lo + (x_hi - x_lo) * pt_rng_unit(rng), y = min_dist + (width - 2 * min_dist) * pt_rng_unit(rng);
        int clear = 1;
        for (int k = 0; k < count && clear; k++) {
            double dx = all[k].x - x, dy = all[k].y - y;
            clear = dx * dx + dy * dy >= min_dist * min_dist;
        }
        if (clear) {
            out->x = x;
            out->y = y;
            return 1;
        }
    }
    return 0;
}

/* Equal-mass elastic collisions: swap the velocity components along the line
 * of centres for pairs that touch and approach. Particles are sorted by x. */
static void collide(particle *p, int count, double radius)
{
    double reach = 2.0 * radius;
    for (int a = 0; a < count; a++)
        for (int b = a + 1; b < count && p[b].x - p[a].x < reach; b++) {
            double dx = p[b].x - p[a].x, dy = p[b].y - p[a].y, d2 = dx * dx + dy * dy;
            if (d2 >= reach * reach || d2 == 0.0)
                continue;
            double dvx = p[b].vx - p[a].vx, dvy = p[b].vy - p[a].vy, approach = dvx * dx + dvy * dy;
            if (approach >= 0.0)
                continue;
            double s = approach / d2;
            p[a].vx += s * dx;
            p[a].vy += s * dy;
            p[b].vx -= s * dx;
            p[b].vy -= s * dy;
        }
}

pt_status pt_particles_generate(const pt_particles_params *params, pt_measurement_set *set, pt_error *err)
{
    memset(set, 0, sizeof *set);
    const pt_particles_params *q = params;
    if (q->objects < 1 || q->objects > 1000000 || q->frames < 1 || q->frames > 10000000 || !(q->noise >= 0) ||
        !(q->speed > 0) || !(q->spacing > 2 * q->radius) || !(q->radius >= 0) || !(q->jitter >= 0) ||
        !(q->speed_spread >= 0))
        return pt_error_set(err, PT_ERR_PARAM, "particles",
                            "need objects 1..1e6, frames >= 1, noise >= 0, speed > 0, spacing > 2*radius");
    uint64_t rng = q->seed * 0x2545F4914F6CDD1Dull + 7;
    double length = q->spacing * sqrt(2.0 * q->objects), width = q->spacing * sqrt(q->objects / 2.0);
    if (width < 4 * q->radius + 1)
        width = 4 * q->radius + 1;
    /* Entry rate that keeps `objects` on the belt at the mean speed. */
    double entries_per_frame = q->objects * q->speed / length, entry_due = 0.0;
    int capacity = 2 * q->objects + 64, count = 0, next_id = 0;
    particle *p = malloc(sizeof *p * (size_t)capacity);
    if (!p)
        return pt_error_set(err, PT_ERR_NOMEM, "particles", "out of memory for %d objects", capacity);
    pt_status st = PT_OK;
    for (int k = 0; k < q->objects; k++) {
        particle n = {0};
        if (!place(p, count, 0.0, length, width, 2 * q->radius, &rng, &n))
            continue;
        n.target_vx = q->speed * (1.0 + q->speed_spread * pt_rng_normal(&rng));
        if (n.target_vx < 0.2 * q->speed)
            n.target_vx = 0.2 * q->speed;
        n.vx = n.target_vx;
        n.vy = 0.1 * q->speed * pt_rng_normal(&rng);
        n.id = next_id++;
        p[count++] = n;
    }
    for (int frame = 0; frame < q->frames; frame++) {
        for (int k = 0; k < count && !st; k++)
            st = pt_measurement_add(set, frame, p[k].x + q->noise * pt_rng_normal(&rng),
                                    p[k].y + q->noise * pt_rng_normal(&rng), p[k].id, err);
        if (st)
            break;
        int kept = 0;
        for (int k = 0; k < count; k++) {
            particle *o = &p[k];
            /* Velocities relax towards the object's own belt speed after a bounce. */
            o->vx += 0.1 * (o->target_vx - o->vx) + q->jitter * pt_rng_normal(&rng);
            o->vy += -0.1 * o->vy + q->jitter * pt_rng_normal(&rng);
            o->x += o->vx;
            o->y += o->vy;
            if (o->y < q->radius) {
                o->y = 2 * q->radius - o->y;
                o->vy = -o->vy;
            } else if (o->y > width - q->radius) {
                o->y = 2 * (width - q->radius) - o->y;
                o->vy = -o->vy;
            }
            if (o->x <= length)
                p[kept++] = *o;
        }
        count = kept;
        qsort(p, (size_t)count, sizeof *p, cmp_particle_x);
        collide(p, count, q->radius);
        for (entry_due += entries_per_frame; entry_due >= 1.0 && count < capacity; entry_due -= 1.0) {
            particle n = {0};
            if (!place(p, count, 0.0, q->speed, width, 2 * q->radius + q->speed, &rng, &n))
                continue;
            n.target_vx = q->speed * (1.0 + q->speed_spread * pt_rng_normal(&rng));
            if (n.target_vx < 0.2 * q->speed)
                n.target_vx = 0.2 * q->speed;
            n.vx = n.target_vx;
            n.vy = 0.1 * q->speed * pt_rng_normal(&rng);
            n.id = next_id++;
            p[count++] = n;
        }
    }
    free(p);
    if (st) {
        pt_measurement_set_free(set);
        return st;
    }
    set->has_ids = 1;
    return PT_OK;
}
