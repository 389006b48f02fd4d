#!/bin/sh
# SPDX-License-Identifier: MIT
# The step's stages, its validators, the reference side and the engine files
# that loop over the set-kind table name no constraint kind: no world field
# of a kind's set and no error part of one (each kind is its row,
# kernels/src/kinds/<kind>.c): no access to a world's (w->) set fields.
# FILES: the files held to it, under SRC_DIR.
#   kinds_unnamed_check.sh SRC_DIR FILE...
set -eu
src=$1
shift
fields='(tets|bends|constraints|tether_anchor|tether_length|contacts|contacts_fixed|planes|plane_count|rigids|rigid_count|rigid_impulse)'
parts='XPBD_PART_(DISTANCE|TET|BEND|TETHER|CONTACT_FIXED|CONTACT_FOUND|PLANE|RIGID)'
bad=0
for f in "$@"; do
    if grep -nE -e "w->$fields\\b" -e "$parts" "$src/$f"; then
        echo "$f names a kind (above): it belongs in the kind's row"
        bad=$((bad + 1))
    fi
done
echo "$# files, $bad naming a kind"
[ "$bad" -eq 0 ]
