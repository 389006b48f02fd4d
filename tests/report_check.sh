#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end check of xpbd-report (CTest, see report_tests.cmake).
#
#   sh report_check.sh data    XPBD_REPORT OUT   run --quick into OUT, check data
#   sh report_check.sh figures XPBD_REPORT OUT   check OUT's figures and report.pdf
#   sh report_check.sh parallel XPBD_REPORT OUT  --jobs 1 and 2 agree
#   sh report_check.sh self_test XPBD_REPORT OUT every check can fail
#   sh report_check.sh cli     XPBD_REPORT OUT   refused command lines
#
# data: exit status 0 (3 = figures missing, accepted only where gnuplot is
# not installed); stdout ends with "N passed, 0 failed"; every table that
# --list names exists, has the expected header (known tables) or a
# consistent one, and every row has as many fields as the header, numbers
# where numbers belong; data/checks.tsv has only PASS rows and at least one
# per section; report.md has a heading per section.
# figures: skipped (77) without gnuplot; every figure (--list and
# data/figures.tsv) exists as PNG and PDF of non-trivial size; report.pdf
# (when groff is installed) has at least one page per figure, groff, tbl
# and gropdf print no warning (pdf/groff.log), every figure placed at the
# size it was drawn (scale 1: the text prints at the size set), A4 pages
# only, a destination and a bookmark (its number and title) per section,
# the Summary on page 3 and a contents page listing every section (its
# title, and its identifier in small print) with the page its heading is
# on, each line a link to the section's destination (pdfinfo, pdftotext,
# pdftohtml).
# parallel: a few untimed sections with --jobs 1 and --jobs 2 give the
# same report.md (timing and date lines aside) and the same data tables.
# self_test: --self-test --quick exits 0 and ends with "N checks mutated,
# N caught": every check fails once its measured value is moved just past
# its tolerance.
# cli: an --only that names no section ('', ',', --only=) or an unknown one,
# an --only without its value: exit 2, a message naming the list, no
# output directory made.
set -u
mode=$1
report=$2
out=$3
fail=0
err() { echo "FAIL: $*"; fail=1; }

# 0 if NAME is a section that skipped itself (DIR/data/skipped.tsv: it
# needs what this build lacks, e.g. Bullet), or a table or figure of one
# (named after it)
skipped() {
    [ -f "$out/data/skipped.tsv" ] &&
        awk -F '\t' -v n="$1" 'NR > 1 && index(n, $1) == 1 { found = 1 } END { exit !found }' "$out/data/skipped.tsv"
}

# names of a kind ("section", "figure", "table") from --list
names() { "$report" --list | awk -v k="$1" '$1 == k { print $2 }'; }

# expected header of the tables whose columns are fixed; empty = unknown
# table (a section may add tables: only their shape is checked)
expected_header() {
    case $1 in
    s0_lambda) echo "iteration kept reset kept_dt2 reset_dt2 closed_kept closed_reset closed_kept_dt2 closed_reset_dt2 residual_kept residual_reset residual_kept_dt2 residual_reset_dt2" ;;
    s1_cloth) echo "cloth edge i0 i1 x0 y0 x1 y1 rest_x0 rest_y0 rest_x1 rest_y1 rest strain tension pinned" ;;
    s1_springs_stability_time) echo "k t stretch v_max" ;;
    s3_cloth_tethers | s3_cloth_free) echo "x y z strain" ;;
    s1_pbd_stiffness) echo "k_s stretch_5s stretch_avg_4_5s stretch_max fixed_point small_ks_limit stretch_4s stretch_settled" ;;
    s1_pbd_stiffness_time) echo "t ks_1e-4 ks_1e-3 ks_1e-2 ks_0.1 ks_1" ;;
    s1_substeps) echo "n_s pbd_stretch k_eq k_eq_kernel single_pass_stretch ratio pbd_fixed_point single_fixed_point xpbd1_stretch xpbd1_ratio xpbd4_stretch xpbd4_ratio xpbd_closed pbd_undamped_avg" ;;
    s1_xpbd_invariance) echo "alpha n_s closed stretch ratio ratio_fixed_point ratio_undamped_avg floor original_ratio original_stretch" ;;
    simd_agreement) echo "kernel_id kernel isa_id isa precision column lanes steps values_compared values_differing max_abs_diff max_abs_value" ;;
    simd_speed) echo "kernel_id kernel precision isa_id isa n ns_per_item items_per_s ratio_vs_scalar constraint size_index" ;;
    checks) echo "section check ours reference kind tol lo hi tolerance tolerance_from result" ;;
    references) echo "section item original ours deviation_pct verdict check explained" ;;
    self_test) echo "section check kind measured mutant_low mutant_high caught" ;;
    figures) echo "figure section png pdf caption" ;;
    *) echo "" ;;
    esac
}

