# SPDX-License-Identifier: MIT
# s1_substeps.gp: PBD with substeps (S1), PBD k_s = 0.5 vs substeps against its
# equivalent single pass, with XPBD beside it.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s1_substeps.tsv'; out='fig/s1_substeps.png'; fmt='png'" PLOTS/s1_substeps.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s1_substeps.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# the keys go below the panels: a taller PDF than common.gp's
eval fig_terminal(4.4); set output out

set multiplot layout 1, 2 title "PBD with substeps on the hanging chain (S1):\nk_s = 0.5, one projection each, against XPBD (α = 10^{-3} m/N), N = 6" font F11

set title 'settled stretch vs substeps'
set xlabel 'substeps n_s per frame (h = 1/60 s) [1]'
set ylabel 'total stretch [m]'
set logscale xy 2
set logscale y 10
set format y '10^{%L}'
set xrange [0.8:40]
set yrange [3e-5:0.6]
set xtics (1, 2, 4, 8, 16, 32)
set key below vertical maxcols 1 font F9 samplen 2
set label 2 'PBD: exactly stretch(1)/n_s^2' at 1.1, 2e-4 left font F9 tc rgb C4
set label 3 'single pass → floor 0.02725 m' at 34, 0.05 right font F9 tc rgb C1
plot data using "n_s":"xpbd_closed" with lines dt 2 lw 1.5 lc rgb C7 title 'XPBD closed form m g N(N−1)α/2', \
     '' using "n_s":"xpbd1_stretch" with linespoints pt 6 ps 1.2 lw 2 lc rgb C3 title 'XPBD, 1 iteration per substep', \
     '' using "n_s":"xpbd4_stretch" with linespoints pt 7 ps 0.9 lw 2 lc rgb C3 dt 4 title 'XPBD, 4 iterations per substep', \
     '' using "n_s":"pbd_stretch" with linespoints pt 5 ps 1.0 lw 2 lc rgb C4 title 'PBD k_s = 0.5, n_s substeps', \
     '' using "n_s":"single_pass_stretch" with linespoints pt 4 ps 1.2 lw 2 lc rgb C1 title 'PBD one pass at k_{eq} = 1 − (1 − k_s)^{n_s}', \
     '' using "n_s":"pbd_fixed_point" with points pt 1 ps 2 lc rgb 'black' title 'steady state of the map (solved)'

unset label 2
unset label 3
set title 'substepped PBD / its "equivalent" single pass'
set xlabel 'substeps n_s per frame [1]'
set ylabel 'stretch ratio [1]'
set yrange [0.002:2]
set key below vertical maxcols 1 font F9 samplen 2
set label 1 'original measurement: off by up to 18x' at 8, 1.0/18 offset -1.5, 0 right font F9
plot data using "n_s":"ratio" with linespoints pt 7 ps 1.1 lw 2 lc rgb C4 title 'PBD(k_s, n_s) / PBD(k_{eq}, 1)', \
     '+' using (8):(1.0/18) every ::0::0 with points pt 6 ps 3 lw 1.5 lc rgb 'black' title 'original 1/18 at n_s = 8', \
     1 with lines dt 2 lc rgb C7 title 'equivalence would give 1'
unset multiplot
