/* Border tracking identical to OpenCV findContours (Suzuki & Abe 1985, as
 * OpenCV >= 3.2 implements it): same borders, same points, same order, same
 * hierarchy. Pixels > threshold are foreground, 8-connected; pixels outside
 * the image count as background, so borders may run along the image edge. */
#ifndef PT_CONTOURS_H
#define PT_CONTOURS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/core/pt_error.h"
#include "lib/io/pt_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values equal OpenCV's RETR_* and CHAIN_APPROX_* constants. */
enum { PT_CONTOURS_LIST = 1, PT_CONTOURS_CCOMP = 2, PT_CONTOURS_TREE = 3 };
enum { PT_CONTOURS_APPROX_NONE = 1, PT_CONTOURS_APPROX_SIMPLE = 2 };

/* Default cap on stored points (16 bytes of memory each incl. growth slack). */
#define PT_CONTOURS_DEFAULT_MAX_POINTS (1LL << 28)

typedef struct {
    int32_t x, y;
} pt_contour_point;

/* One border. Links are border numbers in output order, -1 for none, exactly
 * OpenCV's hierarchy row [next, prev, first_child, parent]. */
typedef struct {
    int is_hole;
    int next, prev, first_child, parent;
    int64_t first; /* index of its first point in pt_contours.points */
    int64_t count; /* number of points */
} pt_border;

typedef struct {
    int count;              /* borders, in OpenCV's output order */
    pt_border *borders;
    int64_t point_count;    /* points in use */
    pt_contour_point *points;
    /* Growth bookkeeping; max_points bounds memory (0 = default). */
    int border_capacity;
    int64_t point_capacity;
    int64_t max_points;
} pt_contours;

/* Empty result with the default point limit. */
void pt_contours_init(pt_contours *c);
void pt_contours_free(pt_contours *c);

/* Sequential Suzuki-Abe scan; the reference for the parallel versions.
 * out must be initialised (pt_contours_init); it is overwritten. */
pt_status pt_contours_find_seq(const pt_image *img, int threshold, int mode,
                               int approx, pt_contours *out, pt_error *err);

/* CSV `border,type,parent,index,x,y`, one row per point; path names errors. */
pt_status pt_contours_write_csv(const pt_contours *c, FILE *f, const char *path,
                                pt_error *err);
/* JSON {"borders":[{"type":..,"parent":..,"next":..,"prev":..,
 * "first_child":..,"points":[[x,y],...]},...]}. */
pt_status pt_contours_write_json(const pt_contours *c, FILE *f, const char *path,
                                 pt_error *err);

/* Internal helpers shared by the back ends (lib/contours/contours.c). */

/* Room for `points` more points (geometric growth); PT_ERR_NOMEM past
 * max_points or when allocation fails. */
pt_status pt_contours_reserve_points(pt_contours *out, int64_t points,
                                     pt_error *err);

/* A border in discovery (raster scan) order, before output ordering. */
typedef struct {
    int is_hole;
    int parent; /* discovery index of the parent, -1 for the image frame */
    int64_t first, count;
} pt_contour_found;

/* Fill out->borders from n discovered borders: OpenCV's order (children in
 * reverse discovery order, parent-first depth-first walk) and links. */
pt_status pt_contours_emit(pt_contours *out, const pt_contour_found *found,
                           int n, pt_error *err);

/* Room for n borders in out->borders (contents not kept). */
pt_status pt_contours_reserve_borders(pt_contours *out, int n, pt_error *err);

/* LIST mode without pt_contours_emit: OpenCV returns the borders in reverse
 * discovery order, siblings without parents, so border r of n (discovery
 * order) is output n - 1 - r with its links; safe to call in parallel for
 * different r once pt_contours_reserve_borders(out, n) succeeded. */
void pt_contours_list_border(pt_contours *out, int n, int r, int is_hole, int64_t first,
                             int64_t count);

/* Argument checks shared by the back ends (empty, too large, bad mode). */
pt_status pt_contours_check_args(const pt_image *img, int mode, int approx, pt_error *err);

/* Padded 0/1 image, (width+2) x (height+2), zero frame; NULL when out of memory. */
int8_t *pt_contours_binarize(const pt_image *img, int threshold);

