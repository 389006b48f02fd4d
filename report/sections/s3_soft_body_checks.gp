# SPDX-License-Identifier: MIT
# s3_soft_body_checks.gp: the checks every soft body passes (S3), one panel each.
#   gnuplot -e "data='data/s3_soft_body_checks.tsv'; out='fig/s3_soft_body_checks.png'; fmt='png'" PLOTS/s3_soft_body_checks.gp
# Columns (by name): frame t poke_dy fall_drop fall_closed fall_ideal
# support_ratio v1 v2 platform_two_way platform_one_way.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
eval fig_terminal(4.8)
set output out
set multiplot layout 2, 3 title "Checks every soft body passes (S3): reconcile the numbers before the looks" font F11
set xlabel 't [s]'
set key outside below center horizontal font F9 samplen 2

set title '(a) poke: oscillates and decays'
set ylabel 'dy from rest [m]'
unset key  # the title says what it is
plot data using "t":"poke_dy" with lines lw 2 lc rgb C1 notitle
set key

set title '(b) free fall for 1 s'
set ylabel 'drop of the centre [m]'
set xrange [0:1]
set key outside below center vertical maxcols 1
plot data using "t":"fall_drop" with points pt 7 ps 0.6 lc rgb C1 title 'ours', \
     '' using "t":"fall_closed" with lines lw 1.5 lc rgb C4 title 'g h^2 N(N+1)/2', \
     '' using "t":"fall_ideal" with lines dt 2 lw 1.5 lc rgb C7 title 'g t^2/2 (original: 4.9 m)'
set autoscale x

set title '(c) support impulse / (M g h)'
set ylabel 'ratio [1]'
set yrange [0:3]
set key outside below center horizontal
plot data using "t":"support_ratio" with lines lw 2 lc rgb C1 title 'cube at rest', \
     1 with lines dt 2 lc rgb C7 title 'M g h'
set autoscale y

set title '(d) equal balls, e = 1: swap'
set ylabel 'v_x [m/s]'
set yrange [-1.3:1.3]
set key outside below center horizontal
plot data using "t":"v1" with lines lw 2 lc rgb C1 title 'ball 1', \
     '' using "t":"v2" with lines lw 2 dt 2 lc rgb C4 title 'ball 2'
set autoscale y

set title '(e) platform accelerating up'
set ylabel 'gap to the platform [m]'
set yrange [-50:5]
set key outside below center horizontal
plot data using "t":"platform_two_way" with lines lw 2 lc rgb C1 title 'two-way: rides it', \
     '' using "t":"platform_one_way" with lines lw 2 lc rgb C4 title 'one-way: swallowed', \
     0 with lines dt 2 lc rgb C7 title 'platform top'
unset multiplot
