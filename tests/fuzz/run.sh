#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target of tests/fuzz for a bounded time on a copy of
# its committed seed corpus; exits non-zero if any target finds something (crash,
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
# Two targets run at a time (XPBD_FUZZ_LANES).
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

# one target: its corpus copied to a scratch directory, the run logged to
# BUILD_DIR/fuzz-<target>.log; returns non-zero on a finding
run_target() {
  local t="$1" bin="$build/tests/xpbd-fuzz-$1"
  local work="$build/fuzz-work/$t" findings="$build/fuzz-findings/$t"
  rm -rf "$work"
  mkdir -p "$work" "$findings"
  cp "$here/corpus/$t/"* "$work/" 2>/dev/null || true
  local t_seconds="$seconds"
  [ "$t_seconds" != "-" ] || t_seconds=$(target_seconds "$t")
  echo "fuzz: $t for ${t_seconds}s"
  if ! "$bin" "$work" -max_total_time="$t_seconds" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$findings/" -print_final_stats=1 \
       >"$build/fuzz-$t.log" 2>&1; then
    echo "fuzz: FINDING in $t (log: $build/fuzz-$t.log)" >&2
    tail -40 "$build/fuzz-$t.log" >&2
    ls "$findings" >&2
    echo "reproduce: $bin $findings/<file>" >&2
    return 1
  fi
  echo "fuzz: $t: $(grep -E "stat::number_of_executed_runs|Done [0-9]+ runs" "$build/fuzz-$t.log" | tail -1)"
}

for t in "${targets[@]}"; do
  if [ ! -x "$build/tests/xpbd-fuzz-$t" ]; then
    echo "fuzz: $build/tests/xpbd-fuzz-$t missing (cmake --workflow --preset fuzz)" >&2
    exit 2
  fi
done

# XPBD_FUZZ_LANES targets at a time (default 2, one per core of the CI
# machine); every target still gets its whole time
lanes="${XPBD_FUZZ_LANES:-2}"
status=0
pids=()
for t in "${targets[@]}"; do
  run_target "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$lanes" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do
  wait "$pid" || status=1
done
exit $status
