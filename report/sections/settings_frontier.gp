# SPDX-License-Identifier: MIT
# settings_frontier.gp: error against cost per frame for every split of
# equal budgets (substeps x iterations).
#   gnuplot -e "data='data/settings_frontier.tsv'; out='fig/settings_frontier.png'; fmt='png'" PLOTS/settings_frontier.gp
# Columns (by name): scene (0 cloth, 1 pile) solver (0 XPBD, 1 PBD, 2
# springs) bits budget substeps iterations ms_per_frame strain_error
# penetration energy_gain energy_drift pareto (1: on the scene's Pareto line
# in (ms per frame, error): none cheaper and more accurate).
# settings_frontier_pareto.tsv: scene ms_per_frame error, the line cheapest first.
wide = 1
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# the keys go below the panels: a taller PDF than common.gp's
eval fig_terminal(4.4); set output out
set multiplot layout 1, 3 title "Settings frontier: error against cost per frame at equal budget (labels: substeps x iterations)" font F11
set logscale xy
set format y '10^{%L}'
set xlabel 'time per frame [ms]'
set key below vertical maxcols 1 font F9 samplen 1.5
lowcut(v) = (v > 1e-7 ? v : 1e-7)
lab(c) = sprintf('%dx%d', column("substeps"), column("iterations"))
if (!exists("datadir")) datadir = 'data/'
pareto = datadir . 'settings_frontier_pareto.tsv'
sel(sc, sv, b) = (column("scene") == sc && column("solver") == sv && column("bits") == b) ? column("ms_per_frame") : NaN

set title '(a) cloth: strain vs XPBD 64x8'
set ylabel '|stretch / reference - 1| [1]'
set yrange [1e-7:3]
plot data using (sel(0, 0, 64)):(lowcut(column("strain_error"))) with points pt 7 ps 1.0 lc rgb C1 title 'XPBD f64', \
     '' using (sel(0, 0, 32)):(lowcut(column("strain_error"))) with points pt 6 ps 1.5 lc rgb C1 title 'XPBD f32', \
     '' using (sel(0, 1, 64)):(lowcut(column("strain_error"))) with points pt 5 ps 1.0 lc rgb C4 title 'PBD k_s=1 f64', \
     '' using (sel(0, 1, 32)):(lowcut(column("strain_error"))) with points pt 4 ps 1.5 lc rgb C4 title 'PBD f32', \
     '' using (sel(0, 2, 64)):(lowcut(column("strain_error"))) with points pt 9 ps 1.2 lc rgb C3 title 'springs f64', \
     '' using (sel(0, 2, 32)):(lowcut(column("strain_error"))) with points pt 8 ps 1.6 lc rgb C3 title 'springs f32', \
     '' using (sel(0, 0, 64)):(lowcut(column("strain_error"))):(lab(0)) with labels offset 0, 0.8 font F8 tc rgb C1 notitle, \
     pareto using (column("scene") == 0 ? column("ms_per_frame") : NaN):(lowcut(column("error"))) with lines lw 2 lc rgb C7 title 'Pareto line', \
     0.01 with lines dt 2 lc rgb C7 title '1%'

set title '(b) pile: max penetration'
set ylabel 'penetration / radius [1]'
set autoscale y
plot data using (sel(1, 0, 64)):(lowcut(column("penetration"))) with points pt 7 ps 1.0 lc rgb C1 title 'f64', \
     '' using (sel(1, 0, 32)):(lowcut(column("penetration"))) with points pt 6 ps 1.5 lc rgb C2 title 'f32', \
     '' using (sel(1, 0, 64)):(lowcut(column("penetration"))):(lab(0)) with labels offset 0, 0.8 font F8 tc rgb C1 notitle, \
     pareto using (column("scene") == 1 ? column("ms_per_frame") : NaN):(lowcut(column("error"))) with lines lw 2 lc rgb C7 title 'Pareto line', \
     0.1 with lines dt 2 lc rgb C7 title 'radius / 10'

set title '(c) pile: energy drift'
set ylabel '|E/E_0 - (E/E_0)_{finest}|, end [1]'
plot data using (sel(1, 0, 64)):(lowcut(column("energy_drift"))) with points pt 7 ps 1.0 lc rgb C1 title 'f64', \
     '' using (sel(1, 0, 32)):(lowcut(column("energy_drift"))) with points pt 6 ps 1.5 lc rgb C2 title 'f32', \
     '' using (sel(1, 0, 64)):(lowcut(column("energy_drift"))):(lab(0)) with labels offset 0, 0.8 font F8 tc rgb C1 notitle, \
     0.01 with lines dt 2 lc rgb C7 title '1% of E_0'
unset multiplot
