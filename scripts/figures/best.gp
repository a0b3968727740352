# The best configuration of each detector side by side: relative (left) and
# pixel (right) accuracy curves.
# gnuplot -e "rel='R.dat'; px='P.dat'; n=N; out='BASE'; ttl='...'"
xl = "" ; yl = ""; W = 1300; H = 550
load GPFILES.'style.gp'
set yrange [0:100]
set lmargin 11
set bmargin 9
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    set multiplot layout 1,2 title ttl font ",13"
    set title "relative error (max of centre and radius error / true radius)"
    set xlabel "relative error threshold (% of the true radius)"
    set ylabel "frames detected within the threshold (%)"
    set key outside below left box opaque Left reverse
    plot for [i=0:n-1] rel index i using 1:2 with linespoints title columnheader(1)
    unset key
    set title "pixel error (centre distance)"
    set xlabel "centre error threshold (px)"
    plot for [i=0:n-1] px index i using 1:2 with linespoints title columnheader(1)
    unset multiplot
    unset output
}
