/* The manifest of a sweep (OUTDIR/sweep.txt): everything that decides its
 * results, so that a resumed run or a shard can tell it belongs there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/sweep_files.h"
#include "eval/sweep_run.h"

char *pt_sweep_manifest_text(const pt_sweep_job *sw)
{
    size_t cap = 1 << 16, len = 0;
    char *t = malloc(cap);
    if (!t)
        return NULL;
#define ADD(...) \
    do { \
        int n_ = snprintf(t + len, cap - len, __VA_ARGS__); \
        if (n_ < 0 || (size_t)n_ >= cap - len) { \
            char *g_ = realloc(t, cap = cap * 2 + (size_t)(n_ > 0 ? n_ : 0)); \
            if (!g_) { free(t); return NULL; } \
            t = g_; \
            snprintf(t + len, cap - len, __VA_ARGS__); \
        } \
        len += (size_t)n_; \
    } while (0)
    const pt_track_options *o = &sw->track;
    unsigned long long h = PT_SWEEP_HASH_START;
    for (int i = 0; i < sw->npaths; i++)
        h = pt_sweep_hash_path(h, sw->paths[i], strlen(sw->paths[i]));
    ADD("# pupiltrack sweep manifest: a sweep into this folder must match it\n");
    ADD("version %s\n", PT_VERSION);
    for (int i = 0; i < sw->ninput_args; i++)
        ADD("input %s\n", sw->input_args[i]);
    ADD("images %d fnv1a-%016llx\n", sw->npaths, h);
    ADD("gt %s\n", sw->gt_path);
    ADD("shape %s\n", sw->shape == PT_SHAPE_CIRCLE    ? "circle"
                      : sw->shape == PT_SHAPE_ELLIPSE ? "ellipse"
                                                      : "auto");
    ADD("algorithm %s\nbackend %s\nfit %s\n", pt_algorithm_name(o->algorithm),
        sw->backend->name, o->ellipse ? "ellipse" : "circle");
    ADD("binocular %d\nsequence %d\nbits %d\nthreads %d\nstreams %d\nbatch %d\n", o->binocular,
        o->sequence, sw->load.significant_bits, o->threads, o->streams, sw->batch);
    if (sw->load.gain >= 1.0)
        ADD("gain %.17g\n", sw->load.gain);
    else
        ADD("gain auto\n");
    for (int i = 0; i < pt_param_count(); i++) {
        char value[128];
        pt_config_get_text(&sw->config, pt_param_def_at(i), value, sizeof value);
        ADD("param %s=%s\n", pt_param_def_at(i)->name, value);
    }
    for (int a = 0; a < sw->grid.naxes; a++) {
        ADD("grid %s=", sw->grid.axes[a].key);
        for (int v = 0; v < sw->grid.axes[a].count; v++)
            ADD("%s%s", v ? "," : "", sw->grid.axes[a].values[v]);
        ADD("\n");
    }
#undef ADD
    return t;
}
