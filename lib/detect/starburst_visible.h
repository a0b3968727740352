/* The confidence of a fit over the part of its outline that nothing brighter
 * covers, for Starburst's fit_choice=visible (man page), shared by
 * omp/detect/starburst.c and cuda/detect/starburst_select.cuh (PT_HD,
 * header-only).
 *
 * A lid over the top of a pupil hides that arc of its border. A fit around
 * the whole pupil then has its outline there in the lid's skin, where the
 * confidence samples (lib/detect/confidence.h) fail, and it loses to a fit
 * that settles inside the visible part, tangent to the lid. A sample whose
 * inside level lies PT_VISIBLE_LIFT or more grey levels above the pupil's
 * own level (the median inside level of the samples that pass) is covered;
 * the visible confidence is the share of passing samples among those not
 * covered. A lid is one arc at the top, another at the bottom, and hides at
 * most half the outline; a fit covered more (an outline around the iris,
 * in the iris all the way round) keeps its plain confidence.
 *
 * The median is by ranks (levels below a sample's, and equal ones at lower
 * sample indices), so a block of threads, a sample each, finds the value
 * a sort puts there, as the serial code does. */
#ifndef PT_STARBURST_VISIBLE_H
#define PT_STARBURST_VISIBLE_H

#include "lib/core/pt_hd.h"
#include "lib/detect/confidence.h"

#define PT_VISIBLE_LIFT 20   /* grey levels above the pupil's level: covered */
#define PT_VISIBLE_RUNS 2    /* covered arcs at most: an upper and a lower lid */
#define PT_VISIBLE_SHARE 0.5 /* covered samples at most, a share of the valid ones */

/* A sample's state: outside the image, passing (inside darker by the
 * confidence margin) or failing. */
enum { PT_VISIBLE_NONE = 0, PT_VISIBLE_PASS = 1, PT_VISIBLE_FAIL = 2 };

/* Sample k of e (pt_confidence_axes' ct, st): its state and inside level. */
static inline PT_HD int pt_visible_sample(const pt_image *img, const pt_ellipse *e, double ct,
                                          double st, int k, int *inside)
{
    int outside;
    *inside = 0;
    if (!pt_confidence_levels(img, e, ct, st, k, inside, &outside))
        return PT_VISIBLE_NONE;
    return outside - *inside >= PT_CONFIDENCE_MARGIN ? PT_VISIBLE_PASS : PT_VISIBLE_FAIL;
}

/* Sample k's rank among the passing samples (state[], inside[] of all
 * PT_CONFIDENCE_SAMPLES): how many pass with a lower level, or an equal
 * one at a lower index. */
static inline PT_HD int pt_visible_rank(const int *state, const int *inside, int k)
{
    int rank = 0;
    for (int u = 0; u < PT_CONFIDENCE_SAMPLES; u++)
        rank += state[u] == PT_VISIBLE_PASS &&
                (inside[u] < inside[k] || (inside[u] == inside[k] && u < k));
    return rank;
}

/* Whether sample k is covered, given the pupil's level. */
static inline PT_HD int pt_visible_covered(const int *state, const int *inside, int k, int level)
{
    return state[k] != PT_VISIBLE_NONE && inside[k] >= level + PT_VISIBLE_LIFT;
}

/* Whether covered sample k starts an arc (the sample before it, round the
 * outline, is not covered). */
static inline PT_HD int pt_visible_arc_start(const int *state, const int *inside, int k,
                                             int level)
{
    int before = (k + PT_CONFIDENCE_SAMPLES - 1) % PT_CONFIDENCE_SAMPLES;
    return pt_visible_covered(state, inside, k, level) &&
           !pt_visible_covered(state, inside, before, level);
}

/* The visible confidence from the counts: valid and passing samples, the
 * covered ones and those of them that pass, and the covered arcs (0 when
 * the whole outline is covered). */
static inline PT_HD double pt_visible_from_counts(int valid, int pass, int covered,
                                                  int covered_pass, int arcs)
{
    if (covered == 0 || arcs == 0 || arcs > PT_VISIBLE_RUNS ||
        covered > PT_VISIBLE_SHARE * valid)
        return pt_confidence_from_counts(valid, pass);
    return pt_confidence_from_counts(valid - covered, pass - covered_pass);
}

/* The visible confidence of e (the serial reference). */
static inline PT_HD double pt_visible_confidence(const pt_image *img, const pt_ellipse *e)
{
    double ct, st;
    if (!pt_confidence_axes(e, &ct, &st))
        return 0.0;
    int state[PT_CONFIDENCE_SAMPLES], inside[PT_CONFIDENCE_SAMPLES];
    int valid = 0, pass = 0;
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++) {
        state[k] = pt_visible_sample(img, e, ct, st, k, &inside[k]);
        valid += state[k] != PT_VISIBLE_NONE;
        pass += state[k] == PT_VISIBLE_PASS;
    }
    int level = 0; /* no passing sample: 0, and the confidence is 0 either way */
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++)
        if (state[k] == PT_VISIBLE_PASS && pt_visible_rank(state, inside, k) == pass / 2)
            level = inside[k];
    int covered = 0, covered_pass = 0, arcs = 0;
    for (int k = 0; k < PT_CONFIDENCE_SAMPLES; k++) {
        int c = pt_visible_covered(state, inside, k, level);
        covered += c;
        covered_pass += c && state[k] == PT_VISIBLE_PASS;
        arcs += pt_visible_arc_start(state, inside, k, level);
    }
    return pt_visible_from_counts(valid, pass, covered, covered_pass, arcs);
}

#endif
