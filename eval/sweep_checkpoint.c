#include "eval/sweep_checkpoint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Largest frame count a checkpoint may hold: sums of many stay far from LONG_MAX. */
#define CHECKPOINT_MAX_FRAMES 1000000000000000L

pt_status pt_sweep_checkpoint_parse(const char *text, size_t size, pt_sweep_checkpoint *c,
                                    pt_error *err)
{
    char line[256];
    size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, text, n);
    line[n] = '\0';
    memset(c, 0, sizeof *c);
    int used = 0;
    if (sscanf(line, "files=%d bytes=%ld frames=%ld track_s=%lf%n", &c->files, &c->bytes,
               &c->timing.frames, &c->timing.track_s, &used) != 4 ||
        (line[used] != '\0' && strcmp(line + used, "\n")) || c->files < 0 || c->bytes <= 0 ||
        c->timing.frames < 0 || c->timing.frames > CHECKPOINT_MAX_FRAMES ||
        !isfinite(c->timing.track_s) || c->timing.track_s < 0) {
        memset(c, 0, sizeof *c);
        return pt_error_set(err, PT_ERR_FORMAT, "", "not a sweep checkpoint line");
    }
    return PT_OK;
}
