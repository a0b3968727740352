/* Synthetic near-infrared eye images with known pupils (SPEC issue 2).
 * pt_synth_render is a pure function of (params, seed): the same inputs give
 * the same pixels on every platform (own RNG, no libc rand). */
#ifndef PT_SYNTH_H
#define PT_SYNTH_H

#include <stdint.h>

#include "pt_error.h"
#include "pt_geom.h"
#include "pt_image.h"

typedef enum { PT_SYNTH_EASY = 0, PT_SYNTH_NORMAL, PT_SYNTH_HARD } pt_synth_difficulty;

typedef struct {
    int width, height; /* frame size; each eye needs at least 32x32 pixels */
    int binocular;     /* two eyes: L in the left half, R in the right half */
    pt_synth_difficulty difficulty;
} pt_synth_params;

/* Smallest side of one eye's region. */
#define PT_SYNTH_MIN_SIDE 32

typedef struct {
    char eye;          /* 0 for a monocular frame, else 'L' or 'R' */
    int visible;       /* 0: the pupil is fully hidden (closed eye); pupil unset */
    pt_ellipse pupil;  /* a >= b, theta in [0,180) degrees, SPEC §2 coordinates */
    double r;          /* sqrt(a * b) */
    double iris_radius;
    double occluded;   /* share of the pupil area hidden by the eyelids, 0..1 */
} pt_synth_truth;

typedef struct {
    int count; /* 1 (monocular) or 2 (binocular: eyes[0] = L, eyes[1] = R) */
    pt_synth_truth eyes[2];
} pt_synth_frame_truth;

/* 320x256, monocular, normal difficulty. */
void pt_synth_params_default(pt_synth_params *params);
/* "easy", "normal" or "hard". */
pt_status pt_synth_parse_difficulty(const char *name, pt_synth_difficulty *out,
                                    pt_error *err);
/* Seed of frame `index` of a sequence generated from `seed`. */
uint64_t pt_synth_frame_seed(uint64_t seed, long index);
/* Render one frame into img, which must be params->width x params->height, and
 * fill truth. Allocates scratch buffers for the call only. */
pt_status pt_synth_render(const pt_synth_params *params, uint64_t seed, pt_image *img,
                          pt_synth_frame_truth *truth, pt_error *err);

#endif
