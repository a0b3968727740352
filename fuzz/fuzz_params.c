/* libFuzzer target: -p and -g parsing. Each input line "p KEY=VALUE" goes
 * to pt_config_set, "g SPEC" to pt_sweep_grid_add (as sweep's -g); then the
 * cross-parameter check, the grid's size, and the first configurations'
 * labels and settings applied (pupiltrack(1), PARAMETERS;
 * pupiltrack-sweep(1)). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eval/sweep.h"
#include "lib/params/pt_params.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    pt_config cfg;
    pt_config_default(&cfg);
    pt_sweep_grid grid;
    memset(&grid, 0, sizeof grid);
    pt_error err;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!strncmp(line, "p ", 2))
            (void)pt_config_set(&cfg, line + 2, &err);
        else if (!strncmp(line, "g ", 2))
            (void)pt_sweep_grid_add(&grid, line + 2, &err);
    }
    (void)pt_config_check(&cfg, &err);
    long n = pt_sweep_grid_size(&grid);
    if (n < 1 || n > PT_SWEEP_MAX_CONFIGS)
        __builtin_trap(); /* the grid parser bounds the product */
    for (long c = 0; c < n && c < 8; c++) {
        char label[4096];
        pt_sweep_config_label(&grid, c, label, sizeof label);
        pt_config each = cfg;
        pt_track_options opt;
        memset(&opt, 0, sizeof opt);
        const char *backend = NULL;
        if (pt_sweep_apply(&grid, c, &each, &opt, &backend, &err) == PT_OK) {
            for (int k = 0; k < pt_param_count(); k++) {
                char value[128];
                pt_config_get_text(&each, pt_param_def_at(k), value, sizeof value);
            }
            (void)pt_config_check(&each, &err);
        }
    }
    pt_sweep_grid_free(&grid);
    free(text);
    return 0;
}
