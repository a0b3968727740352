# Fixed configurations side by side (pupil paper, Fig. 14): relative and
# pixel accuracy curves, and the frames per second of each configuration.
# gnuplot -e "rel='R.dat'; px='P.dat'; fps='F.csv'; n=N; nf=M; out='BASE'; ttl='...'"
# R.dat/P.dat: n blocks as lines.gp reads them; F.csv: M "series,fps" rows.
xl = "" ; yl = ""; W = 1500; H = 600
load GPFILES.'style.gp'
set lmargin 11
set bmargin 11
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    set multiplot layout 1,3 title ttl font ",13"
    set yrange [0:100]
    set xrange [*:*]
    set title "relative error (max of centre and radius error / true radius)"
    set xlabel "relative error threshold (% of the true radius)"
    set ylabel "frames detected within the threshold (%)"
    set key outside below left box opaque Left reverse
    plot for [i=0:n-1] rel index i using 1:2 with linespoints title columnheader(1)
    unset key
    set title "pixel error (centre distance)"
    set xlabel "centre error threshold (px)"
    plot for [i=0:n-1] px index i using 1:2 with linespoints title columnheader(1)
    set title "speed"
    set xlabel ""
    set ylabel "frames per second"
    set yrange [0:*]
    set xrange [-0.6:nf-0.4]
    set datafile separator ","
    set style fill solid 0.7
    set boxwidth 0.7
    set xtics rotate by -40 font ",9"
    plot fps skip 1 using 0:2:xtic(1) with boxes lc rgb "#1f77b4" notitle
    set datafile separator whitespace
    set xtics norotate font ""
    unset multiplot
    unset output
}
