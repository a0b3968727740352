#ifndef PT_PARAMS_TL_H
#define PT_PARAMS_TL_H

enum { PT_TL_SCORE_VOTES = 0, PT_TL_SCORE_SUPPORT = 1, PT_TL_SCORE_QUALITY = 2 };

typedef struct {
    int threshold_min; /* first threshold */
    int threshold_max; /* last threshold (inclusive) */
    int threshold_step;
    double circle_band; /* circle RANSAC inlier distance as a share of the blob's
                           equivalent radius (at least ransac_inlier); 0 = ransac_inlier */
    int refine;        /* 1: refit at the grey level mid-way between pupil and surround */
    int score;         /* PT_TL_SCORE_*: which threshold's fit wins: most RANSAC votes
                          (the paper), or most votes among the fits whose votes per
                          outline pixel are near the best (support) */
} pt_tl_params;

#endif
