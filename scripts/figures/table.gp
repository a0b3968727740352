# A table as a picture: gnuplot -e "data='F'; rows=R; cols=C; out='BASE'; ttl='...'"
# F holds the table as aligned plain-text lines (scripts/figures/common.sh,
# table), drawn one per row in a fixed-width font.
xl = "" ; yl = ""
W = 120 + 8 * cols
H = 90 + 20 * rows
load GPFILES.'style.gp'
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0 ? \
    "pngcairo noenhanced font 'monospace,10'" : "png noenhanced") . sprintf(" size %d,%d", W, H)
svg_term = sprintf("svg size %d,%d dynamic noenhanced font 'monospace,10'", W, H)
unset border; unset tics; unset grid; unset key
unset xlabel; unset ylabel
set xrange [0:1]; set yrange [0:rows + 1]
set datafile separator "\t"
set datafile commentschars ""
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    plot data using (0.02):(rows - $0):(stringcolumn(1)) with labels left notitle
    unset output
}
