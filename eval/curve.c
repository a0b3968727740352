#include "eval/curve.h"


#include "lib/core/csv.h"

void pt_curve_write_header(FILE *out, int nparams, const char *const *param_names)
{
    fputs("config,metric,threshold,detected,total,rate", out);
    for (int i = 0; i < nparams; i++) {
        fputc(',', out);
        pt_csv_write_field(out, param_names[i]);
    }
    fputc('\n', out);
}

static void write_row(FILE *out, const char *config, const char *metric, double threshold,
                      long detected, long total, int nparams, const char *const *values)
{
    pt_csv_write_field(out, config);
    fprintf(out, ",%s,%g,%ld,%ld,", metric, threshold, detected, total);
    if (total > 0)
        fprintf(out, "%.6f", (double)detected / (double)total);
    for (int i = 0; i < nparams; i++) {
        fputc(',', out);
        pt_csv_write_field(out, values[i]);
    }
    fputc('\n', out);
}

int pt_curve_write(FILE *out, const char *config, const pt_eval *ev, int metrics,
                   int nparams, const char *const *param_values)
{
    if (metrics & PT_METRIC_RELATIVE)
        for (int i = 0; i < PT_EVAL_REL_STEPS; i++)
            write_row(out, config, "relative", 100 * pt_eval_relative_threshold(i),
                      ev->rel_detected[i], ev->rel_total, nparams, param_values);
    if (metrics & PT_METRIC_PIXEL)
        for (int i = 0; i < PT_EVAL_PX_STEPS; i++)
            write_row(out, config, "pixel", pt_eval_pixel_threshold(i), ev->px_detected[i],
                      ev->px_total, nparams, param_values);
    return ferror(out) ? -1 : 0;
}

static void print_rate(FILE *out, const char *label, long detected, long total)
{
    if (total > 0)
        fprintf(out, "  %-22s %6.2f %%  (%ld of %ld)\n", label,
                100.0 * (double)detected / (double)total, detected, total);
    else
        fprintf(out, "  %-22s    n/a    (nothing to score)\n", label);
}

static void print_examples(FILE *out, const char (*examples)[256], long count)
{
    for (long i = 0; i < count && i < PT_EVAL_EXAMPLES; i++)
        fprintf(out, "      e.g. %s\n", examples[i]);
    if (count > PT_EVAL_EXAMPLES)
        fprintf(out, "      ... and %ld more\n", count - PT_EVAL_EXAMPLES);
}

void pt_eval_print_summary(FILE *out, const char *config, const pt_eval *ev)
{
    fprintf(out, "%s: %ld frames with a pupil\n", config, ev->frames);
    fprintf(out, "  matched                %ld result rows to ground truth, %ld not\n",
            ev->matched, ev->unmatched);
    print_rate(out, "relative error <= 5 %", ev->rel_detected[10], ev->rel_total);
    print_rate(out, "relative error <= 10 %", ev->rel_detected[20], ev->rel_total);
    print_rate(out, "centre error <= 5 px", ev->px_detected[5], ev->px_total);
    fprintf(out, "  not detected           %ld (notfound or no shape), %ld errors\n",
            ev->not_detected, ev->errors);
    fprintf(out, "  false positives        %ld of %ld frames without a pupil\n",
            ev->false_positives, ev->no_pupil);
    if (ev->no_radius)
        fprintf(out, "  centre-only truth      %ld (pixel metric only)\n", ev->no_radius);
    if (ev->blinks)
        fprintf(out, "  blinks excluded        %ld\n", ev->blinks);
    fprintf(out, "  truth without result   %ld (counted as failures)", ev->missing);
    if (ev->missing_no_pupil)
        fprintf(out, ", and %ld without a pupil", ev->missing_no_pupil);
    fputc('\n', out);
    print_examples(out, ev->missing_examples, ev->missing);
    fprintf(out, "  results without truth  %ld (not scored)\n", ev->unmatched);
    print_examples(out, ev->unmatched_examples, ev->unmatched);
    if (ev->duplicates)
        fprintf(out, "  duplicate results      %ld (only the first is scored)\n",
                ev->duplicates);
}
