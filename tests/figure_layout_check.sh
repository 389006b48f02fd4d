#!/bin/sh
# SPDX-License-Identifier: MIT
# The figures drawn for the page (POSIX sh + awk; gnuplot and pdftotext).
#
#   figure_layout_check.sh PLOTS DATA WORK [SCRIPT.gp ...]
#
# Checks every figure script PLOTS/NAME.gp (or the scripts named), run on
# the data of a report in DATA (DIR/data of `xpbd-report --quick`), the way
# report.pdf prints it (fmt='pdf', the size it is placed at):
#   key     every `set key` places the key outside the data area (outside,
#           above/below, a margin, or a key panel `at screen`) or only styles
#           it (font, box, samplen ... keep the placement fw/common.gp set:
#           below the plot); `unset key` and `set key off` pass. gnuplot
#           exposes no key box to test against, so placement is read from
#           the script, and a key gnuplot could not fit (entries left out)
#           fails. A key panel (a panel of its own that draws only
#           the key, its samples off its ranges) is marked "# key panel" on
#           its `set key` line and before its plot.
#   unit    every axis label (x, y, z, x2, y2, cb) names its unit in brackets
#           ("stretch [m]", "k [N/m]") or says it is dimensionless ("[1]")
#           or categorical ("(categories)"); an empty label passes.
#   box     after each plot, gnuplot's GPVAL_TERM_XMIN .. YMAX (the plot box)
#           lie inside the canvas (GPVAL_TERM_XSIZE, YSIZE / GPVAL_TERM_SCALE)
#           and enclose an area (gnuplot clamps a margin to the canvas, so
#           this catches a box squeezed to nothing by keys and labels).
#   points  the same plots written with `set table`: no point is flagged
#           'o' (outside the axis ranges, drawn clipped or not at all).
#   canvas  every word of the figure's PDF (pdftotext -bbox) lies inside its
#           page: no title, label or key entry leaves the canvas.
# Prints one FAIL line per violation (script, what, where) and exits 1 if
# any; 77 without gnuplot or pdftotext.
#
#   figure_layout_check.sh --expect-fail PLOTS DATA WORK BAD.gp
#
# runs the same checks on a script made to break every rule once
# (tests/data/figures/layout_bad.gp) and passes only if each is reported:
# the checks can fail.
set -u
if [ "${1:-}" = --expect-fail ]; then
    shift
    got=$(sh "$0" "$@")
    rc=$?
    echo "$got"
    [ $rc -eq 77 ] && exit 77
    bad=0
    [ $rc -eq 1 ] || { echo "FAIL: exit $rc on the bad script, want 1"; bad=1; }
    for want in "key placed without outside" "axis label with no unit" \
        "points outside the axis ranges" "leaves the canvas"; do
        echo "$got" | grep -q "$want" || { echo "FAIL: the bad script's '$want' not reported"; bad=1; }
    done
    [ $bad -eq 0 ] && echo "every broken rule reported"
    exit $bad
