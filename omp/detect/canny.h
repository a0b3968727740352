/* Canny edge detection for the Canny-Hough detector (pupiltrack(1), PARAMETERS): Gaussian
 * smoothing with derivative-of-Gaussian gradients, non-maximum suppression,
 * thresholds from the gradient histogram, hysteresis. */
#ifndef PT_OMP_CANNY_H
#define PT_OMP_CANNY_H

#include <stdint.h>

#include "lib/core/pt_arena.h"
#include "lib/core/pt_error.h"

typedef struct {
    int width, height; /* all planes are width*height, row-major, stride = width */
    float *gx, *gy;    /* derivative-of-Gaussian gradient (x right, y down) */
    float *magnitude;  /* |gradient| */
    uint8_t *edges;    /* 1 = edge pixel after hysteresis, else 0 */
    int edge_count;
    float high, low;   /* the thresholds used */
} pt_canny_edges;

/* high = the high_quantile quantile of the non-zero gradient magnitudes (0.8:
 * the value above 80 % of them), low = low_ratio * high. Pixels come from
 * pix (row y at pix + y*stride). Scratch and outputs come from arena. */
pt_status pt_canny_detect(const uint8_t *pix, int stride, int width, int height,
                          double sigma, double high_quantile, double low_ratio,
                          pt_arena *arena, pt_canny_edges *out, pt_error *err);

/* The value above `quantile` of the non-zero values (> 1e-3) (histogram of `bins` bins
 * over [0, max]); 0 when all are zero. hist holds `bins` ints of scratch. */
float pt_canny_quantile(const float *values, int n, double quantile, int *hist, int bins);

#endif
