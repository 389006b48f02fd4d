#!/bin/sh
# SPDX-License-Identifier: MIT
# The step's stages, its validators, the reference side and the engine files
# that loop over the set-kind table name no constraint kind: no world field
# of a kind's set and no error part of one (each kind is its row,
# kernels/src/kinds/<kind>.c): no access to a world's (w-> or w., world->
# or world.) set fields but on a line marked "kinds: public entry" (the
# low-level step's entry, whose API takes one distance set); and,
# in the engine's files (engine/), none of a scene's kind fields (its
# edges, tets, bends, tethers, planes, found pairs: the engine's rows name
# them by offset) nor a kind's set functions (its builder, its free, its
# stretch pass).
# FILES: the files held to it, under SRC_DIR.
#   kinds_unnamed_check.sh SRC_DIR FILE...
set -eu
src=$1
shift
fields='(tets|bends|constraints|tether_anchor|tether_length|contacts|contacts_fixed|planes|plane_count|rigids|rigid_count|rigid_impulse)'
parts='XPBD_PART_(DISTANCE|TET|BEND|TETHER|CONTACT_FIXED|CONTACT_FOUND|PLANE|RIGID)'
scene='(edges|edge|edge_rest|edge_compliance|edge_alpha|tet|tet_compliance|tet_alpha|bend|bend_compliance|bend_alpha|tether_anchor|tether_length|planes|plane|plane_impulse|max_contacts)'
sets='xpbd_(distance_set|quad_set|tet_set|bend_set|contact_set_init|tear_flag|tear_remove)_'
# the lines of file $1 that name a kind
hits() {
    grep -nE -e "\\b(w|world)(->|\\.)$fields\\b" -e "$parts" "$src/$1" | grep -v 'kinds: public entry' || true
    case $1 in
        engine/*) grep -nE -e "(->|\\.)$scene\\b" -e "$sets" "$src/$1" || true ;;
    esac
}
bad=0
for f in "$@"; do
    out=$(hits "$f")
    if [ -n "$out" ]; then
        printf '%s\n' "$out"
        echo "$f names a kind (above): it belongs in the kind's row"
        bad=$((bad + 1))
    fi
done
echo "$# files, $bad naming a kind"
[ "$bad" -eq 0 ]
