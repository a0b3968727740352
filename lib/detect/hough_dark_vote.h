/* Canny-Hough's dark-edge voting (pupiltrack(1), hough_dark_vote), shared
 * by omp/detect/hough.c and cuda/detect/hough_vote.cu (PT_HD, header-only).
 *
 * Gradient voting's centre is where most edges point; a lid over the pupil
 * leaves only part of its outline and adds the lid's own edges, lashes and
 * creases, whose votes pull that centre 20 to 60 px off the pupil's, so no
 * radius around it fits the pupil. The pupil's own border is the edge with
 * the pupil behind it: a second centre is voted for by the edges that have
 * a pixel at most as bright as the darkest box of the coarse localisation
 * (lib/detect/hough_seed.h) + hough_dark_spread at 0.5, 1 or 1.5 x the
 * smallest radius searched in along their dark direction
 * (pt_hough_dark_behind), and that do not lie on a flat edge
 * (lib/detect/hough_flat.h: the lid across the pupil has the pupil behind
 * it too). Its PT_HOUGH_DARK_RADII strongest radii (from those edges alone)
 * are candidates beside the voting's and the seed's, refined and chosen
 * alike (lib/detect/hough_choose.h). A radius whose circle the candidates
 * before it already hold (centre within PT_HOUGH_DARK_SAME_SHIFT x r,
 * radius within PT_HOUGH_DARK_SAME_RADIUS: the lid-free eye, where both
 * votes agree) is not offered again; where they differ more, they stay even
 * when their refined circle repeats a voting candidate: their centre comes
 * from the pupil's border alone. */
#ifndef PT_HOUGH_DARK_VOTE_H
#define PT_HOUGH_DARK_VOTE_H

#include <stdint.h>

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/hough_dark.h"
#include "lib/io/pt_image.h"

#define PT_HOUGH_DARK_RADII 2 /* radius candidates of the dark-edge centre */
#define PT_HOUGH_DARK_SAME_SHIFT 0.05 /* pt_hough_dark_vote_new: centre shift / radius */
#define PT_HOUGH_DARK_SAME_RADIUS 0.1 /* pt_hough_dark_vote_new: radius difference / larger */

/* The step of pt_hough_dark_behind for the dark-edge vote: half the
 * smallest radius searched. */
static inline PT_HD double pt_hough_dark_vote_reach(int min_r)
{
    return 0.5 * min_r;
}

/* The grey level limit of the dark-edge vote: the seed box's mean level
 * (truncated) + spread (pt_hough_dark_limit); -1 when there is no seed
 * (seed_level < 0: no dark-edge vote). */
static inline PT_HD int pt_hough_dark_vote_limit(double seed_level, int spread)
{
    if (seed_level < 0.0)
        return -1;
    return pt_hough_dark_limit((int)seed_level, spread);
}

/* Whether the edge at (x, y) (full frame) with unit dark direction (ux, uy)
 * votes for the dark-edge centre: not flat, and a pixel of img at most
 * limit at 1, 2 or 3 steps of reach in along (ux, uy). */
static inline PT_HD int pt_hough_dark_vote_edge(const pt_image *img, double x, double y,
                                                double ux, double uy, int flat, double reach,
                                                int limit)
{
    return !flat && pt_hough_dark_behind(img, x, y, ux, uy, reach, limit);
}

/* The dark-edge vote's circles cand[at .. at + count) that no circle of
 * cand[0 .. at) repeats (centre within PT_HOUGH_DARK_SAME_SHIFT x its
 * radius, radii within PT_HOUGH_DARK_SAME_RADIUS of the larger), moved
 * down in order to cand[at ..); returns their number. */
static inline PT_HD int pt_hough_dark_vote_new(pt_circle *cand, int at, int count)
{
    int kept = 0;
    for (int k = at; k < at + count; k++) {
        const pt_circle *c = &cand[k];
        double shift = PT_HOUGH_DARK_SAME_SHIFT * c->r;
        int same = 0;
        for (int m = 0; m < at && !same; m++) {
            double dx = c->cx - cand[m].cx, dy = c->cy - cand[m].cy;
            double big = c->r > cand[m].r ? c->r : cand[m].r;
            double dr = c->r > cand[m].r ? c->r - cand[m].r : cand[m].r - c->r;
            same = dx * dx + dy * dy <= shift * shift && dr <= PT_HOUGH_DARK_SAME_RADIUS * big;
        }
        if (!same)
            cand[at + kept++] = *c;
    }
    return kept;
}

#endif
