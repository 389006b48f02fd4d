# SPDX-License-Identifier: MIT
# s2_mass_ratio.gp: two balls (S2), two balls (upper 1 kg, lower mu kg):
# share of the overlap each backs out and the velocities after one impulse
# vs mu, against the closed forms.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/s2_mass_ratio.tsv'; out='fig/s2_mass_ratio.png'; fmt='png'" PLOTS/s2_mass_ratio.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/s2_mass_ratio.pdf' for the PDF.)
# Columns (by name): mu table (1: one of the five table rows, 0: sweep)
# share_up share_up_closed share_down share_down_closed v1 v1_closed v2
# v2_closed overlap_left.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

sweep(c) = (column("table") == 0 ? column(c) : NaN)
rows(c) = (column("table") == 1 ? column(c) : NaN)

set multiplot layout 1, 2 title "Two balls (S2): upper m_1 = 1 kg, lower m_2 = μ kg (β = 1, e = 0.5, v_1 = −6 m/s, v_2 = 0)" font F11

set title '(a) who backs out of the overlap (w = 1/m)'
set xlabel 'mass ratio μ = m_2 / m_1 [1]'
set ylabel 'share of the overlap [1]'
set logscale x
set xrange [0.09:11]
set yrange [-0.62:1.05]
set ytics 0, 0.2, 1
set key outside below center horizontal font F9
plot data using (sweep("mu")):(sweep("share_up_closed")) with lines lw 1.5 dt 2 lc rgb C7 title 'μ/(μ+1) and 1/(μ+1)', \
     '' using (sweep("mu")):(sweep("share_down_closed")) with lines lw 1.5 dt 2 lc rgb C7 notitle, \
     '' using (sweep("mu")):(sweep("share_up")) with points pt 7 ps 0.6 lc rgb C1 title 'upper ball (kernel)', \
     '' using (sweep("mu")):(sweep("share_down")) with points pt 7 ps 0.6 lc rgb C4 title 'lower ball (kernel)', \
     '' using (rows("mu")):(rows("share_up")) with points pt 6 ps 2 lw 1.5 lc rgb C1 title 'the five table rows', \
     '' using (rows("mu")):(rows("share_down")) with points pt 6 ps 2 lw 1.5 lc rgb C4 notitle, \
     '+' using (4):(0.8) every ::0::0 with points pt 4 ps 3 lw 1.5 lc rgb 'black' title 'original measurement: μ = 4 → 0.8, 0.2', \
     '+' using (4):(0.2) every ::0::0 with points pt 4 ps 3 lw 1.5 lc rgb 'black' notitle

set title '(b) velocities after one impulse (e = 0.5)'
set ylabel 'velocity after the impulse [m/s]'
set yrange [-9:12.5]
set ytics auto
set key outside below center horizontal font F9 samplen 1.5
set arrow 1 from 2, -9 to 2, 3.8 nohead dt 3 lc rgb C7
set label 1 "μ = 1/e = 2: v_1' = 0" at 1.9, -7 right font F9
plot 0 with lines lw 1 lc rgb '#bbbbbb' notitle, \
     3 with lines dt 3 lw 1 lc rgb C7 title 'μ → ∞: −e v_1 = +3', \
     data using (sweep("mu")):(sweep("v1_closed")) with lines lw 1.5 dt 2 lc rgb C1 title "(1 − eμ)/(1 + μ) v_1", \
     '' using (sweep("mu")):(sweep("v2_closed")) with lines lw 1.5 dt 2 lc rgb C4 title "(1 + e)/(1 + μ) v_1", \
     '' using (sweep("mu")):(sweep("v1")) with points pt 7 ps 0.6 lc rgb C1 title "upper v_1' (kernel)", \
     '' using (sweep("mu")):(sweep("v2")) with points pt 7 ps 0.6 lc rgb C4 title "lower v_2' (kernel)", \
     '' using (rows("mu")):(rows("v1")) with points pt 6 ps 2 lw 1.5 lc rgb C1 notitle, \
     '+' using (0.25):(-4.2) every ::0::0 with points pt 4 ps 3 lw 1.5 lc rgb 'black' title 'original measurement: −4.2, −1.5, +1.2', \
     '+' using (1):(-1.5) every ::0::0 with points pt 4 ps 3 lw 1.5 lc rgb 'black' notitle, \
     '+' using (4):(1.2) every ::0::0 with points pt 4 ps 3 lw 1.5 lc rgb 'black' notitle
unset multiplot
