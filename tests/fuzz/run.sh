#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target of tests/fuzz for a bounded time on a copy of
# its committed seed corpus; exits non-zero on the first finding (crash,
# sanitizer report, broken check, leak, timeout or out-of-memory).
#
#   tests/fuzz/run.sh [BUILD_DIR [SECONDS_PER_TARGET [TARGET...]]]
#
# BUILD_DIR defaults to build/fuzz (cmake --workflow --preset fuzz).
# SECONDS_PER_TARGET, a number, is every target's time; left out (or "-")
# each target takes its time from the table below: 45 s for the kernels'
# targets, 20 s for the mesh loaders' (obj, tetgen, gmsh: their small parsers
# stop finding new coverage within seconds). A finding is saved under
# BUILD_DIR/fuzz-findings/<target>/ with the reproducer command printed. To
# fuzz longer, give more seconds (or run a target by hand, see README.md);
# inputs that add coverage go to a scratch corpus, not the committed one.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-build/fuzz}"
seconds="${2:--}"
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(replay build engine step obj tetgen gmsh)

# the default time of each target (s)
target_seconds() {
  case "$1" in
    obj|tetgen|gmsh) echo 20 ;;
    *) echo 45 ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  bin="$build/tests/xpbd-fuzz-$t"
  if [ ! -x "$bin" ]; then
    echo "fuzz: $bin missing (cmake --workflow --preset fuzz)" >&2
    exit 2
  fi
  work="$build/fuzz-work/$t"
  findings="$build/fuzz-findings/$t"
  rm -rf "$work"
  mkdir -p "$work" "$findings"
  cp "$here/corpus/$t/"* "$work/" 2>/dev/null || true
  t_seconds="$seconds"
  [ "$t_seconds" != "-" ] || t_seconds=$(target_seconds "$t")
  echo "fuzz: $t for ${t_seconds}s"
  if ! "$bin" "$work" -max_total_time="$t_seconds" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$findings/" -print_final_stats=1 \
       >"$build/fuzz-$t.log" 2>&1; then
    echo "fuzz: FINDING in $t (log: $build/fuzz-$t.log)" >&2
    tail -40 "$build/fuzz-$t.log" >&2
    ls "$findings" >&2
    echo "reproduce: $bin $findings/<file>" >&2
    status=1
  else
    grep -E "stat::number_of_executed_runs|Done [0-9]+ runs" "$build/fuzz-$t.log" | tail -1
  fi
done
exit $status
