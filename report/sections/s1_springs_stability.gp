# SPDX-License-Identifier: MIT
# Explicit springs on the hanging chain (S1): explicit-spring chain swept over k, three regimes.
#
#   gnuplot -e "data='DIR/data/s1_springs_stability.tsv'; out='DIR/fig/s1_springs_stability.png'; fmt='png'" plots/s1_springs_stability.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo). Also reads s1_springs_stability_time.tsv
# from the same directory as `data` (override with datadir='DIR/data/').
# Columns (by name): k k_lo k_hi regime (0 equilibrium, 1 limit cycle,
# 2 divergence) stretch_closed stretch_mean stretch_min stretch_max
# stretch_final v_peak t_diverged stretch_0p5s k_mh2 k_4mh2 k_limit
# k_limit_undamped k_boundary inverted_fraction; time table: k t stretch v_max.

if (!exists("data")) data = 'report-out/data/s1_springs_stability.tsv'
if (!exists("out")) out = 'report-out/fig/s1_springs_stability.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s1_springs_stability.tsv')]
trace = datadir . 's1_springs_stability_time.tsv'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# two rows of panels: taller than the page common.gp sets
eval fig_terminal(4.7)
set output out

stats data using "k_mh2" nooutput
kmh2 = STATS_min
stats data using "k_4mh2" nooutput
k4mh2 = STATS_min
stats data using "k_limit" nooutput
klim = STATS_min
stats data using "k_limit_undamped" nooutput
klim0 = STATS_min
stats data using "k_boundary" nooutput
kb = STATS_min

c_eq = C3
c_lc = C2
c_dv = C4
BOUND = 1e3
clamp(y) = (y > 1e-3 ? y : 1e-3)

# regime spans: every sweep point owns the cell [k_lo, k_hi]; the regimes
# come in order of k, so each is one interval
stats data using (column("regime") == 0 ? column("k_lo") : NaN) nooutput
eq_lo = STATS_min
stats data using (column("regime") == 0 ? column("k_hi") : NaN) nooutput
eq_hi = STATS_max
stats data using (column("regime") == 2 ? column("k_lo") : NaN) nooutput
dv_lo = STATS_min
stats data using (column("regime") == 2 ? column("k_hi") : NaN) nooutput
dv_hi = STATS_max
lc_lo = eq_hi
lc_hi = dv_lo
set object 1 rect from eq_lo, graph 0 to eq_hi, graph 1 behind fc rgb c_eq fs solid 0.18 noborder
set object 2 rect from lc_lo, graph 0 to lc_hi, graph 1 behind fc rgb c_lc fs solid 0.28 noborder
set object 3 rect from dv_lo, graph 0 to dv_hi, graph 1 behind fc rgb c_dv fs solid 0.12 noborder

set multiplot layout 2, 2 title "Explicit springs on the hanging chain (S1), N = 6, h = 1/60 s: equilibrium, limit cycle, divergence" font F11
# every key sits below its panel: none may cover data
set key below horizontal maxcols 2 nobox font F9 samplen 1.5


# ---- (a) stretch vs k --------------------------------------------------
set title '(a) total stretch vs spring constant'
set xlabel 'k [N/m]'
set ylabel 'total stretch [m]'
set logscale y
set format y '10^{%L}'
set ytics 1000
set xrange [0:15500]
set xtics 5000
set yrange [1e-3:1e4]
set arrow 1 from kmh2, graph 0 to kmh2, graph 1 nohead front dt 2 lw 1.5 lc rgb 'black'
set arrow 2 from k4mh2, graph 0 to k4mh2, graph 1 nohead front dt 4 lw 1.5 lc rgb 'black'
set label 1 'm/h^2' at kmh2, graph 0.04 offset 0.5, 0 front font F9
set label 2 '4m/h^2' at k4mh2, graph 0.04 right offset -0.5, 0 front font F9
# (the regimes' colours are in panel (c)'s key)
plot data using "k":"stretch_closed" with lines lw 2 lc rgb 'black' title 'closed form', \
     '' using "k":(column("regime") < 2 ? clamp(column("stretch_mean")) : NaN):(clamp(column("stretch_min"))):(clamp(column("stretch_max"))) \
        with yerrorbars pt 7 ps 0.5 lc rgb C1 title 'mean, min..max, last 2 s', \
     '' using "k":(column("regime") == 2 ? BOUND : NaN) with points pt 9 ps 1.0 lc rgb c_dv title 'diverged (> 10^3 m)'

