/* Deterministic noise for tests: xorshift64* uniforms and Box-Muller
 * normals. Each test file seeds its own generator. */
#ifndef PT_NOISE_H
#define PT_NOISE_H

#include <math.h>
#include <stdint.h>

typedef struct {
    uint64_t state; /* never 0 */
} pt_test_rng;

/* Uniform in [0, 1), 53 bits. */
static inline double pt_test_uniform(pt_test_rng *rng)
{
    rng->state ^= rng->state >> 12;
    rng->state ^= rng->state << 25;
    rng->state ^= rng->state >> 27;
    return (double)((rng->state * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* Normal with mean 0 and standard deviation sigma. */
static inline double pt_test_gauss(pt_test_rng *rng, double sigma)
{
    double u = pt_test_uniform(rng), v = pt_test_uniform(rng);
    if (u < 1e-300)
        u = 1e-300;
    return sigma * sqrt(-2.0 * log(u)) * cos(2.0 * 3.14159265358979323846 * v);
}

#endif
