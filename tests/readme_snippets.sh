#!/bin/sh
# SPDX-License-Identifier: MIT
# readme_snippets.sh README EXAMPLES_DIR
#
# Every ```c block of README is an excerpt of a program under EXAMPLES_DIR
# (*.c, *.cpp, *.h), which the install.example.* tests build and run: each
# of its lines, whitespace-normalised (runs of blanks as one, ends trimmed;
# blank lines skipped), appears in one such file in the same order. Exits 1
# naming the block, the file that matched most of it and the first line
# that it lacks. Each block is also checked with its last line altered,
# which must not match: the check fails rather than pass vacuously.
#
set -eu

[ $# -eq 2 ] || { echo "usage: readme_snippets.sh README EXAMPLES_DIR" >&2; exit 2; }
readme=$1
examples=$2
[ -f "$readme" ] || { echo "readme_snippets: no $readme" >&2; exit 2; }

files=$(find "$examples" -type f \( -name '*.c' -o -name '*.cpp' -o -name '*.h' \) | sort)
[ -n "$files" ] || { echo "readme_snippets: no sources under $examples" >&2; exit 2; }

awk '
function norm(s) { gsub(/[ \t\r]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
# in-order match of block b (its lines, last one replaced by alt if alt != "")
# against file f: the number of lines matched before the first missing one
function match_count(b, f, alt,    i, j, want) {
    j = 1
    for (i = 1; i <= nlines[b]; ++i) {
        want = (i == nlines[b] && alt != "") ? alt : line[b, i]
        while (j <= flen[f] && fline[f, j] != want)
            ++j
        if (j > flen[f])
            return i - 1
        ++j
    }
    return nlines[b]
}
FNR == 1 { file_index++ }
file_index == 1 {
    if (!inblock && $0 ~ /^```c[ \t]*$/) { inblock = 1; ++blocks; start[blocks] = FNR; next }
    if (inblock && $0 ~ /^```/) { inblock = 0; next }
    if (inblock) {
        s = norm($0)
        if (s == "") next
        line[blocks, ++nlines[blocks]] = s
    }
    next
}
{
    f = file_index - 1
    fname[f] = FILENAME
    s = norm($0)
    if (s != "") fline[f, ++flen[f]] = s
    nfiles = f
}
END {
    if (blocks == 0) { print "readme_snippets: no ```c block in " ARGV[1] > "/dev/stderr"; exit 1 }
    bad = 0
    for (b = 1; b <= blocks; ++b) {
        best = 0; bestf = 0; found = 0
        for (f = 1; f <= nfiles; ++f) {
            c = match_count(b, f, "")
            if (c > best) { best = c; bestf = f }
            if (c == nlines[b]) { found = f; break }
        }
        if (!found) {
            printf "readme_snippets: the block at README line %d is not in the examples: " \
                   "%s has %d of its %d lines in order, then lacks\n  %s\n", start[b],
                   bestf ? fname[bestf] : "no file", best, nlines[b], line[b, best + 1] > "/dev/stderr"
            bad = 1
            continue
        }
        if (match_count(b, found, line[b, nlines[b]] " /* altered */") == nlines[b]) {
            printf "readme_snippets: the block at README line %d still matches %s altered\n",
                   start[b], fname[found] > "/dev/stderr"
            bad = 1
            continue
        }
        printf "readme_snippets: the block at README line %d (%d lines): %s\n", start[b],
               nlines[b], fname[found]
    }
    exit bad
}' "$readme" $files
