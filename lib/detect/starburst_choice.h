/* Starburst's answer among its iterations' fits (man page, fit_choice),
 * shared by omp/detect/starburst.c and cuda/detect/starburst.cu (PT_HD,
 * header-only).
 *
 * An iteration's fit that settles inside the pupil (tangent to a lid's
 * edge, to a reflection on the border, or on the dark foot of a blurred
 * border) has an outline that is darker inside than outside nearly all the
 * way round, so its confidence is about that of the pupil's own outline,
 * whose samples under a lid or a reflection fail; an outline around the
 * iris holds a darker disc (lib/detect/starburst_inner.h). With
 * PT_SB_CHOICE_LARGER a fit replaces the best so far when it is clearly
 * more confident (by more than PT_SB_CHOICE_MARGIN) or, no more than that
 * margin less confident, larger (mean semi-axis of the reported ellipse);
 * a fit without a darker disc still beats one with it. With
 * PT_SB_CHOICE_VISIBLE a larger fit that loses by more than the margin is
 * judged again on the part of its outline that no lid covers
 * (pt_sb_visible_wanted). With PT_SB_CHOICE_CONFIDENT the more confident
 * wins (pt_sb_fit_better). */
#ifndef PT_STARBURST_CHOICE_H
#define PT_STARBURST_CHOICE_H

#include "lib/core/pt_geom.h"
#include "lib/core/pt_hd.h"
#include "lib/detect/confidence.h"
#include "lib/detect/starburst_inner.h"
#include "lib/detect/starburst_ray.h"

/* Confidence margin: 3 of the PT_CONFIDENCE_SAMPLES outline samples. */
#define PT_SB_CHOICE_MARGIN (3.0 / PT_CONFIDENCE_SAMPLES)

/* Whether an iteration's fit (confidence conf, dark: pt_sb_dark_core,
 * reported ellipse e) replaces the best so far (best_conf, < 0: none;
 * best_dark; its ellipse best_e), by k's fit_choice. */
static inline PT_HD int pt_sb_fit_wins(const pt_sb_config *k, double conf, int dark,
                                       const pt_ellipse *e, double best_conf, int best_dark,
                                       const pt_ellipse *best_e)
{
    if (k->fit_choice == PT_SB_CHOICE_CONFIDENT || !(best_conf >= 0) || dark != best_dark)
        return pt_sb_fit_better(conf, dark, best_conf, best_dark);
    if (conf > best_conf + PT_SB_CHOICE_MARGIN)
        return 1;
    return conf >= best_conf - PT_SB_CHOICE_MARGIN && e->a + e->b > best_e->a + best_e->b;
}

/* fit_choice=visible: whether a fit that did not win (pt_sb_fit_wins) is
 * judged again on its visible confidence (lib/detect/starburst_visible.h):
 * it is larger than the best so far, as dark inside, and less confident by
 * more than the margin. */
static inline PT_HD int pt_sb_visible_wanted(const pt_sb_config *k, double conf, int dark,
                                             const pt_ellipse *e, double best_conf, int best_dark,
                                             const pt_ellipse *best_e)
{
    return k->fit_choice == PT_SB_CHOICE_VISIBLE && best_conf >= 0 && dark == best_dark &&
           conf < best_conf - PT_SB_CHOICE_MARGIN && e->a + e->b > best_e->a + best_e->b;
}

/* Whether such a fit, of visible confidence `visible`, replaces the best:
 * it is no more than the margin less confident than the best's confidence. */
static inline PT_HD int pt_sb_visible_wins(double visible, double best_conf)
{
    return visible >= best_conf - PT_SB_CHOICE_MARGIN;
}

/* Whether the search ends after an iteration (man page, converge_px and
 * converge_stall): the fitted centre moved less than converge_px, or the
 * last `stall` iterations in a row gave no fit that replaced the best so
 * far (k->stall of them; a frame without a pupil, whose fits wander over
 * the eye until max_iterations). */
static inline PT_HD int pt_sb_search_done(const pt_sb_config *k, double moved,
                                          double converge_px, int stall)
{
    return moved < converge_px || (k->stall > 0 && stall >= k->stall);
}

#endif
