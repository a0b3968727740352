# Sourced by tests/run_cli.sh: the README's tour, taken from README.md itself
# so that the two cannot drift apart. Every command of the ```sh blocks under
# "## A short tour" and "## Evaluate a dataset" runs in a scratch folder
# holding a copy of testdata/, with ./pupiltrack replaced by $PT; any
# non-zero exit fails. Lines that need a GPU (-b cuda) or the network are
# left out and counted.
tour_readme=README.md
tour_dir="$TMP/tour"
tour_cmds="$TMP/tour.cmds"
rm -rf "$tour_dir"
mkdir -p "$tour_dir"
cp -R testdata "$tour_dir/"

# Commands of the chosen sections' sh blocks, one per line: backslash
# continuations joined, comment-only and empty lines dropped.
awk '
    /^## / { section = substr($0, 4); next }
    /^```sh$/ { inblock = (section == "A short tour" || section == "Evaluate a dataset"); next }
    /^```/ { inblock = 0; next }
    !inblock { next }
    /^[ \t]*#/ || /^[ \t]*$/ { next }
    { line = cont $0; cont = "" }
    line ~ /\\$/ { sub(/\\$/, "", line); cont = line; next }
    { print line }
' "$tour_readme" >"$tour_cmds"

tour_run=0; tour_skipped=0; tour_bad=0
while IFS= read -r tour_line; do
    case $tour_line in
        *"-b cuda"* | *curl* | *wget* | *"apt-get"* | *"git clone"*)
            tour_skipped=$((tour_skipped + 1)); continue ;;
    esac
    case $tour_line in
        ./pupiltrack*) ;;
        *) fail "README tour: a command that does not start with ./pupiltrack: $tour_line"; continue ;;
    esac
    tour_cmd="\"\$PT\"${tour_line#./pupiltrack}"
    tour_run=$((tour_run + 1))
    (cd "$tour_dir" && eval "$tour_cmd") >"$TMP/tour.out" 2>"$TMP/tour.err" </dev/null
    tour_rc=$?
    if [ "$tour_rc" -ne 0 ]; then
        tour_bad=$((tour_bad + 1))
        fail "README tour: exit $tour_rc: $tour_line"
        sed 's/^/  stderr: /' "$TMP/tour.err" | head -5
        continue
    fi
    # eval must have scored what it was given: no results left without truth.
    case $tour_line in
        "./pupiltrack eval "*)
            if grep -qE 'results without truth +[1-9]' "$TMP/tour.err"; then
                tour_bad=$((tour_bad + 1))
                fail "README tour: eval matched no ground truth to some results: $tour_line"
                grep -E 'without' "$TMP/tour.err" | sed 's/^/  /'
                continue
            fi ;;
    esac
    ok
done <"$tour_cmds"

# The tour must still be there: at least the commands it had when this test
# was written, and the outputs that later lines of it read.
[ "$tour_run" -ge 15 ] && ok || fail "README tour: only $tour_run commands found in README.md (sections renamed?)"
for tour_f in results.csv curve.csv seq-results.csv glints.csv gt.csv assignment.csv particles.csv sweep-sb/summary.csv; do
    [ -s "$tour_dir/$tour_f" ] && ok || fail "README tour: $tour_f not written"
done
[ "$(ls "$tour_dir/overlays" 2>/dev/null | grep -c '\.png$')" -eq 20 ] && ok ||
    fail "README tour: --draw overlays/ did not write 20 PNGs"
echo "README tour: $tour_run commands run, $tour_skipped left out (GPU or network), $tour_bad failed"
rm -rf "$tour_dir"
