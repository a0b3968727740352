/* Geometry types shared by fits, detectors, ground truth and metrics.
 * Convention (pupiltrack(1), FILES): x right, y down, (0,0) is the centre of the top-left
 * pixel; an ellipse has a >= b and theta in [0,180) degrees, the angle of the
 * a axis from +x towards +y. */
#ifndef PT_GEOM_H
#define PT_GEOM_H

typedef struct {
    float x, y;
} pt_point;

typedef struct {
    double cx, cy, r;
} pt_circle;

typedef struct {
    double cx, cy, a, b, theta;
} pt_ellipse;

#endif
