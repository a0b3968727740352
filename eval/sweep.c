/* Sweep grids: parsing "-g key=..." axes and enumerating configurations. */
#include "eval/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *key;
    pt_sweep_axis_kind kind;
} run_keys[] = {
    {"algorithm", PT_AXIS_ALGORITHM}, {"backend", PT_AXIS_BACKEND}, {"fit", PT_AXIS_FIT},
    {"threads", PT_AXIS_THREADS},     {"streams", PT_AXIS_STREAMS},
};

static int parse_whole(const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* Is text a valid value of this axis? */
static pt_status check_value(const pt_sweep_axis *ax, const char *text, pt_error *err)
{
    long n;
    switch (ax->kind) {
    case PT_AXIS_PARAM: {
        pt_config scratch;
        pt_config_default(&scratch);
        if (pt_config_set_value(&scratch, ax->key, text, err)) {
            char why[sizeof err->what];
            memcpy(why, err->what, sizeof why);
            return pt_error_set(err, PT_ERR_PARAM, "-g", "%s", why);
        }
        return PT_OK;
    }
    case PT_AXIS_ALGORITHM:
        if (!pt_algorithm_from_name(text))
            return pt_error_set(err, PT_ERR_PARAM, "-g",
                                "algorithm: unknown detector '%s' (starburst, tl, hough)", text);
        return PT_OK;
    case PT_AXIS_BACKEND:
        if (!*text)
            return pt_error_set(err, PT_ERR_PARAM, "-g", "backend: empty name");
        return PT_OK;
    case PT_AXIS_FIT:
        if (strcmp(text, "circle") && strcmp(text, "ellipse"))
            return pt_error_set(err, PT_ERR_PARAM, "-g",
                                "fit: '%s' is not circle or ellipse", text);
        return PT_OK;
    case PT_AXIS_THREADS:
        if (parse_whole(text, 0, 4096, &n))
            return pt_error_set(err, PT_ERR_PARAM, "-g",
                                "threads: '%s' is not an integer in [0, 4096]", text);
        return PT_OK;
    case PT_AXIS_STREAMS:
        if (parse_whole(text, 1, 64, &n))
            return pt_error_set(err, PT_ERR_PARAM, "-g",
                                "streams: '%s' is not an integer in [1, 64]", text);
        return PT_OK;
    }
    return pt_error_set(err, PT_ERR_INTERNAL, "-g", "unknown axis kind");
}

static int axis_is_integer(const pt_sweep_axis *ax)
{
    if (ax->kind == PT_AXIS_THREADS || ax->kind == PT_AXIS_STREAMS)
        return 1;
    const pt_param_def *d = ax->kind == PT_AXIS_PARAM ? pt_param_find(ax->key) : NULL;
    return d && d->type == PT_PARAM_INT;
}

static int axis_is_numeric(const pt_sweep_axis *ax)
{
    if (axis_is_integer(ax))
        return 1;
    const pt_param_def *d = ax->kind == PT_AXIS_PARAM ? pt_param_find(ax->key) : NULL;
    return d && d->type == PT_PARAM_DOUBLE;
}

static pt_status add_value(pt_sweep_axis *ax, const char *text, pt_error *err)
{
    if (ax->count >= PT_SWEEP_MAX_VALUES)
        return pt_error_set(err, PT_ERR_PARAM, "-g", "%s: more than %d values", ax->key,
                            PT_SWEEP_MAX_VALUES);
    if (check_value(ax, text, err))
        return err->status;
    for (int i = 0; i < ax->count; i++)
        if (!strcmp(ax->values[i], text))
            return pt_error_set(err, PT_ERR_PARAM, "-g", "%s: value '%s' given twice", ax->key,
                                text);
    if (ax->count % 16 == 0) {
        char **grown = realloc(ax->values, (size_t)(ax->count + 16) * sizeof *grown);
        if (!grown)
            return pt_error_set(err, PT_ERR_NOMEM, "-g", "out of memory");
        ax->values = grown;
    }
    if (!(ax->values[ax->count] = strdup(text)))
        return pt_error_set(err, PT_ERR_NOMEM, "-g", "out of memory");
    ax->count++;
    return PT_OK;
}

static int parse_real(const char *text, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return end == buf || *end || errno || !isfinite(*out) ? -1 : 0;
}

/* "min:max:step": min, min+step, ... up to max inclusive (rounding aside). */
static pt_status add_range(pt_sweep_axis *ax, const char *range, pt_error *err)
{
    const char *c1 = strchr(range, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    double lo, hi, step;
    if (!c2 || strchr(c2 + 1, ':') || parse_real(range, (size_t)(c1 - range), &lo) ||
        parse_real(c1 + 1, (size_t)(c2 - c1 - 1), &hi) ||
        parse_real(c2 + 1, strlen(c2 + 1), &step))
        return pt_error_set(err, PT_ERR_PARAM, "-g",
                            "%s: range '%s' is not min:max:step (numbers)", ax->key, range);
    if (!axis_is_numeric(ax))
        return pt_error_set(err, PT_ERR_PARAM, "-g",
                            "%s: not numeric; list its values as %s=a,b,c", ax->key, ax->key);
    if (step == 0 || (hi - lo) / step < 0)
        return pt_error_set(err, PT_ERR_PARAM, "-g",
                            "%s: step %g does not lead from %g to %g", ax->key, step, lo, hi);
    int integer = axis_is_integer(ax);
    if (integer && (lo != floor(lo) || step != floor(step)))
        return pt_error_set(err, PT_ERR_PARAM, "-g", "%s: range '%s' needs whole numbers",
                            ax->key, range);
    double n = floor((hi - lo) / step + 1e-9) + 1;
    if (n > PT_SWEEP_MAX_VALUES)
        return pt_error_set(err, PT_ERR_PARAM, "-g", "%s: range '%s' has more than %d values",
                            ax->key, range, PT_SWEEP_MAX_VALUES);
    for (long k = 0; k < (long)n; k++) {
        char text[64];
        /* min + k*step, not a running sum, so 0.1 steps do not drift */
        double v = lo + (double)k * step;
        if (integer)
            snprintf(text, sizeof text, "%ld", (long)llround(v));
        else
            snprintf(text, sizeof text, "%.10g", v);
        if (add_value(ax, text, err))
            return err->status;
    }
    return PT_OK;
}

pt_status pt_sweep_grid_add(pt_sweep_grid *g, const char *spec, pt_error *err)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return pt_error_set(err, PT_ERR_PARAM, "-g",
                            "'%s' is not key=v1,v2,... or key=min:max:step", spec);
    if (g->naxes >= PT_SWEEP_MAX_AXES)
        return pt_error_set(err, PT_ERR_PARAM, "-g", "more than %d swept keys",
                            PT_SWEEP_MAX_AXES);
    pt_sweep_axis ax;
    memset(&ax, 0, sizeof ax);
    size_t klen = (size_t)(eq - spec);
    if (klen >= sizeof ax.key)
        return pt_error_set(err, PT_ERR_PARAM, "-g", "key name too long");
    memcpy(ax.key, spec, klen);
    int known = 0;
    for (size_t i = 0; i < sizeof run_keys / sizeof run_keys[0]; i++)
        if (!strcmp(ax.key, run_keys[i].key)) {
            ax.kind = run_keys[i].kind;
            known = 1;
        }
    if (!known && !pt_param_find(ax.key))
        return pt_error_set(err, PT_ERR_PARAM, "-g",
                            "unknown key '%s' (a parameter from 'pupiltrack params', or "
                            "algorithm, backend, fit, threads, streams)",
                            ax.key);
    for (int a = 0; a < g->naxes; a++)
        if (!strcmp(g->axes[a].key, ax.key))
            return pt_error_set(err, PT_ERR_PARAM, "-g", "%s swept twice", ax.key);
    const char *values = eq + 1;
    pt_status st = PT_OK;
    if (strchr(values, ':')) {
        st = add_range(&ax, values, err);
    } else {
        for (const char *p = values; !st;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char text[128];
            if (len == 0 || len >= sizeof text) {
                st = pt_error_set(err, PT_ERR_PARAM, "-g", "%s: empty or overlong value in '%s'",
                                  ax.key, values);
                break;
            }
            memcpy(text, p, len);
            text[len] = '\0';
            st = add_value(&ax, text, err);
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    if (!st && (double)pt_sweep_grid_size(g) * ax.count > PT_SWEEP_MAX_CONFIGS)
        st = pt_error_set(err, PT_ERR_PARAM, "-g", "the grid has more than %d configurations",
                          PT_SWEEP_MAX_CONFIGS);
    if (st) {
        for (int i = 0; i < ax.count; i++)
            free(ax.values[i]);
        free(ax.values);
        return st;
    }
    g->axes[g->naxes++] = ax;
    return PT_OK;
}

void pt_sweep_grid_free(pt_sweep_grid *g)
{
    for (int a = 0; a < g->naxes; a++) {
        for (int i = 0; i < g->axes[a].count; i++)
            free(g->axes[a].values[i]);
        free(g->axes[a].values);
    }
    g->naxes = 0;
}

long pt_sweep_grid_size(const pt_sweep_grid *g)
{
    long n = 1;
    for (int a = 0; a < g->naxes; a++)
        n *= g->axes[a].count;
    return n;
}

void pt_sweep_config_values(const pt_sweep_grid *g, long index, const char **values)
{
    for (int a = g->naxes - 1; a >= 0; a--) {
        values[a] = g->axes[a].values[index % g->axes[a].count];
        index /= g->axes[a].count;
    }
}

void pt_sweep_config_label(const pt_sweep_grid *g, long index, char *buf, int size)
{
    const char *values[PT_SWEEP_MAX_AXES];
    pt_sweep_config_values(g, index, values);
    snprintf(buf, (size_t)size, "%s", g->naxes ? "" : "default");
    for (int a = 0; a < g->naxes; a++) {
        size_t used = strlen(buf);
        snprintf(buf + used, (size_t)size - used, "%s%s=%s", a ? " " : "", g->axes[a].key,
                 values[a]);
    }
}

pt_status pt_sweep_apply(const pt_sweep_grid *g, long index, pt_config *cfg,
                         pt_track_options *opt, const char **backend_name, pt_error *err)
{
    const char *values[PT_SWEEP_MAX_AXES];
    pt_sweep_config_values(g, index, values);
    for (int a = 0; a < g->naxes; a++) {
        const char *v = values[a];
        switch (g->axes[a].kind) {
        case PT_AXIS_PARAM:
            if (pt_config_set_value(cfg, g->axes[a].key, v, err))
                return err->status;
            break;
        case PT_AXIS_ALGORITHM:
            opt->algorithm = pt_algorithm_from_name(v);
            break;
        case PT_AXIS_BACKEND:
            *backend_name = v;
            break;
        case PT_AXIS_FIT:
            opt->ellipse = !strcmp(v, "ellipse");
            break;
        case PT_AXIS_THREADS:
            opt->threads = atoi(v);
            break;
        case PT_AXIS_STREAMS:
            opt->streams = atoi(v);
            break;
        }
    }
    return PT_OK;
}
