/* The frames of a list of inputs (images, TIFF, .npy and .raw stacks,
 * videos), in order, read ahead of the caller on threads of their own:
 * image files are decoded side by side; TIFF, .npy and .raw stacks are
 * mapped and their 8-bit grey frames handed on where they lie, without a
 * copy (other pages are converted or decoded ahead); a video is decoded on
 * its own thread (pt_video.h). Used by track and bench --from-files
 * (pupiltrack(1), INPUTS). */
#ifndef PT_READER_H
#define PT_READER_H

#include <stddef.h>

#include "lib/io/pt_image.h"

typedef struct pt_reader pt_reader;

typedef struct {
    int threads; /* reading threads; 0: one a core */
    int ahead;   /* frames read ahead of the caller at most; 0: 64 */
    /* Optional: called when a stack with frames in place is mapped, and
     * before the mapping goes; pin returns 1 when it pinned the bytes. The
     * caller's frames from the mapping are all released before unpin. */
    int (*pin)(void *ctx, const void *base, size_t bytes);
    void (*unpin)(void *ctx, const void *base);
    void *ctx;
    /* 1: a reading thread maps in the pages of each frame in place (reads a
     * byte of each) before the caller gets it, so that their page faults
     * are taken there, side by side, ahead of the caller: for a back end
     * that reads the frames where they lie (pt_backend.frames_in_place). */
    int touch_in_place;
} pt_reader_options;

/* One frame, or (image NULL) a file or page that could not be read and why. */
typedef struct {
    pt_image *image;
    char *name;       /* FILE, or FILE#i for a file of several frames */
    pt_error error;   /* image NULL: the reason (file = the input's path) */
    int whole_file;   /* image NULL: the whole input failed, not one page */
    int ends_input;   /* the last frame of its input */
    double seconds;   /* a video frame's presentation time, else NAN */
    int in_place;     /* image lies in a mapped file (read-only) */
    void *owner;      /* the reader's: which mapping holds it */
} pt_read_frame;

typedef struct {
    long frames, in_place, converted, decoded, errors;
    int threads;
    double work_seconds;   /* reading threads' time on decoding and converting, summed */
    double open_seconds;   /* the caller's thread mapping stacks and reading their pages */
    double pin_seconds;    /* in pin and unpin */
    double pinned_bytes;   /* mapped bytes pinned */
    int maps;              /* stacks mapped */
} pt_reader_stats;

/* Reads paths[0..count) (kept by the caller until pt_reader_close) with
 * opt (page -1: all frames). */
pt_status pt_reader_open(char *const *paths, int count, const pt_load_options *opt,
                         const pt_reader_options *ro, pt_reader **out, pt_error *err);
/* The next frame: returns 1 and fills f, or 0 at the end. */
int pt_reader_next(pt_reader *r, pt_read_frame *f);
/* Frees f's image and name; the caller is done with them. */
void pt_reader_release(pt_reader *r, pt_read_frame *f);
void pt_reader_stats_get(pt_reader *r, pt_reader_stats *st);
/* Stops the threads and frees everything; release every frame first. */
void pt_reader_close(pt_reader *r);

#endif
