# SPDX-License-Identifier: MIT
# s2_iterations.gp: the ball stack (S2), the four-ball tower after 1.5 s vs
# iterations per frame, and max penetration vs time.
# Reads data (s2_iterations.tsv) and, beside it, s2_iterations_time.tsv.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s2_iterations.tsv'; out='fig/s2_iterations.png'; fmt='png'" PLOTS/s2_iterations.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s2_iterations.pdf' for the PDF.)
# Columns (by name): iterations max_pen sink sum_v ratio sink_over_pen
# original_ratio original_pen original_sink original_sum_v; time: iterations t max_pen sink
# sum_v.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
series = data[1:strlen(data) - 4] . '_time.tsv'

pos(v) = (v > 0 ? v : NaN)
it(k, c) = (column("iterations") == k ? column(c) : NaN)

set multiplot layout 1, 2 title "A stack of four balls (S2) on the plate (β = 1, e = 0.2, 1 cm overlaps), 1.5 s, lesson order" font F11

set title '(a) final state vs iterations per frame'
set xlabel 'iterations per frame [1]'
set ylabel 'value [m] or [m/s] (see key)'
set logscale xy
set format y '10^{%L}'
set xrange [0.8:40]
set yrange [1e-17:10]
set ytics 1e-16, 1000, 10
set xtics (1, 2, 4, 8, 16, 32)
set key outside below center horizontal maxcols 2 font F9
plot data using "iterations":(pos(column("max_pen"))) with linespoints pt 7 ps 1.2 lw 2 lc rgb C1 title 'max penetration (m)', \
     '' using "iterations":(pos(column("sink"))) with linespoints pt 5 ps 1.1 lw 2 lc rgb C3 title 'top ball below 1.60 m (m)', \
     '' using "iterations":(pos(column("sum_v"))) with linespoints pt 9 ps 1.3 lw 2 lc rgb C4 title 'Σ|v| (m/s)', \
     '' using "iterations":"original_pen" with points pt 6 ps 2.4 lw 1.5 lc rgb C1 title 'original: 0.02 mm at 8', \
     '' using "iterations":"original_sink" with points pt 4 ps 2.4 lw 1.5 lc rgb C3 title 'original: top 2 cm low at 1', \
     '' using "iterations":"original_sum_v" with points pt 8 ps 2.4 lw 1.5 lc rgb C4 title 'original: Σ|v| 1.03, 0.023'

set title '(b) max penetration vs time'
set ytics auto
set xlabel 'time t [s]'
set ylabel 'max penetration [m]'
unset logscale x
set xtics auto
set xrange [0:1.5]
set yrange [1e-6:0.1]
set key outside below center horizontal maxcols 2 font F9
plot for [k in "1 2 4 8"] series using (it(k+0, "t")):(pos(it(k+0, "max_pen"))) with lines lw 2 \
        lc rgb word(C1." ".C2." ".C3." ".C4, int(log(k+0)/log(2)+1.5)) title sprintf('%s iteration%s', k, k eq "1" ? "" : "s")
unset multiplot
