/* One detection result: one per frame and eye. */
#ifndef PT_RESULT_H
#define PT_RESULT_H

#include "lib/core/pt_geom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { PT_DETECT_OK = 0, PT_DETECT_NOTFOUND, PT_DETECT_ERROR } pt_detect_status;

typedef struct {
    pt_detect_status status;
    char eye;             /* 0 for a monocular image, 'L' or 'R' */
    int has_circle;       /* circle is valid */
    int has_ellipse;      /* ellipse is valid */
    pt_circle circle;
    pt_ellipse ellipse;
    double confidence;    /* [0,1] */
    /* tl: the fit holds a disc 6 or more grey levels darker than its inner
     * ring (lib/detect/starburst_inner.h), as the iris around a low-contrast
     * pupil does; its second look (lib/detect/tl_retry.h) reads it */
    int darker_core;
    double ms;            /* processing time of this frame */
    char message[256];    /* why, when status is PT_DETECT_ERROR */
} pt_result;

const char *pt_detect_status_name(pt_detect_status s); /* "ok", "notfound", "error" */

#ifdef __cplusplus
}
#endif

#endif
