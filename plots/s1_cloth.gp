# SPEC S1 cloth: final shape of the 8x6 and 64x64 (--quick: 32x32) cloths hanging from two
# corners, every link coloured by its strain.
#
#   gnuplot -e "data='DIR/data/s1_cloth.tsv'; out='DIR/fig/s1_cloth.png'; fmt='png'" plots/s1_cloth.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo).
# Columns (by name): cloth (0: 8x6, 1: 64x64) edge i0 i1 x0 y0 x1 y1 (final
# endpoints, m) rest_x0 rest_y0 rest_x1 rest_y1 (initial endpoints, m) rest
# strain tension (N) pinned (1 if the link touches a pin).

if (!exists("data")) data = 'report-out/data/s1_cloth.tsv'
if (!exists("out")) out = 'report-out/fig/s1_cloth.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# two square (equal-aspect) panels need more height than common.gp gives
if (fmt eq 'pdf') {
    set terminal pdfcairo enhanced color font 'Sans,8' size 11in,5.6in linewidth 1.2
} else {
    set terminal pngcairo enhanced color font 'Sans,10' size 1500,760 linewidth 1.3
}
set output out

# strain colour: log scale, slack links (strain below 1e-5) at the floor
set logscale cb
set cbrange [1e-5:1]
set format cb '10^{%L}'
set cblabel 'strain (|d| - L_0) / L_0'
set palette defined (0 '#313695', 1 '#4575b4', 2 '#74add1', 3 '#abd9e9', 4 '#fee090', 5 '#fdae61', 6 '#f46d43', 7 '#d73027', 8 '#a50026')
clampstrain(s) = (s > 1e-5 ? s : 1e-5)
# a pin never moves: its final position equals its rest position, on the top row
ispin0 = 'column("pinned") == 1 && column("x0") == column("rest_x0") && column("y0") == column("rest_y0")'
ispin1 = 'column("pinned") == 1 && column("x1") == column("rest_x1") && column("y1") == column("rest_y1")'

stats data using (column("cloth") == 0 ? column("strain") : NaN) nooutput
smax0 = STATS_max
stats data using (column("cloth") == 1 ? column("strain") : NaN) nooutput
smax1 = STATS_max
links1 = STATS_records   # 2 s (s - 1) links for an s x s sheet (64, or 32 under --quick)
side1 = int((1 + sqrt(1 + 2 * links1)) / 2 + 0.5)
# (stats filters by the current axis ranges: take every extent before setting them)
stats data using (column("cloth") == 1 ? column("rest_x1") : NaN) nooutput
wx = STATS_max
stats data using (column("cloth") == 1 ? column("rest_y1") : NaN) nooutput
wy = STATS_min
stats data using (column("cloth") == 0 ? column("y1") : NaN) nooutput
ylow0 = STATS_min
stats data using (column("cloth") == 1 ? column("y1") : NaN) nooutput
ylow1 = STATS_min

set multiplot layout 1, 2 title "SPEC S1 cloth - settled shape hanging from the two top corners (XPBD), links coloured by strain" font ',12'
set size ratio -1
set xlabel 'x (m)'
set ylabel 'y (m)'
set key bottom center box opaque font ',9'

set title sprintf('(a) 8x6 cloth, 82 links, 1 kg particles, α = 10^{-4} m/N (max strain %.3f)', smax0)
set xrange [-0.1:0.8]
set yrange [(ylow0 < -0.5 ? ylow0 : -0.5) - 0.2:0.08]
plot data using (column("cloth") == 0 ? column("rest_x0") : NaN):"rest_y0":(column("rest_x1") - column("rest_x0")):(column("rest_y1") - column("rest_y0")) \
        with vectors nohead dt 2 lw 1 lc rgb '#bbbbbb' title 'rest grid (initial)', \
     '' using (column("cloth") == 0 ? column("x0") : NaN):"y0":(column("x1") - column("x0")):(column("y1") - column("y0")):(clampstrain(column("strain"))) \
        with vectors nohead lw 3 lc palette notitle, \
     '' using (column("cloth") == 0 ? column("x0") : NaN):"y0" with points pt 7 ps 0.6 lc rgb 'black' title 'particles', \
     '' using (column("cloth") == 0 && @ispin0 ? column("x0") : NaN):"y0" with points pt 5 ps 1.6 lc rgb C4 title 'pins (w = 0)', \
     '' using (column("cloth") == 0 && @ispin1 ? column("x1") : NaN):"y1" with points pt 5 ps 1.6 lc rgb C4 notitle

set title sprintf("(b) %dx%d sheet, 1 kg, %d links, α = 10^{-3} m/N, max strain %.3f\nNOT CONVERGED: 20 substeps x 1 iteration leave the links at the pins\nstretched past their compliance (see the text)", side1, side1, links1, smax1)
set xrange [-0.1:1.1]
set yrange [(ylow1 < wy ? ylow1 : wy) - 0.22:0.1]
set object 1 rect from 0, wy to wx, 0 fs empty border lc rgb '#999999' dt 2 lw 1 front
plot data using (column("cloth") == 1 ? column("x0") : NaN):"y0":(column("x1") - column("x0")):(column("y1") - column("y0")):(clampstrain(column("strain"))) \
        with vectors nohead lw 1 lc palette notitle, \
     '' using (column("cloth") == 1 && @ispin0 ? column("x0") : NaN):"y0" with points pt 5 ps 1.6 lc rgb C4 title 'pins (w = 0)', \
     '' using (column("cloth") == 1 && @ispin1 ? column("x1") : NaN):"y1" with points pt 5 ps 1.6 lc rgb C4 notitle, \
     NaN with lines dt 2 lc rgb '#999999' title 'initial outline (rest)'
unset multiplot
