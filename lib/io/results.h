/* Results CSV (pupiltrack(1), FILES): one row per image and eye,
 * image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message,timestamp
 * (timestamp: a video frame's presentation time in seconds, else empty).
 * Fields that do not apply are empty; fields holding commas, quotes, line ends
 * or edge spaces are quoted (RFC 4180). */
#ifndef PT_RESULTS_H
#define PT_RESULTS_H

#include <stdio.h>

#include "lib/core/pt_error.h"
#include "lib/detect/pt_result.h"

#define PT_RESULTS_HEADER \
    "image,eye,algorithm,backend,status,cx,cy,r,a,b,theta,confidence,ms,message,timestamp"

/* Both return 0, or -1 when the stream reports a write error. */
int pt_results_write_header(FILE *out);
int pt_results_write_row(FILE *out, const char *image, const char *algorithm,
                         const char *backend, const pt_result *r);
/* The same with the frame's presentation time in seconds (NAN: none). */
int pt_results_write_row_at(FILE *out, const char *image, const char *algorithm,
                            const char *backend, const pt_result *r, double timestamp);

typedef struct {
    char *image, *algorithm, *backend;
    long line;        /* line in the file, for messages */
    double timestamp; /* seconds, NAN when the row has none */
    pt_result result;
} pt_results_row;

typedef struct {
    int count;
    pt_results_row *rows;
} pt_results;

/* Read a results CSV back: header required, columns in any order (image and
 * status required), '#' comments. On failure res is empty and err names the
 * file and line. */
pt_status pt_results_load(const char *path, pt_results *res, pt_error *err);
pt_status pt_results_load_memory(const char *data, size_t size, const char *name,
                                 pt_results *res, pt_error *err);
void pt_results_free(pt_results *res);

#endif
