#!/bin/sh
# SPDX-License-Identifier: MIT
# libm_check.sh NM LIBM FILE...
#
# The kernels and the step call no libm function whose result may differ
# between libraries or architectures (glibc's exp, sin, pow, ... pick FMA
# variants at run time on x86): only correctly rounded or exact IEEE
# operations. Lists the undefined symbols of FILE... (objects, static or
# shared libraries, read with NM), keeps those that LIBM (the libm the build
# links: a shared object, or a linker script naming it and libmvec) defines
# as functions, and fails on any of them outside the list below.
set -eu

[ $# -ge 3 ] || { echo "usage: libm_check.sh NM LIBM FILE..." >&2; exit 2; }
nm_tool=$1
libm=$2
shift 2

# sqrt, fabs, copysign, the roundings to an integer and the conversions to
# an integer type (exact or correctly rounded by IEEE 754), and glibc's
# classification functions (exact); in float, double and long double
allowed="sqrt fabs copysign floor ceil trunc round rint nearbyint lrint llrint lround llround
         __finite __isnan __isinf __fpclassify __signbit"

# a linker script (glibc's libm.so) names the real objects
case $(head -c 4 "$libm" | od -An -c | tr -d ' ') in
  177ELF) libs=$libm ;;
  *) libs=$(grep -o '/[^ )]*\.so\.[0-9][0-9]*' "$libm" || true) ;;
esac
[ -n "$libs" ] || { echo "libm_check: no shared object found in $libm" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for lib in $libs; do
  "$nm_tool" -D --defined-only "$lib" | awk '$2 ~ /^[TtWwi]$/ { sub(/@.*/, "", $3); print $3 }'
done | sort -u >"$tmp/libm"
exports=$(wc -l <"$tmp/libm")
# glibc's libm defines some 400 functions; fewer means it was not read
[ "$exports" -ge 100 ] || { echo "libm_check: only $exports functions read from $libs" >&2; exit 2; }

# "FILE:member: U name" (or "FILE: U name"); versioned names lose @...
"$nm_tool" -A -u "$@" | awk '{ f = $1; sub(/:$/, "", f); s = $NF; sub(/@.*/, "", s); print f, s }' \
  | sort -u >"$tmp/undefined"
[ -s "$tmp/undefined" ] || { echo "libm_check: no undefined symbol in $*: not read" >&2; exit 2; }

status=0
calls=
while read -r where sym; do
  grep -qx -- "$sym" "$tmp/libm" || continue
  base=$sym
  case $sym in *f | *l) base=${sym%?} ;; esac
  ok=0
  for a in $allowed; do
    if [ "$sym" = "$a" ] || [ "$base" = "$a" ]; then ok=1; fi
  done
  if [ $ok = 1 ]; then
    case " $calls " in *" $sym "*) ;; *) calls="$calls $sym" ;; esac
  else
    echo "libm_check: $where: not allowed: $sym"
    status=1
  fi
done <"$tmp/undefined"
objects=$(cut -d' ' -f1 "$tmp/undefined" | sort -u | wc -l)
if [ $status = 0 ]; then
  echo "libm_check: $objects objects with external references, $exports libm functions known; libm calls (all allowed):${calls:- none}"
fi
exit $status
