/* Single-precision early rejects for the Hough detector's distance tests:
 * most edge points are far from the circle or ellipse a test asks about, so
 * a float distance with a 1 px margin (its error is under 1e-3 px for any
 * frame up to 65536 px) rejects them, and only points that may pass reach
 * the exact double-precision test that omp/hough.c runs. The margin keeps
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

#endif
