# SPDX-License-Identifier: MIT
# s1_pbd_stiffness.gp: PBD with a stiffness k_s on the hanging chain (S1), PBD chain stretch vs k_s and vs time.
# Reads data (s1_pbd_stiffness.tsv) and, beside it, s1_pbd_stiffness_time.tsv.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s1_pbd_stiffness.tsv'; out='fig/s1_pbd_stiffness.png'; fmt='png'" PLOTS/s1_pbd_stiffness.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s1_pbd_stiffness.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# the keys go below the panels: a taller PDF than common.gp's
eval fig_terminal(4.6); set output out
time = data[1:strlen(data) - 4] . '_time.tsv'

g = 9.81; h = 1.0/60; floor = 10 * g * h * h

set multiplot layout 1, 2 title "PBD with a stiffness k_s on the hanging chain (S1)\n(N = 6, L_0 = 0.1 m, m = 1 kg, h = 1/60 s), one top-down pass per frame" font F11

set title 'stretch vs stiffness k_s'
set xlabel 'PBD stiffness k_s [1]'
set ylabel 'total stretch [m]'
set logscale xy
set format x '10^{%L}'
set format y '10^{%L}'
set xrange [8e-5:1.3]
set yrange [2e-3:3e3]
set key below vertical maxcols 1 font F9 samplen 2
set label 1 sprintf("one-pass floor\n10 g h^2 = %.5f m", floor) at 0.9, 0.012 right font F9
fall = 0.5 * g * 25
plot fall with lines dt 3 lw 1.5 lc rgb C4 title 'free fall in 5 s, g t^2/2 = 122.6 m', \
     data using "k_s":"small_ks_limit" with lines dt 2 lw 1.5 lc rgb C7 title '(N−1)^2 g h^2 / k_s (small-k_s limit)', \
     '' using "k_s":"fixed_point" with lines lw 2 lc rgb C3 title 'steady state of the one-pass map', \
     '' using "k_s":(column("k_s") >= 0.05 ? column("stretch_settled") : NaN) with points pt 4 ps 1.2 lc rgb C2 title 'settled with damping (10 s; k_s ≥ 0.05)', \
     '' using "k_s":"stretch_5s" with points pt 7 ps 0.9 lc rgb C1 title 'undamped, at t = 5 s', \
     '' using "k_s":"stretch_avg_4_5s" with points pt 6 ps 1.2 lc rgb C1 title 'undamped, average 4–5 s', \
     '+' using (1):(0.027):(0.027*0.05) every ::0::0 with yerrorbars pt 6 ps 2.5 lw 1.5 lc rgb 'black' title 'original measurement: 2.7 cm at k_s = 1 (±5%)'

unset label 1
set title 'stretch vs time: small k_s keeps falling'
set xlabel 'time t [s]'
set ylabel 'total stretch [m]'
unset logscale x
set format x '%g'
set xrange [0:5]
set yrange [1e-3:1e3]
set key below horizontal maxcols 2 font F9 samplen 2
plot inr(0.5 * g * x * x, 1e-3, 1e3) with lines dt 3 lw 1.5 lc rgb 'black' title 'free fall, g t^2/2', \
     time using "t":"ks_1e-4" with lines lw 2 lc rgb C4 title 'k_s = 10^{-4}', \
     '' using "t":"ks_1e-3" with lines lw 2 lc rgb C2 title 'k_s = 10^{-3}', \
     '' using "t":"ks_1e-2" with lines lw 2 lc rgb C5 title 'k_s = 10^{-2}', \
     '' using "t":"ks_0.1" with lines lw 2 lc rgb C3 title 'k_s = 0.1', \
     '' using "t":"ks_1" with lines lw 2 lc rgb C1 title 'k_s = 1'
unset multiplot
