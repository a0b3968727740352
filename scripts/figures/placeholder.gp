# A figure without data says why: gnuplot -e "out='BASE'; ttl='...'; msg='...'"
xl = "" ; yl = ""
load GPFILES.'style.gp'
unset border; unset tics; unset grid; unset key
unset xlabel; unset ylabel
set xrange [0:1]; set yrange [0:1]
set label 1 msg at graph 0.5, 0.5 center font ",14"
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    plot NaN notitle
    unset output
}
