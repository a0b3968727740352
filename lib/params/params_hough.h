#ifndef PT_PARAMS_HOUGH_H
#define PT_PARAMS_HOUGH_H

enum { PT_HOUGH_VOTE_SAMPLED = 0, PT_HOUGH_VOTE_GRADIENT = 1 };
/* circle mode's final estimate (hough_refit) */
enum { PT_HOUGH_REFIT_CIRCLE = 0, PT_HOUGH_REFIT_ELLIPSE = 1 };
/* edge pixels on the reflection mask in the refinement (hough_glint_edges) */
enum { PT_HOUGH_GLINT_EDGES_KEEP = 0, PT_HOUGH_GLINT_EDGES_SKIP = 1 };
/* edge pixels on edges flatter than a pupil (hough_flat_edges) */
enum { PT_HOUGH_FLAT_KEEP = 0, PT_HOUGH_FLAT_REJECT = 1 };
/* gradient voting's second centre from the edges with the pupil behind them
 * (hough_dark_vote) */
enum { PT_HOUGH_DARK_VOTE_OFF = 0, PT_HOUGH_DARK_VOTE_ON = 1 };

typedef struct {
    double angle_step;     /* degrees between votes around each edge pixel */
    double sigma;          /* Gaussian / derivative-of-Gaussian sigma */
    double canny_high;     /* high threshold = this quantile of gradient magnitudes */
    double canny_low;      /* low threshold = this fraction of the high one */
    int radius_step;       /* px between tested radii */
    int vote;              /* PT_HOUGH_VOTE_*: sampled circle, or along the gradient */
    int cell;              /* gradient: accumulator cell side in px; 0 = auto */
    double vote_spread;    /* sampled: votes within +- this many degrees of the edge's
                              dark direction; 180 = the whole circle (the paper) */
    int refit;             /* PT_HOUGH_REFIT_*: circle mode's final estimate */
    double edge_offset;    /* refinement's edge points moved this many px towards
                              the dark side */
    int dark_spread;       /* refinement keeps edge points whose dark side is at most
                              this many grey levels above the candidate's inside;
                              255 = no test */
    int glint_edges;       /* PT_HOUGH_GLINT_EDGES_*: refinement skips edge pixels on
                              the reflection mask */
    int flat_edges;        /* PT_HOUGH_FLAT_*: edge pixels on edges flatter than a
                              circle of 0.6 x max_radius leave the fits, the edge
                              support and the dark-edge vote */
    int dark_vote;         /* PT_HOUGH_DARK_VOTE_*: candidates of a second centre
                              voted for by the edges with the pupil behind them */
    double nest_keep;      /* gradient voting's choice: a clearly darker, pupil-shaped
                              candidate inside another leaves that one out from this
                              share of the best candidate's value */
} pt_hough_params;

#endif
