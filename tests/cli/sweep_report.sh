# Sourced by tests/run_cli.sh: sweep writes report.html beside curve.csv and
# summary.csv (pupiltrack-sweep(1), REPORT): its charts, its table, and the
# worst frames' drawings, every link resolving to a PNG in the folder. With
# Chromium installed the page is also rendered and every image must load.
mkdir -p "$TMP/rep-in"
i=0
for f in 000000 000001 000002 000003 000004 000005 000006 000007; do
    i=$((i + 1))
    case $i in 1) name="eye one.png" ;; 2) name="eye%2.png" ;; *) name="eye$i.png" ;; esac
    cp "testdata/synth/$f.png" "$TMP/rep-in/$name"
    grep "^$f.png," testdata/synth/groundtruth.csv | sed "s/^$f.png,/$name,/"
done >"$TMP/rep-in/gt.body"
{ head -n 1 testdata/synth/groundtruth.csv; cat "$TMP/rep-in/gt.body"; } >"$TMP/rep-in/gt.csv"
rm -f "$TMP/rep-in/gt.body"
expect_exit 0 "sweep with report" -- "$PT" sweep -a tl -g tl_step=20,40 --gt "$TMP/rep-in/gt.csv" -o "$TMP/rep" "$TMP/rep-in"
R="$TMP/rep/report.html"
[ -s "$R" ] && ok || fail "sweep wrote no report.html"
ls "$TMP/rep" | grep -q "\.tmp$" && fail "a temporary file left behind" || ok
expect_grep "^<!DOCTYPE html>" "$R" "report is HTML"
expect_grep "</html>" "$R" "report is whole"
n=$(grep -c "<svg" "$R"); [ "$n" -eq 2 ] && ok || fail "report has $n charts, wanted 2"
n=$(grep -c "<polyline" "$R"); [ "$n" -eq 4 ] && ok || fail "report has $n curves, wanted 2 configurations x 2 charts"
n=$(grep -c "^<tr" "$R"); [ "$n" -eq 3 ] && ok || fail "report table has $n rows, wanted header + 2"
grep -q "<script" "$R" && fail "report has a script" || ok
# Every image link names a PNG in the folder (URL-decoded); 6 worst frames.
grep -o '<img src="[^"]*"' "$R" | sed 's/^<img src="//; s/"$//' >"$TMP/rep-links"
n=$(wc -l <"$TMP/rep-links"); [ "$n" -eq 6 ] && ok || fail "report shows $n frames, wanted 6"
url_decode() {
    awk '{ s = $0; out = ""
           while (match(s, /%[0-9A-F][0-9A-F]/)) {
               h = index("0123456789ABCDEF", substr(s, RSTART + 1, 1)) - 1
               l = index("0123456789ABCDEF", substr(s, RSTART + 2, 1)) - 1
               out = out substr(s, 1, RSTART - 1) sprintf("%c", h * 16 + l); s = substr(s, RSTART + 3) }
           print out s }'
}
while read -r link; do
    file=$(printf '%s\n' "$link" | url_decode)
    case $file in /*|*..*) fail "report link leaves the folder: $link"; continue ;; esac
    head -c 8 "$TMP/rep/$file" 2>/dev/null | od -An -c | grep -q 'P   N   G' && ok ||
        fail "report link $link is not a PNG in the folder"
done <"$TMP/rep-links"
grep -q 'src="report/[^"]*eye%20one\.png"\|src="report/[^"]*eye%252\.png"' "$R" && ok ||
    echo "note: neither frame with a space or % in its name is among the worst"
if command -v chromium >/dev/null 2>&1; then
    cat >"$TMP/rep/check.html" <<'HTML'
<!DOCTYPE html><html><body><div id="out">pending</div>
<iframe id="r" src="report.html" width="1200" height="800"></iframe>
<script>
document.getElementById('r').onload = function () {
  var d = this.contentDocument, imgs = d.images, ok = 0;
  for (var i = 0; i < imgs.length; i++) if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;
  document.getElementById('out').textContent =
    'images ' + ok + '/' + imgs.length + ' curves ' + d.querySelectorAll('svg polyline').length;
};
</script></body></html>
HTML
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --allow-file-access-from-files --virtual-time-budget=5000 \
        --dump-dom "file://$TMP/rep/check.html" 2>"$TMP/rep-chromium" >"$TMP/rep-dom"
    if ! grep -q 'id="out"' "$TMP/rep-dom"; then
        # no page at all: Chromium itself could not run here (not the report)
        echo "SKIP: report.html rendering (chromium did not start: $(tail -1 "$TMP/rep-chromium"))"
    else
        grep -q 'id="out">images 6/6 curves 4<' "$TMP/rep-dom" && ok ||
            fail "Chromium: $(grep -o 'id="out">[^<]*' "$TMP/rep-dom" | sed 's/.*>//') (wanted images 6/6 curves 4)"
    fi
    rm -f "$TMP/rep/check.html"
else
    echo "SKIP: report.html rendering (chromium is not installed; links and HTML were checked)"
fi
