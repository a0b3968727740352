/* Synthetic near-infrared eye images with known pupils (pupiltrack(1), synth).
 * pt_synth_render is a pure function of (params, seed): the same inputs give
 * the same pixels on every platform (own RNG, no libc rand). */
#ifndef PT_SYNTH_H
#define PT_SYNTH_H

#include <stdint.h>

#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/io/pt_image.h"
#include "lib/synth/synth_hazard.h"

/* easy and normal draw every frame from fixed ranges; hard is normal plus one
 * or two failure classes (synth_hazard.h) drawn per frame. */
typedef enum { PT_SYNTH_EASY = 0, PT_SYNTH_NORMAL, PT_SYNTH_HARD } pt_synth_difficulty;

typedef struct {
    int width, height; /* frame size; each eye needs at least 32x32 pixels */
    int binocular;     /* two eyes: L in the left half, R in the right half */
    pt_synth_difficulty difficulty;
    /* Sequences: the eye's displacement in px for this frame (pupil and iris
     * move by it, the corneal reflections by half of it), and a salt for the
     * sensor noise so frames of one scene differ. */
    float gaze_dx, gaze_dy;
    uint64_t noise_salt;
    /* Every grey level (noise included) times this, in (0, 1]: an
     * under-exposed camera, whose pupil border rises by a few grey levels
     * (remote infrared cameras); 1 = as rendered. */
    float exposure;
    /* Failure classes put on every frame (PT_SYNTH_LOW_CONTRAST | ...), on
     * top of the difficulty; 0 = none. */
    unsigned hazards;
} pt_synth_params;

/* Most corneal reflections per eye (a glint ring has up to 9). */
#define PT_SYNTH_MAX_GLINTS 9

/* Smallest side of one eye's region. */
#define PT_SYNTH_MIN_SIDE 32

typedef struct {
    char eye;          /* 0 for a monocular frame, else 'L' or 'R' */
    int visible;       /* 0: the pupil is fully hidden (closed eye); pupil unset */
    pt_ellipse pupil;  /* a >= b, theta in [0,180) degrees, pupiltrack(1) coordinates */
    double r;          /* sqrt(a * b) */
    double iris_radius;
    double occluded;   /* share of the pupil area hidden by the eyelids, 0..1 */
    int glints;        /* corneal reflections painted (index = identity in a sequence) */
    int glint_visible[PT_SYNTH_MAX_GLINTS]; /* 0: on the eyelid, not painted */
    double glint_x[PT_SYNTH_MAX_GLINTS], glint_y[PT_SYNTH_MAX_GLINTS];
} pt_synth_truth;

typedef struct {
    int count; /* 1 (monocular) or 2 (binocular: eyes[0] = L, eyes[1] = R) */
    pt_synth_truth eyes[2];
    unsigned hazards; /* failure classes on this frame (params' and hard's draw) */
} pt_synth_frame_truth;

/* 320x256, monocular, normal difficulty. */
void pt_synth_params_default(pt_synth_params *params);
/* "easy", "normal" or "hard". */
pt_status pt_synth_parse_difficulty(const char *name, pt_synth_difficulty *out,
                                    pt_error *err);
/* Seed of frame `index` of a sequence generated from `seed`. */
uint64_t pt_synth_frame_seed(uint64_t seed, long index);
/* Frame `index` of a synthetic sequence (synth --sequence): one scene (render
 * it with pt_synth_frame_seed(seed, 0)) whose eye follows a smooth figure-of-
 * eight of 6 % of the eye region's short side over `period` frames; out is
 * params with gaze and noise salt set. */
void pt_synth_sequence_frame(const pt_synth_params *params, long index, long period,
                             pt_synth_params *out);

/* Render one frame into img, which must be params->width x params->height, and
 * fill truth. Allocates scratch buffers for the call only. */
pt_status pt_synth_render(const pt_synth_params *params, uint64_t seed, pt_image *img,
                          pt_synth_frame_truth *truth, pt_error *err);

#endif
