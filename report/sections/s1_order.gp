# SPDX-License-Identifier: MIT
# Order of convergence: trajectory error against the substep, log-log.
#
#   gnuplot -e "data='DIR/data/s1_order.tsv'; datadir='DIR/data/'; out='DIR/fig/s1_order.png'; fmt='png'" plots/s1_order.gp
#
# Columns (by name): scene (0 chain alpha = 0, 1 cloth alpha = 1e-3, 2 cloth alpha = 0) substeps h_s (s) error (m)
# fitted (1: in the fit). s1_order_fit.tsv: scene slope intercept h_lo h_hi.

if (!exists("data")) data = 'report-out/data/s1_order.tsv'
if (!exists("datadir")) datadir = 'report-out/data/'
if (!exists("out")) out = 'report-out/fig/s1_order.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

fit = datadir . 's1_order_fit.tsv'
array S[3]; array B[3]
do for [c = 0:2] {
    stats fit using (column("scene") == c ? column("slope") : NaN) nooutput
    S[c + 1] = STATS_max
    stats fit using (column("scene") == c ? column("intercept") : NaN) nooutput
    B[c + 1] = STATS_max
}
stats fit using "h_lo" nooutput
hlo = STATS_min
stats fit using "h_hi" nooutput
hhi = STATS_max

set title "Trajectory error at T = 0.25 s, 1 iteration per substep" font F11
set logscale xy
set xrange [1e-5 : 3e-2]
set format x '10^{%L}'
set format y '10^{%L}'
set xlabel 'substep h_s [s]'
set ylabel 'max_i |x_i - x_{i,ref}| [m]'
set key outside right top vertical font F9
sel(c, f) = (column("scene") == c && (f < 0 || column("fitted") == f)) ? column("h_s") : NaN
inr(x) = (x >= hlo / 1.01 && x <= hhi * 1.01) ? 1 : NaN
plot data using (sel(0, -1)):(column("error")) with points pt 7 ps 1.2 lc rgb C1 title 'chain, {/Symbol a} = 0', \
     '' using (sel(1, -1)):(column("error")) with points pt 5 ps 1.2 lc rgb C4 title 'cloth, {/Symbol a} = 10^{-3} m/N', \
     '' using (sel(2, -1)):(column("error")) with points pt 4 ps 1.2 lc rgb C7 title 'cloth, {/Symbol a} = 0 (not checked)', \
     exp(B[1]) * x**S[1] * inr(x) with lines lw 1.5 lc rgb C1 title sprintf('fit, slope %.3f', S[1]), \
     exp(B[2]) * x**S[2] * inr(x) with lines lw 1.5 lc rgb C4 title sprintf('fit, slope %.3f', S[2]), \
     exp(B[3]) * x**S[3] * inr(x) with lines lw 1.2 dt 3 lc rgb C7 title sprintf('fit, slope %.3f', S[3]), \
     exp(B[1]) * hhi**(S[1] - 1) * x with lines dt 2 lc rgb 'black' title 'slope 1 (expected)'
