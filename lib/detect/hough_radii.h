/* Canny-Hough gradient voting's radius candidates of one centre, shared by
 * omp/detect/hough.c and cuda/detect/hough_vote.cu (PT_HD, header-only).
 *
 * score[r] is the edge support of radius r around the centre per px of
 * circumference (pupiltrack(1), hough_vote). Its local maxima of at least
 * PT_HOUGH_RADIUS_KEEP of the best are the candidates: the pupil lies inside
 * the iris, whose concentric outline may score far better (a pupil whose
 * centre is off the voting's centre, or one barely darker than a dark
 * iris, scores a fifth of the iris or less). When
 * there are more than the caller takes, the strongest are kept, each at
 * least a tenth of its radius from those kept before it: the dark inside
 * of a pupil holds noise and texture edges whose small circles make many
 * weak maxima below the pupil's radius, a strong iris outline makes a row
 * of maxima a few px apart, and a lid over the pupil leaves only part of
 * its outline to score, so taking the smallest maxima first, or all of one
 * outline's, would crowd the pupil out. The kept radii are returned
 * smallest first (the choice gives ties to the smaller radius). Exact
 * operations only: host and device keep the same radii. */
#ifndef PT_HOUGH_RADII_H
#define PT_HOUGH_RADII_H

#include "lib/core/pt_hd.h"

/* radii scoring this share of the best are candidates */
#define PT_HOUGH_RADIUS_KEEP 0.05
/* candidates differ by more than 1 / this share of the larger radius */
#define PT_HOUGH_RADIUS_APART_DIV 10

/* Whether radius r of score[min_r..max_r] is a local maximum (the first of
 * a plateau) of at least keep. */
static inline PT_HD int pt_hough_radius_peak(const double *score, int min_r, int max_r, int r,
                                             double keep)
{
    return score[r] > 0.0 && score[r] >= keep && (r == min_r || score[r] > score[r - 1]) &&
           (r == max_r || score[r] >= score[r + 1]);
}

/* Whether radius r lies within PT_HOUGH_RADIUS_APART of radius p (of the
 * larger): the same outline's score wavers there. */
static inline PT_HD int pt_hough_radius_near(int r, int p)
{
    int d = r > p ? r - p : p - r, big = r > p ? r : p;
    return PT_HOUGH_RADIUS_APART_DIV * d <= big;
}

/* The candidate radii of score[min_r..max_r] within [lo, hi] (clamped to
 * [min_r, max_r]): local maxima of at least PT_HOUGH_RADIUS_KEEP x the best
 * score in [lo, hi]; the strongest (ties to the smaller radius), then the
 * strongest not near it (pt_hough_radius_near), and so on, at most max of
 * them, written to radius[] smallest first. Returns their number. */
static inline PT_HD int pt_hough_radius_peaks(const double *score, int min_r, int max_r, int lo,
                                              int hi, int max, int *radius)
{
    lo = lo < min_r ? min_r : lo;
    hi = hi > max_r ? max_r : hi;
    double best = 0.0;
    for (int r = lo; r <= hi; r++)
        best = score[r] > best ? score[r] : best;
    double keep = PT_HOUGH_RADIUS_KEEP * best;
    int count = 0;
    while (count < max) {
        int pick = -1;
        for (int r = lo; r <= hi; r++) {
            if (!pt_hough_radius_peak(score, min_r, max_r, r, keep) ||
                (pick >= 0 && score[r] <= score[pick]))
                continue;
            int taken = 0;
            for (int k = 0; k < count && !taken; k++)
                taken = pt_hough_radius_near(r, radius[k]);
            if (!taken)
                pick = r;
        }
        if (pick < 0)
            break;
        /* insertion: radius[0..count] stays in increasing order */
        int j = count++;
        while (j > 0 && radius[j - 1] > pick) {
            radius[j] = radius[j - 1];
            j--;
        }
        radius[j] = pick;
    }
    return count;
}

#endif
