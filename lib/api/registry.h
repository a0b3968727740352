/* Every back-ended command (track, sweep, bench, contours, assign, mtt and
 * track --glints) selects its back end here with -b NAME, and pupiltrack.h's
 * detectors theirs by the same names: one row per back
 * end, holding the function table of each capability it offers (NULL where
 * it offers none). See pupiltrack(1), "Back ends". */
#ifndef PT_API_REGISTRY_H
#define PT_API_REGISTRY_H

#include <stddef.h>

#include "lib/assign/assign.h"
#include "lib/contours/contours.h"
#include "lib/detect/pt_backend.h"
#include "lib/detect/glints.h"

typedef enum {
    PT_CAP_TRACK,    /* detectors: track, sweep, bench */
    PT_CAP_CONTOURS, /* border tracking */
    PT_CAP_ASSIGN,   /* linear assignment: assign, mtt */
    PT_CAP_ASSIGN_JACOBI, /* assign --auction jacobi */
} pt_capability;

typedef struct {
    const char *name;
    const pt_backend *track;
    const pt_contours_backend *contours;
    const pt_assign_backend *assign;
    const pt_assign_backend *assign_jacobi; /* the Jacobi auction with packed bids */
    const pt_glints_backend *glints; /* track --glints */
} pt_backend_entry;

/* The row of back end NAME when it offers cap, else NULL. */
const pt_backend_entry *pt_backend_find(const char *name, pt_capability cap);
/* The names offering cap, as "seq|omp|cuda", into buf. */
const char *pt_backend_list(pt_capability cap, char *buf, size_t size);

/* Shorthands: the table of NAME for one capability, or NULL. */
const pt_backend *pt_track_backend(const char *name);
const pt_contours_backend *pt_contours_backend_by_name(const char *name);
const pt_assign_backend *pt_assign_backend_by_name(const char *name);
const pt_assign_backend *pt_assign_jacobi_by_name(const char *name);

#endif
