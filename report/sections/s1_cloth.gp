# SPDX-License-Identifier: MIT
# The cloth (S1): final shape of the 8x6 and 64x64 (--quick: 32x32) cloths hanging from two
# corners, every link coloured by its strain.
#
#   gnuplot -e "data='DIR/data/s1_cloth.tsv'; out='DIR/fig/s1_cloth.png'; fmt='png'" plots/s1_cloth.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo).
# Columns: cloth (0: 8x6, 1: 64x64; data blocks 0 and 1) edge i0 i1 x0 y0 x1 y1 (final
# endpoints, m) rest_x0 rest_y0 rest_x1 rest_y1 (initial endpoints, m) rest
# strain tension (N) pinned (1 if the link touches a pin).

if (!exists("data")) data = 'report-out/data/s1_cloth.tsv'
if (!exists("out")) out = 'report-out/fig/s1_cloth.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# two square (equal-aspect) panels need more height than common.gp gives
eval fig_terminal(4.0)
set output out

# strain colour: log scale, slack links (strain below 1e-5) at the floor
set logscale cb
set cbrange [1e-5:1]
set format cb '10^{%L}'
set cblabel 'strain (|d| - L_0) / L_0 [1]'
set palette defined (0 '#313695', 1 '#4575b4', 2 '#74add1', 3 '#abd9e9', 4 '#fee090', 5 '#fdae61', 6 '#f46d43', 7 '#d73027', 8 '#a50026')
clampstrain(s) = (s > 1e-5 ? s : 1e-5)
# The two cloths are data blocks 0 and 1 (each starts with the header
# line). The sheet's block is long: it is read by column number (5 x0,
# 6 y0, 7 x1, 8 y1, 9 rest_x0, 10 rest_y0, 11 rest_x1, 12 rest_y1, 14 strain,
# 16 pinned; the header is checked by the report's tests), which gnuplot
# reads several times faster than a column by name.
# A pin never moves: its final position equals its rest position, on the top row
ispin0 = '$16 == 1 && $5 == $9 && $6 == $10'
ispin1 = '$16 == 1 && $7 == $11 && $8 == $12'

stats data index 0 using 14:8 nooutput
smax0 = STATS_max_x
ylow0 = STATS_min_y
stats data index 1 using 14:8 nooutput
smax1 = STATS_max_x
ylow1 = STATS_min_y
links1 = STATS_records   # 2 s (s - 1) links for an s x s sheet (64, or 32 under --quick)
side1 = int((1 + sqrt(1 + 2 * links1)) / 2 + 0.5)
stats data index 1 using 11:12 nooutput
wx = STATS_max_x
wy = STATS_min_y

set multiplot layout 1, 2 title "The cloth (S1): settled shape hanging from the two top corners (XPBD), links coloured by strain" font F11
set size ratio -1
set xlabel 'x [m]'
set ylabel 'y [m]'
set key below horizontal nobox font F9 samplen 2

set title sprintf("(a) 8x6 cloth, 82 links, 1 kg particles,\nα = 10^{-4} m/N, max strain %.3f", smax0)
set xrange [-0.1:0.8]
set yrange [(ylow0 < -0.5 ? ylow0 : -0.5) - 0.1:0.08]
plot data index 0 using 9:10:($11 - $9):($12 - $10) \
        with vectors nohead dt 2 lw 1 lc rgb '#bbbbbb' title 'rest grid (initial)', \
     '' index 0 using 5:6:($7 - $5):($8 - $6):(clampstrain($14)) \
        with vectors nohead lw 3 lc palette notitle, \
     '' index 0 using 5:6 with points pt 7 ps 0.6 lc rgb 'black' title 'particles', \
     '' index 0 using (@ispin0 ? $5 : NaN):6 with points pt 5 ps 1.6 lc rgb C4 title 'pins (w = 0)', \
     '' index 0 using (@ispin1 ? $7 : NaN):8 with points pt 5 ps 1.6 lc rgb C4 notitle

set title sprintf("(b) %dx%d sheet, 1 kg, %d links, α = 10^{-3} m/N,\nmax strain %.3f: NOT CONVERGED (20 substeps x 1\niteration leave the links at the pins overstretched)", side1, side1, links1, smax1)
set xrange [-0.1:1.1]
set yrange [(ylow1 < wy ? ylow1 : wy) - 0.1:0.1]
set object 1 rect from 0, wy to wx, 0 fs empty border lc rgb '#999999' dt 2 lw 1 front
plot data index 1 using 5:6:($7 - $5):($8 - $6):(clampstrain($14)) \
        with vectors nohead lw 1 lc palette notitle, \
     '' index 1 using (@ispin0 ? $5 : NaN):6 with points pt 5 ps 1.6 lc rgb C4 title 'pins (w = 0)', \
     '' index 1 using (@ispin1 ? $7 : NaN):8 with points pt 5 ps 1.6 lc rgb C4 notitle, \
     NaN with lines dt 2 lc rgb '#999999' title 'initial outline (rest)'
unset multiplot
