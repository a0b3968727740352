# Images side by side: gnuplot -e "files='A.png B.png'; titles='\"(a) ...\" \"(b) ...\"'; out='BASE'; ttl='...'"
# (files: space-separated PNG paths; titles: one quoted title per file).
# Optional: rows='2' (panels in that many rows, filled row by row);
# crop='X0 X1 Y0 Y1 H' (the part of every image shown, in image pixels: x to
# the right, y down from the top row; H: the images' height).
xl = ""; yl = ""
n = words(files)
if (!exists("rows")) rows = '1'
nr = int(rows); nc = (n + nr - 1) / nr
W = 80 + 460 * nc; H = 40 + 430 * nr
load GPFILES.'style.gp'
unset border; unset tics; unset grid; unset key; unset xlabel; unset ylabel
set size ratio -1
if (exists("crop") && words(crop) == 5) {
    # gnuplot puts an image's top row at y = H - 1: y is flipped here
    h = real(word(crop, 5))
    set xrange [real(word(crop, 1)) - 0.5 : real(word(crop, 2)) + 0.5]
    set yrange [h - 1 - real(word(crop, 4)) - 0.5 : h - 1 - real(word(crop, 3)) + 0.5]
}
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    set multiplot layout nr,nc title ttl font ",13"
    do for [i=1:n] {
        set title word(titles, i)
        plot word(files, i) binary filetype=png with rgbimage notitle
    }
    unset multiplot
    unset output
}
