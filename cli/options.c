/* Option parsing shared by the commands (options.h). */
#include "cli/options.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const pt_cli_option *find(const pt_cli_option *opts, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(opts[k].name, name))
            return &opts[k];
    return NULL;
}

static int set_choice(const pt_cli_option *o, const char *value)
{
    char names[256];
    int used = 0;
    names[0] = '\0';
    for (int k = 0; o->choices[k]; k++) {
        if (!strcmp(o->choices[k], value)) {
            *(int *)o->target = o->values[k];
            return PT_EXIT_OK;
        }
        used += snprintf(names + used, sizeof names - (size_t)used, "%s%s", k ? ", " : "",
                         o->choices[k]);
        if (used >= (int)sizeof names)
            used = (int)sizeof names - 1;
    }
    pt_cli_fail("%s: unknown %s '%s' (%s)", o->name, o->what, value, names);
    return PT_EXIT_USAGE;
}

static int set_value(const pt_cli_option *o, const char *value)
{
    switch (o->kind) {
    case PT_OPT_FLAG: *(int *)o->target = (int)o->lo; return PT_EXIT_OK;
    case PT_OPT_STRING: *(const char **)o->target = value; return PT_EXIT_OK;
    case PT_OPT_CHOICE: return set_choice(o, value);
    case PT_OPT_INT:
        if (pt_cli_parse_int(value, (int)o->lo, (int)o->hi, (int *)o->target))
            return PT_EXIT_OK;
        break;
    case PT_OPT_LONG:
        if (pt_cli_parse_long(value, o->lo, o->hi, (long *)o->target))
            return PT_EXIT_OK;
        break;
    case PT_OPT_DOUBLE:
        if (pt_cli_parse_double(value, (double *)o->target))
            return PT_EXIT_OK;
        pt_cli_fail("%s: expected %s, got '%s'", o->name, o->what, value);
        return PT_EXIT_USAGE;
    }
    pt_cli_fail("%s: expected %s %ld..%ld, got '%s'", o->name, o->what, o->lo, o->hi, value);
    return PT_EXIT_USAGE;
}

int pt_cli_parse(const char *command, int argc, char **argv, const pt_cli_option *opts, int n,
                 void (*usage)(FILE *), const char **positional, int max_positional,
                 int *npositional)
{
    *npositional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return PT_CLI_HELP;
        }
        if (a[0] != '-' || !a[1]) {
            if (*npositional >= max_positional) {
                pt_cli_fail("%s: unexpected argument '%s' (try --help)", command, a);
                return PT_EXIT_USAGE;
            }
            positional[(*npositional)++] = a;
            continue;
        }
        const pt_cli_option *o = find(opts, n, a);
        if (!o || (o->kind != PT_OPT_FLAG && i + 1 >= argc)) {
            pt_cli_fail("%s: unknown or incomplete option '%s' (try --help)", command, a);
            return PT_EXIT_USAGE;
        }
        int rc = set_value(o, o->kind == PT_OPT_FLAG ? NULL : argv[++i]);
        if (rc)
            return rc;
        if (o->seen)
            *o->seen = 1;
    }
    return PT_EXIT_OK;
}
