# SPDX-License-Identifier: MIT
# Explicit springs on the hanging chain (S1): stability in the (k, h) plane.
#
#   gnuplot -e "data='DIR/data/s1_stability_kh.tsv'; out='DIR/fig/s1_stability_kh.png'; fmt='png'" plots/s1_stability_kh.gp
#
# Columns (by name): N h k stable (1 stable, 0 unstable) k_closed
# rel_to_closed (k / k_closed - 1) counted (0: within the margin of k*).

if (!exists("data")) data = 'report-out/data/s1_stability_kh.tsv'
if (!exists("out")) out = 'report-out/fig/s1_stability_kh.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
if (fmt eq 'pdf') { eval pdf_terminal(4.2); set output out }

stats data using (column("N") == 2 ? NaN : column("N")) nooutput
Nb = STATS_max
stats data using "h" nooutput
hmin = STATS_min; hmax = STATS_max

set multiplot layout 1, 2 title "Explicit springs, semi-implicit Euler (m = 1 kg, undamped): stable and unstable (k, h)" font F11
set logscale xy
set format y '10^{%L}'
set xlabel 'h [s]' offset 0, 0.4
set ylabel 'k [N/m]'
set xrange [hmin / 1.15 : hmax * 1.15]
set yrange [60 : 1.6e6]
set xtics ('1/300' 1.0/300, '1/120' 1.0/120, '1/60' 1.0/60, '1/30' 1.0/30, '1/20' 1.0/20)
set key below horizontal maxrows 2 font F9 samplen 2
set samples 200
sel(n, s) = (column("N") == n && column("stable") == s) ? column("h") : NaN
mu(n) = 4 * sin((2 * (n - 1) - 1) * pi / (2 * (2 * (n - 1) + 1)))**2
do for [p = 1:2] {
    n = (p == 1 ? 2 : Nb)
    set title sprintf('(%s) N = %d: k* = %.3f m/h^2', p == 1 ? 'a' : 'b', n, 4 / mu(n))
    plot data using (sel(n, 1)):(column("k")) with points pt 6 ps 0.8 lc rgb C1 title 'stable', \
         '' using (sel(n, 0)):(column("k")) with points pt 7 ps 0.8 lc rgb C4 title 'unstable', \
         1 / x**2 with lines dt 2 lw 1.5 lc rgb C7 title 'm/h^2', \
         4 / x**2 with lines dt 4 lw 1.5 lc rgb 'black' title '4m/h^2', \
         4 / mu(n) / x**2 with lines lw 1.5 lc rgb C3 title 'k* = 4m/({/Symbol m}_{max} h^2)'
}
unset multiplot
