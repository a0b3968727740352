/* The gain of dark frames (pupiltrack(1), --gain): a frame whose brightest
 * unsaturated grey levels lie low, an under-exposed camera or a dim eye, has
 * its grey levels multiplied so that they reach PT_GAIN_TARGET. The
 * detectors' fixed steps in grey levels (a darker core, a lid brighter than
 * the pupil, edge thresholds) were set on normally exposed eyes; a pupil a
 * few levels below an iris of grey level 10 meets them only once its levels
 * are stretched. Applied where frames are read, so every back end and
 * detector sees the same frame. */
#ifndef PT_FRAME_GAIN_H
#define PT_FRAME_GAIN_H

#include "lib/io/pt_image.h"

#define PT_GAIN_TARGET 100     /* the 99th percentile a dark frame is stretched to */
#define PT_GAIN_MAX 8.0        /* the largest automatic gain */
#define PT_GAIN_SATURATED 250  /* levels from here up (reflections) are left out */
#define PT_GAIN_SAMPLES 65536  /* a frame is read every step-th row and column, the
                                  largest step that leaves about this many samples
                                  (every pixel of frames up to 256x256) */

/* The automatic gain of img: PT_GAIN_TARGET over the 99th percentile of
 * its grey levels below PT_GAIN_SATURATED (at every step-th row and column,
 * PT_GAIN_SAMPLES), between 1 and PT_GAIN_MAX; 1 where that percentile
 * reaches the target or every level is saturated. */
double pt_frame_gain_auto(const pt_image *img);

/* The gain of a file's frames: opt->gain when set (>= 1), else (0) the
 * automatic gain of its first frame (first: NULL gives 1). */
double pt_frame_gain_resolve(const pt_load_options *opt, const pt_image *first);

/* Every grey level of img times gain, rounded to nearest, at most 255;
 * nothing for gain 1. */
void pt_frame_gain_apply(pt_image *img, double gain);

/* pt_frame_gain_resolve from the file's first frame, applied to all. */
void pt_frame_gain_frames(const pt_load_options *opt, pt_frames *frames);

#endif
