# SPDX-License-Identifier: MIT
# simd_agreement.gp: values differing from the scalar reference, per kernel
# (and step driver) x SIMD path x precision. Expected: 0 everywhere.
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/simd_agreement.tsv'; out='fig/simd_agreement.png'; fmt='png'" PLOTS/simd_agreement.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/simd_agreement.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

stats data using "column" nooutput
ncol = int(STATS_max) + 1
stats data using "values_compared" nooutput
total = STATS_sum

set title sprintf("SIMD vs scalar reference: values that differ after 30 steps\n(%.0f values compared; expected 0 everywhere; cells: differing / compared)", total) font F11
set xlabel 'SIMD path and precision (categories)'
set ylabel ''
set xrange [-0.6:ncol - 0.4]
stats data using "kernel_id" nooutput
nrow = int(STATS_max) + 1
set yrange [nrow - 0.4:-0.6]
set border 0
set tics scale 0 noenhanced
set grid noxtics noytics nomxtics nomytics
unset key
green = 0x2e9e4f; red = 0xd62728
cellc(d) = d == 0 ? green : red
celltext(d, m) = d == 0 ? sprintf("0 / %d", column("values_compared")) : sprintf("%d differ\nmax %.1e", d, m)
plot data using "column":"kernel_id":(0.47):(0.45):(cellc(column("values_differing"))):xtic(strcol("isa") . " " . strcol("precision")):ytic(strcol("kernel")) \
          with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     '' using "column":"kernel_id":(celltext(column("values_differing"), column("max_abs_diff"))) \
          with labels tc rgb 'white' font F9 noenhanced
