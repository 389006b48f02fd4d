# SPDX-License-Identifier: MIT
# Soft bodies (S3), two-way coupling: momentum (x) of a soft tet cube and of a free
# rigid box over a collision, for a 5 kg and a 1000 kg box.
#
#   gnuplot -e "data='DIR/data/s3_rigid_coupling.tsv'; out='DIR/fig/s3_rigid_coupling.png'; fmt='png'" plots/s3_rigid_coupling.gp
#
# Columns (by name): t soft_5kg box_5kg total_5kg soft_1000kg box_1000kg
# total_1000kg (N s), contacts_5kg contacts_1000kg (contacts of the frame's
# coupling call).
if (!exists("data")) data = 'report-out/data/s3_rigid_coupling.tsv'
if (!exists("out")) out = 'report-out/fig/s3_rigid_coupling.png'
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

set multiplot layout 1, 2 title "Soft and rigid, two-way coupling (S3): a 2.7 kg soft cube at 2 m/s hits a free box; momentum p_x of each" font F11
set xlabel 't [s]'
set ylabel 'momentum p_x [N s]'
set key below horizontal font F9
# spend the axis on the collision: from 0.1 s before the first contact to
# 0.25 s after the last one (the rest is two flat lines)
stats data using ((column("contacts_5kg") + column("contacts_1000kg")) > 0 ? column("t") : NaN) nooutput
XLO = STATS_min - 0.1; XHI = STATS_max + 0.25
set xrange [XLO:XHI]
set style rect fc rgb '#eeeeee' fs solid 1 noborder
set object 1 rect from STATS_min, graph 0 to STATS_max, graph 1 behind
set label 1 'in contact' at STATS_min, graph 0.97 offset 0.3, 0 font F9

set xtics 0.1
set title '(a) 5 kg box: the momentum changes hands'
plot data using (inr(column("t"), XLO, XHI)):"soft_5kg" with lines lw 2 lc rgb C1 title 'soft cube', \
     '' using (inr(column("t"), XLO, XHI)):"box_5kg" with lines lw 2 lc rgb C4 title 'rigid box', \
     '' using (inr(column("t"), XLO, XHI)):"total_5kg" with lines lw 2 dt 2 lc rgb C7 title 'total'

set title '(b) 1000 kg box: the soft body bounces back'
plot data using (inr(column("t"), XLO, XHI)):"soft_1000kg" with lines lw 2 lc rgb C1 title 'soft cube', \
     '' using (inr(column("t"), XLO, XHI)):"box_1000kg" with lines lw 2 lc rgb C4 title 'rigid box (v <= 0.011 m/s)', \
     '' using (inr(column("t"), XLO, XHI)):"total_1000kg" with lines lw 2 dt 2 lc rgb C7 title 'total'
unset multiplot
