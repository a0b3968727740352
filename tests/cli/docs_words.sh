# Sourced by tests/run_cli.sh: the documents a user reads speak about the
# program, not about how it was developed. Fails on development-process words
# (case-insensitive) in README.md, BENCHMARKS.md, ACCURACY.md, CHANGELOG.md
# and the manual pages, naming each file and line.
docs_patterns='(^|[^a-z])sessions? *#?[0-9]
(^|[^a-z])(this|last|next|previous|same|every|each|one|that) session([^a-z]|$)
(^|[^a-z])issues? *#?[0-9]
(^|[^a-z])the issue('"'"'s)?([^a-z]|$)
(^|[^a-z])spec([^a-z]|$)
spec\.md
\.\./shared/
(^|[^a-z])lent([^a-z]|$)
(^|[^a-z])helpers?([^a-z]|$)
gpu machine
(^|[^a-z])dev machine
(^|[^a-z])sprint
(^|[^a-z])todo([^a-z]|$)
(^|[^a-z])fixme([^a-z]|$)'
printf '%s\n' "$docs_patterns" >"$TMP/docs_patterns"
docs_files="README.md BENCHMARKS.md ACCURACY.md CHANGELOG.md $(ls man/*.1 2>/dev/null | tr '\n' ' ')"
docs_hits=""
for docs_f in $docs_files; do
    if [ ! -f "$docs_f" ]; then
        fail "docs words: $docs_f is missing"
        continue
    fi
    if grep -n -i -E -f "$TMP/docs_patterns" "$docs_f" >"$TMP/docs_hits"; then
        docs_hits=yes
        fail "docs words: development-process words in $docs_f:"
        head -10 "$TMP/docs_hits" | sed 's/^/  /'
    else
        ok
    fi
done
# The check must see the manual pages.
[ -f man/pupiltrack.1 ] && ok || fail "docs words: man/pupiltrack.1 not found (run from the source folder)"
