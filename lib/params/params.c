/* The parameter registry: lookup, defaults, validated assignment. */
#include "lib/params/pt_params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const pt_param_def *defs;
    const int *count;
} param_group;

static const param_group groups[] = {
    {pt_preprocess_param_defs, &pt_preprocess_param_count},
    {pt_starburst_param_defs, &pt_starburst_param_count},
    {pt_tl_param_defs, &pt_tl_param_count},
    {pt_hough_param_defs, &pt_hough_param_count},
    {pt_retry_param_defs, &pt_retry_param_count},
};
#define GROUP_COUNT ((int)(sizeof groups / sizeof groups[0]))

static const struct {
    const char *name;
    pt_algorithm alg;
} algorithm_names[] = {
    {"starburst", PT_ALG_STARBURST},
    {"tl", PT_ALG_TL},
    {"hough", PT_ALG_HOUGH},
};

pt_algorithm pt_algorithm_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof algorithm_names / sizeof algorithm_names[0]; i++)
        if (!strcmp(name, algorithm_names[i].name))
            return algorithm_names[i].alg;
    return (pt_algorithm)0;
}

const char *pt_algorithm_name(pt_algorithm alg)
{
    for (size_t i = 0; i < sizeof algorithm_names / sizeof algorithm_names[0]; i++)
        if (alg == algorithm_names[i].alg)
            return algorithm_names[i].name;
    return "?";
}

int pt_param_count(void)
{
    int n = 0;
    for (int g = 0; g < GROUP_COUNT; g++)
        n += *groups[g].count;
    return n;
}

const pt_param_def *pt_param_def_at(int index)
{
    for (int g = 0; g < GROUP_COUNT; g++) {
        if (index < *groups[g].count)
            return &groups[g].defs[index];
        index -= *groups[g].count;
    }
    return NULL;
}

const pt_param_def *pt_param_find(const char *name)
{
    int n = pt_param_count();
    for (int i = 0; i < n; i++) {
        const pt_param_def *d = pt_param_def_at(i);
        if (!strcmp(d->name, name))
            return d;
    }
    return NULL;
}

static void store(pt_config *cfg, const pt_param_def *d, double v)
{
    char *field = (char *)cfg + d->offset;
    if (d->type == PT_PARAM_DOUBLE)
        memcpy(field, &v, sizeof v);
    else {
        int iv = (int)v;
        memcpy(field, &iv, sizeof iv);
    }
}

static double load(const pt_config *cfg, const pt_param_def *d)
{
    const char *field = (const char *)cfg + d->offset;
    if (d->type == PT_PARAM_DOUBLE) {
        double v;
        memcpy(&v, field, sizeof v);
        return v;
    }
    int iv;
    memcpy(&iv, field, sizeof iv);
    return iv;
}

void pt_config_default(pt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    int n = pt_param_count();
    for (int i = 0; i < n; i++) {
        const pt_param_def *d = pt_param_def_at(i);
        store(cfg, d, d->def);
    }
}

static pt_status parse_number(const pt_param_def *d, const char *value, double *out,
                              pt_error *err)
{
    char *end;
    errno = 0;
    if (d->type == PT_PARAM_INT) {
        long v = strtol(value, &end, 10);
        if (end == value || *end || errno)
            return pt_error_set(err, PT_ERR_PARAM, "-p", "%s: '%s' is not an integer",
                                d->name, value);
        *out = (double)v;
    } else {
        double v = strtod(value, &end);
        if (end == value || *end || errno || !isfinite(v))
            return pt_error_set(err, PT_ERR_PARAM, "-p", "%s: '%s' is not a finite number",
                                d->name, value);
        *out = v;
    }
    if (*out < d->min || *out > d->max)
        return pt_error_set(err, PT_ERR_PARAM, "-p", "%s: %s is outside [%g, %g]", d->name,
                            value, d->min, d->max);
    return PT_OK;
}

pt_status pt_config_set_value(pt_config *cfg, const char *key, const char *value,
                              pt_error *err)
{
    const pt_param_def *d = pt_param_find(key);
    if (!d)
        return pt_error_set(err, PT_ERR_PARAM, "-p",
                            "unknown parameter '%s' (see 'pupiltrack params')", key);
    double v = 0.0;
    if (d->type == PT_PARAM_CHOICE) {
        int k = 0;
        while (d->choices[k] && strcmp(d->choices[k], value))
            k++;
        if (!d->choices[k]) {
            char list[256] = "";
            for (int j = 0; d->choices[j]; j++) {
                if (j)
                    strncat(list, "|", sizeof list - strlen(list) - 1);
                strncat(list, d->choices[j], sizeof list - strlen(list) - 1);
            }
            return pt_error_set(err, PT_ERR_PARAM, "-p", "%s: '%s' is not one of %s", d->name,
                                value, list);
        }
        v = k;
    } else if (parse_number(d, value, &v, err)) {
        return err->status;
    }
    store(cfg, d, v);
    return PT_OK;
}

pt_status pt_config_set(pt_config *cfg, const char *assignment, pt_error *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment || !eq[1])
        return pt_error_set(err, PT_ERR_PARAM, "-p", "'%s' is not of the form key=value",
                            assignment);
    char key[128];
    size_t len = (size_t)(eq - assignment);
    if (len >= sizeof key)
        return pt_error_set(err, PT_ERR_PARAM, "-p", "parameter name too long");
    memcpy(key, assignment, len);
    key[len] = '\0';
    return pt_config_set_value(cfg, key, eq + 1, err);
}

void pt_config_get_text(const pt_config *cfg, const pt_param_def *d, char *buf, int size)
{
    double v = load(cfg, d);
    if (d->type == PT_PARAM_CHOICE)
        snprintf(buf, (size_t)size, "%s", d->choices[(int)v]);
    else
        snprintf(buf, (size_t)size, "%g", v);
}

pt_status pt_config_check(const pt_config *cfg, pt_error *err)
{
    if (cfg->pre.min_radius > 0 && cfg->pre.max_radius > 0 &&
        cfg->pre.min_radius > cfg->pre.max_radius)
        return pt_error_set(err, PT_ERR_PARAM, "-p",
                            "min_radius=%d is greater than max_radius=%d", cfg->pre.min_radius,
                            cfg->pre.max_radius);
    return PT_OK;
}
