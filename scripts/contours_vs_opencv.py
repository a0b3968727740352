#!/usr/bin/python3
"""Compare `pupiltrack contours --format json` with OpenCV's findContours.

    python3 scripts/contours_vs_opencv.py IMAGE list|ccomp|tree none|simple OUT.json

IMAGE is thresholded at 0 (pixels > 0 are foreground, as pupiltrack's
default). Prints "same (N borders)" when every border's points and its
hierarchy row [next, prev, first_child, parent] equal OpenCV's, else one line
starting with DIFFERENT (exit status 1).
"""
import json
import sys

import cv2
import numpy as np


def main():
    path, mode, approx, got = sys.argv[1:5]
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    if img is None:
        print("DIFFERENT: cannot read %s" % path)
        return 1
    img = np.where(img > 0, 255, 0).astype(np.uint8)
    retr = {"list": cv2.RETR_LIST, "ccomp": cv2.RETR_CCOMP, "tree": cv2.RETR_TREE}[mode]
    meth = {"none": cv2.CHAIN_APPROX_NONE, "simple": cv2.CHAIN_APPROX_SIMPLE}[approx]
    res = cv2.findContours(img, retr, meth)
    cs, hier = res[-2], res[-1]
    with open(got) as f:
        borders = json.load(f)["borders"]
    if len(borders) != len(cs):
        print("DIFFERENT: %d borders, OpenCV %d" % (len(borders), len(cs)))
        return 1
    for i, (c, b) in enumerate(zip(cs, borders)):
        if c.reshape(-1, 2).tolist() != b["points"]:
            print("DIFFERENT: points of border %d" % i)
            return 1
        row = [b["next"], b["prev"], b["first_child"], b["parent"]]
        if hier[0][i].tolist() != row:
            print("DIFFERENT: hierarchy of border %d: %s, OpenCV %s"
                  % (i, row, hier[0][i].tolist()))
            return 1
    print("same (%d borders)" % len(cs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
