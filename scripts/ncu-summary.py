#!/usr/bin/env python3
"""Sum Nsight Compute kernel durations (a --csv report with
gpu__time_duration.sum) per kernel name: launches, total and per-frame time."""
import collections
import csv
import sys

path = sys.argv[1]
frames = int(sys.argv[2]) if len(sys.argv) > 2 else 1
rows = [r for r in csv.reader(open(path)) if len(r) > 10]
head = rows[0]
ki, mi, vi = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
total = collections.defaultdict(float)
count = collections.Counter()
for r in rows[1:]:
    if r[mi] == "gpu__time_duration.sum":
        name = r[ki].split("(")[0]
        total[name] += float(r[vi].replace(",", ""))
        count[name] += 1
for name, ns in total.items():
    print("%-28s %4d launches %9.1f us  %7.2f us/frame" % (name, count[name], ns / 1e3,
                                                         ns / 1e3 / frames))
print("%-28s %4d launches %9.1f us  %7.2f us/frame" % ("total", sum(count.values()),
      sum(total.values()) / 1e3, sum(total.values()) / 1e3 / frames))
