# SPDX-License-Identifier: MIT
# s2_position_only.gp: position-only correction (S2), position-only contact correction,
# one ball dropped from 1.42 m onto the plate: E/E0 and raw penetration vs
# time for beta = 0.2 .. 1.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s2_position_only.tsv'; out='fig/s2_position_only.png'; fmt='png'" PLOTS/s2_position_only.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s2_position_only.pdf' for the PDF.)
# Columns (by name): beta frame t y v raw residual energy_ratio sphere_y
# sphere_raw sphere_energy_ratio (one row per beta and frame).
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

h = 1.0/60
sel(b, c) = (abs(column("beta") - b) < 1e-9 ? column(c) : NaN)

set multiplot layout 1, 2 title "Position-only correction (S2): a ball dropped from 1.42 m onto the plate (h = 1/60 s)" font F11

set title '(a) energy E/E_0 (from y = 0): nothing touches v'
set xlabel 'time t [s]'
set ylabel 'E / E_0 [1]'
set xrange [0:1.02]
set yrange [0.9:4.2]
set key outside below center horizontal font F9
set object 1 rect from 0.965, 3.4 to 1.015, 3.9 fs solid 0.25 noborder fc rgb '#999999' behind
set label 1 'original measurement: 3.4–3.9x' at 0.955, 4.02 right font F9
plot for [k=1:5] data using (sel(k*0.2, "t")):(sel(k*0.2, "energy_ratio")) with lines lw 2 \
        lc rgb word(C1." ".C2." ".C3." ".C4." ".C5, k) title sprintf('β = %.1f', k*0.2)
unset object 1
unset label 1

set title '(b) raw penetration, before the position pass'
set ylabel 'penetration [m]'
set yrange [0:0.9]
set key outside below center horizontal font F9
plot for [k=1:5] data using (sel(k*0.2, "t")):(sel(k*0.2, "raw")) with lines lw 2 \
        lc rgb word(C1." ".C2." ".C3." ".C4." ".C5, k) notitle, \
     for [k=1:5] data using (sel(k*0.2, "t")):(sel(k*0.2, "raw") > 0 ? abs(sel(k*0.2, "v"))*h/(k*0.2) : NaN) \
        with lines dt 2 lw 1 lc rgb word(C1." ".C2." ".C3." ".C4." ".C5, k) notitle, \
     NaN with lines dt 2 lw 1 lc rgb C7 title '|v| h / β (steady state)', \
     '+' using (1):(0.763) every ::0::0 with points pt 6 ps 2.2 lw 1.5 lc rgb 'black' title 'original (β = 0.2, 1)', \
     '+' using (1):(0.1635) every ::0::0 with points pt 6 ps 2.2 lw 1.5 lc rgb 'black' notitle
unset multiplot
