#include "eval/confidence_eval.h"

#include <stdlib.h>

#include "eval/roc.h"

/* Errors equal to a threshold up to rounding count as within it (as in
 * eval/metrics.c). */
#define CONF_TOLERANCE 1e-9
/* A frame without a detection: below every confidence in [0,1]. */
#define CONF_NONE -1.0

static int within_px(const pt_eval_frame *f) { return f->px_error <= PT_CONF_PX + CONF_TOLERANCE; }
static int within_rel(const pt_eval_frame *f) { return f->rel_error <= PT_CONF_REL + CONF_TOLERANCE; }
static double score(const pt_eval_frame *f) { return f->outcome == PT_EVAL_DETECTED ? f->confidence : CONF_NONE; }

pt_status pt_conf_summarise(const pt_eval_frames *frames, pt_conf_summary *s, pt_error *err)
{
    s->frames = frames->count;
    s->detected = s->rel_frames = 0;
    s->auc_px5 = s->auc_rel10 = s->auc_px5_detections = -1.0;
    pt_roc_item *items = malloc(((size_t)frames->count + 1) * sizeof *items);
    if (!items)
        return pt_error_set(err, PT_ERR_NOMEM, "", "out of memory");
    long n = 0;
    for (long i = 0; i < frames->count; i++) {
        const pt_eval_frame *f = &frames->frames[i];
        s->detected += f->outcome == PT_EVAL_DETECTED;
        items[n++] = (pt_roc_item){score(f), within_px(f)};
    }
    s->auc_px5 = pt_roc_auc(items, n);
    n = 0;
    for (long i = 0; i < frames->count; i++)
        if (frames->frames[i].rel_scored)
            items[n++] = (pt_roc_item){score(&frames->frames[i]), within_rel(&frames->frames[i])};
    s->rel_frames = n;
    s->auc_rel10 = pt_roc_auc(items, n);
    n = 0;
    for (long i = 0; i < frames->count; i++)
        if (frames->frames[i].outcome == PT_EVAL_DETECTED)
            items[n++] = (pt_roc_item){frames->frames[i].confidence, within_px(&frames->frames[i])};
    s->auc_px5_detections = pt_roc_auc(items, n);
    free(items);
    return PT_OK;
}

void pt_conf_cut_at(const pt_eval_frames *frames, double threshold, pt_conf_cut *cut)
{
    *cut = (pt_conf_cut){threshold, 0, 0, 0, 0};
    for (long i = 0; i < frames->count; i++) {
        const pt_eval_frame *f = &frames->frames[i];
        if (f->outcome != PT_EVAL_DETECTED || f->confidence < threshold)
            continue;
        cut->kept++;
        cut->kept_px5 += within_px(f);
        if (f->rel_scored) {
            cut->kept_rel++;
            cut->kept_rel10 += within_rel(f);
        }
    }
}

static void print_auc(FILE *out, double auc)
{
    if (auc < 0)
        fprintf(out, "-");
    else
        fprintf(out, "%.3f", auc);
}

static void print_share(FILE *out, long part, long whole)
{
    if (whole > 0)
        fprintf(out, "%5.1f %%", 100.0 * (double)part / (double)whole);
    else
        fprintf(out, "    - %%");
}

void pt_conf_print(FILE *out, const pt_conf_summary *s, const pt_conf_cut *cuts, int ncuts)
{
    fprintf(out, "  confidence ROC AUC     ");
    print_auc(out, s->auc_px5);
    fprintf(out, " within 5 px, ");
    print_auc(out, s->auc_rel10);
    fprintf(out, " within 10 %% (no detection ranks lowest); ");
    print_auc(out, s->auc_px5_detections);
    fprintf(out, " within 5 px among %ld detections\n", s->detected);
    for (int i = 0; i < ncuts; i++) {
        const pt_conf_cut *c = &cuts[i];
        fprintf(out, "  confidence >= %.2f     %ld of %ld frames (", c->threshold, c->kept,
                s->frames);
        print_share(out, c->kept, s->frames);
        fprintf(out, ") kept: ");
        print_share(out, c->kept_px5, c->kept);
        fprintf(out, " within 5 px, ");
        print_share(out, c->kept_rel10, c->kept_rel);
        fprintf(out, " within 10 %%\n");
    }
}
