# One line per series: gnuplot -e "data='F.dat'; n=N; out='BASE'; ttl='...'; xl='...'; yl='...'"
#   [ideal=1: add y = x]  [ymax=V: fix the y range to 0..V]  [logx=1]  [logy=1]
# F.dat holds n blocks separated by two blank lines; each block starts with a
# line '"series title" x' and then 'x y' pairs (scripts/figures.sh writes them).
load GPFILES.'style.gp'
if (!exists("ideal")) ideal = 0
if (!exists("logx")) logx = 0
if (!exists("logy")) logy = 0
if (exists("ymax")) { set yrange [0:ymax] } else { set yrange [0:*] }
if (logy) { set logscale y 10; set yrange [*:*] }
if (logx) { set logscale x 2 }
if (ideal) { set xrange [1:*] }
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    if (ideal) {
        plot for [i=0:n-1] data index i using 1:2 with linespoints title columnheader(1), \
             x with lines dt 2 lc rgb "#777777" title "linear speed-up"
    } else {
        plot for [i=0:n-1] data index i using 1:2 with linespoints title columnheader(1)
    }
    unset output
}
