/* Point measurement streams (frame, x, y, true id): the CSV format of
 * `pupiltrack mtt` and synthetic conveyor-belt streams for testing it. */
#ifndef PT_PARTICLES_H
#define PT_PARTICLES_H

#include <stdint.h>
#include <stdio.h>

#include "lib/core/pt_error.h"

typedef struct {
    int frame;
    double x, y;
    int id; /* true object id; -1 when unknown */
} pt_measurement;

typedef struct {
    pt_measurement *items; /* sorted by frame */
    long count, capacity;
    int has_ids; /* every item carries a true id */
} pt_measurement_set;

pt_status pt_measurement_add(pt_measurement_set *set, int frame, double x, double y, int id,
                             pt_error *err);
void pt_measurement_set_free(pt_measurement_set *set);

/* CSV `frame,x,y[,id]`: an optional header names the columns (any order);
 * without one the columns are positional. Rows are stably sorted by frame.
 * Bad numbers, missing cells, NaN/inf, negative frames fail naming file and line. */
pt_status pt_measurements_load_csv(const char *path, pt_measurement_set *set, pt_error *err);
/* Writes `frame,x,y[,track][,id]`: track when tracks != NULL, id when set->has_ids. */
int pt_measurements_write_csv(FILE *out, const pt_measurement_set *set, const int *tracks);

/* A conveyor belt: objects enter at x = 0, move in +x with their own speed,
 * jitter and elastic collisions (they pass close and bounce), and leave at
 * the far end; the measurement is the position plus Gaussian noise. */
typedef struct {
    int objects;         /* mean objects on the belt per frame (e.g. 10..5000) */
    int frames;
    double noise;        /* measurement noise sd, px */
    double speed;        /* mean speed along the belt, px/frame */
    double speed_spread; /* relative sd of the per-object speed */
    double jitter;       /* velocity random walk sd, px/frame per frame */
    double spacing;      /* mean distance between objects, px (sets the belt size) */
    double radius;       /* objects collide closer than 2 * radius */
    uint64_t seed;
} pt_particles_params;

void pt_particles_default(pt_particles_params *params);
/* Deterministic in params->seed; set gets has_ids = 1 and ids 0.. in order of entry. */
pt_status pt_particles_generate(const pt_particles_params *params, pt_measurement_set *set,
                                pt_error *err);

#endif
