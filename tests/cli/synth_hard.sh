# Sourced by tests/run_cli.sh: synth's failure classes (--hazard) and the
# hard mix (pupiltrack(1), synth): every class exists and is recorded in
# DIR/hazards.csv, frames repeat with their seed, unknown classes are
# refused with one line, and the detectors keep their detection rates on a
# small hard-mix set (40 frames 320x256, seed 31; floors a little under the
# rates measured when the mix was made, so a detector that loses two or more
# of these pupils fails here).

hz_classes="low-contrast glint-ring lid small-pupil motion-blur defocus"
"$PT" synth --help >"$TMP/hz_help" 2>&1
for h in $hz_classes; do
    expect_grep "$h" "$TMP/hz_help" "synth --help names $h"
done

"$PT" synth -n 3 --size 160x128 --seed 7 -o "$TMP/hz_plain" >/dev/null 2>&1
[ -f "$TMP/hz_plain/hazards.csv" ] && fail "synth without classes wrote hazards.csv" || ok
for h in $hz_classes; do
    expect_exit 0 "synth --hazard $h" -- "$PT" synth -n 3 --size 160x128 --seed 7 --hazard "$h" -o "$TMP/hz_$h"
    # Every frame lists exactly this class.
    rows=$(grep -c "^[0-9]*\.png,$h\$" "$TMP/hz_$h/hazards.csv" 2>/dev/null)
    if [ "${rows:-0}" -eq 3 ]; then ok; else fail "--hazard $h: $rows of 3 rows of hazards.csv name it"; fi
    if cmp -s "$TMP/hz_plain/000000.png" "$TMP/hz_$h/000000.png"; then
        fail "--hazard $h: frame 0 is the plain frame"; else ok; fi
done
# The blurs leave the truth alone; small pupils change it.
cmp -s "$TMP/hz_plain/groundtruth.csv" "$TMP/hz_motion-blur/groundtruth.csv" && ok ||
    fail "--hazard motion-blur changed the ground truth"
cmp -s "$TMP/hz_plain/groundtruth.csv" "$TMP/hz_defocus/groundtruth.csv" && ok ||
    fail "--hazard defocus changed the ground truth"
cmp -s "$TMP/hz_plain/groundtruth.csv" "$TMP/hz_small-pupil/groundtruth.csv" &&
    fail "--hazard small-pupil kept the pupil sizes" || ok

# Same seed, same frames; a list is the union of its classes.
expect_exit 0 "synth --hazard lid,defocus" -- "$PT" synth -n 3 --size 160x128 --seed 7 --hazard lid,defocus -o "$TMP/hz_two_a"
expect_exit 0 "synth --hazard defocus --hazard lid" -- "$PT" synth -n 3 --size 160x128 --seed 7 --hazard defocus --hazard lid -o "$TMP/hz_two_b"
hz_same=1
for f in 000000.png 000001.png 000002.png groundtruth.csv hazards.csv; do
    cmp -s "$TMP/hz_two_a/$f" "$TMP/hz_two_b/$f" || hz_same=0
done
[ $hz_same = 1 ] && ok || fail "--hazard lid,defocus and --hazard defocus --hazard lid differ"
expect_grep '^000001\.png,lid\+defocus$' "$TMP/hz_two_a/hazards.csv" "hazards.csv of lid,defocus"

# Unknown or empty class names: exit 2, one line naming the value.
expect_exit 2 "synth --hazard glare" -- "$PT" synth -n 1 --hazard glare -o "$TMP/hz_bad"
one_line "$TMP/err" "synth --hazard glare"
expect_grep "unknown hazard 'glare'" "$TMP/err" "synth --hazard glare message"
expect_exit 2 "synth --hazard lid," -- "$PT" synth -n 1 --hazard lid, -o "$TMP/hz_bad"
one_line "$TMP/err" "synth --hazard lid,"
expect_exit 2 "synth --hazard (no value)" -- "$PT" synth -n 1 -o "$TMP/hz_bad" --hazard
one_line "$TMP/err" "synth --hazard (no value)"
[ -e "$TMP/hz_bad" ] && fail "a refused synth --hazard created its folder" || ok

# The hard mix: one or two classes a frame, repeatable.
"$PT" synth -n 40 --size 320x256 --seed 31 --difficulty hard -o "$TMP/hz_mix" >/dev/null 2>&1
"$PT" synth -n 4 --size 320x256 --seed 31 --difficulty hard -o "$TMP/hz_mix4" >/dev/null 2>&1
hz_same=1
for f in 000000.png 000003.png; do cmp -s "$TMP/hz_mix/$f" "$TMP/hz_mix4/$f" || hz_same=0; done
[ $hz_same = 1 ] && ok || fail "hard mix: the same seed gave different frames"
bad=$(awk -F, 'NR > 1 { n = split($2, c, "+"); if (n < 1 || n > 2 || $2 == "") print }' "$TMP/hz_mix/hazards.csv" | wc -l)
rows=$(($(wc -l <"$TMP/hz_mix/hazards.csv") - 1))
if [ "$rows" -eq 40 ] && [ "$bad" -eq 0 ]; then ok; else
    fail "hard mix hazards.csv: $rows rows, $bad without one or two classes"; fi
kinds=$(cut -d, -f2 "$TMP/hz_mix/hazards.csv" | tail -n +2 | tr '+' '\n' | sort -u | wc -l)
[ "$kinds" -eq 6 ] && ok || fail "hard mix: $kinds of 6 classes in 40 frames"

hz_rate() { # RESULTS LABEL -> the percentage eval printed for LABEL
    "$PT" eval --gt "$TMP/hz_mix/groundtruth.csv" -o /dev/null "$1" 2>&1 >/dev/null |
        awk -v pat="$2" 'index($0, pat) { for (i = 1; i <= NF; i++) if ($(i+1) == "%") v = $i } END { print v + 0 }'
}
hz_check() { # WHAT RATE FLOOR
    if awk -v r="$2" -v f="$3" 'BEGIN { exit !(r >= f) }'; then ok; else
        fail "hard mix $1: $2 % < floor $3 %"; fi
    echo "accuracy: synth hard mix 320x256 $1: $2 %"
}
# ALG MODE rel10-floor px5-floor (tl circle: 87.2 % within 5 px with its
# mid-level crossings, 89.7 % before them)
while read -r alg mode f10 f5; do
    opt=""; [ "$mode" = ellipse ] && opt=--ellipse
    "$PT" track -a "$alg" $opt -o "$TMP/hz_$alg$mode.csv" "$TMP/hz_mix" 2>/dev/null
    hz_check "$alg $mode rel10" "$(hz_rate "$TMP/hz_$alg$mode.csv" "relative error <= 10 %")" "$f10"
    hz_check "$alg $mode within 5 px" "$(hz_rate "$TMP/hz_$alg$mode.csv" "centre error <= 5 px")" "$f5"
done <<EOF
starburst circle 71 87
starburst ellipse 71 87
tl circle 62 86
tl ellipse 52 70
hough circle 76 88
hough ellipse 75 87
EOF