# text (non-numeric) columns of the known tables
text_columns() {
    case $1 in
    simd_agreement) echo "kernel isa precision" ;;
    simd_speed) echo "kernel precision isa" ;;
    checks) echo "section check kind tolerance tolerance_from result" ;;
    references) echo "section item verdict check explained" ;;
    self_test) echo "section check kind" ;;
    figures) echo "figure section caption" ;;
    *) echo "" ;;
    esac
}

check_table() {
    name=$1
    file="$out/data/$name.tsv"
    if [ ! -s "$file" ]; then
        err "table $name: $file missing or empty"
        return
    fi
    want=$(expected_header "$name")
    got=$(head -n 1 "$file" | tr '\t' ' ')
    if [ -n "$want" ] && [ "$got" != "$want" ]; then
        err "table $name: header '$got', expected '$want'"
    fi
    # shape: >= 1 column, unique non-empty names, >= 1 row, every row as
    # wide as the header (blank lines, gnuplot's block separators, aside), numeric fields except the known text columns
    may_be_empty=0
    [ "$name" = references ] && may_be_empty=1
    msg=$(awk -F '\t' -v text=" $(text_columns "$name") " -v known="$want" -v empty_ok=$may_be_empty '
        NR == 1 {
            n = NF
            header = $0
            for (i = 1; i <= NF; i++) {
                if ($i == "") { print "empty column name " i; bad = 1 }
                if ($i in seen) { print "duplicate column " $i; bad = 1 }
                seen[$i] = 1; col[i] = $i
            }
            next
        }
        NF == 0 { next }  # a blank line separates gnuplot data blocks
        $0 == header { next }  # and a block may start with the header again
        {
            rows++
            if (NF != n) { print "row " NR " has " NF " fields, header " n; bad = 1; exit }
            if (known == "") next
            for (i = 1; i <= NF; i++) {
                if (index(text, " " col[i] " ")) continue
                v = tolower($i)
                if (v !~ /^[-+]?(nan|inf|infinity|[0-9]+(\.[0-9]*)?([e][-+]?[0-9]+)?|\.[0-9]+([e][-+]?[0-9]+)?)$/) {
                    print "row " NR " column " col[i] ": not a number: " $i; bad = 1; exit
                }
            }
        }
        END { if (rows < 1 && !empty_ok) { print "no data rows"; bad = 1 } exit bad }' "$file")
    [ $? -eq 0 ] || err "table $name: $msg"
}

case $mode in
data)
    rm -rf "$out"
    "$report" --quick --out "$out" > "$out.stdout" 2> "$out.stderr"
    status=$?
    cat "$out.stdout"
    if command -v gnuplot > /dev/null 2>&1; then
        if [ $status -ne 0 ]; then
            err "xpbd-report exited $status (expected 0); its stderr:"
            cat "$out.stderr"
        fi
    else
        [ $status -eq 3 ] || err "xpbd-report exited $status without gnuplot (expected 3: figures missing)"
    fi
    last=$(tail -n 1 "$out.stdout")
    echo "$last" | grep -Eq '^[0-9]+ passed, 0 failed$' || err "last stdout line '$last' is not 'N passed, 0 failed'"

    listed=$(names table)
    [ -n "$listed" ] || err "--list names no table"
    for t in $listed; do
        skipped "$t" || [ -f "$out/data/$t.tsv" ] || err "table $t (named by --list) was not written"
    done
    # every table written, listed or not
    tables=$( (echo "$listed"; ls "$out/data" 2> /dev/null | sed -n 's/\.tsv$//p') | sort -u)
    for t in $tables; do
        skipped "$t" && [ ! -f "$out/data/$t.tsv" ] && continue
        check_table "$t"
    done

    # every check passed, and every section made at least one
    if [ -s "$out/data/checks.tsv" ]; then
        nfail=$(awk -F '\t' 'NR > 1 && $11 != "PASS" { n++; print "  " $1 ": " $2 " = " $3 " (reference " $4 ", " $9 ")" > "/dev/stderr" } END { print n + 0 }' "$out/data/checks.tsv")
        [ "$nfail" -eq 0 ] || err "$nfail check(s) not PASS in checks.tsv"
        for s in $(names section); do
            skipped "$s" ||
            awk -F '\t' -v s="$s" 'NR > 1 && $1 == s { found = 1 } END { exit !found }' "$out/data/checks.tsv" ||
                err "section $s recorded no check"
        done
        npass=$(awk -F '\t' 'NR > 1 && $11 == "PASS"' "$out/data/checks.tsv" | wc -l)
        echo "$last" | grep -q "^$npass passed" || err "checks.tsv has $npass PASS rows, stdout says '$last'"
    fi

    if [ -s "$out/report.md" ]; then
        # the hand-out's chapters: how to read it and the summary against the
        # reference values before the first section, then the conclusions,
        # the references and the appendix of check tables, in that order
        chapters=$(grep -e '^# How to read this$' -e '^# Summary$' -e '^# Conclusions and limitations$' -e '^# References$' -e '^# Appendix A: the checks$' "$out/report.md" | tr '\n' '|')
        [ "$chapters" = "# How to read this|# Summary|# Conclusions and limitations|# References|# Appendix A: the checks|" ] ||
            err "report.md: chapters '$chapters'"
        first=$(grep -n -m 1 '^## ' "$out/report.md" | cut -d: -f1)
        summ=$(grep -n -m 1 '^# Summary$' "$out/report.md" | cut -d: -f1)
        [ -n "$first" ] && [ -n "$summ" ] && [ "$summ" -lt "$first" ] || err "report.md: the summary does not come before the first section"
        # each section headed by its title, its identifier in small print
        for s in $(names section); do
            grep -q "^\*.*xpbd-report --only $s\*\$" "$out/report.md" || err "report.md has no section $s (its '--only $s' line)"
        done
        nhead=$(grep -c '^## ' "$out/report.md")
        [ "$nhead" -gt "$(names section | wc -l)" ] || err "report.md has $nhead headings for $(names section | wc -l) sections and the summary"
    else
        err "report.md missing"
    fi
    ;;
