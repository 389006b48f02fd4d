#!/bin/sh
# SPDX-License-Identifier: MIT
# No function in the given folders is longer than MAX lines: from the
# line Universal Ctags names it on to its closing brace (ctags' end field),
# with the tree's .ctags.d, so a function written once for both precisions
# is measured once.
#   function_length_check.sh TOP [MAX [DIR...]]   (MAX: 100, DIR: kernels,
#                                                  relative to TOP)
# Exits 77 (skipped) when no ctags is installed; a ctags that is not
# Universal Ctags (no end field) fails.
set -eu
top=$1
max=${2:-100}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- kernels
ctags=
for c in ctags-universal universal-ctags ctags; do
    if command -v "$c" >/dev/null 2>&1; then
        ctags=$c
        break
    fi
done
if [ -z "$ctags" ]; then
    echo "skipped: no ctags installed (apt-get install universal-ctags)"
    exit 77
fi
if ! "$ctags" --version 2>/dev/null | grep -q Universal; then
    echo "$ctags is not Universal Ctags: it gives no end line (apt-get install universal-ctags)"
    exit 1
fi
cd "$top"
# name, kind, file, first line, end line (empty when ctags found no end)
tags=$("$ctags" -x --kinds-C=f --_xformat='%N	%K	%F	%n	%{end}' -R "$@")
result=$(printf '%s\n' "$tags" | awk -F '\t' -v max="$max" '
    $2 != "function" { next }
    { ++count }
    $5 == "" { print "no end line for " $1 " (" $3 ":" $4 ")"; ++bad; next }
    $5 - $4 + 1 > max {
        print $3 ":" $4 ": " $1 " is " ($5 - $4 + 1) " lines long (at most " max ")"
        ++bad
    }
    END { print count + 0, bad + 0 }')
printf '%s\n' "$result" | sed '$d'
set -- $(printf '%s\n' "$result" | tail -n 1)
if [ "$1" -lt 100 ]; then
    echo "only $1 functions found: wrong directory?"
    exit 1
fi
echo "$1 functions, $2 longer than $max lines or not measured"
[ "$2" -eq 0 ]
