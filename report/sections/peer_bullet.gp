# SPDX-License-Identifier: MIT
# The bench's cloth in Bullet beside xpbd: strain and frame time.
#
#   gnuplot -e "data='DIR/data/peer_bullet.tsv'; out='DIR/fig/peer_bullet.png'; fmt='png'" plots/peer_bullet.gp
#
# Columns (by name): variant (0 structural, 1 shear) N mode (0 sub10,
# 1 iter10) links strain_xpbd strain_bullet (1) ms_xpbd ms_bullet (ms per
# frame) kLST.

if (!exists("data")) data = 'report-out/data/peer_bullet.tsv'
if (!exists("out")) out = 'report-out/fig/peer_bullet.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
if (fmt eq 'pdf') { eval pdf_terminal(4.2); set output out }

set multiplot layout 1, 2 title "Flat cloth, compliance 10^{-5} m/N, float, one thread: xpbd (filled) and Bullet btSoftBody (open)" font F11
set key below horizontal maxrows 4 font F9 samplen 2
set logscale y
set format y '10^{%L}'
set xlabel 'grid side N [particles per side]' offset 0, 0.4
set xrange [24 : 80]
set xtics (32, 64)
sel(v, m) = (column("variant") == v && column("mode") == m) ? column("N") : NaN
array lab[4] = ['structural, sub10', 'structural, iter10', 'shear, sub10', 'shear, iter10']
array col[4] = [C1, C2, C3, C4]

set title '(a) mean link strain at the end'
set ylabel 'mean |C| / rest [1]'
plot for [k = 0:3] data using (sel(k / 2, k % 2)):"strain_xpbd" with points pt 7 ps 1.2 lc rgb col[k + 1] title 'xpbd, ' . lab[k + 1], \
     for [k = 0:3] data using (sel(k / 2, k % 2)):"strain_bullet" with points pt 6 ps 1.4 lc rgb col[k + 1] title 'Bullet, ' . lab[k + 1]

set title '(b) wall time per frame (key: left)'
unset key
set ylabel 'time per frame, this machine [ms]'
plot for [k = 0:3] data using (sel(k / 2, k % 2)):"ms_xpbd" with points pt 7 ps 1.2 lc rgb col[k + 1] notitle, \
     for [k = 0:3] data using (sel(k / 2, k % 2)):"ms_bullet" with points pt 6 ps 1.4 lc rgb col[k + 1] notitle
unset multiplot