# ---- (b) peak |v| vs k ---------------------------------------------------
set title '(b) peak particle speed'
set ylabel 'peak |v| [m/s]'
set yrange [0.1:1e5]
plot data using "k":"v_peak" with linespoints pt 7 ps 0.5 lc rgb C1 title 'max |v| while |stretch| < 10^3 m'

# ---- (c) zoom on the limit ---------------------------------------------
set title sprintf('(c) zoom: k_b = %.1f (measured), k* = %.1f N/m', kb, klim)
ZLO = 3690; ZHI = 4110
set xrange [ZLO:ZHI]
set yrange [1e-3:1e4]
set ylabel 'total stretch [m]'
set xtics 100
set ytics 100
unset arrow 2
unset label 1
unset label 2
set arrow 3 from klim, graph 0 to klim, graph 1 nohead front dt 3 lw 2 lc rgb C1
set arrow 4 from klim0, graph 0 to klim0, graph 1 nohead front dt 3 lw 1.5 lc rgb '#555555'
set arrow 5 from kb, graph 0 to kb, graph 1 nohead front lw 1 lc rgb C1
set label 3 'k* (c = 0.5)' at klim, graph 0.92 right offset -0.5, 0 front font F9 tc rgb C1
set label 4 'k* undamped' at klim0, graph 0.80 left offset 0.5, 0 front font F9 tc rgb '#555555'
set label 5 'k_b' at kb, graph 0.86 left offset 0.5, 0 front font F9 tc rgb C1
plot data using (inr(column("k"), ZLO, ZHI)):(NaN) with boxes fs solid 0.18 noborder lc rgb c_eq title 'equilibrium', \
     '' using (inr(column("k"), ZLO, ZHI)):(NaN) with boxes fs solid 0.28 noborder lc rgb c_lc title 'limit cycle', \
     '' using (inr(column("k"), ZLO, ZHI)):(NaN) with boxes fs solid 0.12 noborder lc rgb c_dv title 'divergence', \
     '' using (inr(column("k"), ZLO, ZHI)):"stretch_closed" with lines lw 2 lc rgb 'black' title 'closed form', \
     '' using (inr(column("k"), ZLO, ZHI)):(column("regime") < 2 ? clamp(column("stretch_mean")) : NaN):(clamp(column("stretch_min"))):(clamp(column("stretch_max"))) \
        with yerrorbars pt 7 ps 0.6 lc rgb C1 title 'mean, min..max', \
     '' using (inr(column("k"), ZLO, ZHI)):(column("regime") == 2 ? BOUND : NaN) with points pt 9 ps 1.0 lc rgb c_dv title 'diverged'
unset arrow
unset label
unset object

# ---- (d) time traces ---------------------------------------------------
set title '(d) total stretch vs time, one run per regime'
set xlabel 't [s]'
set ylabel '|total stretch| [m]'
set xrange [0:60]
set xtics auto
set yrange [1e-2:1e4]
# one data block per k (index 0 to 3: 3800, 3900, 4000, 10000); columns 2 t,
# 3 stretch by number (checked by the report's tests): by name, gnuplot
# reads these long traces several times slower
set key below horizontal maxcols 2 nobox font F9 samplen 1.5
set label 6 'closed form, k = 3800' at 1, 0.0387 offset 0, 0.6 front font F9
plot trace index 0 using 2:(inr(abs($3), 1e-2, 1e4)) with lines lw 1 lc rgb c_eq title 'k = 3800: equilibrium', \
     '' index 1 using 2:(inr(abs($3), 1e-2, 1e4)) with lines lw 1 lc rgb c_lc title 'k = 3900: limit cycle', \
     '' index 2 using 2:(inr(abs($3), 1e-2, 1e4)) with lines lw 1 lc rgb C5 title 'k = 4000: diverges', \
     '' index 3 using 2:(inr(abs($3), 1e-2, 1e4)) with linespoints pt 7 ps 0.4 lw 1.5 lc rgb c_dv title 'k = 10000: diverges', \
     0.0387 with lines dt 2 lc rgb 'black' notitle
unset multiplot
