#!/bin/sh
# Runs each unit-test binary given as an argument; sums their
# "N passed, N failed" lines into one closing line.
passed=0; failed=0; broken=0
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    p=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    [ -n "$p" ] || p=0; [ -n "$f" ] || f=0
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    passed=$((passed + p)); failed=$((failed + f))
    if [ $rc -ne 0 ]; then
        broken=$((broken + 1))
        printf '%s\n' "$out" | grep -vE '^(PASS|ok) ' | tail -n 40
        echo "FAILED: $t (exit $rc)"
    else
        printf '%s\n' "$out" | grep -E '^(SKIP|skip)' || true
        echo "ok: $line"
    fi
done
echo "unit: $passed passed, $failed failed"
[ $broken -eq 0 ]
