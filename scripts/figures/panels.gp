# Images side by side, one row: gnuplot -e "files='A.png B.png'; titles='\"(a) ...\" \"(b) ...\"'; out='BASE'; ttl='...'"
# (files: space-separated PNG paths; titles: one quoted title per file)
xl = ""; yl = ""
n = words(files)
W = 80 + 460 * n; H = 470
load GPFILES.'style.gp'
unset border; unset tics; unset grid; unset key; unset xlabel; unset ylabel
set size ratio -1
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    set multiplot layout 1,n title ttl font ",13"
    do for [i=1:n] {
        set title word(titles, i)
        plot word(files, i) binary filetype=png with rgbimage notitle
    }
    unset multiplot
    unset output
}
