/* Canny-Hough gradient voting's sub-cell centre (pupiltrack(1), hough_vote),
 * shared by omp/detect/hough.c and cuda/detect/hough_vote.cu (PT_HD,
 * header-only): the centre accumulator's cells are cell x cell px, and the
 * weighted mean of the 3x3 cells around the peak cell places the centre
 * between cell centres. Both back ends add the cells in the same order. */
#ifndef PT_HOUGH_PEAK_H
#define PT_HOUGH_PEAK_H

#include <stddef.h>

#include "lib/core/pt_hd.h"

/* The weighted mean of the centres (px, roi coordinates) of the 3x3 cells
 * around cell (bx, by) of acc (cw cells a row; bx, by at least 1 from its
 * border), weighted by their votes (not all zero), in *cx, *cy. */
static inline PT_HD void pt_hough_peak_centre(const float *acc, int cw, int cell, int bx,
                                              int by, double *cx, double *cy)
{
    double sx = 0.0, sy = 0.0, sw = 0.0;
    for (int y = by - 1; y <= by + 1; y++)
        for (int x = bx - 1; x <= bx + 1; x++) {
            double v = acc[(size_t)y * cw + x];
            sx += v * ((x + 0.5) * cell - 0.5);
            sy += v * ((y + 0.5) * cell - 0.5);
            sw += v;
        }
    *cx = sx / sw;
    *cy = sy / sw;
}

#endif
