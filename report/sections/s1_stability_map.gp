# SPDX-License-Identifier: MIT
# Explicit springs on the hanging chain (S1): the stability limit of explicit springs as a curve.
#
#   gnuplot -e "data='DIR/data/s1_stability_map.tsv'; out='DIR/fig/s1_stability_map.png'; fmt='png'" plots/s1_stability_map.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo).
# Columns (by name): panel (0: vs h for N = 2, 6, 20; 1: vs N at h = 1/60 s) N h c
# (spring damping, N s/m) k_measured k_closed k_mh2 k_4mh2 rel_error
# k_measured_h2_over_m.

if (!exists("data")) data = 'report-out/data/s1_stability_map.tsv'
if (!exists("out")) out = 'report-out/fig/s1_stability_map.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# the keys go below the panels: a taller PDF than common.gp's
eval fig_terminal(4.4); set output out

stats data using (column("c") > 0 ? column("c") : NaN) nooutput
cdamp = STATS_max
stats data using (column("panel") == 1 ? column("h") : NaN) nooutput
hN = STATS_min
stats data using "rel_error" nooutput
maxerr = (abs(STATS_min) > abs(STATS_max) ? abs(STATS_min) : abs(STATS_max))

c0 = C1
c1 = C4
set multiplot layout 1, 2 title sprintf("Explicit springs on the hanging chain (S1): largest stable k,\nexplicit springs + semi-implicit Euler (m = 1 kg), bisection vs closed form (max deviation %.1e)", maxerr) font F11
set key nobox font F9

# Both panels plot how far the limit lies from the practical line m/h^2,
# |k h^2/m - 1| on a log axis (a linear axis flattens N = 6, 20 and the
# damped lines onto 1): filled symbols above the line, open ones where the
# damped limit falls below it.
dev(k, h) = abs(k * h**2 - 1)
above(k, h) = (k * h**2 >= 1)

# ---- (a) vs h ----------------------------------------------------------
set title '(a) vs time step, N = 2, 6, 20'
set xlabel 'h [s]'
set ylabel '|largest stable k h^2/m - 1| [1]'
set logscale xy
set format y '10^{%L}'
set xrange [1.0/300:1.0/25]
set yrange [3e-4:10]
set xtics ('1/240' 1.0/240, '1/120' 1.0/120, '1/60' 1.0/60, '1/30' 1.0/30)
set key below vertical maxcols 1 samplen 2
set label 11 'N = 2' at 1.0/290, 4.2 font F9
set label 12 'N = 6' at 1.0/290, 0.11 font F9
set label 13 'N = 20' at 1.0/290, 0.0085 font F9
sel(p, n, d) = (column("panel") == 0 && column("N") == n && (d ? column("c") > 0 : column("c") == 0)) ? column("h") : NaN
plot 3 with lines dt 4 lw 1.5 lc rgb 'black' title '4m/h^2 (one spring: hω < 2)', \
     for [n in "2 6 20"] data using (sel(0, n + 0, 0)):(dev(column("k_closed"), column("h"))) with lines lw 1.5 lc rgb c0 notitle, \
     for [n in "2 6 20"] data using (sel(0, n + 0, 0)):(dev(column("k_measured"), column("h"))) with points pt 6 ps 1.4 lc rgb c0 title (n eq '2' ? 'measured, undamped (line: closed form)' : ''), \
     for [n in "2 6 20"] data using (sel(0, n + 0, 1)):(dev(column("k_closed"), column("h"))) with lines lw 1.5 dt 3 lc rgb c1 notitle, \
     for [n in "2 6 20"] data using (sel(0, n + 0, 1)):(above(column("k_measured"), column("h")) ? dev(column("k_measured"), column("h")) : NaN) with points pt 5 ps 0.9 lc rgb c1 title (n eq '2' ? sprintf('c = %g N s/m, above m/h^2 (dotted: closed)', cdamp) : ''), \
     for [n in "2 6 20"] data using (sel(0, n + 0, 1)):(above(column("k_measured"), column("h")) ? NaN : dev(column("k_measured"), column("h"))) with points pt 4 ps 1.0 lc rgb c1 title (n eq '2' ? 'same, below m/h^2' : ''), \
     NaN notitle
unset label

# ---- (b) vs N ----------------------------------------------------------
set title sprintf('(b) vs chain length, h = 1/%.0f s', 1.0 / hN)
set xlabel 'N (particles, the top one anchored) [1]'
set ylabel '|largest stable k h^2/m - 1| [1]'
set xtics auto
set xrange [1.8:22]
set xtics (2, 3, 4, 5, 6, 8, 10, 14, 20)
selN(d) = (column("panel") == 1 && (d ? column("c") > 0 : column("c") == 0)) ? column("N") : NaN
plot 3 with lines dt 4 lw 1.5 lc rgb 'black' title '4m/h^2', \
     data using (selN(0)):(dev(column("k_closed"), hN)) with lines lw 1.5 lc rgb c0 title '4/{/Symbol m}_{max} - 1, undamped', \
     '' using (selN(0)):(dev(column("k_measured"), hN)) with points pt 6 ps 1.4 lc rgb c0 title 'measured, undamped', \
     '' using (selN(1)):(dev(column("k_closed"), hN)) with lines lw 1.5 dt 3 lc rgb c1 title '|4/{/Symbol m}_{max} - 2hc/m - 1|', \
     '' using (selN(1)):(above(column("k_measured"), hN) ? dev(column("k_measured"), hN) : NaN) with points pt 5 ps 0.9 lc rgb c1 title sprintf('c = %g N s/m, above m/h^2', cdamp), \
     '' using (selN(1)):(above(column("k_measured"), hN) ? NaN : dev(column("k_measured"), hN)) with points pt 4 ps 1.0 lc rgb c1 title 'same, below m/h^2'
unset multiplot
