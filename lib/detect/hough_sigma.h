/* Canny-Hough's filter scale per eye region (pupiltrack(1), hough_sigma),
 * shared by omp/detect/hough.c, cli/draw_stages.c and cuda/detect/hough.cu,
 * cuda/detect/canny.cu (PT_HD, header-only).
 *
 * hough_sigma is the Gaussian's sigma for an eye region whose short side is
 * below PT_HOUGH_SIGMA_SIDE px; a larger region is filtered with sigma x
 * (short side / PT_HOUGH_SIGMA_SIDE), an integer step of at most
 * PT_HOUGH_SIGMA_STEPS. The same eye imaged at a higher resolution keeps its
 * structures as many filter widths across, and the pixel noise and fine
 * skin texture of a large frame, which the high threshold's quantile
 * (canny_high) otherwise lets through as edges all over the region (and
 * into the pupil), are smoothed away at the same rate. Integer steps, so the
 * CUDA back end filters with one of PT_HOUGH_SIGMA_STEPS sets of taps made
 * on the host. */
#ifndef PT_HOUGH_SIGMA_H
#define PT_HOUGH_SIGMA_H

#include "lib/core/pt_hd.h"

#define PT_HOUGH_SIGMA_SIDE 512 /* px of short side per step */
#define PT_HOUGH_SIGMA_STEPS 8  /* largest step */

/* The step (1 .. PT_HOUGH_SIGMA_STEPS) of a w x h eye region. */
static inline PT_HD int pt_hough_sigma_step(int w, int h)
{
    int side = w < h ? w : h, k = side / PT_HOUGH_SIGMA_SIDE;
    return k < 1 ? 1 : k > PT_HOUGH_SIGMA_STEPS ? PT_HOUGH_SIGMA_STEPS : k;
}

/* The sigma the Canny filters of a w x h eye region use. */
static inline PT_HD double pt_hough_sigma(double sigma, int w, int h)
{
    return sigma * pt_hough_sigma_step(w, h);
}

#endif
