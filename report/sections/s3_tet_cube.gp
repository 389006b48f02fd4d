# SPDX-License-Identifier: MIT
# Soft bodies (S3), tet cube: sag (hanging) and height (dropped) vs time, volume vs
# time, with and without tetrahedral volume constraints, and the final
# shapes.
#
#   gnuplot -e "data='DIR/data/s3_tet_cube.tsv'; out='DIR/fig/s3_tet_cube.png'; fmt='png'" plots/s3_tet_cube.gp
#
# Columns (by name): t hang_sag_vol hang_volume_vol hang_sag_edges
# hang_volume_edges drop_height_vol drop_volume_vol drop_height_edges
# drop_volume_edges. The shapes come from s3_tet_cube_shape.tsv beside it
# (columns scene x0 y0 x1 y1: projected surface edges; scene 0 hanging with
# volume, 1 hanging edges only, 2 dropped with volume, 3 dropped edges only).
if (!exists("data")) data = 'report-out/data/s3_tet_cube.tsv'
if (!exists("out")) out = 'report-out/fig/s3_tet_cube.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s3_tet_cube.tsv')]
shape = datadir . 's3_tet_cube_shape.tsv'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
eval fig_terminal(4.7)
set output out

set multiplot layout 2, 2 title "A soft tet cube (S3) (3x3x3 cells x 6 tets, edge α = 10^{-2} m/N, 10 iterations): volume on vs edges only" font F11
set xlabel 't [s]'
set key outside below center horizontal font F9

set title '(a) hanging from its top layer: sag'
set ylabel 'sag [m]'
plot data using "t":"hang_sag_vol" with lines lw 2 lc rgb C1 title 'edges + tet volume', \
     '' using "t":"hang_sag_edges" with lines lw 2 dt 2 lc rgb C4 title 'edges only'

set title '(b) dropped from 0.5 m: height of the cube'
set ylabel 'height [m]'
set yrange [0:0.5]
plot data using "t":"drop_height_vol" with lines lw 2 lc rgb C1 title 'edges + tet volume', \
     '' using "t":"drop_height_edges" with lines lw 2 dt 2 lc rgb C4 title 'edges only (pancake)', \
     0.3 with lines dt 3 lc rgb C7 title 'rest height 0.3 m'
set autoscale y

set title '(c) volume error |V/V_0 - 1|: tets hold it < 0.3 %'
set ylabel '|V / V_0 - 1| [1]'
set key below horizontal maxrows 2 font F9
set logscale y
set format y '10^{%L}'
set yrange [1e-6:2]
set ytics 1e-6, 100, 1
verr(c) = (abs(column(c) - 1) > 1e-6 ? abs(column(c) - 1) : 1e-6)
plot data using "t":(verr("hang_volume_vol")) with lines lw 2 lc rgb C1 title 'hanging, tet volume', \
     '' using "t":(verr("hang_volume_edges")) with lines lw 2 dt 2 lc rgb C2 title 'hanging, edges only', \
     '' using "t":(verr("drop_volume_vol")) with lines lw 2 lc rgb C3 title 'dropped, tet volume', \
     '' using "t":(verr("drop_volume_edges")) with lines lw 2 dt 2 lc rgb C4 title 'dropped, edges only'
unset logscale y
set format y '%g'
set autoscale y

set title '(d) final shapes (surface edges, orthographic view)'
set xlabel ''
set ylabel ''
unset xtics
unset ytics
set border 0
unset grid
set size ratio -1
set key off
set xrange [-0.3:2.2]
set yrange [-0.25:0.5]
set label 1 "hanging,\nvolume" at 0.0, 0.44 center font F9
set label 2 "hanging,\nedges only" at 0.62, 0.44 center font F9
set label 3 "dropped,\nvolume" at 1.24, 0.44 center font F9
set label 4 "dropped,\nedges only" at 1.86, 0.44 center font F9
plot shape using (column("scene") == 0 || column("scene") == 2 ? column("x0") : NaN):"y0":(column("x1") - column("x0")):(column("y1") - column("y0")) with vectors nohead lw 1 lc rgb C1, \
     shape using (column("scene") == 1 || column("scene") == 3 ? column("x0") : NaN):"y0":(column("x1") - column("x0")):(column("y1") - column("y0")) with vectors nohead lw 1 lc rgb C4
unset multiplot
