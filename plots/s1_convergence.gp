# SPEC S1: convergence per iteration (lambda kept vs reset, PBD) and the
# iteration tiers, chain and 8x6 cloth.
#
#   gnuplot -e "data='DIR/data/s1_convergence.tsv'; out='DIR/fig/s1_convergence.png'; fmt='png'" plots/s1_convergence.gp
#
# fmt: png (pngcairo) or pdf (pdfcairo). Also reads s1_convergence_tiers.tsv
# from the same directory as `data` (override with datadir='DIR/data/').
# Columns (by name): scene (0 chain, 1 cloth 8x6) iteration xpbd_kept_residual
# xpbd_kept_max_c xpbd_reset_residual xpbd_reset_residual_last_lambda
# xpbd_reset_max_c pbd_max_c; tiers: scene alpha iterations xpbd_kept
# xpbd_reset pbd closed_form.

if (!exists("data")) data = 'report-out/data/s1_convergence.tsv'
if (!exists("out")) out = 'report-out/fig/s1_convergence.png'
if (!exists("datadir")) datadir = data[1:strlen(data) - strlen('s1_convergence.tsv')]
tiers = datadir . 's1_convergence_tiers.tsv'

dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'
# two rows of panels: taller than the page common.gp sets
if (fmt eq 'pdf') {
    eval pdf_terminal(5.2)
} else {
    set terminal pngcairo enhanced color font 'Sans,10' size 1500,1100 linewidth 1.3
}
set output out

c_kept = C1
c_reset = C4
c_pbd = C3
c_grey = '#777777'
pos(y) = (y > 0 ? y : NaN)

set multiplot layout 2, 2 title "SPEC S1 - distance constraints: convergence per iteration (h = 1/60 s, one substep, m = 1 kg) and iteration tiers (α in m/N)" font F12
set key box opaque font F9
set logscale y
set format y '10^{%L}'

# ---- (a), (b) per iteration --------------------------------------------
do for [sc = 0:1] {
    if (sc == 0) {
        set title '(a) chain N = 6 (serial order), α = 10^{-4} m/N'
        set xrange [0:41]
    } else {
        set title '(b) cloth 8x6 (82 links, coloured order), α = 10^{-4} m/N'
        set xrange [0:101]
    }
    set xlabel 'iteration within the substep'
    set ylabel 'max over constraints (m)'
    set yrange [1e-19:1]
    set key bottom left
    plot data using (column("scene") == sc ? column("iteration") : NaN):(pos(column("xpbd_kept_residual"))) with linespoints pt 7 ps 0.5 lw 2 lc rgb c_kept title 'XPBD, λ kept: |C + (α/h^2) λ|', \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_kept_max_c" with lines lw 1 dt 2 lc rgb c_kept title 'XPBD, λ kept: |C| (the compliant stretch)', \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_reset_residual" with linespoints pt 5 ps 0.5 lw 2 lc rgb c_reset title 'λ reset: |C + (α/h^2) Σλ| (true residual)', \
         '' using (column("scene") == sc ? column("iteration") : NaN):"xpbd_reset_residual_last_lambda" with lines lw 1 dt 3 lc rgb c_reset title 'λ reset: residual with the last λ only (a counter)', \
         '' using (column("scene") == sc ? column("iteration") : NaN):"pbd_max_c" with linespoints pt 9 ps 0.5 lw 1.5 lc rgb c_pbd title 'PBD k_s = 1: |C|'
}

# ---- (c), (d) iteration tiers -------------------------------------------
set logscale x
set xrange [0.8:60]
set xtics (1, 2, 3, 4, 6, 10, 20, 30, 50)
set xlabel 'iterations per substep'
do for [sc = 0:1] {
    if (sc == 0) {
        set title '(c) tiers, chain: settled total stretch (closed form: m g N(N-1)/2 α)'
        set yrange [1e-5:1]
    } else {
        set title '(d) tiers, cloth 8x6: settled total stretch (sum over 82 links)'
        set yrange [1e-3:10]
    }
    set ylabel 'total stretch, mean of frames 300-600 (m)'
    set key bottom left
    plot tiers using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"xpbd_kept" with linespoints pt 7 ps 0.8 lw 2 lc rgb c_kept title 'XPBD λ kept, α = 10^{-3}', \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"xpbd_kept" with linespoints pt 6 ps 0.8 lw 1.5 dt 2 lc rgb c_kept title 'XPBD λ kept, α = 10^{-4}', \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"xpbd_reset" with linespoints pt 5 ps 0.8 lw 2 lc rgb c_reset title 'XPBD λ reset, α = 10^{-3}', \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"xpbd_reset" with linespoints pt 4 ps 0.8 lw 1.5 dt 2 lc rgb c_reset title 'XPBD λ reset, α = 10^{-4}', \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"pbd" with linespoints pt 9 ps 0.8 lw 2 lc rgb c_pbd title 'PBD k_s = 1', \
         '' using (column("scene") == sc && column("alpha") > 5e-4 ? column("iterations") : NaN):"closed_form" with lines lw 1 lc rgb 'black' title (sc == 0 ? 'closed form, α = 10^{-3}' : ''), \
         '' using (column("scene") == sc && column("alpha") < 5e-4 ? column("iterations") : NaN):"closed_form" with lines lw 1 dt 2 lc rgb 'black' title (sc == 0 ? 'closed form, α = 10^{-4}' : '')
}
unset multiplot
