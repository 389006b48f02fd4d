# SPDX-License-Identifier: MIT
# common.gp: styling shared by every xpbd-report figure. Each plots/NAME.gp
# loads it after the caller has set
#   data  path of the figure's TSV (DIR/data/NAME.tsv)
#   out   output file
#   fmt   'png' (pngcairo) or 'pdf' (pdfcairo)
# and it sets the terminal, the output, TSV input with a header row (columns
# are addressed by name), and a small palette. A figure script may set
# `wide` to 1 for a three-panel layout before loading it, or set its own
# size with `eval pdf_terminal(HEIGHT_IN)` (PDF) after loading it.
#
# The PDF is drawn at the size report.pdf places it, PDFW = 7.5 in wide
# (the text line and a little of each margin), so that it prints at scale 1
# and its text at the sizes given here: 9 pt and up. (pdfcairo's fonts come
# out at 4/3 x fontscale of their nominal size; fontscale 0.75 makes the
# nominal size the printed one.) The heights stay under 45% of the A4 page,
# the most report.pdf gives a figure before it would scale it down.
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'figure.' . fmt
if (!exists("wide")) wide = 0
PDFW = 7.5
pdf_terminal(h) = sprintf("set terminal pdfcairo enhanced color font 'Sans,9' fontscale 0.75 size %.2fin,%.2fin linewidth 1.2 pointscale 0.5", PDFW, h)
if (fmt eq 'pdf') {
    eval pdf_terminal(wide ? 3.7 : 3.6)
} else {
    if (wide) {
        set terminal pngcairo enhanced color font 'Sans,10' size 1650,660 linewidth 1.3
    } else {
        set terminal pngcairo enhanced color font 'Sans,10' size 1400,650 linewidth 1.3
    }
}
set output out
set datafile separator tab
set datafile columnheaders
set encoding utf8
set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 0.8, lc rgb '#f2f2f2' lw 0.5
set border lw 1
set key box opaque samplen 2.5 spacing 1.15 width 1
set tics out nomirror
set border 3

# F8 .. F12: font specs of 8 .. 12 points on the PNG; on the PDF, which
# is smaller for the same layout, 9 or 10 points (never under 9)
F(n) = sprintf(',%d', fmt eq 'pdf' ? (n < 9 ? 9 : (n > 10 ? 10 : n)) : n)
F8 = F(8); F9 = F(9); F10 = F(10); F11 = F(11); F12 = F(12)

# palette (colour-blind safe): blue, orange, green, red, purple, brown, grey
C1 = '#0072b2'; C2 = '#e69f00'; C3 = '#009e73'; C4 = '#d55e00'
C5 = '#cc79a7'; C6 = '#8c564b'; C7 = '#555555'
