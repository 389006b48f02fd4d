# SPDX-License-Identifier: MIT
# s2_restitution.gp: a ball on the plate (S2), v' = -e v on the infinite plate, and
# the drop from 1.42 m with the velocity pass on: height and E/E0 vs time.
# Reads data (s2_restitution.tsv) and, beside it, s2_restitution_energy.tsv.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s2_restitution.tsv'; out='fig/s2_restitution.png'; fmt='png'" PLOTS/s2_restitution.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s2_restitution.pdf' for the PDF.)
# Columns (by name): e v_before v_after closed diff v_after_plane
# impulse_plane impulse_closed; energy: e frame t y v energy_ratio.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
wide = 1
load dir . 'common.gp'
energy = data[1:strlen(data) - 4] . '_energy.tsv'

sel(e, c) = (abs(column("e") - e) < 1e-9 ? column(c) : NaN)
col(k) = word(C1." ".C2." ".C3." ".C4." ".C5, k)

set multiplot layout 1, 3 title "A ball on the infinite plate (S2) (w = 0), β = 1, restitution e" font F11

set title "(a) v' after the pass, v = −6 m/s"
set xlabel 'restitution e [1]'
set ylabel "v' [m/s]"
set xrange [-0.05:1.05]
set yrange [-0.5:6.8]
set key outside below center vertical maxcols 1 font F9 samplen 1.5
plot 6 * x with lines lw 1.5 dt 2 lc rgb C7 title "closed form v' = 6e", \
     data using "e":"v_after" with points pt 7 ps 1.6 lc rgb C1 title 'world step (plate w = 0)', \
     data using "e":"v_after_plane" with points pt 6 ps 2.6 lw 1.5 lc rgb C4 title 'against the plane y ≥ 0.34', \
     '+' using (0.5):(3.0) every ::0::0 with points pt 4 ps 3.2 lw 1.5 lc rgb 'black' title 'original measurement: e = 0.5 → +3.0'

set title '(b) drop from 1.42 m: height'
set xlabel 'time t [s]'
set ylabel 'ball centre y [m]'
set xrange [0:3]
set yrange [0.4:2.45]
set key outside below center horizontal maxrows 3 font F9 samplen 1.5
plot 0.52 with lines dt 3 lw 1 lc rgb C7 title 'rest, 0.52 m', \
     for [k=1:5] energy using (sel((k-1)*0.25, "t")):(sel((k-1)*0.25, "y")) with lines lw 2 \
        lc rgb col(k) title sprintf('e = %.2f', (k-1)*0.25)

set title '(c) energy E/E_0 (colours of (b))'
set ylabel 'E / E_0 [1]'
set yrange [0.3:1.75]
set key outside below center vertical maxcols 1 font F9 samplen 1.5
set samples 400
plot (x <= 1 ? 1.052 : NaN) with lines dt 2 lw 1.5 lc rgb C7 title 'bound, e < 1, 1st s', \
     (x <= 1 ? 1.16 : NaN) with lines dt 4 lw 1.5 lc rgb C7 title 'bound, e = 1, 1st s', \
     1.023 with lines dt 3 lw 1.5 lc rgb 'black' title 'original: +2.3%', \
     for [k=1:5] energy using (sel((k-1)*0.25, "t")):(sel((k-1)*0.25, "energy_ratio")) with lines lw 2 \
        lc rgb col(k) notitle
unset multiplot
