#!/bin/sh
# SPDX-License-Identifier: MIT
# Every xpbd_/XPBD_ name that the public headers (comments and code) and
# README.md mention is a real one. Real means:
#   - a global symbol one of the LIBs exports (nm -g --defined-only);
#   - a macro, typedef, struct or enum tag, enumerator or static inline
#     function defined in a public header (read from the headers' code,
#     comments stripped), or a macro a header tests in #if/#ifdef
#     (XPBD_SHARED, XPBD_BUILDING: set by a consumer);
#   - a configuration name of the project: a CMake cache entry (option() or
#     set(... CACHE) in its CMake files: XPBD_OPENMP), an environment
#     variable its C code reads (getenv: XPBD_ISA) or one its shell scripts
#     (.ci/, tests/*.sh) read (${XPBD_...}).
# Forms accepted in prose:
#   xpbd_foo_*                 a wildcard: `*` stands for any characters of a
#                              name, and the pattern must match a real name
#   xpbd_foo_{a,b}_f32         every alternative must be a real name
#   xpbd_foo                   short for xpbd_foo_f32/_f64 when xpbd_foo is
#                              not itself a name
#   xpbd_type.field            the field must be a member of the struct
#                              (xpbd_type, or xpbd_type_f32/_f64)
# Internal names (xpbd__..., XPBD__...) are errors wherever they appear.
#   header_names_check.sh LIB[:LIB...] README INCLUDE_DIR...
# LIB: the libraries, ':'-separated (libxpbd and libxpbd_io). Every
# INCLUDE_DIR/xpbd/*.h is a public header (the source include directories
# and the build tree's generated one).
set -eu
libs=$1
readme=$2
shift 2
root=$(dirname "$readme")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

: >"$tmp/headers"
for dir in "$@"; do
    for h in "$dir"/xpbd/*.h; do
        [ -f "$h" ] && printf '%s\n' "$h" >>"$tmp/headers"
    done
done
sort -u "$tmp/headers" -o "$tmp/headers"
nheaders=$(wc -l <"$tmp/headers")
if [ "$nheaders" -lt 10 ]; then
    echo "only $nheaders public headers found in $*: wrong include directories?"
    exit 1
fi

# --- the real names ---------------------------------------------------------
: >"$tmp/exported_all"
old_ifs=$IFS
IFS=:
for lib in $libs; do
    IFS=$old_ifs
    nm -g --defined-only "$lib" | awk '$3 ~ /^xpbd_/ && $3 !~ /^xpbd__/ {print $3}' \
        >>"$tmp/exported_all"
done
IFS=$old_ifs
sort -u "$tmp/exported_all" >"$tmp/exported"
nexported=$(wc -l <"$tmp/exported")
if [ "$nexported" -lt 50 ]; then
    echo "only $nexported exported xpbd_ symbols in $libs: wrong library?"
    exit 1
fi

# the headers' code, one header after another, with /* */ and // comments
# replaced by a space (string and character literals kept as they are) and
# backslash-continued lines joined
xargs awk '
FNR == 1 { block = 0 }
{
    line = $0
    while (sub(/\\$/, "", line) && (getline more) > 0)
        line = line more
    out = ""
    n = length(line)
    for (i = 1; i <= n; ++i) {
        c = substr(line, i, 1)
        d = substr(line, i, 2)
        if (block) {
            if (d == "*/") { block = 0; ++i; out = out " " }
        } else if (d == "/*") {
            block = 1; ++i
        } else if (d == "//") {
            break
        } else if (c == "\"" || c == "\047") {
            for (j = i + 1; j <= n; ++j) {
                e = substr(line, j, 1)
                if (e == "\\") ++j
                else if (e == c) break
            }
            out = out substr(line, i, j - i + 1)
            i = j
        } else {
            out = out c
        }
    }
    print out
}' <"$tmp/headers" >"$tmp/code"

