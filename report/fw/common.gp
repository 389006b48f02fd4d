# SPDX-License-Identifier: MIT
# common.gp: styling shared by every xpbd-report figure. Each plots/NAME.gp
# loads it after the caller has set
#   data  path of the figure's TSV (DIR/data/NAME.tsv)
#   out   output file
#   fmt   'png' (pngcairo) or 'pdf' (pdfcairo)
# and it sets the terminal, the output, TSV input with a header row (columns
# are addressed by name), and a small palette. A figure script may set
# `wide` to 1 for a three-panel layout before loading it, or choose its own
# height (inches) with `eval fig_terminal(H); set output out` after loading
# it (pdf_terminal is the same function under its older name).
#
# Drawn for the page: every figure is drawn at the size report.pdf prints
# it, PDFW = 7.5 in wide (the text line and a little of each margin) by the
# height asked for, so it prints at scale 1 and its text at the sizes set
# here: 9 pt and up. (pdfcairo's fonts come out at 4/3 x fontscale of their
# nominal size; fontscale 0.75 makes the nominal size the printed one.)
# Heights stay under 45% of the A4 page, the most report.pdf gives a figure
# before it would scale it down. The PNG is the same drawing rasterised at
# PNGDPI = 150 dots per inch: the same canvas in inches, so the same layout,
# and the same font sizes relative to it (pngcairo sizes fonts as if at
# 72 dpi: fontscale 0.75 x 150/72 less cairo's hinting, measured 1.52),
# lines and points scaled alike. The PNG in report.md shows what the page
# shows.
#
# The conventions every script follows (tests/figure_layout_check.sh
# checks them on every script, run on the quick report's data):
#   - the key lies outside the data area: the default here is below the
#     plot; a script may move it to another margin (`set key outside right`,
#     `above`, `lmargin` ...), restyle it, or draw a key panel (`at screen`
#     in a panel of its own), never `inside` or at plot coordinates;
#   - every axis label names its unit in brackets, "stretch [m]",
#     "k [N/m]", or "[1]" where the quantity is dimensionless (a ratio, a
#     count); a categorical axis says "(categories)";
#   - every plotted point lies inside the axis ranges (a zoom filters its
#     data to its ranges, NaN outside), and no text leaves the canvas;
#   - Greek and sub/superscripts as enhanced text in UTF-8: α, α̃, λ, μ, β,
#     h_s, h^2, 10^{-3} (never "alpha~" spelled out).
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'figure.' . fmt
if (!exists("wide")) wide = 0
PDFW = 7.5
PNGDPI = 150
PNGFS = 1.52
fig_terminal(h) = (fmt eq 'pdf') ? \
    sprintf("set terminal pdfcairo enhanced color font 'Sans,9' fontscale 0.75 size %.2fin,%.2fin linewidth 1.2 pointscale 0.5", PDFW, h) : \
    sprintf("set terminal pngcairo enhanced color font 'Sans,9' fontscale %.2f size %d,%d linewidth %.2f pointscale %.2f", PNGFS, int(PDFW * PNGDPI + 0.5), int(h * PNGDPI + 0.5), 1.2 * PNGDPI / 72 * 0.5, 0.5 * PNGDPI / 72)
pdf_terminal(h) = fig_terminal(h)
eval fig_terminal(wide ? 3.7 : 3.6)
set output out
set datafile separator tab
set datafile columnheaders
set encoding utf8
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 0.8, lc rgb '#f2f2f2' lw 0.5
set border lw 1
set key outside below center horizontal nobox samplen 2.5 spacing 1.15
set tics out nomirror
set border 3

# F8 .. F12: font specs of 9 or 10 printed points (never under 9), the
# same in the PDF and the PNG, which is the same drawing
F(n) = sprintf(',%d', n < 9 ? 9 : (n > 10 ? 10 : n))
F8 = F(8); F9 = F(9); F10 = F(10); F11 = F(11); F12 = F(12)

# palette (colour-blind safe): blue, orange, green, red, purple, brown, grey
C1 = '#0072b2'; C2 = '#e69f00'; C3 = '#009e73'; C4 = '#d55e00'
C5 = '#cc79a7'; C6 = '#8c564b'; C7 = '#555555'

# a zoom or a clipped range: v where lo <= v <= hi, else NaN, so that no
# point is drawn (or left out unseen) outside the plot box
inr(v, lo, hi) = (v >= lo && v <= hi) ? v : NaN

# one notation in the figures: a label read from a table in the text's
# ASCII spelling ("alpha~" for α̃ = α/h², "^2" for ²) shown in the figures'
# Greek; for tic labels (set noenhanced), so ^ stays literal elsewhere
greek1(s, a, b) = strstrt(s, a) > 0 ? s[1:strstrt(s, a) - 1] . b . s[strstrt(s, a) + strlen(a):] : s
greek(s) = greek1(greek1(greek1(s, "alpha~", "α̃"), "^2", "²"), "alpha", "α")
