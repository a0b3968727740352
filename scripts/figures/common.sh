# Shared by scripts/figures/pupil.sh, contours.sh and auction.sh (sourced,
# not run): drawing tidy CSVs with gnuplot, "not measured" panels, tables as
# Markdown, PNG and SVG, and captions; the scripts' shared argument and tool
# checks. The sourcing script sets HERE (scripts/), PAPER (the paper's
# reference), SAY (its name in messages), PT (the binary) and, itself or by
# quick_outdir, OUT (output folder); find_gnuplot sets GNUPLOT.

say() { echo "$SAY: $*" >&2; }

# quick_outdir ARGS: the arguments "[--quick] OUTDIR" of contours.sh and
# auction.sh; sets QUICK and OUT, or prints the usage and exits 2.
quick_outdir() {
    QUICK=0
    while [ $# -gt 0 ]; do
        case $1 in
        --quick) QUICK=1; shift ;;
        -*) set -- ;;
        *) break ;;
        esac
    done
    [ $# -eq 1 ] || { echo "usage: scripts/figures/$SAY [--quick] OUTDIR" >&2; exit 2; }
    OUT=$1
}

# need_pt: exits 2 unless $PT is an executable pupiltrack.
need_pt() {
    [ -x "$PT" ] || { say "$PT not found or not executable (build it with make, or set PT)"; exit 2; }
}

# find_gnuplot [WHAT]: GNUPLOT=1 where gnuplot runs, else 0 and, given WHAT
# (what is written instead), a line saying so.
find_gnuplot() {
    GNUPLOT=1
    command -v gnuplot >/dev/null 2>&1 && return 0
    GNUPLOT=0
    [ $# -eq 0 ] || say "gnuplot not found: $1 (install gnuplot-nox)"
}

# blocks CSV: the tidy "series,x,y" rows as gnuplot data blocks, one per series.
blocks() {
    awk -F, 'NR > 1 { if ($1 != last) { if (last != "") printf "\n\n"; printf "\"%s\" x\n", $1; last = $1 }
                      print $2, $3 }' "$1"
}
nseries() { tail -n +2 "$1" | cut -d, -f1 | sort -u | wc -l; }

# placeholder NAME TITLE MESSAGE: a panel saying why there is no figure.
placeholder() {
    [ "$GNUPLOT" -eq 1 ] || return 0
    gnuplot -e "GPFILES='$HERE/figures/'; out='$OUT/$1'; ttl='$2'; msg='$3'" "$HERE/figures/placeholder.gp"
}

# draw NAME TITLE XLABEL YLABEL [gnuplot settings]: OUTDIR/NAME.{png,svg} from
# the tidy NAME.csv, one line per series (a "no data" panel when it has none).
draw() {
    name=$1; ttl=$2; xl=$3; yl=$4; extra=${5:-}
    [ "$GNUPLOT" -eq 1 ] || return 0
    n=$(nseries "$OUT/$name.csv")
    if [ "$n" -eq 0 ]; then
        placeholder "$name" "$ttl" "no data for this figure"
        return 0
    fi
    blocks "$OUT/$name.csv" >"$OUT/$name.dat"
    gnuplot -e "GPFILES='$HERE/figures/'; data='$OUT/$name.dat'; n=$n; out='$OUT/$name'; ttl='$ttl'; xl='$xl'; yl='$yl'; $extra" \
        "$HERE/figures/lines.gp"
    rm -f "$OUT/$name.dat"
}

# table NAME TITLE: OUTDIR/NAME.csv (header first) as NAME.md (a Markdown
# table: numbers right-aligned) and, with gnuplot, NAME.png and NAME.svg.
table() {
    awk -F, 'NR == 1 { n = NF; line = "|"; rule = "|"
                       for (i = 1; i <= NF; i++) { line = line " " $i " |"; rule = rule (i == 1 ? "---|" : "---:|") }
                       print line; print rule; next }
             { line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line }' \
        "$OUT/$1.csv" >"$OUT/$1.md.tmp" && mv "$OUT/$1.md.tmp" "$OUT/$1.md"
    [ "$GNUPLOT" -eq 1 ] || return 0
    # aligned plain-text columns, one line each, drawn in a fixed-width font
    awk -F, '{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
               if (NF > nf) nf = NF }
             END { for (r = 1; r <= NR; r++) { line = ""
                       for (i = 1; i <= nf; i++) line = line sprintf(i == 1 ? "%-*s" : "  %*s", w[i], cell[r, i])
                       print line
                       if (r == 1) { rule = ""; for (i = 1; i <= length(line); i++) rule = rule "-"; print rule } } }' \
        "$OUT/$1.csv" >"$OUT/$1.txtgrid"
    rows=$(wc -l <"$OUT/$1.txtgrid")
    cols=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$OUT/$1.txtgrid")
    gnuplot -e "GPFILES='$HERE/figures/'; data='$OUT/$1.txtgrid'; rows=$rows; cols=$cols; out='$OUT/$1'; ttl='$2'" \
        "$HERE/figures/table.gp"
    rm -f "$OUT/$1.txtgrid"
}

# caption NAME FIGURE WHAT COMMAND DATA: OUTDIR/NAME.txt.
caption() {
    {
        echo "Reproduces: $2 of $PAPER."
        echo "Plotted: $3"
        echo "Command: $4"
        echo "Data: $5"
    } >"$OUT/$1.txt"
}
