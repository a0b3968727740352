#include "eval/frame_errors.h"

#include <math.h>

#include "lib/core/csv.h"

static const char *outcome_name(pt_eval_outcome o)
{
    switch (o) {
    case PT_EVAL_DETECTED:
        return "detected";
    case PT_EVAL_NOTFOUND:
        return "notfound";
    case PT_EVAL_ERROR:
        return "error";
    case PT_EVAL_MISSING:
        return "missing";
    }
    return "missing";
}

int pt_eval_frames_write(FILE *out, const pt_eval_frames *f)
{
    fputs("image,eye,outcome,px_error,rel_error,confidence\n", out);
    for (long i = 0; i < f->count; i++) {
        const pt_eval_frame *fr = &f->frames[i];
        pt_csv_write_field(out, fr->truth->image);
        fputc(',', out);
        if (fr->truth->eye)
            fputc(fr->truth->eye, out);
        fprintf(out, ",%s,", outcome_name(fr->outcome));
        if (isfinite(fr->px_error))
            fprintf(out, "%.9g", fr->px_error);
        fputc(',', out);
        if (fr->rel_scored && isfinite(fr->rel_error))
            fprintf(out, "%.9g", fr->rel_error);
        fprintf(out, ",%.4f\n", fr->outcome == PT_EVAL_MISSING ? 0.0 : fr->confidence);
    }
    return ferror(out) ? -1 : 0;
}
