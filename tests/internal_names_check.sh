#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's internal functions keep names that grep and ctags follow
# (kernels/src/precision.h, kernels/src/lanes.h):
#   - every function of the step's and the engine's objects
#     (kernels/src/step/, kinds/, reference_step.c, engine/, soa.c,
#     contacts.c, softbody.c, mesh_topology.c), static or
#     not, has its full name written in the
#     source: on its definition or on the one name line that spells both
#     precisions' names (PREC);
#   - every kernel and lane function of a path's object carries its path
#     (name_avx2_f32, name_scalar_f32, name_avx2_tail_f32) and its stem is
#     defined as K(stem) in kernels/src/kernels/;
#   - with Universal Ctags installed (the tree's .ctags.d), ctags lists no
#     function of kernels/src named SFX, K or TAIL.
#   internal_names_check.sh LIB SRC_DIR   (LIB: the static libxpbd.a)
set -eu
lib=$1
src=$2
step_objs='soa.c.o contacts.c.o softbody.c.o mesh_topology.c.o lifecycle.c.o step.c.o input.c.o tearing.c.o split.c.o split_move.c.o sleeping.c.o counters.c.o order.c.o driver.c.o stages.c.o validate.c.o snapshot.c.o reference_step.c.o table.c.o distance.c.o tet_volume.c.o bend.c.o tether.c.o contact.c.o plane.c.o coupling.c.o state.c.o'
path_objs='kernels_scalar.c.o kernels_simd.c.o'
nm_out=$(nm -A --defined-only "$lib")
checked=0
missing=0
# object:symbol for every function (t, T) of the objects named in $1
functions() {
    printf '%s\n' "$nm_out" | awk -v objs=" $1 " '
        ($2 == "t" || $2 == "T") {
            n = split($1, part, ":"); obj = part[n - 1]
            if (index(objs, " " obj " ")) print obj ":" $3
        }' | sort -u
}
for entry in $(functions "$step_objs"); do
    name=${entry#*:}
    case $name in
        asan.* | tsan.* | msan.* | sancov.* | ubsan.* | __*) continue ;; # a sanitizer's or the compiler's own
    esac
    name=${name%%.*} # the compiler's clones: name.part.0, name.isra.0, name.constprop.0
    case $name in xpbd_*[!_]*) case $name in xpbd__*) ;; *) continue ;; esac ;; esac
    checked=$((checked + 1))
    if ! grep -rqw --include='*.c' --include='*.h' "$name" "$src"; then
        echo "not written out in $src: $name (${entry%%:*})"
        missing=$((missing + 1))
    fi
done
for entry in $(functions "$path_objs"); do
    name=${entry#*:}
    case $name in
        asan.* | tsan.* | msan.* | sancov.* | ubsan.* | __*) continue ;;
    esac
    name=${name%%.*}
    case $name in xpbd_*) continue ;; esac
    checked=$((checked + 1))
    stem=$(printf '%s\n' "$name" | sed -E 's/_(scalar|sse4|avx2|avx512|neon)(_tail)?_f(32|64)$//')
    if [ "$stem" = "$name" ]; then
        echo "no path in the name of ${entry%%:*}'s $name"
        missing=$((missing + 1))
    elif ! grep -rqE "(K|TAIL)\($stem\)" "$src/src/kernels" "$src/src"/simd 2>/dev/null; then
        echo "no K($stem) defines $name (${entry%%:*})"
        missing=$((missing + 1))
    fi
done
if command -v ctags >/dev/null 2>&1 && ctags --version 2>/dev/null | grep -q Universal; then
    top=$(cd "$src/.." && pwd)
    macro_named=$(cd "$top" && ctags -x -R kernels/src 2>/dev/null |
                  awk '$2 == "function" && ($1 == "SFX" || $1 == "K" || $1 == "TAIL")' | wc -l)
    if [ "$macro_named" -ne 0 ]; then
        echo "ctags lists $macro_named functions of kernels/src under a macro's name"
        missing=$((missing + 1))
    fi
fi
if [ "$checked" -lt 100 ]; then
    echo "only $checked internal functions found in $lib: wrong library?"
    exit 1
fi
echo "$checked internal functions, $missing without a name tools can follow"
[ "$missing" -eq 0 ]
