/* splitmix64 and the draws built on it: small, seedable and identical on
 * every platform. Used by the random assignment problems (lib/assign/assign.c),
 * the particle streams (lib/assign/particles.c) and the seeding of the RANSAC
 * sample table's generator (lib/detect/ransac.c). */
#ifndef PT_RNG_H
#define PT_RNG_H

#include <math.h>
#include <stdint.h>

/* The next 64 bits of the stream whose state is *state. */
static inline uint64_t pt_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1), 53 bits. */
static inline double pt_rng_unit(uint64_t *state)
{
    return (double)(pt_rng_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* N(0, 1) by Box-Muller (two draws). */
static inline double pt_rng_normal(uint64_t *state)
{
    double u = pt_rng_unit(state), v = pt_rng_unit(state);
    if (u < 1e-300)
        u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

#endif
