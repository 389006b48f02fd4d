# SPDX-License-Identifier: MIT
# Soft bodies (S3), topology: a curtain torn by its pins, with vertex splitting and
# with edge removal only (keep_hinges), and torn edges / pieces vs frame.
#
#   gnuplot -e "data='DIR/data/s3_tearing.tsv'; out='DIR/fig/s3_tearing.png'; fmt='png'" plots/s3_tearing.gp
#
# Columns (by name): frame torn_split added_split pieces_split hinges_split
# torn_hinge pieces_hinge hinges_hinge stretch_split stretch_hinge. The shapes come from
# s3_tearing_split.tsv and s3_tearing_hinge.tsv beside it: columns x0 y0
# x1 y1 stretch, one edge per row, in the curtain's plane (x right, y up);
# s3_tearing_points.tsv marks particles: run (0: split vertices of the
# splitting run, 1: hinge vertices of the other) x y.
if (!exists("data")) data = 'report-out/data/s3_tearing.tsv'
if (!exists("out")) out = 'report-out/fig/s3_tearing.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s3_tearing.tsv')]
split = datadir . 's3_tearing_split.tsv'
hinge = datadir . 's3_tearing_hinge.tsv'
points = datadir . 's3_tearing_points.tsv'
points_split = datadir . 's3_tearing_points_split.tsv'
wide = 1
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# (a) across the top (two pieces far apart, drawn to scale), (b) and (c)
# below it: a taller PDF than common.gp's
eval fig_terminal(4.6); set output out

# one frame for both shapes: the extents of the two together
stats split using "x0" nooutput
xlo = STATS_min; xhi = STATS_max
stats hinge using "x0" nooutput
xlo = STATS_min < xlo ? STATS_min : xlo; xhi = STATS_max > xhi ? STATS_max : xhi
stats split using "y0" nooutput
ylo = STATS_min; yhi = STATS_max
stats hinge using "y0" nooutput
ylo = STATS_min < ylo ? STATS_min : ylo; yhi = STATS_max > yhi ? STATS_max : yhi
pad = 0.05
set palette defined (0 '#313695', 1 '#4575b4', 2 '#74add1', 3 '#fee090', 4 '#f46d43', 5 '#a50026')
set cbrange [0:0.3]
set cblabel 'stretch |d|/rest - 1 [1]' font F9

set multiplot title "Tearing (S3): a 12x8 curtain pulled apart by its top row, torn beyond 30% stretch" font F11
set origin 0, 0.6
set size 1, 0.33
set size ratio -1
# each shape in its own frame: the split pieces end far apart
stats split using "x0" nooutput
set xrange [STATS_min - pad:STATS_max + pad]
stats split using "y0" nooutput
set yrange [STATS_min - pad:STATS_max + pad]
set xlabel 'x [m]'
set ylabel 'y [m]'
unset key
unset colorbox
set title '(a) vertex splitting, at the end: two pieces pulled apart'
plot split using "x0":"y0":(column("x1") - column("x0")):(column("y1") - column("y0")):"stretch" \
     with vectors nohead lw 1.5 lc palette, \
     points_split using "x":"y" with points pt 6 ps 2.5 lw 2 lc rgb C3
set colorbox
# the frame holds both ends of every edge and the circled vertices
stats hinge using "x0":"y0" nooutput
hx0 = STATS_min_x; hx1 = STATS_max_x; hy0 = STATS_min_y; hy1 = STATS_max_y
stats hinge using "x1":"y1" nooutput
hx0 = STATS_min_x < hx0 ? STATS_min_x : hx0; hx1 = STATS_max_x > hx1 ? STATS_max_x : hx1
hy0 = STATS_min_y < hy0 ? STATS_min_y : hy0; hy1 = STATS_max_y > hy1 ? STATS_max_y : hy1
stats points using (column("run") == 1 ? column("x") : NaN):"y" nooutput
hx0 = STATS_min_x < hx0 ? STATS_min_x : hx0; hx1 = STATS_max_x > hx1 ? STATS_max_x : hx1
hy0 = STATS_min_y < hy0 ? STATS_min_y : hy0; hy1 = STATS_max_y > hy1 ? STATS_max_y : hy1
set xrange [hx0 - pad:hx1 + pad]
set yrange [hy0 - pad:hy1 + pad]
set origin 0, 0
set size 0.45, 0.6
set size ratio -1
set xtics 0.1
set title "(b) edges removed only: the pieces\nhang on at a hinge vertex (circled)"
plot hinge using "x0":"y0":(column("x1") - column("x0")):(column("y1") - column("y0")):"stretch" \
     with vectors nohead lw 1.5 lc palette, \
     points using (column("run") == 1 ? column("x") : NaN):"y" with points pt 6 ps 2.5 lw 2 lc rgb C4
unset colorbox

set origin 0.52, 0
set size 0.48, 0.6
set size ratio 0
set autoscale xy
set xtics auto
set title '(c) torn edges and hinge vertices'
set xlabel 'frame [1]'
set ylabel 'edges torn, cumulative [1]'
set y2label 'hinge vertices [1]'
set y2tics 1
set yrange [0:45]
set y2range [0:4]
set xrange [0:40]
set key outside below center horizontal font F9 samplen 2
plot data using (inr(column("frame"), 0, 40)):"torn_split" with lines lw 2 lc rgb C1 title 'torn, vertex split', \
     '' using (inr(column("frame"), 0, 40)):"torn_hinge" with lines lw 2 dt 2 lc rgb C4 title 'torn, edges only', \
     '' using (inr(column("frame"), 0, 40)):"hinges_split" axes x1y2 with steps lw 1.5 lc rgb C2 title 'hinges, vertex split', \
     '' using (inr(column("frame"), 0, 40)):"hinges_hinge" axes x1y2 with steps lw 1.5 dt 3 lc rgb C3 title 'hinges, edges only'
unset multiplot
