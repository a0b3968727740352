# Sourced by tests/run_cli.sh: strongly rectangular problems on the CPU back
# ends are solved by shortest augmenting paths, not by a price war among
# dummy persons (1 x 100000 took minutes that way): each finishes well
# within the generous limit below and gives the exact total.
for shape in "1 --cols 100000" "100000 --cols 1" "20 --cols 30000"; do
    expect_exit 0 "assign -b exact $shape" -- "$PT" assign -b exact --random $shape --seed 1 -o /dev/null
    exact_total=$(sed -n 's/^total \([^ ]*\) .*/\1/p' "$TMP/err")
    for b in seq omp; do
        expect_exit 0 "assign -b $b $shape" -- timeout 60 "$PT" assign -b $b --random $shape --seed 1 -o /dev/null
        got=$(sed -n 's/^total \([^ ]*\) .*/\1/p' "$TMP/err")
        [ -n "$exact_total" ] && [ "$got" = "$exact_total" ] && ok || fail "assign -b $b $shape: total '$got', exact '$exact_total'"
    done
done
