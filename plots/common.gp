# common.gp: styling shared by every xpbd-report figure. Each plots/NAME.gp
# loads it after the caller has set
#   data  path of the figure's TSV (DIR/data/NAME.tsv)
#   out   output file
#   fmt   'png' (pngcairo) or 'pdf' (pdfcairo)
# (pdfcairo draws text at about 0.6 of the nominal size, hence the larger
# font there) and it sets the terminal, the output, TSV input with a header row (columns
# are addressed by name), and a small palette. A figure script may set
# `wide` to 1 for a three-panel layout before loading it.
if (!exists("fmt")) fmt = 'png'
if (!exists("out")) out = 'figure.' . fmt
if (!exists("wide")) wide = 0
if (fmt eq 'pdf') {
    if (wide) {
        set terminal pdfcairo enhanced color font 'Sans,13' size 11in,4.4in linewidth 1.5 pointscale 0.6
    } else {
        set terminal pdfcairo enhanced color font 'Sans,13' size 9.5in,4.4in linewidth 1.5 pointscale 0.6
    }
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

# F8 .. F11: font specs of 8 .. 11 points on the PNG, scaled up for the PDF
# so that an explicit size reads the same in both (`set key font F9`)
F(n) = sprintf(',%d', fmt eq 'pdf' ? int(n * 1.3 + 0.5) : n)
F8 = F(8); F9 = F(9); F10 = F(10); F11 = F(11)

# palette (colour-blind safe): blue, orange, green, red, purple, brown, grey
C1 = '#0072b2'; C2 = '#e69f00'; C3 = '#009e73'; C4 = '#d55e00'
C5 = '#cc79a7'; C6 = '#8c564b'; C7 = '#555555'
