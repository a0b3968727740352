"""Shared helpers of the peer detectors: input listing and the results CSV
(pupiltrack(1), FILES) that `pupiltrack eval` reads. Needs numpy and OpenCV (cv2)."""
import csv
import os
import sys
import time

HEADER = ["image", "eye", "algorithm", "backend", "status", "cx", "cy", "r", "a", "b",
          "theta", "confidence", "ms", "message"]


def need_cv2(name):
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        sys.exit(f"{name}: needs numpy and OpenCV (python3 -c 'import cv2, numpy' failed: {e}); "
                 "on a GPU host use /usr/bin/python3")


def inputs(args):
    """Image paths from a ground-truth CSV (joined to its folder, as eval
    does; rows with blink=1 are kept, eval leaves them out) or from folders/files."""
    out = []
    for a in args:
        if a.endswith(".csv"):
            base = os.path.dirname(a)
            with open(a, newline="") as f:
                rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#"))]
            seen = set()
            for r in rows:
                p = os.path.join(base, r["image"])
                if p not in seen:
                    seen.add(p)
                    out.append(p)
        elif os.path.isdir(a):
            out += sorted(os.path.join(a, n) for n in os.listdir(a)
                          if n.lower().endswith((".png", ".pgm", ".tif", ".tiff", ".jpg")))
        else:
            out.append(a)
    return out


def run(name, detect, argv):
    """detect(grey uint8 image) -> None or (cx, cy, r, a, b, theta, confidence)."""
    import cv2
    if len(argv) < 3 or argv[1] != "-o":
        sys.exit(f"usage: {name} -o RESULTS.csv GT.csv|DIR|IMAGE...")
    paths = inputs(argv[3:])
    with open(argv[2], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for p in paths:
            img = cv2.imread(p, cv2.IMREAD_GRAYSCALE)
            if img is None:
                print(f"{p}: cannot read image", file=sys.stderr)
                w.writerow([p, "", name, "python", "error"] + [""] * 8 + ["cannot read image"])
                continue
            t0 = time.perf_counter()
            res = detect(img)
            ms = (time.perf_counter() - t0) * 1000.0
            if res is None:
                w.writerow([p, "", name, "python", "notfound"] + [""] * 6 + ["0", f"{ms:.3f}", ""])
            else:
                cx, cy, r, a, b, th, conf = res
                w.writerow([p, "", name, "python", "ok", f"{cx:.4f}", f"{cy:.4f}", f"{r:.4f}",
                            f"{a:.4f}", f"{b:.4f}", f"{th:.2f}", f"{conf:.4f}", f"{ms:.3f}", ""])
