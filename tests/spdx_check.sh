#!/bin/sh
# SPDX-License-Identifier: MIT
# Every source file of the project carries the license line
# "SPDX-License-Identifier: MIT" in its first three lines (after a shebang),
# and the LICENSE file is the MIT license.
#   spdx_check.sh SOURCE_DIR
# Source files: C, C++, headers, CMake, shell, gnuplot, the .in templates,
# sections.def, Gmsh's .geo scripts and the CI scripts; build trees, fuzz
# corpora and the meshes generated from the .geo files (.msh) are not.
set -eu
src=$1
cd "$src"
grep -q "^MIT License" LICENSE || { echo "LICENSE is not the MIT license"; exit 1; }
count=0
missing=0
list=$(find . -path ./build -prune -o -path ./.git -prune -o -path ./tests/fuzz/corpus -prune -o \
    -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name '*.cmake' \
    -o -name 'CMakeLists.txt' -o -name '*.sh' -o -name '*.gp' -o -name '*.in' -o -name '*.def' -o -name '*.geo' \
    -o -path './.ci/*' \) -print | sort)
for f in $list; do
    count=$((count + 1))
    if ! head -n 3 "$f" | grep -q "SPDX-License-Identifier: MIT"; then
        echo "no SPDX license line: $f"
        missing=$((missing + 1))
    fi
done
[ "$count" -ge 100 ] || { echo "only $count source files found under $src: wrong directory?"; exit 1; }
echo "$count source files, $missing without the SPDX line"
[ "$missing" -eq 0 ]
