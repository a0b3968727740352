/* Preprocessing shared by all detectors (pupiltrack(1), PARAMETERS). */
#ifndef PT_PARAMS_PREPROCESS_H
#define PT_PARAMS_PREPROCESS_H

enum { PT_REFLECTION_INTERPOLATE = 0, PT_REFLECTION_SKIP = 1, PT_REFLECTION_OFF = 2 };
enum { PT_SMOOTH_GAUSSIAN = 0, PT_SMOOTH_MEDIAN = 1, PT_SMOOTH_NONE = 2 };

typedef struct {
    int reflection;           /* PT_REFLECTION_*: interpolate, skip (starburst), off */
    int reflection_kernel;    /* top-hat square side, odd; 0 = auto from image size (19 at 1280x1024) */
    int reflection_threshold; /* top-hat value above which a pixel is a reflection */
    int reflection_dilate;    /* dilation of the reflection mask, square side, odd; 0 = auto */
    int smooth;               /* PT_SMOOTH_* */
    int smooth_size;          /* Gaussian or median kernel side, odd */
    double smooth_sigma;      /* Gaussian sigma */
    int min_radius;           /* smallest pupil radius searched, px; 0 = auto from image size */
    int max_radius;           /* largest pupil radius searched, px; 0 = auto from image size */
    int ransac_samples;       /* RANSAC iterations (rows of the shared sample table used) */
    int ransac_sample_size;   /* points per RANSAC sample */
    double ransac_inlier;     /* inlier distance, px */
} pt_preprocess_params;

#endif
