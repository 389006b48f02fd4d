# SPDX-License-Identifier: MIT
# s2_particles.gp: contacts in 3-D (S2), balls poured into a box of planes:
# final positions (side view), energy and penetration vs time.
# Reads data (s2_particles.tsv) and, beside it, s2_particles_time.tsv.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s2_particles.tsv'; out='fig/s2_particles.png'; fmt='png'" PLOTS/s2_particles.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s2_particles.pdf' for the PDF.)
# Columns (by name): x y z r speed (final state, one row per ball); time:
# frame t energy kinetic energy_ratio max_pair_pen max_plane_pen contacts
# dropped hits.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
wide = 1
load dir . 'common.gp'
series = data[1:strlen(data) - 4] . '_time.tsv'

pos(v) = (v > 0 ? v : NaN)
stats series using "t":"energy" nooutput
e0 = STATS_max_y
tmax = STATS_max_x
stats data using "y" nooutput
top = STATS_max

set multiplot title "Contacts in 3-D (S2): balls poured into a 0.8 m box of five planes (world step, broad phase every frame)" font F10

# the picture gets the larger share of the width
set origin 0, 0
set size 0.4, 0.93
set title '(a) final state, 0.3 < z < 0.5 m'
set xtics 0.4
set xlabel 'x [m]'
set ylabel 'y [m]'
set size ratio -1
set xrange [-0.05:0.85]
set yrange [-0.05:(top > 0.6 ? top + 0.1 : 0.7)]
set palette defined (0 '#08306b', 1 '#2171b5', 2 '#6baed6', 3 '#fdae6b', 4 '#d94801')
set cblabel 'z [m]'
set cbrange [0.3:0.5]
set style fill solid 0.85 noborder
set object 1 rect from -0.02, -0.02 to 0.82, 0 fs solid 1.0 fc rgb '#555555'
set object 2 rect from -0.02, 0 to 0, 0.6 fs solid 1.0 fc rgb '#555555'
set object 3 rect from 0.8, 0 to 0.82, 0.6 fs solid 1.0 fc rgb '#555555'
unset key
slice(c) = (abs(column("z") - 0.4) < 0.1 ? column(c) : NaN)
plot data using (slice("x")):"y":"r":"z" with circles lc palette notitle
unset object 1
unset object 2
unset object 3
unset colorbox
set size noratio
set key
set origin 0.42, 0
set size 0.29, 0.93

set title '(b) energy (from the floor)'
set xlabel 'time t [s]'
set ylabel 'E / E_0 [1]'
set autoscale x
# about four time tics whatever the run's length (1.5 s, or 4 s in full)
tstep = tmax > 2 ? 1 : 0.5
set xtics tstep
set yrange [0:1.1]
set key outside below center horizontal font F9
plot series using "t":"energy_ratio" with lines lw 2 lc rgb C1 title 'total', \
     '' using "t":(column("kinetic")/e0) with lines lw 2 lc rgb C4 title 'kinetic'

set origin 0.7, 0
set size 0.3, 0.93
set title '(c) max penetration'
set ylabel 'penetration [m]'
set logscale y
set format y '10^{%L}'
set yrange [1e-9:10]
set ytics 1e-8, 100, 1e-2
set key outside below center horizontal font F9
plot series using "t":(pos(column("max_pair_pen"))) with lines lw 2 lc rgb C1 title 'ball–ball', \
     '' using "t":(pos(column("max_plane_pen"))) with lines lw 2 lc rgb C3 title 'ball–plane', \
     0.02 with lines dt 2 lw 1 lc rgb C7 title 'radius 2 cm'
unset multiplot
