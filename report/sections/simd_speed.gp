# SPDX-License-Identifier: MIT
# simd_speed.gp: throughput vs problem size per SIMD path, and speed-up over
# the scalar reference (measurements of xb_run, the code behind xpbd-bench).
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/simd_speed.tsv'; out='fig/simd_speed.png'; fmt='png'" PLOTS/simd_speed.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/simd_speed.pdf' for the PDF.)
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
load dir . 'common.gp'

stats data using "isa_id" nooutput
maxisa = int(STATS_max)
stats data using "kernel_id" nooutput
maxkernel = int(STATS_max)
isaname(k) = word('scalar sse4 avx2 avx512 neon', k + 1)
col(k) = word(C7 . ' ' . C1 . ' ' . C2 . ' ' . C4 . ' ' . C3, k + 1)
pick(kern, prec, k) = (strcol("kernel") eq kern && strcol("precision") eq prec && column("isa_id") == k) ? column("items_per_s") : NaN

# The two size sweeps side by side with one key strip below them (an empty
# plot with only the key: constants above the y range, drawn nowhere), the
# speed-up bars across the whole width below: every kernel's name readable.
eval fig_terminal(4.4); set output out
set multiplot title "Kernel throughput per SIMD path (one thread; best of several timed loops; not checked)" font F11
set logscale xy
set format x '2^{%L}'
set format y '10^{%L}'
set xlabel 'problem size n [1]' offset 0, 0.5
set ylabel 'throughput [1/s]'
unset key

set origin 0, 0.6
set size 0.5, 0.35
set title '(a) distance\_xpbd: constraints per second'
set logscale x 2
plot for [k=0:maxisa] data using "n":(pick("distance_xpbd", "f32", k)) with linespoints pt 7 ps 0.8 lw 2 lc rgb col(k), \
     for [k=0:maxisa] data using "n":(pick("distance_xpbd", "f64", k)) with linespoints pt 6 ps 0.8 lw 2 dt 2 lc rgb col(k)

set origin 0.5, 0.6
set title '(b) predict: particles per second'
plot for [k=0:maxisa] data using "n":(pick("predict", "f32", k)) with linespoints pt 7 ps 0.8 lw 2 lc rgb col(k), \
     for [k=0:maxisa] data using "n":(pick("predict", "f64", k)) with linespoints pt 6 ps 0.8 lw 2 dt 2 lc rgb col(k)

set origin 0, 0.5
set size 1, 0.1
unset title; unset xlabel; unset ylabel; unset border; unset tics; unset grid; unset logscale
set xrange [0:1]; set yrange [0:1]
set lmargin 0; set rmargin 0; set tmargin 0; set bmargin 0
set key inside center center horizontal box opaque font F9 samplen 2 # key panel
plot for [k=0:maxisa] 2 with linespoints pt 7 ps 0.8 lw 2 lc rgb col(k) title isaname(k) . ' f32', \
     for [k=0:maxisa] 2 with linespoints pt 6 ps 0.8 lw 2 dt 2 lc rgb col(k) title isaname(k) . ' f64'

set origin 0, 0
set size 1, 0.5
set lmargin 11; set rmargin 2; set tmargin 2; set bmargin 7
set border 3
set xtics out nomirror; set ytics out nomirror
set grid ytics lc rgb '#e4e4e4' lw 0.8
set title '(c) speed-up over scalar at the smallest size (in cache), f32'
set format x '%g'
set logscale y 2
set format y '%gx'
set ylabel 'speed-up over scalar [1]'
set xrange [-0.6:maxkernel + 0.6]
# from 0.5x down to the slowest bar (a debug build's SIMD path may be slower
# than its scalar one): every bar inside the box
stats data using (strcol("precision") eq "f32" && column("size_index") == 0 ? column("ratio_vs_scalar") : NaN) nooutput
ylo = STATS_min < 0.5 ? STATS_min / 1.2 : 0.5  # (the scalar rows, 1x, are always there)
set yrange [ylo:*]
set xtics rotate by 30 right font F9 noenhanced
set key outside below center horizontal font F9
set style fill solid 0.85 noborder
bw = 0.8 / (maxisa > 0 ? maxisa : 1)   # a scalar-only build has no bars
if (maxisa == 0) { set label 5 'no SIMD path in this build' at graph 0.5, graph 0.5 center }
bar(k) = (strcol("precision") eq "f32" && column("isa_id") == k && column("size_index") == 0) ? column("ratio_vs_scalar") : NaN
plot for [k=1:maxisa] data using (column("kernel_id") - 0.4 + (k - 0.5) * bw):(bar(k)):(bw * 0.95) with boxes lc rgb col(k) title isaname(k), \
     data using "kernel_id":(column("isa_id") == 0 && column("size_index") == 0 && strcol("precision") eq "f32" ? 1 : NaN):xtic(strcol("kernel")) with points pt -1 notitle, \
     1 with lines dt 2 lc rgb C7 title 'scalar = 1'
unset multiplot
