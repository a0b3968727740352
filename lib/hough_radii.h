/* Candidate radii of the Canny-Hough detector's gradient voting, shared by
 * omp/hough.c and cuda/hough_vote.cu (PT_HD, header-only).
 *
 * score[r] (min_r <= r <= max_r) is the edge support of radius r around the
 * voted centre per px of circumference. The pupil and the iris around it
 * both show as local maxima; a pupil whose centre lies off the iris's
 * scores far below the iris, so maxima down to keep x the best count, and
 * of those the `most` highest (ties: the smaller radius) are taken, in
 * increasing radius: small maxima of lashes and reflections do not crowd
 * out the pupil. */
#ifndef PT_HOUGH_RADII_H
#define PT_HOUGH_RADII_H

#include "pt_hd.h"

/* Radii of the chosen maxima into radii[0..most), increasing; returns how
 * many. */
static inline PT_HD int pt_hough_pick_radii(const double *score, int min_r, int max_r,
                                            double keep, int most, int *radii)
{
    double best = 0.0;
    for (int r = min_r; r <= max_r; r++)
        best = score[r] > best ? score[r] : best;
    int count = 0;
    while (count < most) {
        int pick = -1;
        for (int r = min_r; r <= max_r; r++) {
            if (!(score[r] >= keep * best) || (r > min_r && !(score[r] > score[r - 1])) ||
                (r < max_r && !(score[r] >= score[r + 1])))
                continue;
            int taken = 0;
            for (int k = 0; k < count; k++)
                taken |= radii[k] == r;
            if (!taken && (pick < 0 || score[r] > score[pick]))
                pick = r;
        }
        if (pick < 0)
            break;
        /* insert in increasing order */
        int k = count++;
        while (k > 0 && radii[k - 1] > pick) {
            radii[k] = radii[k - 1];
            k--;
        }
        radii[k] = pick;
    }
    return count;
}

#endif
