#!/bin/sh
# SPDX-License-Identifier: MIT
# Every exported function of the library is named in full where it is
# defined: for each global symbol of LIB with the public prefix xpbd_
# (internal ones use xpbd__), `grep -rnw NAME SRC` must find a line that
# defines it (a line starting at column 0, the return type then the name,
# or an instantiation macro invocation that spells the name), so grep, ctags
# and a reader find the definition without expanding macros. Public headers
# (an include/ directory under SRC_DIR) do not count.
#   names_check.sh LIB SRC_DIR [MIN]
# MIN: the fewest exported functions LIB must have (default 50: fewer means
# the wrong library was given).
set -eu
lib=$1
src=$2
min=${3:-50}
nm_out=$(nm -g --defined-only "$lib")
names=$(printf '%s\n' "$nm_out" | awk '$2 == "T" && $3 ~ /^xpbd_/ && $3 !~ /^xpbd__/ {print $3}' | sort -u)
count=0
missing=0
for s in $names; do
    count=$((count + 1))
    if ! grep -rqE --exclude-dir=include "^[A-Za-z_].*[^A-Za-z0-9_]$s([^A-Za-z0-9_]|$)" "$src"; then
        echo "not written out in $src: $s"
        missing=$((missing + 1))
    fi
done
if [ "$count" -lt "$min" ]; then
    echo "only $count exported functions found in $lib: wrong library?"
    exit 1
fi
echo "$count exported functions, $missing not written out where defined"
[ "$missing" -eq 0 ]
