/* The confidence measures of eval (pupiltrack(1), METRICS: confidence): the
 * ROC AUC against hand-computed examples (ties, undefined classes) and the
 * AUCs and threshold cuts of a small results file against its ground truth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/confidence_eval.h"
#include "eval/roc.h"
#include "tests/pt_test.h"

static void test_auc_by_hand(void)
{
    /* positives 0.9 0.8 0.6 0.5, negatives 0.7 0.5: pairs won
     * 2 + 2 + 1 + 0.5 (0.5 against 0.5 is a tie) of 4 x 2 = 5.5 / 8 */
    pt_roc_item it[] = {{0.5, 0}, {0.9, 1}, {0.6, 1}, {0.7, 0}, {0.8, 1}, {0.5, 1}};
    PT_CHECK_NEAR(pt_roc_auc(it, 6), 0.6875, 1e-12, "hand example with a tie");
    pt_roc_item perfect[] = {{0.1, 0}, {0.2, 0}, {0.3, 1}};
    PT_CHECK_NEAR(pt_roc_auc(perfect, 3), 1.0, 1e-12, "separated");
    pt_roc_item reversed[] = {{0.1, 1}, {0.2, 1}, {0.3, 0}};
    PT_CHECK_NEAR(pt_roc_auc(reversed, 3), 0.0, 1e-12, "reversed");
    pt_roc_item tied[] = {{0.4, 1}, {0.4, 0}, {0.4, 1}, {0.4, 0}};
    PT_CHECK_NEAR(pt_roc_auc(tied, 4), 0.5, 1e-12, "all tied");
    pt_roc_item one_class[] = {{0.4, 1}, {0.2, 1}};
    PT_CHECK(pt_roc_auc(one_class, 2) < 0, "one class: undefined");
    PT_CHECK(pt_roc_auc(one_class, 0) < 0, "no items: undefined");
}

/* Ground truth: 6 frames at (50,50) r 10, one blink, one without a pupil.
 * Results: a (3 px off, conf 0.9), b (0 px, 0.8), c (20 px off, 0.7),
 * d (1 px, 0.4), e notfound, f no row; the blink and the closed eye found. */
static void test_results_file(void)
{
    const char *gt_text = "image,cx,cy,r,blink\n"
                          "a.png,50,50,10,0\nb.png,50,50,10,0\nc.png,50,50,10,0\n"
                          "d.png,50,50,10,0\ne.png,50,50,10,0\nf.png,50,50,10,0\n"
                          "z.png,50,50,10,1\nclosed.png,,,,0\n";
    const char *res_text = "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message\n"
                           "a.png,,tl,omp,ok,53,50,10,,,,0.9,1,\n"
                           "b.png,,tl,omp,ok,50,50,10.5,,,,0.8,1,\n"
                           "c.png,,tl,omp,ok,70,50,10,,,,0.7,1,\n"
                           "d.png,,tl,omp,ok,51,50,14,,,,0.4,1,\n"
                           "e.png,,tl,omp,notfound,,,,,,,0.95,1,\n"
                           "z.png,,tl,omp,ok,0,0,10,,,,0.1,1,\n"
                           "closed.png,,tl,omp,ok,0,0,10,,,,0.99,1,\n";
    pt_error err;
    pt_gt gt;
    pt_results res;
    int ok = !pt_gt_load_memory(gt_text, strlen(gt_text), "gt.csv", "", &gt, &err) &&
             !pt_results_load_memory(res_text, strlen(res_text), "r.csv", &res, &err);
    PT_CHECK(ok, "inputs load: %s", ok ? "" : err.what);
    if (!ok)
        return;
    pt_eval ev;
    pt_eval_frames frames;
    PT_CHECK(!pt_eval_run_frames(&gt, &res, PT_SHAPE_AUTO, &ev, &frames, &err), "run");
    PT_CHECK(frames.count == 6, "6 scored frames, not %ld", frames.count);
    pt_conf_summary s;
    PT_CHECK(!pt_conf_summarise(&frames, &s, &err), "summary");
    PT_CHECK(s.detected == 4, "4 detections, not %ld", s.detected);
    /* within 5 px: a b d (0.9 0.8 0.4); not: c 0.7, e and f below all.
     * pairs won: a 3, b 3, d 2 of 3 x 3 = 8 / 9 */
    PT_CHECK_NEAR(s.auc_px5, 8.0 / 9.0, 1e-12, "AUC within 5 px");
    /* within 10 % of r 10 (1 px): b only (0.8) against a c d e f; it beats
     * c 0.7, d 0.4, e and f, not a 0.9: 4 / 5 */
    PT_CHECK_NEAR(s.auc_rel10, 4.0 / 5.0, 1e-12, "AUC within 10 %");
    /* among detections: a b d against c: 0.9 and 0.8 win, 0.4 loses: 2 / 3 */
    PT_CHECK_NEAR(s.auc_px5_detections, 2.0 / 3.0, 1e-12, "AUC among detections");
    pt_conf_cut cut;
    pt_conf_cut_at(&frames, 0.75, &cut);
    PT_CHECK(cut.kept == 2 && cut.kept_px5 == 2 && cut.kept_rel == 2 && cut.kept_rel10 == 1,
             "cut 0.75: kept %ld, %ld within 5 px, %ld within 10 %%", cut.kept, cut.kept_px5,
             cut.kept_rel10);
    pt_conf_cut_at(&frames, 0.0, &cut);
    PT_CHECK(cut.kept == 4 && cut.kept_px5 == 3, "cut 0: every detection, 3 within 5 px");
    pt_conf_cut_at(&frames, 0.7, &cut);
    PT_CHECK(cut.kept == 3 && cut.kept_px5 == 2, "cut 0.7 keeps its equal");
    pt_eval_frames_free(&frames);
    pt_results_free(&res);
    pt_gt_free(&gt);
}

int main(void)
{
    test_auc_by_hand();
    test_results_file();
    return PT_TEST_SUMMARY("confidence_eval");
}
