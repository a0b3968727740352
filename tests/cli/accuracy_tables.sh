# Sourced by tests/run_cli.sh: scripts/accuracy_tables.sh prints the
# synthetic tables of ACCURACY.md; here on tiny stand-ins for its sets
# (made in its cache first, so it reuses them), Starburst only. Every cell
# must be a rate pair, and the hard-mix cell must equal what track and eval
# give on that set by hand.
TC="$TMP/tables-cache"
for s in m11 b12 m21 b22 n41 c41-low-contrast c41-glint-ring c41-lid c41-small-pupil \
         c41-motion-blur c41-defocus s41 h31 h32; do
    b=""; case $s in b*|h32) b=--binocular ;; esac
    "$PT" synth -n 3 --size 320x256 --seed 5 --difficulty hard $b -o "$TC/$s" >/dev/null 2>&1
done
PT_TABLES_CACHE="$TC" PT="$PT" sh scripts/accuracy_tables.sh -a starburst \
    >"$TMP/tables.md" 2>"$TMP/tables.err"
if [ $? -eq 0 ]; then ok; else fail "accuracy_tables.sh exit status"; head -3 "$TMP/tables.err"; fi
n=$(grep -cE '^\| (starburst|n41|c41-[a-z-]+|s41|h31|h32) (\| [0-9.]+ / [0-9.]+ )+\|$' "$TMP/tables.md")
if [ "$n" -eq 11 ]; then ok; else fail "accuracy_tables.sh: $n of 11 rows of rate pairs"; head -8 "$TMP/tables.md"; fi
"$PT" track -a starburst -o "$TMP/tables-h31.csv" "$TC/h31" 2>/dev/null
"$PT" eval --gt "$TC/h31/groundtruth.csv" -o /dev/null "$TMP/tables-h31.csv" 2>"$TMP/tables-eval.txt"
want=$(awk 'index($0, "relative error <= 10 %") { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i }
            END { print v }' "$TMP/tables-eval.txt")
got=$(awk -F' \\| ' '$1 == "| h31" { split($2, c, " / "); print c[1]; exit }' "$TMP/tables.md")
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else
    fail "accuracy_tables.sh: h31 starburst circle cell '$got', track and eval give '$want'"; fi
# the per-class rows of the mixes: each class's share and frame count
n=$(grep -cE '^\| h3[12] \| starburst( \| ([0-9]+ % of [0-9]+|-))+ \|$' "$TMP/tables.md")
if [ "$n" -eq 2 ]; then ok; else fail "accuracy_tables.sh: $n of 2 per-class rows"; tail -6 "$TMP/tables.md"; fi