fi
plots=$1
data=$2
work=$3
shift 3
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not found: skipped"; exit 77; }
command -v pdftotext >/dev/null 2>&1 || { echo "pdftotext not found: skipped"; exit 77; }
mkdir -p "$work" || exit 1
cp "$plots/common.gp" "$work/" || exit 1 # the scripts load it from beside themselves
[ $# -gt 0 ] || set -- "$plots"/*.gp
fail=0
err() { echo "FAIL: $*"; fail=1; }

# key and unit: read from the script text (continuation lines joined)
lint() { # SCRIPT NAME
    awk -v name="$2" '
        function report(what) { printf "FAIL: %s line %d: %s: %s\n", name, start, what, stmt; bad = 1 }
        # the statement, continuation lines joined
        { line = $0 }
        cont { stmt = stmt " " line } !cont { stmt = line; start = NR }
        { cont = sub(/\\$/, "", stmt) }
        cont { next }
        {
            s = stmt
            panel = (s ~ /# key panel/)
            sub(/^[ \t]+/, "", s)
            if (s ~ /^#/) next
            # a statement may follow another after ";" (rare): check each
            n = split(s, part, /;[ \t]*/)
            for (k = 1; k <= n; ++k) check(part[k])
        }
        function check(p,   q) {
            if (p ~ /^set +key( |$)/) {
                q = p
                gsub(/"[^"]*"|\047[^\047]*\047/, "", q) # titles and fonts aside
                if (q ~ /(^| )(off|noautotitle|autotitle)( |$)/ && q !~ /(^| )(top|bottom|left|right|center|inside|at)( |$)/) return
                if (panel) return # a key panel: a panel of its own with only the key
                if (q ~ /(^| )inside( |$)/) { report("key inside the data area"); return }
                if (q ~ /(^| )at( |$)/) {
                    if (q !~ /(^| )at +screen/) report("key placed at plot coordinates (inside the data area): use at screen in a key panel, or outside")
                    return
                }
                if (q ~ /(^| )(outside|above|over|below|under|lmargin|rmargin|tmargin|bmargin)( |$)/) return
                if (q ~ /(^| )(top|bottom|left|right|center)( |$)/) report("key placed without outside, above or below (gnuplot puts it inside)")
                return
            }
            if (p ~ /^set +(x|y|z|x2|y2|cb)label( |$)/) {
                q = p
                sub(/^set +[a-z0-9]+label +/, "", q)
                if (q ~ /^(""|\047\047)/ || q == "") return
                # the label text: its string literals
                t = ""
                while (match(q, /"([^"\\]|\\.)*"|\047([^\047]|\047\047)*\047/)) {
                    t = t substr(q, RSTART, RLENGTH)
                    q = substr(q, RSTART + RLENGTH)
                }
                if (t !~ /\[[^]]+\]/ && t !~ /\(categories\)/) report("axis label with no unit in brackets (dimensionless: [1])")
            }
        }
        END { exit bad }' "$1"
}

# the script rewritten: after every plot statement (continuation lines
# joined) the lines of $2 are inserted, before it those of $1; with $4 = 1,
# not around the plot of a key panel (after a line marked "# key panel":
# its samples lie off its ranges on purpose, only its key is drawn)
inject() { # BEFORE AFTER SCRIPT [SKIP_PANELS]
    awk -v before="$1" -v after="$2" -v skip_panels="${4:-0}" '
        /# key panel/ { panel = 1 }
        !cont && /^[ \t]*(plot|splot|replot)([ \t]|$)/ {
            inplot = 1; wrap = !(skip_panels && panel); panel = 0
            if (wrap && before != "") print before
        }
        { print; cont = ($0 ~ /\\$/) }
        inplot && !cont { if (wrap && after != "") print after; inplot = 0 }' "$3"
}

for gp in "$@"; do
    name=$(basename "$gp" .gp)
    [ "$name" = common ] && continue
    lint "$gp" "$name" || fail=1
    vars="data='$data/$name.tsv'; datadir='$data/'; fmt='pdf'"
    # box: the plot box in the canvas, after every plot
    inject "" "print sprintf('XR-BOX %g %g %g %g %g %g', GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, GPVAL_TERM_XSIZE / GPVAL_TERM_SCALE, GPVAL_TERM_YSIZE / GPVAL_TERM_SCALE)" \
        "$gp" >"$work/$name.box.gp"
    (cd "$(dirname "$gp")" && gnuplot -e "$vars; out='$work/$name.pdf'" "$work/$name.box.gp") \
        >/dev/null 2>"$work/$name.box.log"
    if [ ! -s "$work/$name.pdf" ] || grep -q ' line [0-9]*: [^w]' "$work/$name.box.log"; then
        err "$name: gnuplot failed: $(grep -v XR-BOX "$work/$name.box.log" | head -3)"
        continue
    fi
    # gnuplot leaves out key entries that do not fit its margin
    grep -q 'difficulty fitting plot titles into key' "$work/$name.box.log" &&
        err "$name: key entries left out (gnuplot: difficulty fitting plot titles into key): shorten them or give the key more room"
    nbox=$(grep -c '^XR-BOX' "$work/$name.box.log")
    [ "$nbox" -gt 0 ] || err "$name: no plot statement found"
    awk -v name="$name" '$1 == "XR-BOX" {
            ++k
            if (!($2 >= 0 && $3 > $2 && $3 <= $6 && $4 >= 0 && $5 > $4 && $5 <= $7))
                printf "FAIL: %s plot %d: plot box x %s..%s y %s..%s outside the canvas %s x %s\n", name, k, $2, $3, $4, $5, $6, $7
        }' "$work/$name.box.log" | grep . && fail=1
    # canvas: every word of the PDF on its page. pdftotext leaves out the
    # words wholly off the page, so it reads a copy whose MediaBox is
    # 300 pt larger on every side (poppler rebuilds the offsets that moved):
    # the canvas is then 300..300+W x 300..300+H, and a word anywhere off it
    # is seen
    dims=$(grep -a -o '/MediaBox \[ *0 0 [0-9.]* [0-9.]* *\]' "$work/$name.pdf" | head -1 | tr -d '[]' | awk '{ print $4, $5 }')
    [ -n "$dims" ] || err "$name: no MediaBox in the figure's PDF"
    big=$(echo "$dims" | awk '{ print $1 + 300, $2 + 300 }')
    sed "s|/MediaBox \[ *0 0 [0-9.]* [0-9.]* *\]|/MediaBox [ -300 -300 $big ]|" \
        "$work/$name.pdf" >"$work/$name.big.pdf"
    pdftotext -bbox "$work/$name.big.pdf" - 2>/dev/null | awk -v name="$name" -v dims="$dims" '
        function v(k,   s) { s = $0; sub(".*" k "=\"", "", s); sub("\".*", "", s); return s + 0 }
        BEGIN { split(dims, d, " "); w = d[1]; h = d[2]; o = 300 }
        /<word / {
            x0 = v("xMin") - o; x1 = v("xMax") - o; y0 = v("yMin") - o; y1 = v("yMax") - o
            t = $0; sub(/.*">/, "", t); sub(/<\/word>.*/, "", t)
            if (x0 < 0 || y0 < 0 || x1 > w || y1 > h)
                printf "FAIL: %s: text \"%s\" leaves the canvas (%.1f..%.1f x %.1f..%.1f of %.0f x %.0f pt)\n", name, t, x0, x1, y0, y1, w, h
        }' | grep . && fail=1
    # points: every plotted point inside the axis ranges
    tab="$work/$name.table"
    rm -f "$tab"
    inject "set table '$tab' append" "unset table" "$gp" 1 >"$work/$name.table.gp"
    (cd "$(dirname "$gp")" && gnuplot -e "$vars; out='$work/$name.table.pdf'" "$work/$name.table.gp") \
        >/dev/null 2>&1
    if [ -f "$tab" ]; then
        awk -v name="$name" '
            /^# Curve [0-9]+ of/ { ++curve; title = "untitled"; next }
            /^# Curve title/ { title = $0; sub(/^# Curve title: /, "", title); next }
            /^#/ || NF == 0 { next }
            $NF == "o" { ++out[curve]; first[curve] = first[curve] == "" ? $0 : first[curve]; ttl[curve] = title }
            END {
                for (c in out)
                    printf "FAIL: %s: curve %d of the figure (%s): %d points outside the axis ranges, first: %s\n", name, c, ttl[c], out[c], first[c]
            }' "$tab" | grep . && fail=1
    else
        err "$name: set table wrote nothing"
    fi
done
exit $fail
