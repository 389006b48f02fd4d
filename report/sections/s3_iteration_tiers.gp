# SPDX-License-Identifier: MIT
# Soft bodies (S3), iteration tiers: sag of the hanging tet cube vs iterations per
# frame, XPBD (compliance) against PBD (stiffness per projection).
#
#   gnuplot -e "data='DIR/data/s3_iteration_tiers.tsv'; out='DIR/fig/s3_iteration_tiers.png'; fmt='png'" plots/s3_iteration_tiers.gp
#
# Columns (by name): iterations xpbd_sag pbd_sag pbd1_sag (m).
if (!exists("data")) data = 'report-out/data/s3_iteration_tiers.tsv'
if (!exists("out")) out = 'report-out/fig/s3_iteration_tiers.png'
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

stats data using "iterations":"xpbd_sag" nooutput
x10 = 0; x4 = 0
stats data using (column("iterations") == 10 ? column("xpbd_sag") : NaN) nooutput
x10 = STATS_max
stats data using (column("iterations") == 4 ? column("xpbd_sag") : NaN) nooutput
x4 = STATS_max

set multiplot layout 1, 2 title "Iteration tiers (S3): hanging tet cube (3x3x3 cells, 6.4 kg), sag vs iterations (1 substep)" font F11
set xlabel 'iterations per frame [1]'
set ylabel 'sag [m]'
set xrange [1:21]
set key outside below center horizontal font F9

set title sprintf("(a) XPBD, α = 10^{-2} m/N:\n%.4f m at 4, %.4f m at 10 iterations", x4, x10)
set yrange [0:*]
set object 1 rect from 1, x10 * 0.9 to 21, x10 * 1.1 fc rgb '#dde8f3' fs solid 1.0 noborder behind
plot data using "iterations":"xpbd_sag" with linespoints pt 7 lw 2 lc rgb C1 title 'XPBD', \
     '' using "iterations":"pbd_sag" with linespoints pt 5 lw 2 lc rgb C4 title 'PBD, k_s = 0.05', \
     NaN with boxes fs solid 1.0 lc rgb '#dde8f3' title '±10% of XPBD at 10'
unset object 1

set title "(b) the same on a log scale,\nwith PBD k_s = 1 (the usual setting)"
set logscale y
set yrange [*:*]
set format y '10^{%L}'
plot data using "iterations":"xpbd_sag" with linespoints pt 7 lw 2 lc rgb C1 title 'XPBD, α = 10^{-2}', \
     '' using "iterations":"pbd_sag" with linespoints pt 5 lw 2 lc rgb C4 title 'PBD, k_s = 0.05', \
     '' using "iterations":"pbd1_sag" with linespoints pt 9 lw 2 lc rgb C2 title 'PBD, k_s = 1'
unset multiplot
