# SPDX-License-Identifier: MIT
# The hanging chain and cloth (S1): convergence per iteration (lambda kept vs reset, PBD) and the
# iteration tiers, chain and 8x6 cloth.
#
#   gnuplot -e "data='DIR/data/s1_convergence.tsv'; out='DIR/fig/s1_convergence.png'; fmt='png'" plots/s1_convergence.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo). Also reads s1_convergence_tiers.tsv
# from the same directory as `data` (override with datadir='DIR/data/').
# Columns (by name): scene (0 chain, 1 cloth 8x6) iteration xpbd_kept_residual
# xpbd_kept_max_c xpbd_reset_residual xpbd_reset_residual_last_lambda
# xpbd_reset_max_c pbd_max_c; tiers: scene alpha iterations xpbd_kept
# xpbd_reset pbd closed_form.

if (!exists("data")) data = 'report-out/data/s1_convergence.tsv'
if (!exists("out")) out = 'report-out/fig/s1_convergence.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s1_convergence.tsv')]
tiers = datadir . 's1_convergence_tiers.tsv'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# two rows of panels: taller than the page common.gp sets
eval fig_terminal(4.7)
set output out

c_kept = C1
c_reset = C4
c_pbd = C3
c_grey = '#777777'
pos(y) = (y > 0 ? y : NaN)

# Panels placed by hand, each row's key shared and drawn in a strip of its
# own below the row (an empty plot with only the key): no key covers data.
set multiplot title "Chain and cloth (S1): convergence per iteration, iteration tiers (h = 1/60 s, 1 substep, m = 1 kg)" font F11
set logscale y
set format y '10^{%L}'
PANEL_W = 0.5; ROW1 = 0.6; ROW2 = 0.13; PANEL_H = 0.32
set lmargin 9; set rmargin 2; set tmargin 1.6; set bmargin 2.6

# ---- (a), (b) per iteration --------------------------------------------
do for [sc = 0:1] {
    set origin sc * PANEL_W, ROW1
    set size PANEL_W, PANEL_H
    if (sc == 0) {
        set title '(a) chain N = 6 (serial order), α = 10^{-4} m/N'
        set xrange [0:41]
    } else {
        set title '(b) cloth 8x6 (82 links, coloured), α = 10^{-4} m/N'
        set xrange [0:101]
    }
    set xlabel 'iteration within the substep [1]' offset 0, 0.5
    set ylabel 'max over constraints [m]' offset 1.5, 0
    set yrange [1e-19:1]
    set ytics 1e-18, 1e4, 1
    unset key
    plot data using (column("scene") == sc ? column("iteration") : NaN):(pos(column("xpbd_kept_residual"))) with linespoints pt 7 ps 0.5 lw 2 lc rgb c_kept, \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_kept_max_c" with lines lw 1 dt 2 lc rgb c_kept, \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_reset_residual" with linespoints pt 5 ps 0.5 lw 2 lc rgb c_reset, \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_reset_residual_last_lambda" with lines lw 1 dt 3 lc rgb c_reset, \
         '' using (column("scene") == sc ? column("iteration") : NaN):"pbd_max_c" with linespoints pt 9 ps 0.5 lw 1.5 lc rgb c_pbd
}

# the key strips: no axes, no title, only the key (of constants above the
# y range: drawn nowhere, and unlike NaN not an error)
keystrip(y0) = sprintf("set origin 0, %g; set size 1, %g; unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale; set xrange [0:1]; set yrange [0:1]; set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0; set key inside center center horizontal box opaque font F9 samplen 2", y0, ROW1 - y0) # key panel
eval keystrip(ROW1 - 0.14) # key panel
plot 2 with linespoints pt 7 ps 0.5 lw 2 lc rgb c_kept title 'XPBD, λ kept: |C + (α/h^2) λ|', \
     2 with lines lw 1 dt 2 lc rgb c_kept title 'λ kept: |C| (compliant stretch)', \
     2 with linespoints pt 5 ps 0.5 lw 2 lc rgb c_reset title 'λ reset: |C + (α/h^2) Σλ| (true)', \
     2 with lines lw 1 dt 3 lc rgb c_reset title 'λ reset: last-λ residual (a counter)', \
     2 with linespoints pt 9 ps 0.5 lw 1.5 lc rgb c_pbd title 'PBD k_s = 1: |C|'

# ---- (c), (d) iteration tiers -------------------------------------------
set border 3
set xtics out nomirror; set ytics out nomirror
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 0.8, lc rgb '#f2f2f2' lw 0.5
set lmargin 9; set rmargin 2; set tmargin 1.6; set bmargin 2.6
set logscale xy
set format y '10^{%L}'
set xrange [0.8:60]
set xtics (1, 2, 3, 4, 6, 10, 20, 30, 50)
set ytics auto
unset key
do for [sc = 0:1] {
    set origin sc * PANEL_W, ROW2
    set size PANEL_W, PANEL_H
    if (sc == 0) {
        set title '(c) tiers, chain: settled total stretch'
        set yrange [1e-5:1]
    } else {
        set title '(d) tiers, cloth 8x6: total stretch (82 links)'
        set yrange [1e-3:10]
    }
    set xlabel 'iterations per substep [1]' offset 0, 0.5
    set ylabel 'stretch, frames 300-600 [m]'
    plot tiers using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"xpbd_kept" with linespoints pt 7 ps 0.8 lw 2 lc rgb c_kept, \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"xpbd_kept" with linespoints pt 6 ps 0.8 lw 1.5 dt 2 lc rgb c_kept, \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"xpbd_reset" with linespoints pt 5 ps 0.8 lw 2 lc rgb c_reset, \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"xpbd_reset" with linespoints pt 4 ps 0.8 lw 1.5 dt 2 lc rgb c_reset, \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"pbd" with linespoints pt 9 ps 0.8 lw 2 lc rgb c_pbd, \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"closed_form" with lines lw 1 lc rgb 'black', \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"closed_form" with lines lw 1 dt 2 lc rgb 'black'
}
eval keystrip(0) # key panel
set size 1, ROW2
plot 2 with linespoints pt 7 ps 0.8 lw 2 lc rgb c_kept title 'XPBD λ kept, α = 10^{-3} m/N', \
     2 with linespoints pt 6 ps 0.8 lw 1.5 dt 2 lc rgb c_kept title 'XPBD λ kept, α = 10^{-4}', \
     2 with linespoints pt 5 ps 0.8 lw 2 lc rgb c_reset title 'XPBD λ reset, α = 10^{-3}', \
     2 with linespoints pt 4 ps 0.8 lw 1.5 dt 2 lc rgb c_reset title 'XPBD λ reset, α = 10^{-4}', \
     2 with linespoints pt 9 ps 0.8 lw 2 lc rgb c_pbd title 'PBD k_s = 1', \
     2 with lines lw 1 lc rgb 'black' title 'closed form, α = 10^{-3}', \
     2 with lines lw 1 dt 2 lc rgb 'black' title 'closed form, α = 10^{-4}'
unset multiplot
