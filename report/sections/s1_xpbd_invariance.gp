# SPDX-License-Identifier: MIT
# s1_xpbd_invariance.gp: the XPBD chain (S1), XPBD stretch / closed form vs
# substeps for alpha = 1e-2 ... 1e-5.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s1_xpbd_invariance.tsv'; out='fig/s1_xpbd_invariance.png'; fmt='png'" PLOTS/s1_xpbd_invariance.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s1_xpbd_invariance.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# the keys go below the panels: a taller PDF than common.gp's
eval fig_terminal(4.2); set output out

is(a) = abs(column("alpha") / a - 1) < 1e-9
sel(a, c) = is(a) ? column(c) : NaN
col(k) = word(C1 . ' ' . C2 . ' ' . C3 . ' ' . C4, k)
alpha(k) = 10.0 ** (-1 - k)
lab(k) = sprintf('α = 10^{%d} m/N', -1 - k)

set multiplot layout 1, 2 title "The XPBD chain (S1) (N = 6, 4 iterations per substep), settled stretch vs substeps" font F11

set title '(a) α sets the target, substeps how close'
set xlabel 'substeps n_s per frame (h = 1/60 s) [1]'
set ylabel 'total stretch [m]'
set logscale x 2
set logscale y 10
set format y '10^{%L}'
set xrange [0.8:40]
set yrange [3e-6:4]
set xtics (1, 2, 4, 8, 16, 32)
set key below horizontal maxcols 2 font F9 samplen 2
plot for [k=1:4] data using "n_s":(sel(alpha(k), "closed")) with lines dt 2 lw 1.2 lc rgb col(k) notitle, \
     for [k=1:4] data using "n_s":(sel(alpha(k), "stretch")) with linespoints pt 7 ps 1 lw 2 lc rgb col(k) title lab(k), \
     data using "n_s":(is(1e-2) ? column("floor") : NaN) with linespoints pt 2 ps 1 lw 1.5 lc rgb 'black' title 'floor: α = 0 (rigid), ∝ 1/n_s^2', \
     for [k=1:4] data using "n_s":(sel(alpha(k), "original_stretch")) with points pt 6 ps 2.5 lw 1.5 lc rgb col(k) title (k == 3 ? 'original, n_s = 1 (colour: its α)' : '')

set title '(b) |stretch / closed form − 1| (< 10^{-6}: settling)'
set ylabel '|stretch / closed form − 1| [1]'
set yrange [1e-10:30]
set format y '10^{%L}'
set key below horizontal maxcols 2 font F9 samplen 2
set label 1 'dashed: 1 %, the check at n_s = 8' at 1.05, 3e-10 left font F9 tc rgb C4
dev(c) = abs(c - 1) > 0 ? abs(c - 1) : NaN  # 0 has no place on the log axis
plot 0.01 with lines dt 2 lw 1.5 lc rgb C4 notitle, \
     for [k=1:4] data using "n_s":(dev(sel(alpha(k), "ratio"))) with linespoints pt 7 ps 1 lw 2 lc rgb col(k) notitle, \
     for [k=1:4] data using "n_s":(dev(sel(alpha(k), "original_ratio"))) with points pt 6 ps 2.5 lw 1.5 lc rgb col(k) title (k == 1 ? 'original, n_s = 8 (colour of its α)' : ''), \
     for [k=1:4] data using "n_s":(dev(sel(alpha(k), "original_stretch") / sel(alpha(k), "closed"))) with points pt 4 ps 2.2 lw 1.5 lc rgb col(k) title (k == 3 ? 'original, n_s = 1' : '')
unset multiplot
