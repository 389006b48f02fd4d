#!/bin/sh
# SPDX-License-Identifier: MIT
# The installed tools are relocatable: installed to a fresh prefix, the
# prefix moved elsewhere and the source and build trees hidden (a private
# mount namespace with an empty tmpfs over each), xpbd-report --quick finds
# its gnuplot scripts beside its own executable (../share/xpbd/plots), draws
# its figures and passes its checks, a sweep runs, and xpbd-replay replays a
# recording made by the installed library's tools.
#   install_tools.sh CMAKE BUILD_DIR SOURCE_DIR [CONFIG]
# The prefix and the runs live in a fresh directory under $TMPDIR (outside
# both trees, which are hidden), removed when the test passes.
# Without the right to make a mount namespace (not root), the trees stay in
# view and the run says so; everything else is checked the same.
set -eu
cmake=$1
build=$2
src=$3
config=${4:-}
fail() { echo "install_tools: $*" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/xpbd-install-tools.XXXXXX")
case "$work" in
    "$src"/* | "$build"/*) fail "TMPDIR lies inside the trees to hide: $work" ;;
esac
mkdir -p "$work/run"
if [ -n "$config" ]; then
    "$cmake" --install "$build" --prefix "$work/prefix" --config "$config" >/dev/null
else
    "$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
fi
for f in bin/xpbd-report bin/xpbd-bench bin/xpbd-replay share/xpbd/plots/s0_lambda.gp \
         share/doc/xpbd/LICENSE; do
    [ -e "$work/prefix/$f" ] || fail "not installed: $f"
done
# relocate: the prefix the install was made for no longer exists
mv "$work/prefix" "$work/moved"
bin="$work/moved/bin"

cat > "$work/run/tools.sh" <<SCRIPT
set -eu
cd "$work/run"
code=0
"$bin/xpbd-report" --quick --out q > report.log 2>&1 || code=\$?
if command -v gnuplot >/dev/null 2>&1; then
    [ "\$code" -eq 0 ] || [ "\$code" -eq 4 ] || { cat report.log; echo "xpbd-report --quick exited \$code"; exit 1; }
    [ -s q/fig/s0_lambda.png ] || { echo "no figure drawn: q/fig/s0_lambda.png"; exit 1; }
else
    [ "\$code" -eq 3 ] || { cat report.log; echo "xpbd-report --quick exited \$code without gnuplot"; exit 1; }
fi
grep -q "$work/moved/share/xpbd/plots" q/report.md ||
    { echo "report.md does not name the plots beside the moved executable"; exit 1; }
tail -n 1 report.log | grep -q " 0 failed" || { tail -n 3 report.log; exit 1; }
"$bin/xpbd-report" sweep --scene chain --set n=4 --set frames=20 --vary substeps=1,2 \
    --metric max_strain --out sweep > sweep.log 2>&1 ||
    { cat sweep.log; echo "the sweep exited \$?"; exit 1; }
[ -s sweep/data/sweep.tsv ] || { cat sweep.log; echo "the sweep wrote no table"; exit 1; }
rows=\$(awk 'END {print NR}' sweep/data/sweep.tsv)
[ "\$rows" -eq 3 ] || { echo "sweep.tsv has \$rows lines, want a header and 2 points"; exit 1; }
"$bin/xpbd-replay" --help > replay.log 2>&1 || { cat replay.log; echo "xpbd-replay --help failed"; exit 1; }
echo "ok"
SCRIPT

hidden="hidden"
if unshare -m true 2>/dev/null; then
    # an empty tmpfs over the source tree, and over the build tree when it
    # lies outside it: nothing of either is readable by the tools
    cover="mount -t tmpfs xpbd-hidden '$src'"
    case "$build" in
        "$src"/*) ;;
        *) cover="$cover && mount -t tmpfs xpbd-hidden '$build'" ;;
    esac
    out=$(unshare -m sh -c "$cover && [ ! -e '$src/CMakeLists.txt' ] && sh '$work/run/tools.sh'" 2>&1) ||
        { echo "$out"; fail "the relocated tools failed with the trees hidden"; }
else
    hidden="in view (no mount namespace without root)"
    out=$(sh "$work/run/tools.sh" 2>&1) || { echo "$out"; fail "the relocated tools failed"; }
fi
echo "$out" | tail -n 1 | grep -q '^ok$' || { echo "$out"; fail "tools script gave no verdict"; }
echo "relocated install (moved from its prefix), source and build trees $hidden: report --quick, sweep and replay ran"
rm -rf "$work"