/* Called for each border in discovery order instead of following it: must
 * label its pixels in lab as OpenCV does (label, label|0x80 on right edges),
 * give its bounding box (padded coordinates x, y, w, h) and its points. */
typedef pt_status (*pt_contours_trace_fn)(void *ctx, int8_t *lab, ptrdiff_t i0, int index,
                                          int is_hole, int label, int rect[4],
                                          int64_t *first, int64_t *count, pt_error *err);

/* OpenCV's raster scan over lab (from pt_contours_binarize): finds borders in
 * discovery order with OpenCV's parent search; trace NULL follows borders and
 * appends their points to out. *found_out is malloc'd (caller frees). */
pt_status pt_contours_scan(int8_t *lab, int width, int height, int mode, int approx,
                           pt_contours_trace_fn trace, void *trace_ctx, pt_contours *out,
                           pt_contour_found **found_out, int *count_out, pt_error *err);

/* Phases a back end times (pt_contours_times.phases), in the order the
 * timing line of `contours --repeat` prints them (pupiltrack(1)). */
enum {
    PT_CONTOURS_PHASE_PREPROCESS = 1 << 0,
    PT_CONTOURS_PHASE_UPLOAD = 1 << 1,
    PT_CONTOURS_PHASE_TRACE = 1 << 2,
    PT_CONTOURS_PHASE_CONNECT = 1 << 3,
    PT_CONTOURS_PHASE_ASSEMBLE = 1 << 4,
    PT_CONTOURS_PHASE_DOWNLOAD = 1 << 5,
    PT_CONTOURS_PHASE_HOST = 1 << 6
};

/* Milliseconds of one find, by phase as in the border-tracking literature
 * (preprocessing, tracking, connection; pupiltrack(1), "contours --repeat"),
 * on a monotonic clock. phases says which fields the back end filled; each
 * back end's meaning of a phase is in pupiltrack(1). */
typedef struct {
    double preprocess_ms; /* seq, omp: arguments, padded 0/1 image, work buffers */
    double upload_ms;   /* image to the device (banded pinned staging, overlapped) */
    double trace_ms;    /* seq: raster scan following each border; omp: pieces per
                         * rectangle; cuda: binarize, count and write passes (device) */
    double connect_ms;  /* omp, cuda: join pieces across rectangle sides, keep the
                         * cycles that are borders */
    double assemble_ms; /* seq: OpenCV's order and hierarchy links; omp: starts,
                         * order, points, hierarchy; cuda: starts, discovery order,
                         * chain codes (device) */
    double download_ms; /* chain codes and border offsets to the host */
    double host_ms;     /* host: points from the chains, order and hierarchy */
    double total_ms;    /* wall clock of the whole call */
    unsigned phases;    /* PT_CONTOURS_PHASE_* bits of the fields above filled */
    long long pieces, states; /* border pieces and direction bytes downloaded */
} pt_contours_times;

/* Monotonic clock in milliseconds, for the phase times. */
double pt_contours_clock_ms(void);

/* pt_contours_find_seq that also fills *times when it succeeds (NULL: not
 * timed): phases preprocess, trace and assemble, and the total. */
pt_status pt_contours_find_seq_timed(const pt_image *img, int threshold, int mode, int approx,
                                     pt_contours *out, pt_contours_times *times,
                                     pt_error *err);

/* A border-tracking back end (contours -b): open/close hold state between
 * repeated calls (NULL: none). A successful find fills *times when times is
 * not NULL (phases 0 for a back end that does not time its stages); threads and tile
 * are ignored where they do not apply. */
typedef struct {
    pt_status (*open)(void **state, pt_error *err);
    void (*close)(void *state);
    pt_status (*find)(void *state, const pt_image *img, int threshold, int mode, int approx,
                      int threads, int tile, pt_contours *out, pt_contours_times *times,
                      pt_error *err);
} pt_contours_backend;

/* The back ends' tables, each defined beside its code: the sequential
 * reference (lib/contours/contours.c), the OpenMP tracer (omp/contours) and
 * the CUDA tracer (cuda/contours/contours_table.c, which says when CUDA is
 * missing). */
extern const pt_contours_backend pt_contours_seq;
extern const pt_contours_backend pt_contours_omp;
extern const pt_contours_backend pt_contours_cuda;

#ifdef __cplusplus
}
#endif

#endif
