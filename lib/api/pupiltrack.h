/* pupiltrack's C interface (installed as <pupiltrack.h>; see pupiltrack(3)).
 *
 * A detector is an opaque handle: open it with a detector, a back end and
 * key=value parameters, hand it frames (8- or 16-bit grey, any row stride),
 * read one result per frame and eye, close it. Every call returns a
 * pt_api_status; the message of a failed call on a handle is read with
 * pt_detector_message. The library keeps no global state: handles are
 * independent, and one handle may be used by one thread at a time.
 *
 * Coordinates: x right, y down, (0,0) is the centre of the top-left pixel;
 * an ellipse has semi-axes a >= b and theta in [0,180) degrees, the angle of
 * the a axis from +x towards +y. */
#ifndef PUPILTRACK_H
#define PUPILTRACK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PT_API __attribute__((visibility("default")))
#else
#define PT_API
#endif

/* The interface of this header; a program may compare it with pt_api_version(). */
#define PUPILTRACK_API_VERSION 1

/* What a call returned. */
typedef enum {
    PT_API_OK = 0,
    PT_API_ERR_IO = 1,          /* cannot read or write a file */
    PT_API_ERR_FORMAT = 2,      /* data cannot be decoded */
    PT_API_ERR_PARAM = 3,       /* bad argument, parameter or frame size */
    PT_API_ERR_NOMEM = 4,       /* out of memory or over a size limit */
    PT_API_ERR_UNAVAILABLE = 5, /* the back end cannot run here (no GPU, no CUDA build) */
    PT_API_ERR_INTERNAL = 6
} pt_api_status;

/* What a detection found in one eye of one frame. */
typedef enum {
    PT_PUPIL_FOUND = 0,
    PT_PUPIL_NOT_FOUND = 1,
    PT_PUPIL_ERROR = 2 /* the frame could not be processed; see message */
} pt_pupil_status;

typedef struct {
    pt_pupil_status status;
    char eye;          /* 0 for a monocular frame, 'L' or 'R' with binocular=1 */
    int has_circle;    /* cx, cy, radius hold the circle */
    int has_ellipse;   /* ellipse_* hold the ellipse (ellipse=1) */
    double cx, cy;     /* the pupil centre (the circle's when both fits are present) */
    double radius;
    double ellipse_cx, ellipse_cy, ellipse_a, ellipse_b, ellipse_theta;
    double confidence; /* [0,1] */
    double ms;         /* processing time of the frame */
    char message[256]; /* why, when status is PT_PUPIL_ERROR */
} pt_pupil;

typedef struct pt_detector pt_detector;

/* "0.1.0" */
PT_API const char *pt_version(void);
/* PUPILTRACK_API_VERSION of the library that is running. */
PT_API int pt_api_version(void);
/* "ok", "io", "format", "param", "nomem", "unavailable", "internal" */
PT_API const char *pt_api_status_name(pt_api_status status);

/* Open a detector. algorithm: "starburst", "tl" or "hough" (NULL: starburst);
 * backend: "omp" or "cuda" (NULL: omp). params[0..nparams) are "key=value"
 * strings: any detector parameter that `pupiltrack params` lists, and
 *   ellipse=0|1    fit ellipses instead of circles
 *   binocular=0|1  two eyes: left eye in the left half, right in the right
 *   sequence=0|1   frames are a sequence: start from the previous centre
 *   threads=N      OpenMP threads (0, the default: all cores)
 *   bits=N         significant bits of 16-bit frames (8..16, default 16)
 *   device=N       CUDA device (default: the current one)
 * On failure *out is NULL and, when message is not NULL, message[0..size)
 * holds one line that says why. */
PT_API pt_api_status pt_detector_open(pt_detector **out, const char *algorithm,
                                      const char *backend, const char *const *params,
                                      int nparams, char *message, size_t message_size);

/* Detect in one frame: height rows of width pixels, row y at
 * pixels + y * stride bytes; depth 8 (uint8_t samples) or 16 (uint16_t in the
 * machine's byte order, reduced to 8 bits as bits= says). The detector reads
 * the frame during the call only. Results: pt_detector_result(d, 0, eye, ...). */
PT_API pt_api_status pt_detector_detect(pt_detector *d, const void *pixels, int width,
                                        int height, size_t stride, int depth);

/* Detect in count frames of one size at once (frames[i] as in
 * pt_detector_detect); the back end processes them side by side. Results:
 * pt_detector_result(d, i, eye, ...) for i in [0, count). */
PT_API pt_api_status pt_detector_detect_batch(pt_detector *d, const void *const *frames,
                                              int count, int width, int height,
                                              size_t stride, int depth);

/* Eyes per frame: 1, or 2 with binocular=1. */
PT_API int pt_detector_eyes(const pt_detector *d);
/* The result of frame `frame` of the last detect call, eye 0 (or 1: right). */
PT_API pt_api_status pt_detector_result(const pt_detector *d, int frame, int eye,
                                        pt_pupil *out);
/* One line about the last failed call on d ("" when it succeeded). */
PT_API const char *pt_detector_message(const pt_detector *d);
/* Release everything d holds; NULL is ignored. */
PT_API void pt_detector_close(pt_detector *d);

#ifdef __cplusplus
}
#endif

#endif
