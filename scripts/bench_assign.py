#!/usr/bin/env python3
"""Times scipy.optimize.linear_sum_assignment on a cost matrix saved by
`pupiltrack assign --save-npy M.npy` and prints one line:
    scipy total T ms X
(the best of --repeat runs). Needs numpy and scipy; without them it prints
'scipy unavailable: ...' and exits 3 so scripts/bench_assign.sh can skip it."""
import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("matrix", help=".npy cost matrix")
    ap.add_argument("--max", action="store_true", help="maximise instead of minimise")
    ap.add_argument("--repeat", type=int, default=1, help="runs; the fastest is reported")
    args = ap.parse_args()
    try:
        import numpy as np
        from scipy.optimize import linear_sum_assignment
    except ImportError as e:
        print(f"scipy unavailable: {e}")
        return 3
    try:
        cost = np.load(args.matrix)
    except (OSError, ValueError) as e:
        print(f"{args.matrix}: cannot load: {e}", file=sys.stderr)
        return 1
    best = None
    total = None
    for _ in range(max(1, args.repeat)):
        t0 = time.perf_counter()
        rows, cols = linear_sum_assignment(cost, maximize=args.max)
        ms = 1000.0 * (time.perf_counter() - t0)
        total = float(cost[rows, cols].sum())
        best = ms if best is None or ms < best else best
    print(f"scipy total {total:.15g} ms {best:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
