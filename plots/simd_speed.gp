# simd_speed.gp: throughput vs problem size per SIMD path, and speed-up over
# the scalar reference (measurements of xb_run, the code behind xpbd-bench).
# Render by hand, from the report's output directory (DIR of xpbd-report):
#   gnuplot -e "data='data/simd_speed.tsv'; out='fig/simd_speed.png'; fmt='png'" PLOTS/simd_speed.gp
# (PLOTS = this directory; fmt='pdf' with out='fig/simd_speed.pdf' for the PDF.)
wide = 1
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

set multiplot layout 1, 3 title "Kernel throughput per SIMD path (one thread; best of several timed loops; not checked)" font F11
set logscale xy
set format x '2^{%L}'
set format y '10^{%L}'
set xlabel 'problem size n (items)'
set ylabel 'throughput (items/s)'
# keys below the panels (outside the data), two rows of paths
set key outside below center horizontal maxrows 2 font F8

set title 'distance\_xpbd: constraints per second'
set logscale x 2
plot for [k=0:maxisa] data using "n":(pick("distance_xpbd", "f32", k)) with linespoints pt 7 ps 0.8 lw 2 lc rgb col(k) title isaname(k) . ' f32', \
     for [k=0:maxisa] data using "n":(pick("distance_xpbd", "f64", k)) with linespoints pt 6 ps 0.8 lw 2 dt 2 lc rgb col(k) title isaname(k) . ' f64'

set title 'predict: particles per second'
plot for [k=0:maxisa] data using "n":(pick("predict", "f32", k)) with linespoints pt 7 ps 0.8 lw 2 lc rgb col(k) title isaname(k) . ' f32', \
     for [k=0:maxisa] data using "n":(pick("predict", "f64", k)) with linespoints pt 6 ps 0.8 lw 2 dt 2 lc rgb col(k) title isaname(k) . ' f64'

set title 'speed-up over scalar at the smallest size (in cache), f32'
unset logscale x
set format x '%g'
set logscale y 2
set format y '%gx'
set xlabel ''
set ylabel 'speed-up over the scalar reference'
set xrange [-0.6:maxkernel + 0.6]
set yrange [0.5:*]
set xtics rotate by 30 right font F8 noenhanced
set key outside top center horizontal font F8
set style fill solid 0.85 noborder
bw = 0.8 / (maxisa > 0 ? maxisa : 1)   # a scalar-only build has no bars
if (maxisa == 0) { set label 5 'no SIMD path in this build' at graph 0.5, graph 0.5 center }
bar(k) = (strcol("precision") eq "f32" && column("isa_id") == k && column("size_index") == 0) ? column("ratio_vs_scalar") : NaN
plot for [k=1:maxisa] data using (column("kernel_id") - 0.4 + (k - 0.5) * bw):(bar(k)):(bw * 0.95) with boxes lc rgb col(k) title isaname(k), \
     data using "kernel_id":(column("isa_id") == 0 && column("size_index") == 0 && strcol("precision") eq "f32" ? 1 : NaN):xtic(strcol("kernel")) with points pt -1 notitle, \
     1 with lines dt 2 lc rgb C7 title 'scalar = 1'
unset multiplot
