# SPDX-License-Identifier: MIT
# Soft bodies (S3), sleeping: ten soft cubes, one dropped onto nine sleeping ones:
# bodies asleep, constraint solves per frame and the largest kinetic energy
# per kg of a body against the sleep threshold.
#
#   gnuplot -e "data='DIR/data/s3_sleeping.tsv'; out='DIR/fig/s3_sleeping.png'; fmt='png'" plots/s3_sleeping.gp
#
# Columns (by name): frame asleep solves contacts woke max_energy
# centre_energy threshold.
if (!exists("data")) data = 'report-out/data/s3_sleeping.tsv'
if (!exists("out")) out = 'report-out/fig/s3_sleeping.png'
wide = 1
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

set multiplot layout 1, 3 title "Sleeping (S3): a soft cube dropped onto nine sleeping ones" font F11
set xlabel 'frame [1]'
set xrange [0:360]
unset key

set xtics 100
set title '(a) bodies asleep'
set ylabel 'bodies [1]'
set yrange [0:11]
plot data using "frame":"asleep" with steps lw 2 lc rgb C1 notitle

set title '(b) constraint solves per frame'
set ylabel 'solves [1]'
set yrange [0:*]
plot data using "frame":"solves" with steps lw 2 lc rgb C4 notitle

set title '(c) max kinetic energy per kg'
set key outside below center horizontal font F9
set ylabel 'kinetic energy per mass [J/kg]'
set logscale y
set format y '10^{%L}'
set yrange [1e-12:1e6]
set ytics 1e-12, 1e4, 1
atleast(v) = v > 1e-12 ? v : 1e-12
plot data using "frame":(atleast(column("max_energy"))) with lines lw 2 lc rgb C1 title 'largest', \
     '' using "frame":(atleast(column("centre_energy"))) with lines lw 1.5 dt 2 lc rgb C3 title 'middle cube', \
     '' using "frame":"threshold" with lines lw 1.5 dt 3 lc rgb C7 title 'sleep threshold'
unset multiplot