# Definitions (name) and struct members (struct name, member) of the code.
# Brace bodies of struct and enum are cut out and read; what is left is
# split into statements at ';' for the typedefs.
awk '
function idents(s, out,    n) {
    n = 0
    while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
        out[++n] = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
    }
    return n
}
function last_ident(s,    a, n) { n = idents(s, a); return n ? a[n] : "" }
function members(tag, body,    decl, nd, k, piece, np, j, name) {
    gsub(/\[[^]]*\]/, "", body)
    nd = split(body, decl, ";")
    for (k = 1; k <= nd; ++k) {
        if (match(decl[k], /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
            name = substr(decl[k], RSTART, RLENGTH)
            sub(/^\(\*[ \t]*/, "", name)
            print "M " tag " " name
            continue
        }
        np = split(decl[k], piece, ",")
        for (j = 1; j <= np; ++j)
            if ((name = last_ident(piece[j])) != "")
                print "M " tag " " name
    }
}
function enumerators(body,    piece, np, j, a) {
    np = split(body, piece, ",")
    for (j = 1; j <= np; ++j)
        if (idents(piece[j], a))
            print "D " a[1]
}
# the extern "C" braces of C++ (between #ifdef __cplusplus and #endif)
/^[ \t]*#[ \t]*ifdef[ \t]+__cplusplus/ { cxx = 1; next }
cxx && /^[ \t]*#[ \t]*endif/ { cxx = 0; next }
cxx { next }
/^[ \t]*#/ {
    line = $0
    if (match(line, /^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
        s = substr(line, RSTART, RLENGTH)
        print "D " last_ident(s)
    } else if (line ~ /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)/) {
        n = idents(line, a)
        for (k = 1; k <= n; ++k)
            print "D " a[k]
    }
    next
}
{ text = text " " $0 }
END {
    rest = ""
    while (match(text, /(struct|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/)) {
        head = substr(text, RSTART, RLENGTH)
        rest = rest substr(text, 1, RSTART - 1)
        text = substr(text, RSTART + RLENGTH)
        split(head, hw, /[ \t{]+/)
        kind = hw[1]
        tag = hw[2]
        print "D " tag
        depth = 1
        for (i = 1; i <= length(text) && depth > 0; ++i) {
            c = substr(text, i, 1)
            if (c == "{") ++depth
            else if (c == "}") --depth
        }
        body = substr(text, 1, i - 2)
        text = substr(text, i)
        if (kind == "enum")
            enumerators(body)
        else {
            members(tag, body)
            # the typedef name after the body gets the same members
            if (match(text, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
                td = last_ident(substr(text, RSTART, RLENGTH))
                if (td != tag) members(td, body)
            }
        }
        rest = rest " " kind " " tag " {} "
    }
    rest = rest text
    # static inline functions: their bodies would hide the next statement
    s = rest
    while (match(s, /static[ \t]+inline[^;{(]*\(/)) {
        m = substr(s, RSTART, RLENGTH - 1)
        s = substr(s, RSTART + RLENGTH)
        print "D " last_ident(m)
    }
    gsub(/\{[^{}]*\}/, "{};", rest)
    ns = split(rest, st, ";")
    for (k = 1; k <= ns; ++k) {
        t = st[k]
        sub(/^[ \t]*/, "", t)
        if (t !~ /^typedef[ \t]/)
            continue
        if (match(t, /\(\*[ \t]*[A-Za-z_][A-Za-z0-9_]*/))
            name = last_ident(substr(t, RSTART, RLENGTH))
        else if (index(t, "("))
            name = last_ident(substr(t, 1, index(t, "(") - 1))
        else
            name = last_ident(t)
        print "D " name
        if (match(t, /(struct|enum)[ \t]+[A-Za-z_][A-Za-z0-9_]*/))
            print "D " last_ident(substr(t, RSTART, RLENGTH))
    }
}' "$tmp/code" >"$tmp/defs"
awk '$1 == "D" && $2 ~ /^(xpbd|XPBD)_/ {print $2}' "$tmp/defs" | sort -u >"$tmp/defined"
awk '$1 == "M" {print $2 " " $3}' "$tmp/defs" | sort -u >"$tmp/members"
ndefined=$(wc -l <"$tmp/defined")
nstructs=$(cut -d' ' -f1 "$tmp/members" | sort -u | wc -l)
if [ "$ndefined" -lt 100 ] || [ "$nstructs" -lt 20 ]; then
    echo "only $ndefined names and $nstructs structs found defined in the headers: parse failed?"
    exit 1
fi

# configuration names: CMake cache entries, environment variables read
# (the source tree only: build directories and .git left out)
find "$root" \( -path "$root/build" -o -path "$root/build-*" -o -name .git \) -prune -o \
    -type f \( -name CMakeLists.txt -o -name '*.cmake' \) -print |
    xargs grep -hoE '^[ \t]*(option|set)\((XPBD|xpbd)_[A-Za-z0-9_]*[^)]*' |
    awk '$0 ~ /^[ \t]*option\(/ || $0 ~ /CACHE/' |
    sed -E 's/^[ \t]*(option|set)\(([A-Za-z0-9_]*).*/\2/' >"$tmp/config" || true
for d in kernels report tests; do
    [ -d "$root/$d" ] && grep -rhoE 'getenv\("(XPBD|xpbd)_[A-Za-z0-9_]+"\)' "$root/$d" |
        sed -E 's/getenv\("([^"]*)"\)/\1/' >>"$tmp/config" || true
done
for f in "$root"/.ci/* "$root"/tests/*.sh; do
    [ -f "$f" ] && grep -hoE '\$\{?(XPBD|xpbd)_[A-Za-z0-9_]+' "$f" |
        sed -E 's/^\$\{?//' >>"$tmp/config" || true
done
sort -u "$tmp/exported" "$tmp/defined" "$tmp/config" -o "$tmp/known"

# --- the names mentioned ----------------------------------------------------
# file:line:token, where token may carry a .field
{
    while read -r h; do printf '%s\n' "$h"; done <"$tmp/headers"
    printf '%s\n' "$readme"
} >"$tmp/files"
# a name: letters, digits, _, * and {a,b} groups, then an optional .field
name_re='(^|[^A-Za-z0-9_])(xpbd|XPBD)_([A-Za-z0-9_*]|\{[A-Za-z0-9_,*]*\})*'
name_re="$name_re"'(\.[A-Za-z_][A-Za-z0-9_]*)?'
: >"$tmp/mentions"
while read -r f; do
    grep -noE "$name_re" "$f" |
        sed -E "s|^([0-9]+):[^A-Za-z0-9_]?|$f:\\1:|" >>"$tmp/mentions" || true
done <"$tmp/files"
nmentions=$(wc -l <"$tmp/mentions")
if [ "$nmentions" -lt 500 ]; then
    echo "only $nmentions mentions of xpbd_/XPBD_ names found: extraction failed?"
    exit 1
fi

awk -v tmp="$tmp" '
BEGIN {
    nknown = 0
    while ((getline n < (tmp "/known")) > 0) { known[n] = 1; ++nknown }
    while ((getline l < (tmp "/members")) > 0) {
        split(l, mf, " ")
        member[mf[1] " " mf[2]] = 1
        isstruct[mf[1]] = 1
    }
    bad = 0
}
function fail(where, msg) { print where ": " msg; ++bad }
# a name, or short for its _f32/_f64 pair
function real(n) { return (n in known) || ((n "_f32") in known) || ((n "_f64") in known) }
function matches(p,    re, n) {
    re = p
    gsub(/\*/, "[A-Za-z0-9_]*", re)
    re = "^" re "$"
    for (n in known) if (n ~ re) return 1
    return 0
}
# the alternatives of one {a,b} group, recursively
function expand(t, out,    i, j, pre, post, alts, na, k, n, nn, m, sub_) {
    i = index(t, "{")
    if (!i) { out[1] = t; return 1 }
    j = index(t, "}")
    pre = substr(t, 1, i - 1)
    post = substr(t, j + 1)
    na = split(substr(t, i + 1, j - i - 1), alts, ",")
    n = 0
    for (k = 1; k <= na; ++k) {
        nn = expand(pre alts[k] post, sub_)
        for (m = 1; m <= nn; ++m) out[++n] = sub_[m]
    }
    return n
}
function check_field(where, base, field,    s, ok, k) {
    ok = 0; s = 0
    split(base " " base "_f32 " base "_f64", cand, " ")
    for (k = 1; k <= 3; ++k)
        if (cand[k] in isstruct) { s = 1; if ((cand[k] " " field) in member) ok = 1 }
    if (s && !ok) fail(where, base "." field ": no member " field)
}
{
    # path:line:token (paths hold no colon here)
    p = index($0, ":"); file = substr($0, 1, p - 1); r = substr($0, p + 1)
    p = index(r, ":"); line = substr(r, 1, p - 1); tok = substr(r, p + 1)
    where = file ":" line
    field = ""
    if ((d = index(tok, ".")) > 0) { field = substr(tok, d + 1); tok = substr(tok, 1, d - 1) }
    if (tok ~ /^(xpbd|XPBD)__/) { fail(where, tok ": internal name in a public text"); next }
    n = expand(tok, alt)
    for (k = 1; k <= n; ++k) {
        a = alt[k]
        if (index(a, "*")) {
            if (!matches(a)) fail(where, a ": matches no real name")
        } else if (!real(a)) {
            fail(where, a ": not a real name")
        } else if (field != "") {
            check_field(where, a, field)
        }
    }
}
END {
    printf "%d mentions checked against %d names (%d exported, %d defined in %d headers)",
           NR, nknown, nexp, ndef, nh
    printf ", %d wrong\n", bad
    exit bad != 0
}' nexp="$nexported" ndef="$ndefined" nh="$nheaders" "$tmp/mentions"
