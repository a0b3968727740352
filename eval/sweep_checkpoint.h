/* A configuration's checkpoint (NAME.tmp.resume, pupiltrack-sweep(1)): the
 * first files of its inputs are done, their rows the first bytes of
 * NAME.tmp, with their timing. One line: "files=F bytes=B frames=N track_s=S". */
#ifndef PT_SWEEP_CHECKPOINT_H
#define PT_SWEEP_CHECKPOINT_H

#include <stddef.h>

#include "eval/sweep_report.h"

typedef struct {
    int files;
    long bytes;
    pt_sweep_timing timing;
} pt_sweep_checkpoint;

/* Parses the line (text need not end in '\0' within size); PT_ERR_FORMAT
 * unless every field is there and sane (files >= 0, bytes > 0, frames >= 0,
 * 0 <= track_s finite), nothing after it but a newline. */
pt_status pt_sweep_checkpoint_parse(const char *text, size_t size, pt_sweep_checkpoint *c,
                                    pt_error *err);

#endif
