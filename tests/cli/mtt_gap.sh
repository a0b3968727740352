# Sourced by tests/run_cli.sh: mtt crosses frames without measurements in
# one step, not frame by frame (frames 0 and 1e9 took 17 s that way); the
# limit below is a guard against the frame-by-frame walk, not a timing.
printf 'frame,x,y\n0,10,10\n0,50,50\n1000000000,10,10\n' >"$TMP/gap.csv"
expect_exit 0 "mtt over a gap of 1e9 frames" -- timeout 10 "$PT" mtt -o "$TMP/gap-out.csv" "$TMP/gap.csv"
rows=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $4 }' "$TMP/gap-out.csv")
[ "$rows" = "0:0 0:1 1000000000:2 " ] && ok || fail "mtt over a long gap: rows $rows"
