# Sourced by tests/run_cli.sh: the manual pages and the program agree.
# 1. Every long option that `pupiltrack CMD --help` prints is in the manual
#    page that documents CMD (in pupiltrack(1): in CMD's own subsection).
# 2. Every detector parameter the manual pages name (the tags of
#    pupiltrack(1)'s PARAMETERS section, bold names with an underscore,
#    and -p key=... / -g key=... examples) is one that `pupiltrack params -a
#    starburst|tl|hough` lists.
man_dir=man
[ -d "$man_dir" ] || man_dir=$(dirname "$0")/../man

# man_text PAGE...: the pages as plain text (hyphens unescaped, font
# changes removed), so that "\fB\-\-mode\fR" reads "--mode".
man_text() {
    sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\(em/-/g' "$@"
}

# man_page_of CMD: the page that documents CMD.
man_page_of() {
    case $1 in
        sweep | merge) echo "$man_dir/pupiltrack-sweep.1" ;;
        assign | mtt | particles) echo "$man_dir/pupiltrack-assign.1" ;;
        *) echo "$man_dir/pupiltrack.1" ;;
    esac
}

man_checked=0
for man_cmd in track eval sweep merge synth particles import params bench contours assign mtt; do
    if [ "$man_cmd" = particles ]; then
        "$PT" synth --particles --help >"$TMP/man_help" 2>&1
    else
        "$PT" "$man_cmd" --help >"$TMP/man_help" 2>&1
    fi || { fail "$man_cmd --help exits non-zero"; continue; }
    man_page=$(man_page_of "$man_cmd")
    if [ "$man_page" = "$man_dir/pupiltrack.1" ]; then
        # Only the command's own subsection (.SS CMD) counts.
        awk -v c="$man_cmd" '/^\.SS / { in_cmd = ($2 == c) } /^\.SH / { in_cmd = 0 } in_cmd' "$man_page" |
            man_text >"$TMP/man_page.txt"
        [ -s "$TMP/man_page.txt" ] || { fail "pupiltrack.1 has no section '.SS $man_cmd'"; continue; }
    else
        man_text "$man_page" >"$TMP/man_page.txt"
    fi
    man_opts=$(grep -oE -- '--[a-z][a-z0-9-]*' "$TMP/man_help" | sort -u)
    [ -n "$man_opts" ] || [ "$man_cmd" = params ] || { fail "$man_cmd --help lists no long options"; continue; }
    man_missing=""
    for man_opt in $man_opts; do
        man_checked=$((man_checked + 1))
        grep -qE -- "(^|[^a-z0-9-])$man_opt([^a-z0-9-]|\$)" "$TMP/man_page.txt" ||
            man_missing="$man_missing $man_opt"
    done
    [ -z "$man_missing" ] && ok ||
        fail "$(basename "$man_page") lacks options that '$man_cmd --help' lists:$man_missing"
done
[ "$man_checked" -ge 60 ] && ok || fail "only $man_checked --help options found (help format changed?)"

# The parameters that exist.
for man_alg in starburst tl hough; do
    "$PT" params -a $man_alg | awk 'NR > 1 { print $1 }'
done | sort -u >"$TMP/man_params"
[ "$(wc -l <"$TMP/man_params")" -ge 40 ] && ok || fail "pupiltrack params lists too few parameters"

# Names the pages use as parameters.
{
    # Tags of the PARAMETERS section: ".BR name ..." or ".B name, name2",
    # quoted text removed.
    awk '/^\.SH / { inpar = ($2 == "PARAMETERS") } inpar' "$man_dir/pupiltrack.1" |
        awk 'prev == ".TP" && /^\.BR? / { print } { prev = $0 }' |
        sed -e 's/^\.BR* //' -e 's/"[^"]*"//g' -e 's/\\-/-/g' | tr ', ' '\n\n'
    # Bold names with an underscore (\fBedge_threshold\fR, \fBtl_border=contour\fR).
    sed 's/\\-/-/g' "$man_dir"/*.1 | grep -oE '\\fB[a-z][a-z0-9]*_[a-z0-9_]*' | sed 's/^\\fB//'
    # -p key=value and -g key=... examples.
    man_text "$man_dir"/*.1 | grep -oE -- '-[pg] [a-z][a-z0-9_]*=' | sed -e 's/^-[pg] //' -e 's/=$//'
} | grep -E '^[a-z][a-z0-9_]*$' | grep -vx 'key' | sort -u >"$TMP/man_named"
# -g also takes these keys (pupiltrack-sweep(1)).
man_unknown=$(grep -vxF -f "$TMP/man_params" "$TMP/man_named" | grep -vxE 'algorithm|backend|fit|threads|streams' | tr '\n' ' ')
[ -z "$man_unknown" ] && ok || fail "manual pages name parameters that do not exist: $man_unknown"
[ "$(wc -l <"$TMP/man_named")" -ge 40 ] && ok || fail "only $(wc -l <"$TMP/man_named") parameter names found in the manual pages"
