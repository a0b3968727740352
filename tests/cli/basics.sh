# Sourced by tests/run_cli.sh: help, version, usage errors, parameters.
expect_exit 0 "--help" -- "$PT" --help
expect_grep "track" "$TMP/out" "--help lists commands"
expect_exit 0 "--version" -- "$PT" --version
expect_grep "^pupiltrack [0-9]" "$TMP/out" "--version prints the version"
expect_exit 2 "unknown command" -- "$PT" frobnicate
one_line "$TMP/err" "unknown command"
expect_exit 2 "no arguments" -- "$PT"
for cmd in track eval synth import params bench contours assign mtt; do
    expect_exit 0 "$cmd --help" -- "$PT" $cmd --help
    expect_grep "usage" "$TMP/out" "$cmd --help"
done
expect_exit 0 "params" -- "$PT" params
expect_grep "^rays " "$TMP/out" "params lists starburst rays"
expect_grep "^reflection_kernel " "$TMP/out" "params lists the reflection kernel"
expect_exit 0 "params -a tl" -- "$PT" params -a tl
if grep -q "^rays " "$TMP/out"; then fail "params -a tl lists a starburst-only parameter"; else ok; fi
expect_exit 2 "unknown -p key" -- "$PT" track -p nosuchkey=1 testdata/synth
one_line "$TMP/err" "unknown -p key"
expect_grep "nosuchkey" "$TMP/err" "unknown -p key is named"
expect_exit 2 "out-of-range -p value" -- "$PT" track -p rays=0 testdata/synth
expect_grep "rays" "$TMP/err" "out-of-range value is named"
expect_exit 2 "non-numeric -p value" -- "$PT" track -p rays=abc testdata/synth
expect_exit 2 "-p NaN" -- "$PT" track -p edge_threshold=nan testdata/synth
expect_exit 2 "unknown detector" -- "$PT" track -a nosuch testdata/synth

# The manual documents every parameter `pupiltrack params` lists.
MAN=$(dirname "$0")/../man/pupiltrack.1
[ -f "$MAN" ] || MAN=man/pupiltrack.1
missing=$("$PT" params 2>/dev/null | awk 'NR > 1 { print $1 }' | while read -r p; do
    grep -qE -- "^\.B[IR]? (.*[^a-z_])?\"?$p([^a-z_]|\$)" "$MAN" || echo "$p"; done)
[ -z "$missing" ] && ok || fail "man/pupiltrack.1 lacks parameters: $missing"
