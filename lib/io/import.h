/* Importers from the public ground-truth formats to the ground-truth CSV:
 *   swirski  pupil-ellipses.txt, lines "n | cx cy a b angle_rad" (a, b taken as
 *            semi-axes; swapped so a >= b; theta in degrees in [0,180));
 *            a or b <= 0 means no pupil.
 *   excuse   ExCuSe/ElSe/PupilNet, lines "idx image_no x y" labelled at twice
 *            the image scale with the origin bottom-left: cx = x/2,
 *            cy = H - y/2 for image height H; x = y = 0 means no pupil.
 *   lpw      LPW, one "x y" centre per frame (frames numbered from first);
 *            x = y = 0 means no pupil.
 * Separators are spaces, tabs, commas or semicolons; '#' lines, blank lines and
 * a first line that does not start with a number (a header) are skipped; anything else malformed is an error naming file and line. */
#ifndef PT_IMPORT_H
#define PT_IMPORT_H

#include <stdio.h>

#include "lib/core/pt_error.h"

typedef enum { PT_IMPORT_SWIRSKI = 0, PT_IMPORT_EXCUSE, PT_IMPORT_LPW } pt_import_format;

typedef struct {
    long frame;        /* frame number used in the image name */
    int has_pupil;
    int has_ellipse;   /* swirski only */
    double x, y;       /* as in the source file (excuse: labelled scale, bottom-left) */
    double a, b, theta;
    long line;
} pt_import_row;

typedef struct {
    pt_import_format format;
    int count;
    pt_import_row *rows;
} pt_import_data;

typedef struct {
    const char *image_dir; /* prefix for image names, relative to the output CSV ("" = same folder) */
    const char *pattern;   /* printf-like name with one %d (flags 0 and width allowed); NULL = default */
    double height;         /* excuse: image height in pixels (required) */
    long first_frame;      /* lpw: number of the first frame */
} pt_import_options;

/* "swirski", "excuse" (also "else", "pupilnet"), "lpw" -> format; -1 if unknown. */
int pt_import_format_from_name(const char *name);
/* Default image-name pattern of a format:
 * swirski "frames/%d-eye.png", excuse "%010d.png", lpw "%d.png". */
const char *pt_import_default_pattern(pt_import_format format);
/* 0 when pattern holds exactly one %d-style conversion (and any %%). */
int pt_import_check_pattern(const char *pattern);
/* Image name of a frame by pattern into buf; -1 when it does not fit. */
int pt_import_format_name(const char *pattern, long frame, char *buf, size_t size);

pt_status pt_import_parse(const char *path, pt_import_format format, long first_frame,
                          pt_import_data *out, pt_error *err);
pt_status pt_import_parse_memory(const char *text, size_t size, const char *name,
                                 pt_import_format format, long first_frame,
                                 pt_import_data *out, pt_error *err);
/* Write the ground-truth CSV (header image,cx,cy[,a,b,theta]). */
pt_status pt_import_write(FILE *out, const char *out_name, const pt_import_data *data,
                          const pt_import_options *opt, pt_error *err);
void pt_import_free(pt_import_data *data);

#endif
