/* Ground-truth CSV (pupiltrack(1), FILES): header required, columns in any order, '#'
 * comments. Columns: image (relative to the CSV's folder; "name#page" names a
 * page of a multi-page TIFF), optional eye (L/R), cx, cy, optional r and/or
 * a, b, theta, optional blink (0/1). An empty cx means no pupil is visible;
 * other columns are ignored. Theta is normalised into [0,180). */
#ifndef PT_GT_H
#define PT_GT_H

#include <stddef.h>

#include "lib/core/pt_error.h"
#include "lib/core/pt_geom.h"
#include "lib/detect/pt_result.h"

typedef struct {
    char *image;     /* as written in the CSV */
    char *path;      /* joined to the CSV's folder (page suffix kept) */
    char *key;       /* canonical form of path, used for matching */
    char eye;        /* 0, 'L' or 'R' */
    int has_pupil;   /* 0 when cx was empty */
    int has_circle;  /* r given */
    int has_ellipse; /* a, b, theta given */
    double cx, cy;
    pt_circle circle;
    pt_ellipse ellipse;
    int blink;       /* 1: excluded from accuracy figures */
    long line;       /* line in the CSV, for messages */
} pt_gt_entry;

typedef struct {
    int count;
    pt_gt_entry *entries;
    char *source;   /* the CSV's path or name */
    /* open-addressing tables of entry index + 1, by (key, eye) and (image, eye) */
    int *by_key, *by_image;
    size_t slots;   /* power of two */
} pt_gt;

/* Load a ground-truth CSV. On failure gt is left empty and err names the file
 * and line. */
pt_status pt_gt_load(const char *path, pt_gt *gt, pt_error *err);
/* Same from memory; base_dir is the folder image paths are relative to. */
pt_status pt_gt_load_memory(const char *data, size_t size, const char *name,
                            const char *base_dir, pt_gt *gt, pt_error *err);
void pt_gt_free(pt_gt *gt);

/* The entry for an image name as written in a results CSV (a path relative to
 * the current folder, maybe with "#page") and eye (0, 'L', 'R'); falls back to
 * the name exactly as written in the ground truth. NULL when none. */
const pt_gt_entry *pt_gt_find(const pt_gt *gt, const char *image, char eye);

/* Canonical matching key of a path: realpath of the file part when it exists,
 * otherwise the path with "./", "//" and "dir/.." removed; "#page" kept.
 * Returns a malloc'd string or NULL when out of memory. */
char *pt_gt_path_key(const char *path);

/* The entry as a pt_result (status ok, or notfound when no pupil), e.g. for
 * drawing the ground truth. */
void pt_gt_entry_to_result(const pt_gt_entry *e, pt_result *r);

#endif
