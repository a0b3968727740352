/* tl's choice between thresholds (pupiltrack(1), tl_score): the pupil lies
 * inside the iris. Shared by both back ends (PT_HD, header-only, exact
 * operations only).
 *
 * Where the pupil's grey level is close to the iris's, the fit of the iris
 * (a dark disc on the bright sclera, its outline sharp) can score better
 * than the pupil's, whose outline has little contrast or carries
 * reflections. When the winning fit encloses a smaller fit of another
 * threshold that is itself a credible outline (confidence at least
 * PT_CONFIDENCE_MIN, quality at least PT_TL_NEST_QUALITY of the best), the
 * winner is the iris around that pupil, and the enclosed fit of best
 * quality wins instead. */
#ifndef PT_TL_NEST_H
#define PT_TL_NEST_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"

/* an enclosed fit has at most this share of the enclosing radius (pupils
 * span up to about two thirds of the iris) */
#define PT_TL_NEST_RATIO 0.7
/* its quality is at least this share of the best fit's */
#define PT_TL_NEST_QUALITY 0.25

/* Whether circle inner lies inside circle outer with at most
 * PT_TL_NEST_RATIO of its radius. */
static inline PT_HD int pt_tl_nested(const pt_circle *outer, const pt_circle *inner)
{
    double dx = inner->cx - outer->cx, dy = inner->cy - outer->cy, room = outer->r - inner->r;
    return inner->r <= PT_TL_NEST_RATIO * outer->r && room >= 0.0 &&
           dx * dx + dy * dy <= room * room;
}

#endif
