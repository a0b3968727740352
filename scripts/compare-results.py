"""Compare two results CSVs of `pupiltrack track` row by row (same image and
eye): frames whose status differs, frames whose centre, radius or axes differ
by more than TOL px (default 0.5), and the largest confidence difference.

    python3 scripts/compare-results.py A.csv B.csv [TOL]
"""
import csv
import sys


def rows(path):
    with open(path) as f:
        return {(r["image"], r["eye"]): r for r in csv.DictReader(f)}


def num(r, k):
    try:
        return float(r[k])
    except (KeyError, ValueError):
        return 0.0


def main():
    a, b = rows(sys.argv[1]), rows(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    status = beyond = missing = 0
    worst = conf = 0.0
    examples = []
    for k, r in a.items():
        s = b.get(k)
        if s is None:
            missing += 1
            continue
        if r["status"] != s["status"]:
            status += 1
            examples.append((k, r["status"], s["status"]))
            continue
        if r["status"] != "ok":
            continue
        d = max(abs(num(r, c) - num(s, c)) for c in ("cx", "cy", "r", "a", "b"))
        worst = max(worst, d)
        conf = max(conf, abs(num(r, "confidence") - num(s, "confidence")))
        if d > tol:
            beyond += 1
            examples.append((k, r["cx"], r["cy"], r["r"], s["cx"], s["cy"], s["r"]))
    print("%s n %d missing %d status differ %d beyond %g px %d worst %.4f px confidence %.4f"
          % (sys.argv[1], len(a), missing, status, tol, beyond, worst, conf))
    print(examples[:4])
    return 1 if status or beyond or missing else 0


if __name__ == "__main__":
    sys.exit(main())
