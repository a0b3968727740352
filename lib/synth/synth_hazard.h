/* Failure classes of real infrared eye recordings that pupiltrack synth can
 * put on its frames (pupiltrack(1), synth --hazard and --difficulty hard):
 * names, parsing, and the seeded draw of the hard mix. */
#ifndef PT_SYNTH_HAZARD_H
#define PT_SYNTH_HAZARD_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/pt_error.h"

/* One bit per class; a set of classes is their bitwise or. */
enum {
    PT_SYNTH_LOW_CONTRAST = 1u << 0, /* iris nearly as dark as the pupil */
    PT_SYNTH_GLINT_RING = 1u << 1,   /* LED ring: 4..9 reflections on the border */
    PT_SYNTH_LID = 1u << 2,          /* eyelids cut the pupil */
    PT_SYNTH_SMALL_PUPIL = 1u << 3,  /* constricted pupil, small against the iris */
    PT_SYNTH_MOTION_BLUR = 1u << 4,  /* linear motion blur, random direction */
    PT_SYNTH_DEFOCUS = 1u << 5,      /* disc blur of an out-of-focus lens */
};
#define PT_SYNTH_HAZARD_COUNT 6
#define PT_SYNTH_HAZARD_ALL ((1u << PT_SYNTH_HAZARD_COUNT) - 1u)

/* Name of class bit `index` (0..PT_SYNTH_HAZARD_COUNT-1), e.g. "glint-ring";
 * NULL outside that range. */
const char *pt_synth_hazard_name(int index);

/* Comma-separated class names ("lid,defocus") into a set; an empty list, an
 * empty name or an unknown name is PT_ERR_PARAM naming it. */
pt_status pt_synth_parse_hazards(const char *list, unsigned *out, pt_error *err);

/* The set's names joined by '+' ("lid+defocus"; "" for the empty set) into
 * buf of size cap (truncated, always terminated when cap > 0). */
void pt_synth_hazard_format(unsigned set, char *buf, size_t cap);

/* The hard mix's draw for one frame: one or two distinct classes, each pair
 * and each single class equally likely among its kind, from 64 random bits
 * (a pure function of them). */
unsigned pt_synth_hazard_mix(uint64_t bits);

#endif
