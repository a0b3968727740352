/* bench --from-files: frames per second from files to results rows, each
 * stage timed (pupiltrack(1), bench). */
#ifndef PT_CLI_BENCH_FILES_H
#define PT_CLI_BENCH_FILES_H

#include "cli/inputs.h"
#include "cli/track_options.h"

typedef struct {
    int batch;        /* frames per back-end call */
    long frames;      /* stop after this many frames a pass; 0: every frame */
    int passes;       /* times the inputs are read, timed together */
    int pin;          /* pin mapped stacks for a back end that copies them */
    int decode_only;  /* read the frames and let them go: the reading rate */
    const char *out;  /* the rows, or NULL: written to nowhere */
} pt_bench_files_options;

/* Returns the exit status, having printed the figures or the error. */
int pt_bench_files(const pt_detector_setup *s, const pt_input_list *inputs,
                   const pt_bench_files_options *o);

#endif
