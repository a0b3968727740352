#!/usr/bin/env python3
"""OpenCV HoughCircles as a pupil detector (the second peer), tuned for
near-infrared eye crops: median blur 5, HOUGH_GRADIENT with dp 1, Canny high
threshold 60, accumulator threshold 10, radii 2 %..40 % of the short side;
of the (up to 10) strongest circles the one with the darkest mean inside
wins. Needs numpy and OpenCV (cv2).

usage: hough_circles.py -o RESULTS.csv GT.csv|DIR|IMAGE...
then:  pupiltrack eval --gt GT.csv RESULTS.csv"""
import sys

from peer_common import need_cv2, run


def detect(img):
    import cv2
    import numpy as np
    h, w = img.shape
    side = min(w, h)
    blur = cv2.medianBlur(img, 5)
    circles = cv2.HoughCircles(blur, cv2.HOUGH_GRADIENT, dp=1, minDist=max(4, side // 8),
                               param1=60, param2=10, minRadius=max(2, int(0.02 * side)),
                               maxRadius=int(0.4 * side))
    if circles is None:
        return None
    yy, xx = np.mgrid[0:h, 0:w]
    best = None
    for cx, cy, r in circles[0][:10]:
        inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
        if not inside.any():
            continue
        mean = float(blur[inside].mean())
        if best is None or mean < best[0]:
            best = (mean, float(cx), float(cy), float(r))
    if best is None:
        return None
    mean, cx, cy, r = best
    return cx, cy, r, r, r, 0.0, max(0.0, min(1.0, 1.0 - mean / 255.0))


if __name__ == "__main__":
    need_cv2("hough_circles.py")
    run("hough_circles", detect, sys.argv)
