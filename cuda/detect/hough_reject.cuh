/* Single-precision early rejects for the Hough detector's distance tests:
 * most edge points are far from the circle or ellipse a test asks about, so
 * a float distance with a 1 px margin (its error is under 1e-3 px for any
 * frame up to 65536 px) rejects them, and only points that may pass reach
 * the exact double-precision test that omp/detect/hough.c runs. The margin keeps
 * every answer identical to the exact test's. */
#ifndef PT_CUDA_HOUGH_REJECT_CUH
#define PT_CUDA_HOUGH_REJECT_CUH

#define REJECT_MARGIN_PX 1.0f

/* Squared float distance between (ax, ay) and (bx, by). */
__device__ static inline float reject_dist2(double ax, double ay, double bx, double by)
{
    float dx = (float)(ax - bx), dy = (float)(ay - by);
    return dx * dx + dy * dy;
}

/* 1 when the distance whose square is d2 is surely below lo or above hi. */
__device__ static inline int reject_ring(float d2, double lo, double hi)
{
    float l = (float)lo - REJECT_MARGIN_PX, h = (float)hi + REJECT_MARGIN_PX;
    return (l > 0.0f && d2 < l * l) || d2 > h * h;
}

/* 1 when the unit vector (ux, uy) surely points away from (dx, dy) by more
 * than acos(cos_limit): its dot product is well below cos_limit * length. */
__device__ static inline int reject_aim(float ux, float uy, double dx, double dy, float d2,
                                        double cos_limit)
{
    float d = sqrtf(d2);
    float dot = ux * (float)dx + uy * (float)dy;
    return dot < ((float)cos_limit - 0.01f) * d - 0.01f;
}

/* A RANSAC vote decided in single precision where that is safe: 1 inlier,
 * 0 outlier, -1 too close to the band's edge (the caller runs the exact
 * test). The float distance of a point from a circle is within 1e-3 px of
 * the double one for coordinates up to a few thousand px; the margin is ten
 * times that, growing with the magnitudes involved. */
typedef struct {
    float cx, cy, r, inner, outer; /* |d - r| < inner: in; > outer: out */
} vote_circle_f;

__device__ static inline vote_circle_f vote_circle_init(double cx, double cy, double r,
                                                        double inlier)
{
    vote_circle_f v;
    v.cx = (float)cx;
    v.cy = (float)cy;
    v.r = (float)r;
    float margin = 1e-2f + 1e-6f * (fabsf(v.cx) + fabsf(v.cy) + fabsf(v.r));
    v.inner = (float)inlier - margin;
    v.outer = (float)inlier + margin;
    return v;
}

__device__ static inline int vote_circle(const vote_circle_f *v, float x, float y)
{
    float dx = x - v->cx, dy = y - v->cy;
    float dist = fabsf(sqrtf(dx * dx + dy * dy) - v->r);
    return dist < v->inner ? 1 : dist > v->outer ? 0 : -1;
}

#endif
