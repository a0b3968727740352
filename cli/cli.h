/* Subcommands of the pupiltrack program and the conventions they share.
 * Exit status: 0 success; 1 some input failed (bad file in a batch, parse
 * error); 2 usage error (unknown option, bad -p); 3 back end unavailable. */
#ifndef PT_CLI_H
#define PT_CLI_H

#include "lib/core/pt_error.h"

enum { PT_EXIT_OK = 0, PT_EXIT_INPUT = 1, PT_EXIT_USAGE = 2, PT_EXIT_UNAVAILABLE = 3 };

/* Each command gets argv with argv[0] = the command name ("track"). */
int pt_cmd_track(int argc, char **argv);
int pt_cmd_eval(int argc, char **argv);
int pt_cmd_sweep(int argc, char **argv);
int pt_cmd_merge(int argc, char **argv);
int pt_cmd_import(int argc, char **argv);
int pt_cmd_synth(int argc, char **argv);
int pt_cmd_synth_particles(int argc, char **argv); /* synth --particles */
int pt_cmd_params(int argc, char **argv);
int pt_cmd_bench(int argc, char **argv);
int pt_cmd_contours(int argc, char **argv);
int pt_cmd_assign(int argc, char **argv);
int pt_cmd_mtt(int argc, char **argv);

/* One line on stderr: "pupiltrack: FILE: reason". */
void pt_cli_report(const pt_error *err);
/* printf-style one-line message on stderr prefixed "pupiltrack: ". */
void pt_cli_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Option values: 1 when the whole text is an integer in [lo, hi] (or a
 * finite number) and *out is set; 0 otherwise, with nothing printed (the
 * caller names the option in its message). */
int pt_cli_parse_long(const char *text, long lo, long hi, long *out);
int pt_cli_parse_int(const char *text, int lo, int hi, int *out);
int pt_cli_parse_double(const char *text, double *out);

/* Progress on stderr when it is a terminal: "label i/n, ETA". No-op otherwise.
 * done counts finished work; elapsed_s is the time it took (pt_cli_seconds). */
void pt_cli_progress(const char *label, long done, long total, double elapsed_s);
/* A monotonic clock in seconds. */
double pt_cli_seconds(void);

#endif
