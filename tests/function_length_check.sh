#!/bin/sh
# SPDX-License-Identifier: MIT
# No function in report/ is longer than MAX lines (default 150), its
# definition's first line to its closing brace, as Universal Ctags reads
# them with the tree's .ctags.d (its end: field). Prints every function
# over the limit, longest first, and exits 1 if there is one; 77 (skipped)
# without Universal Ctags.
#   function_length_check.sh SOURCE_DIR [MAX]
set -eu
src=$1
max=${2:-150}
cd "$src"
if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
    echo "Universal Ctags not found: skipped"
    exit 77
fi
tags=$(ctags --fields=+ne --c-kinds=f --c++-kinds=f -R -f - report) || {
    echo "ctags failed on report/"
    exit 1
}
printf '%s\n' "$tags" | awk -F'\t' -v max="$max" '
    {
        l = ""; e = ""
        for (i = 4; i <= NF; ++i) {
            if ($i ~ /^line:/) l = substr($i, 6)
            if ($i ~ /^end:/) e = substr($i, 5)
        }
        if (l == "" || e == "") next
        ++n
        len = e - l + 1
        if (len > longest) { longest = len; where = $2 ":" l " " $1 }
        if (len > max) printf "%d lines: %s:%d %s\n", len, $2, l, $1 | "sort -rn"
        if (len > max) ++over
    }
    END {
        close("sort -rn")
        if (n == 0) { print "no functions found under report/"; exit 1 }
        printf "%d functions in report/, the longest %d lines (%s); %d over %d\n", n, longest, where, over + 0, max
        exit over > 0
    }'
