#!/bin/sh
# Command-line tests: run the pupiltrack binary as a user would and check
# outputs and exit statuses (pupiltrack(1), EXIT STATUS). Usage: tests/run_cli.sh ./pupiltrack
PT=${1:-./pupiltrack}
case $PT in /*) ;; *) PT=$(pwd)/$PT ;; esac
TMP=$(mktemp -d /tmp/pt-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
passed=0; failed=0

ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
# expect_exit CODE DESCRIPTION -- command...
expect_exit() {
    want=$1; what=$2; shift 3
    "$@" >"$TMP/out" 2>"$TMP/err"; got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        fail "$what: exit $got, wanted $want"; sed 's/^/  stderr: /' "$TMP/err" | head -5; fi
}
# expect_grep PATTERN FILE DESCRIPTION
expect_grep() {
    if grep -qE -- "$1" "$2"; then ok; else fail "$3: no '$1' in $(basename "$2")"; head -5 "$2" | sed 's/^/  /'; fi
}
# cuda_usable: a GPU is there and -b cuda tracks a frame on it (tests that
# compare -b cuda with -b omp print SKIP otherwise)
cuda_usable() {
    command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
        "$PT" track -b cuda -o /dev/null testdata/synth/000000.png 2>/dev/null
}
# expect_same A B DESCRIPTION: A is not empty and B is the same byte for
# byte (else the first differing lines are shown)
expect_same() {
    if [ -s "$1" ] && cmp -s "$1" "$2"; then ok; else fail "$3"; diff "$1" "$2" | head -4; fi
}
# one_line FILE DESCRIPTION: stderr holds exactly one line
one_line() {
    n=$(wc -l <"$1"); if [ "$n" -eq 1 ]; then ok; else fail "$2: $n lines on stderr"; head -5 "$1"; fi
}

for t in tests/cli/*.sh; do
    . "$t"
done

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
