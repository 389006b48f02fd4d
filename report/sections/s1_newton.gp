# SPDX-License-Identifier: MIT
# Static equilibrium: Newton's solution beside XPBD's settled state.
#
#   gnuplot -e "data='DIR/data/s1_newton.tsv'; out='DIR/fig/s1_newton.png'; fmt='png'" plots/s1_newton.gp
#
# Columns (by name): scene (0 chain, 1 cloth) particle x_newton y_newton
# x_xpbd y_xpbd (m) distance (|XPBD - Newton|, m) tolerance (m, per scene).

if (!exists("data")) data = 'report-out/data/s1_newton.tsv'
if (!exists("out")) out = 'report-out/fig/s1_newton.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
if (fmt eq 'pdf') { eval pdf_terminal(4.0); set output out }

stats data using (column("scene") == 0 ? column("tolerance") : NaN) nooutput
tol0 = STATS_max

set multiplot layout 1, 2 title "Hanging chain and cloth ({/Symbol a} = 10^{-4} m/N, 1 kg particles): Newton's equilibrium vs XPBD settled" font F11
set key below horizontal maxrows 2 font F9 samplen 2

set title '(a) cloth 8 x 6: equilibrium positions'
set xlabel "x [m]" offset 0, 0.6
set ylabel 'y [m]'
set size ratio -1
cl(v) = column("scene") == 1 ? v : NaN
plot data using (cl(column("x_newton"))):"y_newton" with points pt 6 ps 1.6 lc rgb C1 title 'Newton', \
     '' using (cl(column("x_xpbd"))):"y_xpbd" with points pt 2 ps 1.2 lc rgb C4 title 'XPBD settled'
set size noratio

set title '(b) |XPBD - Newton| per particle'
set xlabel 'particle index [1]' offset 0, 0.4
set ylabel '|x_{XPBD} - x_{Newton}| [m]'
set logscale y
set format y '10^{%L}'
lowcut(v) = v > 0 ? v : NaN  # pinned particles (0) are not drawn
plot data using (column("scene") == 0 ? column("particle") : NaN):(lowcut(column("distance"))) with points pt 7 ps 1.2 lc rgb C1 title 'chain', \
     '' using (column("scene") == 1 ? column("particle") : NaN):(lowcut(column("distance"))) with points pt 5 ps 0.9 lc rgb C4 title 'cloth', \
     tol0 with lines dt 2 lw 1.5 lc rgb C1 title 'chain tolerance (iteration convergence)'
unset multiplot
