#!/bin/sh
# SPDX-License-Identifier: MIT
# A data table that cannot be written whole (here: the file size limit, with
# SIGXFSZ ignored so that the write fails with EFBIG instead of killing the
# process) fails its section and the report, and leaves neither the
# truncated table nor its .part behind.
#   report_write_error.sh XPBD_REPORT WORK_DIR
set -eu
xr=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"
fail() { echo "report_write_error: $*"; exit 1; }
# 4 KiB: less than the table s1_stability_map writes (about 9 KiB), more
# than the framework's small files before it
rc=0
sh -c "trap '' XFSZ; ulimit -f 4; exec \"\$0\" --only s1_stability_map --format none --out out" \
    "$xr" >log.txt 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "exit 0 although a table could not be written"
grep -q "error writing out/data/s1_stability_map.tsv" log.txt ||
    fail "no error naming the table: $(cat log.txt)"
grep -q "data tables not written whole" out/data/checks.tsv ||
    fail "no failed check for the table in checks.tsv"
[ ! -e out/data/s1_stability_map.tsv ] || fail "a truncated s1_stability_map.tsv was left"
left=$(find out -name '*.part')
[ -z "$left" ] || fail "left behind: $left"
# the same run without the limit writes it whole
"$xr" --only s1_stability_map --format none --out whole >/dev/null 2>&1 ||
    fail "the run without a limit failed"
size=$(wc -c <whole/data/s1_stability_map.tsv)
[ "$size" -gt 4096 ] || fail "the table is $size bytes: the 4 KiB limit does not cut it"
echo "report_write_error: a table cut at 4 KiB failed its section and left nothing ($size bytes whole)"
