/* Deterministic randomness for the synthetic eye renderer: a splitmix64
 * stream, counter-based hashes for per-pixel noise, value noise on a lattice,
 * a periodic 1-D noise table, a fast atan2 and a separable Gaussian blur.
 * Nothing here calls libc rand, so frames are identical on every platform. */
#ifndef PT_SYNTH_NOISE_H
#define PT_SYNTH_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/pt_error.h"

typedef struct {
    uint64_t state;
} pt_synth_rng;

/* splitmix64 finaliser: a strong 64-bit mix used both by the stream and as a hash. */
uint64_t pt_synth_mix64(uint64_t z);
void pt_synth_rng_seed(pt_synth_rng *rng, uint64_t seed);
uint64_t pt_synth_next(pt_synth_rng *rng);
/* Uniform in [lo, hi). */
double pt_synth_uniform(pt_synth_rng *rng, double lo, double hi);
/* Uniform integer in [lo, hi]. */
int pt_synth_int(pt_synth_rng *rng, int lo, int hi);
/* 1 with probability p. */
int pt_synth_chance(pt_synth_rng *rng, double p);
/* Approximately N(0,1) from one 64-bit hash (sum of four 16-bit uniforms). */
float pt_synth_gauss_from_bits(uint64_t bits);

/* Smooth value noise in [-1,1]: random values on a grid of `cell` pixels,
 * interpolated with a smoothstep; precomputed so sampling needs no hashing. */
typedef struct {
    int nx, ny;
    float inv_cell;
    float *values; /* nx * ny */
} pt_synth_lattice;

pt_status pt_synth_lattice_init(pt_synth_lattice *lat, float width, float height,
                                float cell, uint64_t seed, pt_error *err);
void pt_synth_lattice_free(pt_synth_lattice *lat);
/* (x, y) relative to the lattice origin; clamped outside [0,width]x[0,height].
 * Inline because the renderer samples it several times per pixel. */
static inline float pt_synth_lattice_at(const pt_synth_lattice *lat, float x, float y)
{
    float gx = x * lat->inv_cell, gy = y * lat->inv_cell;
    float maxx = (float)(lat->nx - 2), maxy = (float)(lat->ny - 2);
    gx = gx < 0.0f ? 0.0f : (gx > maxx ? maxx : gx);
    gy = gy < 0.0f ? 0.0f : (gy > maxy ? maxy : gy);
    int ix = (int)gx, iy = (int)gy;
    ix = ix > lat->nx - 2 ? lat->nx - 2 : ix;
    iy = iy > lat->ny - 2 ? lat->ny - 2 : iy;
    float fx = gx - (float)ix, fy = gy - (float)iy;
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    const float *row0 = lat->values + (size_t)iy * (size_t)lat->nx + ix;
    const float *row1 = row0 + lat->nx;
    float top = row0[0] + (row0[1] - row0[0]) * fx;
    float bottom = row1[0] + (row1[1] - row1[0]) * fx;
    return top + (bottom - top) * fy;
}

/* Periodic 1-D noise in [-1,1] sampled at n points: sum of octaves whose
 * cycle counts are given; used for the radial fibres of the iris. */
void pt_synth_periodic_table(float *table, int n, const int *cycles,
                             const float *amps, int octaves, pt_synth_rng *rng);

/* atan2(y, x) in turns, in [0, 1); error below 1e-5 turns, no libm trig. */
float pt_synth_atan2_turns(float y, float x);

/* In-place Gaussian blur of a width x height float image (row stride = width);
 * tmp holds at least width * height floats. sigma <= 0 leaves img alone. */
pt_status pt_synth_blur(float *img, float *tmp, int width, int height, float sigma,
                        pt_error *err);

#endif
