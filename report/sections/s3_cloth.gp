# SPDX-License-Identifier: MIT
# Soft bodies (S3), cloth: a curtain with isometric bending draped over a sphere (a
# kinematic rigid body coupled two-way), with and without tethers, and its
# max stretch vs iterations.
#
#   gnuplot -e "data='DIR/data/s3_cloth.tsv'; out='DIR/fig/s3_cloth.png'; fmt='png'" plots/s3_cloth.gp
#
# Columns (by name): iterations stretch_tethers stretch_free lowest_tethers
# lowest_free. The shapes come from s3_cloth_tethers.tsv and
# s3_cloth_free.tsv beside it: columns x y z strain, one particle per row,
# grid row after grid row (24 x 24) with a blank line after each (the grid
# pm3d draws), y up.
if (!exists("data")) data = 'report-out/data/s3_cloth.tsv'
if (!exists("out")) out = 'report-out/fig/s3_cloth.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s3_cloth.tsv')]
teth = datadir . 's3_cloth_tethers.tsv'
free = datadir . 's3_cloth_free.tsv'
wide = 1
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

# columns by number (1 x, 2 y, 3 z, 4 strain; checked by the report's
# tests): gnuplot reads them several times faster than by name
stats teth using 4 nooutput
smax_t = STATS_max
stats free using 4 nooutput
smax_f = STATS_max
cbtop = smax_f > smax_t ? smax_f : smax_t

set multiplot layout 1, 3 title "Soft-body cloth (S3): a 24x24 curtain with bending draped over a sphere, 4 iterations; tethers against none" font F11

# the sphere: centre (0, 0.45, 0), radius 0.35 (gnuplot z is our y)
R = 0.35; CY = 0.45
set parametric
set urange [-pi/2:pi/2]
set vrange [0:2*pi]
set isosamples 24, 24
set view 62, 300, 1.25
set view equal xyz
set xyplane at -0.5
set xrange [-0.7:0.7]
set yrange [-0.7:0.7]
set zrange [-0.5:1.0]
unset xtics
unset ytics
unset ztics
unset border
unset key
set pm3d depthorder border lc rgb '#6080a0' lw 0.4
set palette defined (0 '#313695', 1 '#4575b4', 2 '#74add1', 3 '#fee090', 4 '#f46d43', 5 '#a50026')
set cbrange [0:cbtop]
set cblabel 'strain (largest of its edges) [1]' font F9
set colorbox vertical user origin 0.6, 0.2 size 0.01, 0.6

set title sprintf('(a) with tethers (max strain %.3f)', smax_t)
splot R*cos(u)*cos(v), R*cos(u)*sin(v), CY + R*sin(u) with pm3d fc rgb '#d9c5b2', \
      teth using 1:3:2:4 with pm3d
unset colorbox
set title sprintf('(b) no tethers (max strain %.3f)', smax_f)
splot R*cos(u)*cos(v), R*cos(u)*sin(v), CY + R*sin(u) with pm3d fc rgb '#d9c5b2', \
      free using 1:3:2:4 with pm3d
unset parametric
unset pm3d

# back to 2-D
set border 3
set xtics nomirror
set ytics nomirror
set size ratio 0
set title "(c) max stretch\nfrom the final positions"
set xlabel 'iterations per frame [1]'
set ylabel 'max stretch [1]'
set xrange [1:21]
set yrange [0:*]
set key outside below center horizontal font F9
set origin 0.72, 0.0
set size 0.28, 0.92
plot data using "iterations":"stretch_free" with linespoints pt 5 lw 2 lc rgb C4 title 'no tethers', \
     '' using "iterations":"stretch_tethers" with linespoints pt 7 lw 2 lc rgb C1 title 'tethers'
unset multiplot
