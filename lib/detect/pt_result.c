#include "lib/detect/pt_result.h"

#include <stdlib.h>

#include "lib/detect/pt_backend.h"

const char *pt_detect_status_name(pt_detect_status s)
{
    switch (s) {
    case PT_DETECT_OK: return "ok";
    case PT_DETECT_NOTFOUND: return "notfound";
    default: return "error";
    }
}

#define PT_OVERLAY_MAX (1 << 20)

void pt_overlay_add(pt_overlay *ov, float x, float y)
{
    if (!ov || ov->count >= PT_OVERLAY_MAX)
        return;
    if (ov->count == ov->capacity) {
        int cap = ov->capacity ? ov->capacity * 2 : 256;
        pt_point *p = realloc(ov->points, (size_t)cap * sizeof *p);
        if (!p)
            return;
        ov->points = p;
        ov->capacity = cap;
    }
    ov->points[ov->count].x = x;
    ov->points[ov->count].y = y;
    ov->count++;
}

void pt_overlay_clear(pt_overlay *ov)
{
    if (ov)
        ov->count = 0;
}

void pt_overlay_free(pt_overlay *ov)
{
    if (!ov)
        return;
    free(ov->points);
    ov->points = NULL;
    ov->count = ov->capacity = 0;
}
