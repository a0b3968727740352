#!/usr/bin/env python3
"""Darkest-blob pupil detector, the peer a user would try first:
for a sweep of thresholds (grey-level percentiles 1..40 of the image), the
pixels at or below the threshold, their biggest 8-connected component, and
its circularity 4 pi A / P^2; the most circular blob of a plausible size
wins. Result: the blob's centroid, r = sqrt(area / pi), a, b, theta from its
second moments. Needs numpy and OpenCV (cv2).

usage: darkest_blob.py -o RESULTS.csv GT.csv|DIR|IMAGE...
then:  pupiltrack eval --gt GT.csv RESULTS.csv"""
import math
import sys

from peer_common import need_cv2, run


def detect(img):
    import cv2
    import numpy as np
    h, w = img.shape
    side = min(w, h)
    min_area = math.pi * max(2.0, 0.02 * side) ** 2
    max_area = math.pi * (0.4 * side) ** 2
    smooth = cv2.GaussianBlur(img, (5, 5), 1.0)
    best = None
    for t in sorted(set(int(v) for v in np.percentile(smooth, range(1, 41, 1)))):
        mask = (smooth <= t).astype(np.uint8)
        n, labels, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if n < 2:
            continue
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        area = float(stats[k, cv2.CC_STAT_AREA])
        if area < min_area or area > max_area:
            continue
        blob = (labels == k).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        perim = max(cv2.arcLength(c, True) for c in contours)
        circ = 4 * math.pi * area / (perim * perim) if perim > 0 else 0.0
        if best is None or circ > best[0]:
            best = (circ, blob, area)
    if best is None:
        return None
    circ, blob, area = best
    m = cv2.moments(blob, binaryImage=True)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(((mu20 - mu02) / 2) ** 2 + mu11 ** 2)
    l1, l2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    a, b = 2 * math.sqrt(max(l1, 0)), 2 * math.sqrt(max(l2, 0))
    theta = math.degrees(0.5 * math.atan2(2 * mu11, mu20 - mu02)) % 180.0
    return cx, cy, math.sqrt(area / math.pi), a, b, theta, min(1.0, max(0.0, circ))


if __name__ == "__main__":
    need_cv2("darkest_blob.py")
    run("darkest_blob", detect, sys.argv)
