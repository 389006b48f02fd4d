# SPDX-License-Identifier: MIT
# layout_bad.gp: a figure script that breaks every rule of
# tests/figure_layout_check.sh once (report.figure_layout_bad requires each
# to be reported): the key inside the data area, an axis label without a
# unit, a point outside the axis ranges, a label leaving the canvas. It
# plots the s0_lambda table of the quick report.
dir = ARG0; i = strlen(dir); while (i > 0 && dir[i:i] ne '/') { i = i - 1 }
dir = (i > 0) ? dir[1:i] : ''
data = datadir . 's0_lambda.tsv'
load dir . 'common.gp'
set key top right
set xlabel 'iterations'
set ylabel 'residual stretch [m]'
set xrange [1:5]
set label 1 'this label runs off the right edge of the canvas' at screen 0.9, 0.5
plot data using "iteration":(column("reset")) with linespoints title 'reset'
