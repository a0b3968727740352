/* Every back-ended command (track, sweep, bench, contours, assign, mtt and
 * track --glints) selects its back end here with -b NAME: one row per back
 * end, holding the function table of each capability it offers (NULL where
 * it offers none). See pupiltrack(1), "Back ends". */
#ifndef PT_CLI_REGISTRY_H
#define PT_CLI_REGISTRY_H

#include <stddef.h>

#include "lib/assign/assign.h"
#include "lib/contours/contours.h"
#include "lib/detect/pt_backend.h"
#include "omp/detect/glints.h"

typedef enum {
    PT_CAP_TRACK,    /* detectors: track, sweep, bench */
    PT_CAP_CONTOURS, /* border tracking */
    PT_CAP_ASSIGN,   /* linear assignment: assign, mtt */
    PT_CAP_ASSIGN_JACOBI, /* assign --auction jacobi */
} pt_capability;

/* Glint identification of track --glints (one frame of one eye's region). */
typedef int (*pt_glints_track_fn)(pt_tracker *tracker, const pt_image *img, int x0, int y0,
                                  int w, int h, int kernel, int threshold, pt_glint *out,
                                  int *ids, int max, pt_arena *arena, pt_error *err);

typedef struct {
    const char *name;
    const pt_backend *track;
    const pt_contours_backend *contours;
    const pt_assign_backend *assign;
    const pt_assign_backend *assign_jacobi; /* the Jacobi auction with packed bids */
    /* Reflections are found and numbered on the host by every back end that
     * tracks: the work is a few hundred pixels an eye. */
    pt_glints_track_fn glints;
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
