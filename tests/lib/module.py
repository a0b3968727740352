"""The Python module against `pupiltrack track`: the same rows for the same
frames. Usage: module.py RESULTS.csv FRAME.pgm... (RESULTS.csv from track on
those frames, with the detector options given after --, e.g. -- binocular=1)."""
import csv
import sys

import numpy as np

import pupiltrack


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, width, height, maxval, pixels = data.split(maxsplit=4)
    assert magic == b"P5" and int(maxval) < 256, path
    width, height = int(width), int(height)
    return np.frombuffer(pixels[: width * height], np.uint8).reshape(height, width)


def row_of(name, result):
    def num(v):
        return "" if v is None else "%.4f" % v
    return [name, result["eye"], result["status"], num(result["cx"]), num(result["cy"]),
            num(result["r"]), num(result["a"]), num(result["b"]), num(result["theta"]),
            "%.4f" % result["confidence"]]


def main():
    args = sys.argv[1:]
    options = {}
    if "--" in args:
        k = args.index("--")
        options = dict(a.split("=", 1) for a in args[k + 1:])
        args = args[:k]
    results, paths = args[0], args[1:]
    algorithm = options.pop("algorithm", "starburst")
    with open(results, newline="") as f:
        want = [[r["image"], r["eye"], r["status"], r["cx"], r["cy"], r["r"], r["a"], r["b"],
                 r["theta"], r["confidence"]] for r in csv.DictReader(f)]
    frames = [read_pgm(p) for p in paths]
    failures = 0

    def compare(what, got):
        nonlocal failures
        if got != want:
            failures += 1
            print("FAIL: %s differs from pupiltrack track" % what)
            for g, w in zip(got, want):
                if g != w:
                    print("  module: %s\n  track:  %s" % (",".join(g), ",".join(w)))
                    break

    def rows(results):
        out = []
        for path, res in zip(paths, results):
            for r in res if isinstance(res, list) else [res]:
                out.append(row_of(path, r))
        return out

    # one frame at a time, through pupiltrack.detect
    compare("detect, frame by frame",
            rows([pupiltrack.detect(f, algorithm, **options) for f in frames]))
    with pupiltrack.Detector(algorithm, **options) as det:
        # a stack in one batch
        compare("a 3-D stack", rows(det.detect(np.stack(frames))))
        # 16-bit samples holding the 8-bit ones in the top byte
        compare("uint16 frames", rows([det.detect(f.astype(np.uint16) << 8 | 0x55)
                                       for f in frames]))
        # views into wider frames (rows further apart than a row)
        wide = [np.pad(f, ((0, 0), (0, 24))) for f in frames]
        compare("frames with a row stride", rows([det.detect(w[:, : f.shape[1]])
                                                  for w, f in zip(wide, frames)]))
    try:
        pupiltrack.Detector(algorithm, no_such_parameter=1)
        failures += 1
        print("FAIL: an unknown parameter was accepted")
    except pupiltrack.PupiltrackError as e:
        if e.status != "param" or "no_such_parameter" not in str(e):
            failures += 1
            print("FAIL: unknown parameter: %s %s" % (e.status, e))
    print("python module %s: %d frames, %s" % (pupiltrack.version(), len(frames),
                                              "failed" if failures else "same as track"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
