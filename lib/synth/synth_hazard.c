/* Names and the hard mix of the synthetic failure classes (pupiltrack(1),
 * synth --hazard). */
#include "lib/synth/synth_hazard.h"

#include <string.h>

static const char *const hazard_names[PT_SYNTH_HAZARD_COUNT] = {
    "low-contrast", "glint-ring", "lid", "small-pupil", "motion-blur", "defocus",
};

const char *pt_synth_hazard_name(int index)
{
    return index >= 0 && index < PT_SYNTH_HAZARD_COUNT ? hazard_names[index] : NULL;
}

pt_status pt_synth_parse_hazards(const char *list, unsigned *out, pt_error *err)
{
    if (!list || !*list)
        return pt_error_set(err, PT_ERR_PARAM, "--hazard",
                            "empty list (low-contrast, glint-ring, lid, small-pupil, "
                            "motion-blur, defocus)");
    unsigned set = 0;
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int found = -1;
        for (int i = 0; i < PT_SYNTH_HAZARD_COUNT && found < 0; i++)
            if (strlen(hazard_names[i]) == len && !strncmp(p, hazard_names[i], len))
                found = i;
        if (len == 0)
            return pt_error_set(err, PT_ERR_PARAM, "--hazard",
                                "empty class name in '%.64s' (names separated by single commas)",
                                list);
        if (found < 0)
            return pt_error_set(err, PT_ERR_PARAM, "--hazard",
                                "unknown hazard '%.*s' (low-contrast, glint-ring, lid, "
                                "small-pupil, motion-blur or defocus)",
                                (int)(len > 64 ? 64 : len), p);
        set |= 1u << found;
        if (!end)
            break;
        p = end + 1;
    }
    *out = set;
    return PT_OK;
}

void pt_synth_hazard_format(unsigned set, char *buf, size_t cap)
{
    if (cap == 0)
        return;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < PT_SYNTH_HAZARD_COUNT; i++) {
        if (!(set & (1u << i)))
            continue;
        const char *name = hazard_names[i];
        size_t need = strlen(name) + (used ? 1 : 0);
        if (used + need >= cap)
            break;
        if (used)
            buf[used++] = '+';
        memcpy(buf + used, name, strlen(name) + 1);
        used += strlen(name);
    }
}

unsigned pt_synth_hazard_mix(uint64_t bits)
{
    const unsigned n = PT_SYNTH_HAZARD_COUNT;
    unsigned first = (unsigned)((bits >> 8) % n);
    if (bits & 1u)
        return 1u << first;
    /* Second class: one of the other n - 1, uniformly. */
    unsigned second = (first + 1u + (unsigned)((bits >> 32) % (n - 1))) % n;
    return (1u << first) | (1u << second);
}
