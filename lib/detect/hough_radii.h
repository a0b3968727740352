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

#include <math.h>

#include "lib/core/pt_hd.h"

/* the strongest radii: from this share of the best score */
#define PT_HOUGH_RADIUS_KEEP 0.05
/* the smallest radii: from this share of the best score */
#define PT_HOUGH_RADIUS_KEEP_SMALL 0.15
/* gradient voting's centre: this many strongest radii, the rest the smallest
 * (the coarse localisation's seed: the smallest only) */
#define PT_HOUGH_STRONG_RADII 3
/* candidates differ by more than 1 / this share of the larger radius */
#define PT_HOUGH_RADIUS_APART_DIV 5
/* a radius's score counts the votes within this share of it */
#define PT_HOUGH_RADIUS_BAND 0.1
/* votes are counted in units of 1 / this of gradient magnitude */
#define PT_HOUGH_VOTE_SCALE 256.0f

/* A radius vote's weight: the edge's gradient magnitude (>= 0) in fixed
 * point. Integer sums do not depend on the order the votes are added in,
 * so a back end may add them in parallel and still agree with the other. */
static inline PT_HD long long pt_hough_vote_weight(float mag)
{
    return (long long)(mag * PT_HOUGH_VOTE_SCALE + 0.5f);
}

/* score[r] from the radius histogram hist[0..max_r]: the votes within
 * +-PT_HOUGH_RADIUS_BAND r of r per px of circumference. */
static inline PT_HD double pt_hough_radius_score(const long long *hist, int max_r, int r)
{
    int band = (int)ceil(PT_HOUGH_RADIUS_BAND * r);
    long long n = 0;
    for (int k = r - band; k <= r + band; k++)
        n += k >= 0 && k <= max_r ? hist[k] : 0;
    return (double)n / ((double)PT_HOUGH_VOTE_SCALE * 2.0 * M_PI * r);
}

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

/* Whether radius r is near one of radius[0..n) (pt_hough_radius_near). */
static inline PT_HD int pt_hough_radius_taken(const int *radius, int n, int r)
{
    for (int k = 0; k < n; k++)
        if (pt_hough_radius_near(r, radius[k]))
            return 1;
    return 0;
}

/* The strongest local maxima of at least keep in [lo, hi] not near one of
 * radius[0..n) appended to radius[] one by one (ties to the smaller
 * radius) until there are upto; returns the new count. */
static inline PT_HD int pt_hough_radius_strongest(const double *score, int min_r, int max_r,
                                                  int lo, int hi, double keep, int upto,
                                                  int *radius, int n)
{
    while (n < upto) {
        int pick = -1;
        for (int r = lo; r <= hi; r++)
            if (pt_hough_radius_peak(score, min_r, max_r, r, keep) &&
                (pick < 0 || score[r] > score[pick]) && !pt_hough_radius_taken(radius, n, r))
                pick = r;
        if (pick < 0)
            break;
        radius[n++] = pick;
    }
    return n;
}

/* The candidate radii of score[min_r..max_r] within [lo, hi] (clamped to
 * [min_r, max_r]), at most max of them, written to radius[] smallest first;
 * returns their number. First the `strong` strongest local maxima of at
 * least PT_HOUGH_RADIUS_KEEP x the best score in [lo, hi], each not near
 * one taken before (ties to the smaller radius); then the smallest local
 * maxima of at least PT_HOUGH_RADIUS_KEEP_SMALL x the best not near one
 * taken, until max; then, when strong > 0, more of the strongest until
 * max. */
static inline PT_HD int pt_hough_radius_peaks(const double *score, int min_r, int max_r, int lo,
                                              int hi, int strong, int max, int *radius)
{
    lo = lo < min_r ? min_r : lo;
    hi = hi > max_r ? max_r : hi;
    double best = 0.0;
    for (int r = lo; r <= hi; r++)
        best = score[r] > best ? score[r] : best;
    double keep = PT_HOUGH_RADIUS_KEEP * best, keep_small = PT_HOUGH_RADIUS_KEEP_SMALL * best;
    int count = pt_hough_radius_strongest(score, min_r, max_r, lo, hi, keep,
                                          strong < max ? strong : max, radius, 0);
    for (int r = lo; r <= hi && count < max; r++)
        if (pt_hough_radius_peak(score, min_r, max_r, r, keep_small) &&
            !pt_hough_radius_taken(radius, count, r))
            radius[count++] = r;
    if (strong > 0)
        count = pt_hough_radius_strongest(score, min_r, max_r, lo, hi, keep, max, radius, count);
    /* insertion sort: smallest first */
    for (int k = 1; k < count; k++) {
        int v = radius[k], j = k;
        while (j > 0 && radius[j - 1] > v) {
            radius[j] = radius[j - 1];
            j--;
        }
        radius[j] = v;
    }
    return count;
}

#endif
