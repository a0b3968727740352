# A histogram from "x,count" rows (header line first):
# gnuplot -e "data='F.csv'; out='BASE'; ttl='...'; xl='...'; yl='...'; bin=W"
load GPFILES.'style.gp'
unset key
set datafile separator ","
set style fill solid 0.7 border lc rgb "#1f4e79"
set boxwidth bin * 0.9 absolute
set yrange [0:*]
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    plot data skip 1 using 1:2 with boxes lc rgb "#1f77b4"
    unset output
}
