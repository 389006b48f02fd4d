# SPDX-License-Identifier: MIT
# Soft bodies (S3), damping: a thrown, spinning tet cube under no damping, relative
# damping (rigid motion kept) and a global 0.99 velocity factor per frame.
#
#   gnuplot -e "data='DIR/data/s3_damping.tsv'; out='DIR/fig/s3_damping.png'; fmt='png'" plots/s3_damping.gp
#
# Columns (by name): t ballistic_x ballistic_y none_x none_y relative_x
# relative_y global_x global_y (centre of mass, m) none_speed relative_speed
# global_speed (m/s) none_spin relative_spin global_spin (|L|/|L0|).
if (!exists("data")) data = 'report-out/data/s3_damping.tsv'
if (!exists("out")) out = 'report-out/fig/s3_damping.png'
wide = 1
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

set multiplot layout 1, 3 title "Damping a soft body (S3): a spinning tet cube thrown at (3, 4) m/s; damp relative motion only" font F11
set key outside below center horizontal font F9

set title '(a) centre of mass trajectory'
set xlabel 'x [m]'
set ylabel 'y [m]'
set xtics 1
plot data using "ballistic_x":"ballistic_y" with lines lw 6 lc rgb '#cccccc' title 'ballistic (closed form)', \
     '' using "none_x":"none_y" with lines lw 2 lc rgb C7 title 'no damping', \
     '' using "relative_x":"relative_y" with lines lw 2 dt 2 lc rgb C1 title 'relative damping 0.1', \
     '' using "global_x":"global_y" with lines lw 2 lc rgb C4 title 'global 0.99/frame'

set title '(b) speed of the centre of mass'
set xlabel 't [s]'
set ylabel 'speed [m/s]'
set xtics 0.5
unset key  # the colours of (a)
plot data using "t":"none_speed" with lines lw 2 lc rgb C7 title 'no damping', \
     '' using "t":"relative_speed" with lines lw 2 dt 2 lc rgb C1 title 'relative damping 0.1', \
     '' using "t":"global_speed" with lines lw 2 lc rgb C4 title 'global 0.99 per frame'

set title '(c) spin |L| / |L_0|'
set ylabel '|L| / |L_0| [1]'
set yrange [0:1.05]
set label 1 "no damping: PBD loses\nsome rotation itself" at 0.05, 0.15 left font F9 tc rgb C7
plot data using "t":"none_spin" with lines lw 2 lc rgb C7 title 'no damping (PBD rotational loss)', \
     '' using "t":"relative_spin" with lines lw 2 dt 2 lc rgb C1 title 'relative damping 0.1', \
     '' using "t":"global_spin" with lines lw 2 lc rgb C4 title 'global 0.99 per frame'
unset multiplot
