# The reflection-removal stages of one frame, 2 x 2 (pupil paper, Fig. 1):
# gnuplot -e "dir='D'; stem='S'; out='BASE'; ttl='...'" (D/S-1-image.png ...)
xl = ""; yl = ""; W = 1000; H = 900
load GPFILES.'style.gp'
unset border; unset tics; unset grid; unset key; unset xlabel; unset ylabel
set size ratio -1
names = "1-image 2-tophat 3-mask 4-cleaned"
titles = "'(a) image' '(b) top-hat: image minus its opening' '(c) threshold and dilation' '(d) reflections filled in'"
do for [term in "png svg"] {
    if (term eq "png") { eval("set terminal ".png_term) } else { eval("set terminal ".svg_term) }
    set output out.".".term
    set multiplot layout 2,2 title ttl font ",13"
    do for [i=1:4] {
        set title word(titles, i)
        plot dir."/".stem."-".word(names, i).".png" binary filetype=png with rgbimage notitle
    }
    unset multiplot
    unset output
}