figures)
    if ! command -v gnuplot > /dev/null 2>&1; then
        echo "gnuplot not installed: figures not checked (apt-get install gnuplot-nox)"
        exit 77
    fi
    if [ ! -s "$out/data/figures.tsv" ]; then
        echo "FAIL: $out/data/figures.tsv missing: did report.quick run?"
        exit 1
    fi
    figs=$( (names figure; awk -F '\t' 'NR > 1 { print $1 }' "$out/data/figures.tsv") | sort -u)
    nfig=0
    for f in $figs; do
        skipped "$f" && continue
        nfig=$((nfig + 1))
        png="$out/fig/$f.png"
        pdf="$out/fig/$f.pdf"
        if [ ! -f "$png" ] || [ "$(wc -c < "$png")" -lt 10000 ]; then
            err "figure $f: $png missing or under 10 kB"
        elif [ "$(head -c 4 "$png" | tail -c 3)" != "PNG" ]; then
            err "figure $f: $png is not a PNG"
        fi
        if [ ! -f "$pdf" ] || [ "$(wc -c < "$pdf")" -lt 5000 ]; then
            err "figure $f: $pdf missing or under 5 kB"
        elif [ "$(head -c 4 "$pdf")" != "%PDF" ]; then
            err "figure $f: $pdf is not a PDF"
        fi
    done
    rep="$out/report.pdf"
    if ! command -v groff > /dev/null 2>&1; then
        echo "groff not installed: report.pdf not checked (apt-get install groff)"
    elif [ ! -f "$rep" ] || [ "$(wc -c < "$rep")" -lt 20000 ]; then
        err "$rep missing or under 20 kB"
    elif command -v pdfinfo > /dev/null 2>&1 && command -v pdftotext > /dev/null 2>&1; then
        pages=$(pdfinfo "$rep" | awk '/^Pages:/ { print $2 }')
        [ -n "$pages" ] && [ "$pages" -ge "$nfig" ] || err "report.pdf has ${pages:-no} pages for $nfig figures"
        # groff, tbl and gropdf said nothing but the page numbers the
        # report asks for (.tm XRPAGE): no table wider than the line, no
        # line that cannot be broken
        if [ -f "$out/pdf/groff.log" ]; then
            warned=$(grep -v '^XRPAGE ' "$out/pdf/groff.log" | grep -c .)
            [ "$warned" -eq 0 ] || {
                err "groff printed $warned warning line(s) typesetting report.pdf:"
                grep -v '^XRPAGE ' "$out/pdf/groff.log" | head -20
            }
        else
            err "$out/pdf/groff.log missing"
        fi
        # every figure printed at scale 1: the size report.pdf gives it
        # (pdfpic FILE -L Wz Hz in pdf/report.ms; z = 1/1000 pt) is the
        # page size gnuplot drew it at, within half a point
        sed -n 's/.*pdfpic \([^ ]*\) -L \([0-9]*\)z \([0-9]*\)z.*/\1 \2 \3/p' "$out/pdf/report.ms" > "$out/placed.txt"
        nplaced=$(wc -l < "$out/placed.txt")
        [ "$nplaced" -eq "$nfig" ] || err "report.pdf places $nplaced figures, expected $nfig"
        while read -r f w h; do
            size=$(pdfinfo "$f" 2> /dev/null | sed -n 's/^Page size: *\([0-9.]*\) x \([0-9.]*\) pts.*/\1 \2/p')
            echo "$size $w $h" | awk '{ dw = $1 - $3 / 1000; dh = $2 - $4 / 1000; exit !(NF == 4 && dw * dw < 0.25 && dh * dh < 0.25) }' ||
                err "figure $(basename "$f"): drawn at '${size:-?}' pt, placed at $w x $h z (scale is not 1)"
        done < "$out/placed.txt"
        # one page size throughout (A4)
        sizes=$(pdfinfo -f 1 -l "$pages" "$rep" | sed -n 's/^Page *[0-9]* size: *//p' | sort -u)
        [ "$sizes" = "595 x 842 pts (A4)" ] || err "report.pdf page sizes: '$sizes' (expected A4 only)"
        # a bookmark and a destination per section, the summary and the contents
        pdfinfo -dests "$rep" > "$out/dests.txt"
        for tag in contents summary $(for s in $(names section); do echo "sec-$s"; done); do
            grep -q "\"$tag\"\$" "$out/dests.txt" || err "report.pdf: no destination '$tag'"
        done
        # a bookmark per section: its number and its title (the title as
        # report.md heads the section, up to its first symbol, at most 20
        # characters: the bookmark spells symbols in ASCII)
        k=0
        for s in $(names section); do
            k=$((k + 1))
            title=$(awk -v s="$s" '/^## / { t = substr($0, 4) } $0 ~ "xpbd-report --only " s "[*]$" { print t; exit }' "$out/report.md" |
                LC_ALL=C sed 's/[^ -~].*//; s/[(]/\\(/g; s/[)]/\\)/g' | cut -c1-20)
            [ -n "$title" ] || err "report.md: no heading for section $s"
            grep -aFq "/Title ($k $title" "$rep" || err "report.pdf: no bookmark '$k $title...' for section $s"
        done
        # "How to read this" is the first heading after the contents, the
        # summary follows it; the chapters after the sections have their
        # destinations
        pdftotext -f 3 -l 3 "$rep" - | grep -q '^How to read this$' || err "report.pdf: page 3 is not How to read this"
        spage=$(awk '$NF == "\"summary\"" { print $1 }' "$out/dests.txt")
        pdftotext -f "${spage:-1}" -l "${spage:-1}" "$rep" - | grep -q '^Summary$' || err "report.pdf: the summary's page ${spage:-?} has no Summary heading"
        for tag in howto conclusions references appendix appendix-refs appendix-tables; do
            grep -q "\"$tag\"\$" "$out/dests.txt" || err "report.pdf: no destination '$tag'"
        done
        # the contents (page 2) lists every section with the page of its heading
        pdftotext -layout -f 2 -l 2 "$rep" "$out/contents.txt"
        for s in $(names section); do
            want=$(awk -v t="sec-$s" '$NF == "\"" t "\"" { print $1 }' "$out/dests.txt")
            # the line of the title and, in small print, the identifier
            got=$(awk -v s="$s" '{ for (i = 2; i <= NF; i++) if ($i == s || index($i, s ".") == 1) { n = split($0, a, "."); x = a[n]; gsub(/[^0-9]/, "", x); print x; next } }' "$out/contents.txt")
            [ -n "$got" ] || err "contents: no line for section $s"
            [ -n "$got" ] && [ "$got" = "$want" ] || err "contents: $s on page '$got', its heading is on page '$want'"
        done
        # every contents line is a link to its section's destination: the
        # annotation names the destination (/Dest /sec-NAME), and on page 2
        # the entry's text lies inside a link to the heading's page
        # (pdftohtml -xml writes a link as <a href="...#PAGE">)
        if command -v pdftohtml > /dev/null 2>&1; then
            pdftohtml -xml -i -stdout -f 2 -l 2 "$rep" > "$out/contents.xml" 2> /dev/null
            for tag in summary $(for s in $(names section); do echo "sec-$s"; done); do
                grep -aq "/Dest /$tag\$" "$rep" || grep -aq "/Dest /$tag " "$rep" ||
                    err "report.pdf: no link to destination '$tag'"
            done
            want=$(awk '$NF == "\"summary\"" { print $1 }' "$out/dests.txt")
            grep -q "<a href=\"[^\"]*#$want\">Summary against the reference values" "$out/contents.xml" ||
                err "contents: the Summary line is not a link to page $want"
            for s in $(names section); do
                want=$(awk -v t="sec-$s" '$NF == "\"" t "\"" { print $1 }' "$out/dests.txt")
                grep -q "<a href=\"[^\"]*#$want\">$s</a>" "$out/contents.xml" ||
                    err "contents: the $s line is not a link to page $want"
            done
        else
            err "pdftohtml (poppler-utils) not installed: the contents links cannot be checked"
        fi
        echo "report.pdf: $pages pages, $nfig figures, $sizes"
    else
        echo "pdfinfo/pdftotext not installed: report.pdf not inspected"
    fi
    ;;
