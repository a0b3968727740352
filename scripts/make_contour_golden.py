#!/usr/bin/python3
"""Make the golden files for tests/test_contours.c with OpenCV's findContours.

Run once with an OpenCV 4.x python (python3-opencv):
    /usr/bin/python3 scripts/make_contour_golden.py [OUTDIR]
Writes NAME.png (8-bit grey test image) and NAME.MODE.csv for every image and
mode, plus index.txt listing "NAME MODE APPROX" lines. The CSV holds one row per
border point, `border,type,parent,index,x,y`, and the hierarchy rows are in a
second file NAME.MODE.hier.csv: `border,next,prev,first_child,parent`.
"""
import os
import sys

import cv2
import numpy as np

MODES = {"list": cv2.RETR_LIST, "ccomp": cv2.RETR_CCOMP, "tree": cv2.RETR_TREE}


def ellipse_img(rng, h, w, n, holes):
    img = np.zeros((h, w), np.uint8)
    for _ in range(n):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        ax = (int(rng.integers(1, max(2, w // 3))), int(rng.integers(1, max(2, h // 3))))
        ang = float(rng.uniform(0, 180))
        cv2.ellipse(img, c, ax, ang, 0, 360, 255, -1)
        if holes and ax[0] > 3 and ax[1] > 3:
            cv2.ellipse(img, c, (ax[0] // 2, ax[1] // 2), ang, 0, 360, 0, -1)
    return img


def rings(h, w, thick):
    img = np.zeros((h, w), np.uint8)
    for r in range(min(h, w) // 2 - 1, 1, -2 * thick):
        cv2.circle(img, (w // 2, h // 2), r, 255, thick)
    return img


def nested(h, w):
    img = np.zeros((h, w), np.uint8)
    v, i = 255, 1
    while 2 * i * 3 < min(h, w):
        img[3 * i:h - 3 * i, 3 * i:w - 3 * i] = v
        v = 255 - v
        i += 1
    return img


def lines(rng, h, w, n):
    img = np.zeros((h, w), np.uint8)
    for _ in range(n):
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.line(img, p, q, 255, 1)
    return img


def pixels(rng, h, w, n):
    img = np.zeros((h, w), np.uint8)
    ys = rng.integers(0, h, n)
    xs = rng.integers(0, w, n)
    img[ys, xs] = 255
    return img


def noise(rng, h, w, p=0.5):
    return np.where(rng.random((h, w)) < p, 255, 0).astype(np.uint8)


def images(rng):
    out = []
    for i in range(10):
        out.append((f"ellipses{i:02d}", ellipse_img(rng, 64 + i, 80 - i, 3 + i % 4, True)))
    for i in range(4):
        out.append((f"ellipses_solid{i}", ellipse_img(rng, 48, 48, 5, False)))
    for t in (1, 2, 3):
        out.append((f"rings_t{t}", rings(61, 67, t)))
    out.append(("nested", nested(64, 64)))
    out.append(("nested_odd", nested(57, 71)))
    for i in range(4):
        out.append((f"lines{i}", lines(rng, 50 + 7 * i, 45 + 5 * i, 2 + 3 * i)))
    for i in range(3):
        out.append((f"pixels{i}", pixels(rng, 40, 33 + i, 30 * (i + 1))))
    for i in range(6):
        out.append((f"noise{i}", noise(rng, 16 + 11 * i, 90 - 11 * i)))
    out.append(("noise_sparse", noise(rng, 64, 64, 0.1)))
    out.append(("noise_dense", noise(rng, 64, 64, 0.9)))
    out.append(("noise_big", noise(rng, 72, 72)))
    e = np.zeros((40, 50), np.uint8)
    cv2.circle(e, (0, 0), 12, 255, -1)
    cv2.circle(e, (49, 20), 9, 255, 2)
    cv2.rectangle(e, (10, 30), (30, 39), 255, -1)
    e[:, 40] = 255
    out.append(("edge_touch", e))
    out.append(("edge_frame", cv2.rectangle(np.zeros((30, 31), np.uint8), (0, 0), (30, 29), 255, 1)))
    out.append(("all_ones", np.full((23, 17), 255, np.uint8)))
    out.append(("all_zeros", np.zeros((19, 29), np.uint8)))
    out.append(("one_pixel_on", np.full((1, 1), 255, np.uint8)))
    out.append(("one_pixel_off", np.zeros((1, 1), np.uint8)))
    out.append(("row_1xN", noise(rng, 1, 77)))
    out.append(("col_Nx1", noise(rng, 63, 1)))
    out.append(("row_ones", np.full((1, 40), 255, np.uint8)))
    out.append(("col_ones", np.full((35, 1), 255, np.uint8)))
    out.append(("two_rows", noise(rng, 2, 50)))
    out.append(("checker", (np.indices((21, 25)).sum(0) % 2 * 255).astype(np.uint8)))
    g = np.zeros((33, 33), np.uint8)
    g[::4, :] = 255
    g[:, ::4] = 255
    out.append(("grid", g))
    d = np.zeros((40, 40), np.uint8)
    for k in range(40):
        d[k, k] = 255
        d[k, 39 - k] = 255
    out.append(("diagonals", d))
    grey = rng.integers(0, 256, (37, 41)).astype(np.uint8)
    out.append(("grey_values", grey))
    many = np.zeros((60, 60), np.uint8)
    many[1::3, 1::3] = 255
    out.append(("many_dots", many))
    holes = np.full((60, 60), 255, np.uint8)
    holes[1::3, 1::3] = 0
    out.append(("many_holes", holes))
    return out


def write_csv(path, contours, hierarchy, is_hole):
    with open(path, "w") as f:
        f.write("border,type,parent,index,x,y\n")
        for b, c in enumerate(contours):
            par = int(hierarchy[b][3]) if hierarchy is not None else -1
            t = "hole" if is_hole[b] else "outer"
            for i, p in enumerate(c.reshape(-1, 2)):
                f.write(f"{b},{t},{par},{i},{p[0]},{p[1]}\n")


def write_hier(path, hierarchy, n):
    with open(path, "w") as f:
        f.write("border,next,prev,first_child,parent\n")
        for b in range(n):
            h = hierarchy[b]
            f.write(f"{b},{h[0]},{h[1]},{h[2]},{h[3]}\n")


def hole_flags(img, approx, contours):
    # findContours does not return the border type; a TREE run gives it by
    # depth parity (holes at odd depth), matched to these borders by content.
    tree, h_tree = cv2.findContours(img.copy(), cv2.RETR_TREE, approx)[-2:]
    key = {}
    for i, c in enumerate(tree):
        depth, p = 0, h_tree[0][i][3]
        while p >= 0:
            depth += 1
            p = h_tree[0][p][3]
        key[c.tobytes()] = depth % 2 == 1
    return [key[c.tobytes()] for c in contours]


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "testdata/contours"
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(20261122)
    index = []
    for name, img in images(rng):
        cv2.imwrite(os.path.join(outdir, name + ".png"), img)
        sets = [(m, "none") for m in MODES] + [("tree", "simple")]
        for mode, approx in sets:
            a = cv2.CHAIN_APPROX_NONE if approx == "none" else cv2.CHAIN_APPROX_SIMPLE
            contours, hierarchy = cv2.findContours(img.copy(), MODES[mode], a)[-2:]
            hier = hierarchy[0] if hierarchy is not None else None
            holes = hole_flags(img, a, contours) if contours else []
            stem = f"{name}.{mode}.{approx}"
            write_csv(os.path.join(outdir, stem + ".csv"), contours, hier, holes)
            write_hier(os.path.join(outdir, stem + ".hier.csv"), hier, len(contours))
            index.append(f"{name} {mode} {approx}")
    with open(os.path.join(outdir, "index.txt"), "w") as f:
        f.write("\n".join(index) + "\n")
    print(f"{len(index)} golden sets for {len(index) // 4} images in {outdir}")


if __name__ == "__main__":
    main()
