# SPDX-License-Identifier: MIT
# s0_rejections.gp: Input rules of the single distance constraint (S0), one bad input per row: the status
# the rule calls for against the status returned, and whether the state
# was left bit for bit as it was.
#   gnuplot -e "data='data/s0_rejections.tsv'; out='fig/s0_rejections.png'; fmt='png'" PLOTS/s0_rejections.gp
# Columns (by name): case expected status bad_index_expected bad_index
# unchanged what (text).
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
set title "Input rules of the single distance constraint (S0):\nthe status returned for each bad input" font F11
set xlabel 'xpbd\_status code (negative: an error) [1]'
set xrange [-20:3]
set yrange [-1:*] reverse
set ytics scale 0 font F8 noenhanced
set key below horizontal maxcols 2 font F9
set grid noytics
plot data using "expected":"case":ytic(greek(stringcolumn("what"))) with points pt 6 ps 2.2 lw 1.5 lc rgb C1 title 'expected by the rule', \
     '' using "status":"case" with points pt 7 ps 1.0 lc rgb C4 title 'returned', \
     '' using (column("unchanged") != 0 ? 1.5 : NaN):"case" with points pt 7 ps 0.8 lc rgb C3 title 'state unchanged (memcmp)', \
     '' using (column("unchanged") != 0 ? NaN : 1.5):"case" with points pt 2 ps 1.5 lc rgb C4 title 'state CHANGED'
