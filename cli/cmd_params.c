/* pupiltrack params: the parameter registry as a table. */
#include <stdio.h>
#include <string.h>

#include "lib/params/params_preset.h"
#include "lib/params/pt_params.h"
#include "cli/cli.h"

static int preset_sets(const pt_preset *preset, const char *name)
{
    for (int k = 0; k < preset->count; k++)
        if (!strcmp(preset->values[k].key, name))
            return 1;
    return 0;
}

int pt_cmd_params(int argc, char **argv)
{
    unsigned mask = PT_ALG_ALL;
    const pt_preset *preset = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: pupiltrack params [-a starburst|tl|hough] [--preset NAME]\n"
                   "List every detector parameter: name, type, default, range, help.\n"
                   "--preset NAME (%s): its value instead of the default, marked\n"
                   "'*' in the set column where the preset sets it.\n",
                   pt_preset_names());
            return PT_EXIT_OK;
        } else if (!strcmp(argv[i], "-a") && i + 1 < argc) {
            mask = pt_algorithm_from_name(argv[++i]);
            if (!mask) {
                pt_cli_fail("-a: unknown detector '%s' (starburst, tl, hough)", argv[i]);
                return PT_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
            preset = pt_preset_find(argv[++i]);
            if (!preset) {
                pt_cli_fail("--preset: unknown preset '%s' (%s)", argv[i], pt_preset_names());
                return PT_EXIT_USAGE;
            }
        } else {
            pt_cli_fail("params: unknown argument '%s' (try --help)", argv[i]);
            return PT_EXIT_USAGE;
        }
    }
    pt_config cfg;
    pt_config_default(&cfg);
    pt_error err;
    if (preset && pt_config_apply_preset(&cfg, preset, &err)) {
        pt_cli_report(&err);
        return PT_EXIT_USAGE;
    }
    if (preset)
        printf("%-22s %-7s %-12s %-3s %-18s %s\n", "name", "type", preset->name, "set", "range",
               "help");
    else
        printf("%-22s %-7s %-12s %-18s %s\n", "name", "type", "default", "range", "help");
    int n = pt_param_count();
    for (int i = 0; i < n; i++) {
        const pt_param_def *d = pt_param_def_at(i);
        if (!(d->algorithms & mask))
            continue;
        char def[64], range[96];
        pt_config_get_text(&cfg, d, def, sizeof def);
        if (d->type == PT_PARAM_CHOICE) {
            range[0] = '\0';
            for (int k = 0; d->choices[k]; k++) {
                if (k)
                    strncat(range, "|", sizeof range - strlen(range) - 1);
                strncat(range, d->choices[k], sizeof range - strlen(range) - 1);
            }
        } else {
            snprintf(range, sizeof range, "%g..%g", d->min, d->max);
        }
        const char *type = d->type == PT_PARAM_INT      ? "int"
                           : d->type == PT_PARAM_DOUBLE ? "real"
                                                        : "choice";
        if (preset)
            printf("%-22s %-7s %-12s %-3s %-18s %s\n", d->name, type, def,
                   preset_sets(preset, d->name) ? "*" : "", range, d->help);
        else
            printf("%-22s %-7s %-12s %-18s %s\n", d->name, type, def, range, d->help);
    }
    return PT_EXIT_OK;
}
