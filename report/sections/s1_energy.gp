# SPDX-License-Identifier: MIT
# Energy against time, swinging chain and cloth, across substep counts.
#
#   gnuplot -e "data='DIR/data/s1_energy.tsv'; out='DIR/fig/s1_energy.png'; fmt='png'" plots/s1_energy.gp
#
# Columns (by name): scene (0 chain, 1 cloth) substeps (1, 2, 4, ... up to
# the largest) t (s) energy (J), run after run.

if (!exists("data")) data = 'report-out/data/s1_energy.tsv'
if (!exists("out")) out = 'report-out/fig/s1_energy.png'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
if (fmt eq 'pdf') { eval pdf_terminal(4.0); set output out }

stats data using "substeps" nooutput
kmax = int(log(STATS_max) / log(2) + 0.5)
set multiplot layout 1, 2 title "XPBD, {/Symbol a} = 10^{-3} m/N, 1 iteration per substep, undamped: total energy (0 at the start)" font F11
set xlabel 't [s]' offset 0, 0.4
set ylabel 'E(t) - E(0) [J]'
set key below horizontal maxrows 1 font F9 samplen 2
array col[6] = [C1, C2, C3, C4, C5, C6]
sel(c, n) = (column("scene") == c && column("substeps") == n) ? column("t") : NaN
do for [c = 0:1] {
    set title (c == 0 ? '(a) chain, N = 6, from horizontal' : '(b) cloth 8 x 6, from flat')
    plot for [k = 0:kmax] data using (sel(c, 2**k)):"energy" with lines lw 1.5 \
         lc rgb col[k % 6 + 1] title sprintf('n_s = %d', 2**k)
}
unset multiplot
