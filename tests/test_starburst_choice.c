/* Starburst's answer among its iterations' fits (lib/detect/starburst_choice.h):
 * with fit_choice=larger a larger fit at most PT_SB_CHOICE_MARGIN less
 * confident replaces the best, a clearly more confident one always does, a
 * darker disc still loses; fit_choice=visible also judges a larger, clearly
 * less confident fit again (pt_sb_visible_wanted, pt_sb_visible_wins);
 * fit_choice=confident is pt_sb_fit_better. */
#include <string.h>

#include "lib/detect/starburst_choice.h"
#include "tests/pt_test.h"

static pt_ellipse round_fit(double r)
{
    pt_ellipse e = {100.0, 100.0, r, r, 0.0};
    return e;
}

int main(void)
{
    pt_sb_config k;
    memset(&k, 0, sizeof k);
    k.fit_choice = PT_SB_CHOICE_LARGER;
    pt_ellipse small = round_fit(40.0), large = round_fit(50.0);
    double m = PT_SB_CHOICE_MARGIN;

    PT_CHECK(pt_sb_fit_wins(&k, 0.1, 0, &small, -1.0, 0, &large), "the first fit is taken");
    PT_CHECK(pt_sb_fit_wins(&k, 0.9 - m, 0, &large, 0.9, 0, &small),
             "a larger fit the margin less confident replaces the best");
    PT_CHECK(!pt_sb_fit_wins(&k, 0.9 - 2.0 * m, 0, &large, 0.9, 0, &small),
             "a larger fit clearly less confident does not");
    PT_CHECK(!pt_sb_fit_wins(&k, 0.9 + m, 0, &small, 0.9, 0, &large),
             "a smaller fit at most the margin more confident does not");
    PT_CHECK(pt_sb_fit_wins(&k, 0.9 + 2.0 * m, 0, &small, 0.5, 0, &large) &&
                 pt_sb_fit_wins(&k, 0.5 + 2.0 * m, 0, &small, 0.5, 0, &large),
             "a clearly more confident fit replaces the best");
    PT_CHECK(!pt_sb_fit_wins(&k, 0.9, 0, &small, 0.9, 0, &small),
             "an equal fit of the same size: the first of equals stays");
    PT_CHECK(!pt_sb_fit_wins(&k, 0.9, 1, &large, 0.5, 0, &small),
             "a fit with a darker disc loses to one without");
    PT_CHECK(pt_sb_fit_wins(&k, 0.2, 0, &small, 0.9, 1, &large),
             "a fit without a darker disc beats one with it");

    /* visible: as larger; a larger fit that loses by more than the margin
     * is judged again on its visible confidence, against the best's */
    k.fit_choice = PT_SB_CHOICE_VISIBLE;
    PT_CHECK(pt_sb_fit_wins(&k, 0.9 - m, 0, &large, 0.9, 0, &small) &&
                 !pt_sb_fit_wins(&k, 0.9 - 2.0 * m, 0, &large, 0.9, 0, &small) &&
                 !pt_sb_fit_wins(&k, 0.9, 1, &large, 0.5, 0, &small),
             "visible: the larger rule first");
    PT_CHECK(pt_sb_visible_wanted(&k, 0.9 - 2.0 * m, 0, &large, 0.9, 0, &small),
             "visible: a larger fit clearly less confident is judged again");
    PT_CHECK(!pt_sb_visible_wanted(&k, 0.9 - 2.0 * m, 0, &small, 0.9, 0, &large) &&
                 !pt_sb_visible_wanted(&k, 0.9 - 2.0 * m, 1, &large, 0.9, 0, &small) &&
                 !pt_sb_visible_wanted(&k, 0.9 - 2.0 * m, 0, &large, -1.0, 0, &small),
             "visible: not a smaller fit, one with a darker disc, or the first fit");
    PT_CHECK(pt_sb_visible_wins(0.9 - m, 0.9) && !pt_sb_visible_wins(0.9 - 2.0 * m, 0.9),
             "visible: within the margin of the best's confidence");
    k.fit_choice = PT_SB_CHOICE_LARGER;
    PT_CHECK(!pt_sb_visible_wanted(&k, 0.9 - 2.0 * m, 0, &large, 0.9, 0, &small),
             "larger: no second judgement");

    k.fit_choice = PT_SB_CHOICE_CONFIDENT;
    PT_CHECK(!pt_sb_fit_wins(&k, 0.9 - m, 0, &large, 0.9, 0, &small),
             "confident: a larger, less confident fit does not replace the best");
    PT_CHECK(pt_sb_fit_wins(&k, 0.9 + 0.01, 0, &small, 0.9, 0, &large),
             "confident: the more confident wins");

    /* the end of the search: converged, or converge_stall iterations in a
     * row without a better fit */
    k.stall = 3;
    PT_CHECK(pt_sb_search_done(&k, 9.9, 10.0, 0), "the centre moved less than converge_px");
    PT_CHECK(!pt_sb_search_done(&k, 10.0, 10.0, 2), "moved 10 px, 2 iterations without a better fit");
    PT_CHECK(pt_sb_search_done(&k, 50.0, 10.0, 3), "3 iterations without a better fit end it");
    k.stall = 0;
    PT_CHECK(!pt_sb_search_done(&k, 50.0, 10.0, 1000), "converge_stall 0: only the centre ends it");
    return PT_TEST_SUMMARY("starburst_choice");
}
