# SPDX-License-Identifier: MIT
# s0_lambda.gp: the single distance constraint (S0), residual stretch vs iteration, lambda kept vs reset.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s0_lambda.tsv'; out='fig/s0_lambda.png'; fmt='png'" PLOTS/s0_lambda.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s0_lambda.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

set title "One XPBD distance constraint (S0, α̃ = α/dt^2): residual stretch vs iterations" font F11
set xlabel 'iterations [1]'
set ylabel 'residual stretch C = b − a − rest [m]'
set logscale y
set format y '10^{%L}'
set xrange [0.5:10.5]
set yrange [5e-6:8]
set xtics 1
set key outside below center horizontal

# the original measurement's four numbers (S0, the single distance constraint); tab-separated with a header like the data
$original << EOD
iteration	stretch
1	0.3333333333333335
10	0.3333333333333335
10	1.6935087808533922e-05
1	0.6666666666666665
EOD

set label 1 "λ reset every iteration: ×1/3 per iteration;\n10 iterations leave 1/19683\nof the compliant stretch" \
    at 5.6, 5e-3 left tc rgb C4 font F9
set label 2 'λ kept: C + α̃λ = 0 after the first solve, later iterations change nothing' at 1.4, 2.2 left tc rgb C1 font F9

plot data using "iteration":"closed_kept" with lines dt 2 lw 1 lc rgb C7 title 'closed forms', \
     '' using "iteration":"closed_reset" with lines dt 2 lw 1 lc rgb C7 notitle, \
     '' using "iteration":"closed_kept_dt2" with lines dt 2 lw 1 lc rgb C7 notitle, \
     '' using "iteration":"closed_reset_dt2" with lines dt 2 lw 1 lc rgb C7 notitle, \
     '' using "iteration":"kept" with linespoints pt 7 ps 1.1 lw 2 lc rgb C1 title 'λ kept, dt = 0.1 (α̃ = 1)', \
     '' using "iteration":"reset" with linespoints pt 5 ps 1.1 lw 2 lc rgb C4 title 'λ reset each iteration, dt = 0.1', \
     '' using "iteration":"kept_dt2" with linespoints pt 6 ps 1.1 lw 2 lc rgb C1 dt 4 title 'λ kept, dt/2 = 0.05 (α̃ = 4)', \
     '' using "iteration":"reset_dt2" with linespoints pt 4 ps 1.1 lw 2 lc rgb C4 dt 4 title 'λ reset each iteration, dt/2', \
     $original using 1:2 with points pt 6 ps 3 lw 1.5 lc rgb 'black' title 'original measurement, matched bit for bit'