parallel)
    # sections that time nothing, run two at a time in child processes and
    # then one after another in one process: the same report.md apart from
    # the lines that carry times and the date, the same checks and tables
    only=s0_lambda,s0_rejections,s1_substeps,s2_restitution,s2_mass_ratio,s3_damping,s3_rigid_coupling
    rm -rf "$out"
    for j in 1 2; do
        "$report" --quick --jobs $j --format none --only $only --out "$out/jobs$j" > "$out.jobs$j.stdout" 2>&1 ||
            err "--jobs $j exited $? (output in $out.jobs$j.stdout)"
        grep -v -e '^Section time:' -e '^\* date:' -e '^\* load average' -e '^\* command:' "$out/jobs$j/report.md" > "$out/jobs$j.md"
    done
    cmp -s "$out/jobs1.md" "$out/jobs2.md" || {
        err "report.md differs between --jobs 1 and --jobs 2:"
        diff "$out/jobs1.md" "$out/jobs2.md" | head -20
    }
    [ "$(grep -c '^## ' "$out/jobs1.md")" -ge 8 ] || err "report.md of --jobs 1 has too few headings"
    for f in "$out"/jobs1/data/*.tsv; do
        b=$(basename "$f")
        cmp -s "$f" "$out/jobs2/data/$b" || err "data/$b differs between --jobs 1 and --jobs 2"
    done
    [ -z "$(ls -A "$out"/jobs2/data/.*.rec 2> /dev/null)" ] || err "record files left in data/"
    ;;
self_test)
    rm -rf "$out"
    "$report" --self-test --quick --out "$out" > "$out.stdout" 2> "$out.stderr"
    status=$?
    cat "$out.stdout"
    [ $status -eq 0 ] || err "xpbd-report --self-test exited $status (expected 0)"
    last=$(tail -n 1 "$out.stdout")
    echo "$last" | awk '$2 == "checks" && $3 == "mutated," && $1 == $4 && $5 == "caught" && $1 > 0 { ok = 1 } END { exit !ok }' ||
        err "last stdout line '$last' is not 'N checks mutated, N caught'"
    ! grep -q '^  SURVIVOR ' "$out.stdout" || err "checks survived their mutation (above)"
    # every recorded check was mutated, not a subset
    nchecks=$(awk 'NR > 1' "$out/data/checks.tsv" | wc -l)
    [ "$(echo "$last" | awk '{ print $1 }')" -eq "$nchecks" ] ||
        err "$nchecks checks recorded but '$last'"
    check_table self_test
    ;;
cli)
    rm -rf "$out"
    mkdir -p "$out.cli"
    refused() { # WANT ARGS...: exit 2, stderr names WANT, nothing written to $out
        want=$1
        shift
        "$report" "$@" --out "$out" > "$out.cli/stdout" 2> "$out.cli/stderr"
        status=$?
        [ $status -eq 2 ] || err "xpbd-report $* exited $status (expected 2): $(cat "$out.cli/stderr")"
        grep -q -- "$want" "$out.cli/stderr" || err "xpbd-report $*: stderr does not name '$want': $(cat "$out.cli/stderr")"
        [ ! -e "$out" ] || err "xpbd-report $* created $out"
    }
    refused "--only ',' names no section" --only ,
    refused "--only '' names no section" --only ''
    refused "--only ',,' names no section" --only=,,
    refused "--only '' names no section" --only=
    refused "--only ',' names no section" --only s0_lambda --only ,
    refused "unknown section or figure 'nope'" --only s0_lambda,nope
    refused "valid names" --only nope
    "$report" --out "$out" --only > "$out.cli/stdout" 2> "$out.cli/stderr"
    [ $? -eq 2 ] && grep -q -- "--only needs a value" "$out.cli/stderr" ||
        err "--only without a value: $(cat "$out.cli/stderr")"
    ;;
*)
    echo "usage: sh report_check.sh data|figures|parallel|self_test|cli XPBD_REPORT OUT"
    exit 2
    ;;
esac

if [ $fail -ne 0 ]; then
    echo "report_check ($mode): FAILED"
    exit 1
fi
echo "report_check ($mode): all assertions hold"
exit 0
