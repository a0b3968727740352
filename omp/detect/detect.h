/* The OpenMP back end's detector stages: each takes one eye of one
 * preprocessed frame and fills a pt_result. */
#ifndef PT_OMP_DETECT_H
#define PT_OMP_DETECT_H

#include <stdint.h>

#include "lib/core/pt_arena.h"
#include "lib/detect/pt_backend.h"
#include "lib/detect/ransac.h"

typedef struct {
    int x0, y0, width, height;
} pt_roi;

typedef struct {
    const pt_image *raw;            /* the frame as loaded */
    const pt_image *smoothed;       /* reflections removed (or not, per params) and smoothed */
    const uint8_t *reflection_mask; /* 1 = corneal reflection; same stride as smoothed; NULL if off */
    pt_roi roi;                     /* this eye's region, full-frame coordinates */
    pt_point start;                 /* starburst start point (full-frame coordinates) */
    int min_radius, max_radius;     /* resolved from params (auto = from roi size) */
    const pt_ransac_table *ransac;  /* the shared precomputed RANSAC sample table */
} pt_eye_input;

/* Each detector: coordinates in res are full-frame. Scratch comes from arena
 * (reset by the caller per frame). Returns non-zero only for internal failures
 * (out of memory); "no pupil" is res->status = PT_DETECT_NOTFOUND. */
typedef pt_status (*pt_omp_detector)(const pt_eye_input *in, const pt_config *cfg,
                                     const pt_track_options *opt, pt_arena *arena,
                                     pt_result *res, pt_overlay *ov, pt_error *err);

pt_status pt_omp_starburst(const pt_eye_input *in, const pt_config *cfg,
                           const pt_track_options *opt, pt_arena *arena,
                           pt_result *res, pt_overlay *ov, pt_error *err);
pt_status pt_omp_tl(const pt_eye_input *in, const pt_config *cfg,
                    const pt_track_options *opt, pt_arena *arena, pt_result *res,
                    pt_overlay *ov, pt_error *err);
pt_status pt_omp_hough(const pt_eye_input *in, const pt_config *cfg,
                       const pt_track_options *opt, pt_arena *arena, pt_result *res,
                       pt_overlay *ov, pt_error *err);

#endif
