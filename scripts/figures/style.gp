# Shared look of every figure: call after setting ttl, xl, yl.
# PNG through cairo when this gnuplot has it (plain libgd png otherwise), plus SVG.
set encoding utf8
set title ttl font ",13"
set xlabel xl
set ylabel yl
set grid lc rgb "#dddddd"
set key outside right top box opaque spacing 1.2 Left reverse
set border 3
set tics nomirror
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 0.8
set style line 2 lc rgb "#d62728" lw 2 pt 5 ps 0.8
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 0.9
set style line 4 lc rgb "#ff7f0e" lw 2 pt 11 ps 0.9
set style line 5 lc rgb "#9467bd" lw 2 pt 13 ps 0.9
set style line 6 lc rgb "#8c564b" lw 2 pt 4 ps 0.8
set style line 7 lc rgb "#e377c2" lw 2 pt 6 ps 0.8
set style line 8 lc rgb "#7f7f7f" lw 2 pt 8 ps 0.8
set style line 9 lc rgb "#bcbd22" lw 2 pt 10 ps 0.8
set style line 10 lc rgb "#17becf" lw 2 pt 12 ps 0.8
set style increment user
if (!exists("W")) W = 1000
if (!exists("H")) H = 600
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0 ? \
    "pngcairo noenhanced font 'sans,11'" : "png noenhanced") . sprintf(" size %d,%d", W, H)
svg_term = sprintf("svg size %d,%d dynamic noenhanced font 'sans,11'", W, H)
