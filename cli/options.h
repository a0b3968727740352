/* Option parsing shared by the commands: a table of the options a command
 * takes, each with where its value goes and the range it must fall in.
 * Messages follow pupiltrack(1): "OPTION: expected WHAT LO..HI, got 'X'". */
#ifndef PT_CLI_OPTIONS_H
#define PT_CLI_OPTIONS_H

#include <stdio.h>

typedef enum {
    PT_OPT_FLAG,   /* no value: *(int *)target = (int)lo */
    PT_OPT_STRING, /* *(const char **)target = the value */
    PT_OPT_INT,    /* *(int *)target, in [lo, hi] */
    PT_OPT_LONG,   /* *(long *)target, in [lo, hi] */
    PT_OPT_DOUBLE, /* *(double *)target, finite; lo/hi unused */
    PT_OPT_CHOICE, /* *(int *)target = values[k] for the value choices[k] */
} pt_opt_kind;

typedef struct {
    const char *name; /* "-j", "--mode" */
    pt_opt_kind kind;
    void *target;
    long lo, hi;
    const char *what;              /* "a thread count": names the value in messages */
    const char *const *choices;    /* PT_OPT_CHOICE: NULL-terminated names */
    const int *values;             /* PT_OPT_CHOICE: the value of each name */
    int *seen;                     /* optional: set to 1 when the option is given */
} pt_cli_option;

/* pt_cli_parse's results besides PT_EXIT_OK and PT_EXIT_USAGE. */
enum { PT_CLI_HELP = -1 };

/* Parses argv[1..argc-1] against opts (n entries). Arguments that are not
 * options go to positional (at most max_positional; a further one is a
 * usage error naming `command`). Returns PT_EXIT_OK, PT_CLI_HELP for -h or
 * --help after usage(stdout), or PT_EXIT_USAGE after one line on stderr. */
int pt_cli_parse(const char *command, int argc, char **argv, const pt_cli_option *opts, int n,
                 void (*usage)(FILE *), const char **positional, int max_positional,
                 int *npositional);

/* A command's exit status from pt_cli_parse's result: 0 after --help. */
#define PT_CLI_PARSE_EXIT(rc) ((rc) == PT_CLI_HELP ? 0 : (rc))

#endif
