#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end checks of `xpbd-report sweep` and `merge` (POSIX sh + awk).
#
#   sweep_check.sh MODE XPBD_REPORT WORK [SWEEP_RECORD]
#
# MODE:
#   closed     a chain's static strain against m g alpha (n - 1) / L0 (top
#              link) and m g alpha (n / 2) / L0 (mean), f64 and f32, with
#              compliance_scale and gravity; a free fall's energy drift
#              -g^2 h^2 N / 2 per kg and momentum error 0
#   reference  error_vs_reference is exactly 0 where the point is the
#              reference (also across ISA paths), > 0 elsewhere
#   diverge    a point whose step diverges is a row with its status, also
#              when every point diverges (exit 0: diverged points are data)
#   refused    a point the library refuses for a value (a friction with
#              mu_k > mu_s) is a row with its status when others run; when
#              every point is refused: exit 2 naming the key, the value and
#              the status (errors mode), a shard of such points is written
#              and their merge is refused
#   stale      a sweep or merge killed (SIGKILL) with its output complete in
#              DIR.tmp-PID@HOST-XXXXXX (held there by the test hook
#              XPBD_SWEEP_TEST_HOLD): `merge part-*` skips it, the next run
#              to DIR removes it, never a live run's, nor another host's
#   readme_parallel  the README's GNU parallel recipe (shards + merge), run
#              as written with xpbd-report on PATH, gives the unsharded
#              sweep's table (without ms_per_frame); 77 without GNU parallel
#   shards     --jobs 1 = --jobs 2, and shards 1..3 of 3 merged = the whole
#              run (byte for byte without the ms_per_frame column)
#   replay     a recording's sweep at the recorded settings finds the
#              recorder's own final strain, inputs included
#   figure     fig/sweep.png and .pdf, re-rendered by hand with
#              `cd DIR && gnuplot plots/sweep.gp` (77 without gnuplot)
#   errors     each refused command: exit 2, one line naming the offender,
#              DIR untouched
#   mesh       mesh:FILE: a TetGen cube of 5 tets hung by its top face
#              (volume_error finite and small), an OBJ sheet (volume_error
#              NaN), the committed Gmsh files (tests/data/gmsh) hung by a
#              physical group's name (pin=top; the sheet held, unlike
#              unpinned, pin=none, which falls freely), a malformed .ele and a
#              malformed .msh refused with the file and the line
#   list       --list names every scene, key and metric
set -u
mode=$1
xr=$2
work=$3
rec=${4:-}
# the committed meshes and the README, found beside this script (before
# the cd below)
gmsh_data=$(cd "$(dirname "$0")" && pwd)/data/gmsh
readme=$(cd "$(dirname "$0")/.." && pwd)/README.md
rm -rf "$work"
mkdir -p "$work" || exit 1
cd "$work" || exit 1

held_pid=
fail() {
    echo "FAIL ($mode): $*" >&2
    [ -z "$held_pid" ] || kill -9 "$held_pid" 2>/dev/null # stale: a held run
    exit 1
}

# sweep ARGS...: runs a sweep that must succeed (exit 0; 3 only where
# gnuplot is missing, the data written all the same)
sweep() {
    "$xr" sweep "$@" 2>sweep.err
    rc=$?
    if [ $rc -eq 3 ] && ! command -v gnuplot >/dev/null 2>&1; then rc=0; fi
    [ $rc -eq 0 ] || fail "xpbd-report sweep $* exited $rc: $(cat sweep.err)"
}

# col FILE NAME: the values of column NAME, one per line
col() {
    awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i;
                                       if (!c) { print "no column " name > "/dev/stderr"; exit 1 } next }
                             { print $c }' "$1"
}

# notime FILE: the table without its ms_per_frame column
notime() {
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ms_per_frame") c = i }
                { s = ""; for (i = 1; i <= NF; i++) if (i != c) s = s (s == "" ? "" : "\t") $i; print s }' "$1"
}

# rows FILE: data rows
rows() {
    awk 'NR > 1' "$1" | wc -l | tr -d ' '
}

case $mode in
closed)
    # n = 3 particles of m = 1 kg, L0 = 0.1 m, alpha = 1e-3 m/N, settled by
    # damping: the top link carries 2 m g, the lower one m g. Tolerance set
    # before looking: f64 1e-10 relative (600 damped frames leave the
    # oscillation below 1e-20), f32 2e-5 (float positions of ~0.2 m).
    sweep --scene chain --set n=3 --set compliance=1e-3 --set damping=0.1 --set iterations=50 \
        --set frames=600 --vary substeps=1,4 --vary precision=f64,f32 \
        --metric max_strain,mean_strain,penetration,residual --out out
    [ "$(rows out/data/sweep.tsv)" = 4 ] || fail "want 4 rows"
    awk -F'\t' 'NR > 1 {
        g = 9.81; a = 1e-3; L = 0.1; n = 3
        top = 1 * g * a * (n - 1) / L; mean = 1 * g * a * (n / 2) / L
        tol = ($2 == "f64") ? 1e-10 : 2e-5
        if ($3 != "ok") { print "status " $3; bad = 1 }
        if (($4 - top) / top > tol || (top - $4) / top > tol) { printf "max_strain %s %s: %.17g want %.17g\n", $1, $2, $4, top; bad = 1 }
        if (($5 - mean) / mean > tol || (mean - $5) / mean > tol) { printf "mean_strain %s %s: %.17g want %.17g\n", $1, $2, $5, mean; bad = 1 }
        if ($6 != "0") { print "penetration without radii: " $6; bad = 1 }
    } END { exit bad }' out/data/sweep.tsv || fail "closed form"
    # the same with the scene's own 1e-4 m/N scaled and g varied: strain
    # proportional to both (compliance_scale and gravity act as they say)
    sweep --scene chain --set n=3 --set damping=0.1 --set iterations=50 --set frames=600 \
        --vary compliance_scale=0.5,2 --vary gravity=4.905,9.81 --metric max_strain --out scaled
    [ "$(rows scaled/data/sweep.tsv)" = 4 ] || fail "want 4 rows"
    awk -F'\t' 'NR > 1 {
        top = 1e-4 * $1 * $2 * 2 / 0.1
        if ($3 != "ok" || ($4 - top) / top > 1e-10 || (top - $4) / top > 1e-10) {
            printf "scale %s g %s: %.17g want %.17g\n", $1, $2, $4, top; bad = 1 }
    } END { exit bad }' scaled/data/sweep.tsv || fail "compliance_scale and gravity"
    # one ball falling freely for 5 frames (it reaches the ground after 6):
    # semi-implicit Euler over N = 5 s substeps of h = 1/(60 s) loses
    # g^2 h^2 N / 2 per kg exactly, and gravity explains all its momentum.
    # Tolerances set before looking: energy 1e-9 relative (differences of
    # ~1 J/kg potentials), momentum 1e-12 m/s, penetration exactly 0.
    sweep --scene ball_pile --set n=1 --set frames=5 --vary substeps=1,2,4 \
        --metric energy_drift,momentum_error,penetration --out fall
    [ "$(rows fall/data/sweep.tsv)" = 3 ] || fail "want 3 rows"
    awk -F'\t' 'NR > 1 {
        g = 9.81; h = 1 / 60 / $1; want = -0.5 * g * g * h * h * 5 * $1
        if ($2 != "ok" || ($3 - want) / want > 1e-9 || (want - $3) / want > 1e-9) {
            printf "energy_drift at %s substeps: %.17g want %.17g\n", $1, $3, want; bad = 1 }
        if (!($4 < 1e-12)) { print "momentum_error of a free fall: " $4; bad = 1 }
        if ($5 != "0") { print "penetration in free fall: " $5; bad = 1 }
    } END { exit bad }' fall/data/sweep.tsv || fail "free fall"
    ;;
reference)
    sweep --scene cloth --set n=6 --set frames=20 --vary substeps=1,2,4 --vary iterations=2,5 \
        --metric max_strain,error_vs_reference --reference substeps=4 iterations=5 --out out
    awk -F'\t' 'NR > 1 {
        same = ($1 == 4 && $2 == 5)
        if (same && $5 != "0") { print "point = reference but error " $5; bad = 1 }
        if (!same && !($5 > 0)) { print "point " $1 "," $2 " differs from the reference but error " $5; bad = 1 }
    } END { exit bad }' out/data/sweep.tsv || fail "error_vs_reference"
    # every ISA path gives the scalar reference's result bit for bit
    sweep --scene tet_box --set n=2 --set frames=20 --vary isa=scalar,auto --vary precision=f32,f64 \
        --metric error_vs_reference --reference isa=scalar --out isa
    awk -F'\t' 'NR > 1 && $4 != "0" { print "isa " $1 " " $2 ": " $4; bad = 1 } END { exit bad }' \
        isa/data/sweep.tsv || fail "ISA paths differ from scalar"
    # and every thread count the serial step's
    sweep --scene cloth --set n=12 --set frames=10 --vary threads=1,2,0 --metric error_vs_reference \
        --reference threads=1 --out threads
    awk -F'\t' 'NR > 1 && ($2 != "ok" || $3 != "0") { print "threads " $1 ": " $2 " " $3; bad = 1 }
        END { exit bad }' threads/data/sweep.tsv || fail "thread counts differ from serial"
    ;;
diverge)
    # explicit springs of k = 1/alpha = 1e8 N/m at h = 1/60 s blow up; 1e-2 does not
    sweep --scene chain --set n=4 --set solver=springs --set frames=200 --vary compliance=1e-8,1e-2 \
        --metric max_strain,ms_per_frame --out out
    [ "$(col out/data/sweep.tsv status | tr '\n' ' ')" = "diverged ok " ] ||
        fail "want statuses 'diverged ok', got: $(col out/data/sweep.tsv status | tr '\n' ' ')"
    [ "$(col out/data/sweep.tsv max_strain | head -1)" = nan ] || fail "a diverged row has metrics"
    # every point diverged: still a table, exit 0
    sweep --scene chain --set n=4 --set solver=springs --set frames=200 --vary compliance=1e-8,1e-9 \
        --metric max_strain --out all
    [ "$(col all/data/sweep.tsv status | tr '\n' ' ')" = "diverged diverged " ] ||
        fail "want statuses 'diverged diverged', got: $(col all/data/sweep.tsv status | tr '\n' ' ')"
    ;;
refused)
    # mu_k = 0.05 <= mu_s = 0.1 runs, mu_k = 0.5 > mu_s is refused by the
    # step configuration check: a row with its status and no metrics
    set -- --scene ball_pile --set n=2 --set frames=5 --set friction_static=0.1 \
        --metric penetration,max_strain
    sweep "$@" --vary friction_dynamic=0.05,0.5 --out part
    [ "$(col part/data/sweep.tsv status | tr '\n' ' ')" = "ok bad_friction " ] ||
        fail "want statuses 'ok bad_friction', got: $(col part/data/sweep.tsv status | tr '\n' ' ')"
    [ "$(col part/data/sweep.tsv penetration | tail -1)" = nan ] || fail "a refused row has metrics"
    # every point refused: exit 2, one line with the key, value and status
    "$xr" sweep "$@" --vary friction_dynamic=0.5,1 --out all 2>all.err
    rc=$?
    [ $rc -eq 2 ] || fail "every point refused: exit $rc, want 2: $(cat all.err)"
    [ "$(wc -l <all.err | tr -d ' ')" = 1 ] || fail "every point refused: not one line: $(cat all.err)"
    for w in "every point" "friction_dynamic=0.5" bad_friction; do
        grep -q -- "$w" all.err || fail "every point refused: message does not name '$w': $(cat all.err)"
    done
    [ ! -e all ] || fail "every point refused, yet all/ was written"
    ls | grep -q '\.tmp-' && fail "every point refused left a temporary directory"
    # its shards: each written (a slice is not the sweep), exit 0; the merge
    # of them is refused the same way
    for k in 1 2; do
        sweep "$@" --vary friction_dynamic=0.5,1 --shard $k/2 --out shard$k
        grep -q "shard $k/2: every point" sweep.err || fail "shard $k/2: no note: $(cat sweep.err)"
    done
    "$xr" merge shard1 shard2 --out merged 2>merge.err
    rc=$?
    [ $rc -eq 2 ] && grep -q "every point" merge.err && grep -q bad_friction merge.err &&
        [ ! -e merged ] || fail "merge of refused shards: exit $rc: $(cat merge.err)"
    ;;
stale)
    host=$(uname -n | tr -c 'A-Za-z0-9._\n-' '_')
    set -- --scene chain --set n=3 --set frames=5 --vary substeps=1,2,3 --metric max_strain,residual
    sweep "$@" --out whole
    for k in 1 2 3; do
        sweep "$@" --shard $k/3 --out part-$k
    done
    # held ARGS...: starts `xpbd-report ARGS...` with the hold hook in the
    # background (pid in $held_pid), waits until its output is complete in
    # its temporary directory (the path in $held_tmp)
    held() {
        rm -f held.err # (else the wait below may read the previous run's)
        XPBD_SWEEP_TEST_HOLD=120 "$xr" "$@" 2>held.err &
        held_pid=$!
        i=0
        until grep -q "before the rename" held.err 2>/dev/null; do
            i=$((i + 1))
            if [ $i -gt 600 ] || ! kill -0 $held_pid 2>/dev/null; then
                kill -9 $held_pid 2>/dev/null
                fail "the hook never held: $(cat held.err)"
            fi
            sleep 0.1
        done
        held_tmp=$(sed -n 's/.*XPBD_SWEEP_TEST_HOLD: \(.*\) written, holding.*/\1/p' held.err)
        [ -d "$held_tmp" ] && [ -f "$held_tmp/data/sweep.args" ] ||
            fail "no complete temporary directory '$held_tmp': $(cat held.err)"
        case $held_tmp in
        *.tmp-"$held_pid"@"$host"-??????) ;;
        *) fail "temporary directory '$held_tmp' does not name its process and host" ;;
        esac
    }
    killed() { # ARGS...: the same, killed there with SIGKILL
        held "$@"
        kill -9 $held_pid
        wait $held_pid 2>/dev/null
        held_pid=
        [ -d "$held_tmp" ] || fail "SIGKILL removed $held_tmp?"
    }
    # shard 3 run again and killed: part-3.tmp-* holds a whole shard 3/3
    killed sweep "$@" --shard 3/3 --out part-3
    stale=$held_tmp
    # the README's merge of part-* skips it (else: shard 3/3 given twice)
    "$xr" merge part-* --out merged 2>merge.err || fail "merge part-* with $stale: $(cat merge.err)"
    grep -q "skipping $stale" merge.err || fail "merge did not say it skips $stale: $(cat merge.err)"
    notime whole/data/sweep.tsv >whole.tsv
    notime merged/data/sweep.tsv >merged.tsv
    cmp whole.tsv merged.tsv || fail "merge with a stale directory differs from the whole run"
    # the next run to part-3 removes it; a live run's temporary directory
    # is never removed: while that run holds, another one to part-3 runs
    # beside it and leaves it
    held sweep "$@" --shard 3/3 --out part-3
    live=$held_tmp
    [ ! -e "$stale" ] || fail "the next sweep to part-3 left the stale $stale"
    grep -q "removed $stale" held.err || fail "no note of the removal: $(cat held.err)"
    sweep "$@" --shard 3/3 --out part-3
    [ -d "$live" ] || fail "a sweep to part-3 removed the live $live"
    kill -9 $held_pid
    wait $held_pid 2>/dev/null
    held_pid=
    # another host's (same name scheme, a pid that is gone here) is left as
    # it is (its process cannot be asked) and skipped by merge
    sh -c 'exit 0' &
    dead=$!
    wait $dead
    mkdir "part-3.tmp-$dead@other-host.example-abcdef"
    sweep "$@" --shard 3/3 --out part-3
    [ ! -e "$live" ] || fail "the sweep after the kill left $live"
    [ -d "part-3.tmp-$dead@other-host.example-abcdef" ] || fail "another host's directory removed"
    "$xr" merge part-* --out merged 2>merge.err || fail "merge part-*: $(cat merge.err)"
    grep -q "skipping part-3.tmp-$dead@other-host" merge.err || fail "no skip note: $(cat merge.err)"
    rmdir "part-3.tmp-$dead@other-host.example-abcdef"
    # an earlier output moved aside by a commit killed before its rename
    # (out missing, OUT.old-PID@HOST-XXXXXX of a gone pid) is put back
    # before the next run replaces it, and removed when out exists
    mv part-2 "part-2.old-$dead@$host-abcdef"
    sweep "$@" --shard 2/3 --out part-2
    grep -q "restored part-2" sweep.err || fail "no restore of part-2: $(cat sweep.err)"
    [ -f part-2/sweep.md ] && [ ! -e "part-2.old-$dead@$host-abcdef" ] || fail "part-2 not restored"
    cp -R part-2 "part-2.old-$dead@$host-abcdef"
    sweep "$@" --shard 2/3 --out part-2
    [ ! -e "part-2.old-$dead@$host-abcdef" ] || fail "a stale .old- beside part-2 left"
    # a merge killed the same way: the next merge to its DIR removes it
    killed merge part-1 part-2 part-3 --out merged2
    "$xr" merge part-* --out merged2 2>merge.err || fail "merge after a killed merge: $(cat merge.err)"
    grep -q "removed $held_tmp" merge.err || fail "the killed merge's $held_tmp: $(cat merge.err)"
    notime merged2/data/sweep.tsv >merged2.tsv
    cmp whole.tsv merged2.tsv || fail "merged2 differs from the whole run"
    left=$(ls | grep -e '\.tmp-' -e '\.old-')
    [ -z "$left" ] || fail "left behind: $left"
    ;;
readme_parallel)
    if ! command -v parallel >/dev/null 2>&1 || ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
        echo "sweep readme_parallel: skipped, GNU parallel is not installed (apt-get install parallel)"
        exit 77
    fi
    # the first sh block after "With GNU parallel" in the README, as written
    awk '/With GNU parallel/ { seen = 1; next }
         seen && !inblock && /^```sh[ \t]*$/ { inblock = 1; next }
         inblock && /^```/ { exit }
         inblock { print }' "$readme" >recipe.sh
    grep -q '^parallel ' recipe.sh && grep -q '^xpbd-report merge part-\* --out ' recipe.sh ||
        fail "no GNU parallel recipe (parallel, then merge part-*) after 'With GNU parallel' in $readme"
    echo "the recipe (README.md):"
    sed 's/^/    /' recipe.sh
    PATH=$(dirname "$xr"):$PATH sh -e recipe.sh >recipe.out 2>recipe.err ||
        fail "the README's recipe failed: $(cat recipe.err)"
    # the same sweep unsharded: the recipe's own S and --out
    S=$(sed -n 's/^S="\(.*\)"$/\1/p' recipe.sh)
    merged=$(sed -n 's/^xpbd-report merge part-\* --out \([^ ]*\)$/\1/p' recipe.sh)
    [ -n "$S" ] && [ -n "$merged" ] || fail "cannot read S= and the merge's --out from the recipe"
    # shellcheck disable=SC2086 # S is a word list, as in the recipe
    sweep $S --jobs 2 --out whole
    notime whole/data/sweep.tsv >whole.tsv
    notime "$merged/data/sweep.tsv" >merged.tsv
    cmp whole.tsv merged.tsv || fail "the recipe's merged table differs from the unsharded sweep's"
    [ "$(rows whole.tsv)" -gt 1 ] || fail "an empty table"
    ;;
shards)
    set -- --scene ball_pile --set n=2 --set frames=15 --vary restitution=0,0.5,1 \
        --vary substeps=1,2 --metric penetration,momentum_error,ms_per_frame,energy_drift
    sweep "$@" --jobs 1 --out whole
    sweep "$@" --jobs 2 --out whole2
    notime whole/data/sweep.tsv >whole.tsv
    notime whole2/data/sweep.tsv >whole2.tsv
    cmp whole.tsv whole2.tsv || fail "--jobs 2 differs from --jobs 1"
    for k in 1 2 3; do
        sweep "$@" --shard $k/3 --out s$k
    done
    [ "$(rows s1/data/sweep.tsv)" = 2 ] || fail "shard 1/3 of 6 points should hold 2"
    "$xr" merge s3 s1 s2 --out merged 2>merge.err || fail "merge: $(cat merge.err)"
    notime merged/data/sweep.tsv >merged.tsv
    cmp whole.tsv merged.tsv || fail "merged shards differ from the whole run"
    [ -f merged/sweep.md ] && [ -f merged/plots/sweep.gp ] || fail "merge wrote no sweep.md/gp"
    # an incomplete set is refused
    "$xr" merge s1 s2 --out part 2>part.err
    [ $? -eq 2 ] && grep -q "shard 3/3" part.err && [ ! -e part ] || fail "missing shard: $(cat part.err)"
    ;;
replay)
    [ -n "$rec" ] || fail "needs SWEEP_RECORD"
    want=$("$rec" chain.xrp) || fail "recording failed"
    sweep --scene replay:chain.xrp --vary iterations=20,2 --metric max_strain,residual --out out
    got=$(col out/data/sweep.tsv max_strain | head -1)
    [ "$got" = "$want" ] || fail "max_strain at the recorded settings: $got, recorder: $want"
    [ "$(col out/data/sweep.tsv status | tr '\n' ' ')" = "ok ok " ] || fail "statuses"
    other=$(col out/data/sweep.tsv max_strain | tail -1)
    [ "$other" != "$want" ] || fail "iterations=2 gave the same strain: the key was not applied"
    ;;
figure)
    command -v gnuplot >/dev/null 2>&1 || exit 77
    sweep --scene chain --set n=4 --set frames=30 --vary compliance=1e-8:1e-2:log4 \
        --vary solver=xpbd,pbd --metric max_strain,residual,energy_drift --out out
    for f in out/fig/sweep.png out/fig/sweep.pdf out/plots/sweep.gp out/sweep.md; do
        [ -s "$f" ] || fail "no $f"
    done
    grep -q "set logscale x" out/plots/sweep.gp || fail "a log range without a log axis"
    grep -q "fig/sweep.png" out/sweep.md || fail "sweep.md does not show the figure"
    rm out/fig/sweep.png out/fig/sweep.pdf
    (cd out && gnuplot plots/sweep.gp) || fail "plots/sweep.gp does not re-run by hand"
    [ -s out/fig/sweep.png ] && [ -s out/fig/sweep.pdf ] || fail "re-run rendered nothing"
    ;;
errors)
    printf 'xpbd-replay 999\nprotocol 1\n' >old.xrp
    # an earlier output that a refused command must leave as it is
    sweep --scene chain --set n=3 --set frames=2 --vary substeps=1,2 --metric max_strain --out prev
    before=$(cat prev/data/sweep.tsv prev/sweep.md | cksum)
    check() { # OFFENDER ARGS...: exit 2, one line naming OFFENDER, prev and new untouched
        off=$1
        shift
        for dir in new prev; do
            "$xr" "$@" --out $dir >out.txt 2>err.txt
            rc=$?
            [ $rc -eq 2 ] || fail "'$*' exited $rc, want 2: $(cat err.txt)"
            [ "$(wc -l <err.txt | tr -d ' ')" = 1 ] || fail "'$*': not one line: $(cat err.txt)"
            grep -q -- "$off" err.txt || fail "'$*': message does not name '$off': $(cat err.txt)"
            [ ! -e new ] || fail "'$*' created new/"
            [ "$(cat prev/data/sweep.tsv prev/sweep.md | cksum)" = "$before" ] ||
                fail "'$*' changed prev/"
            ls | grep -q '\.tmp-' && fail "'$*' left a temporary directory"
        done
    }
    v="--vary substeps=1,2"
    check "'nope'" sweep --scene nope $v
    check "chain, cloth" sweep --scene nope $v
    check "'bogus'" sweep --scene chain --vary bogus=1,2
    check "'wind'" sweep --scene chain --set wind=3 $v
    check "bogus_metric" sweep --scene chain $v --metric max_strain,bogus_metric
    check "max_strain, mean_strain" sweep --scene chain $v --metric bogus_metric
    check "compliance=1e-2:1e-6:log4" sweep --scene chain --vary compliance=1e-2:1e-6:log4
    check "substeps" sweep --scene chain --vary substeps=0:4:lin3
    check "logN" sweep --scene chain --vary substeps=1:4:geo3
    check "damping" sweep --scene chain --vary damping=0.5,1
    check "solver" sweep --scene chain --vary solver=xpbd,magic
    check "no/such.xrp" sweep --scene replay:no/such.xrp $v
    check "format" sweep --scene replay:old.xrp $v
    check "key n" sweep --scene replay:old.xrp --vary n=2,3
    check "error_vs_reference" sweep --scene chain $v --metric error_vs_reference
    check "--shard" sweep --scene chain $v --shard 4/3
    check "at most 3" sweep --scene chain $v --vary iterations=1,2 --vary damping=0,0.1 \
        --vary frames=1,2
    # every point refused by the library for a value (mu_k > mu_s)
    check "friction_dynamic=0.5.*bad_friction" sweep --scene ball_pile --set n=2 --set frames=2 \
        --set friction_static=0.1 --vary friction_dynamic=0.5,1
    check "not a sweep output" merge old.xrp
    # a directory of the user's own is never replaced
    mkdir mine && echo keep >mine/notes.txt
    "$xr" sweep --scene chain $v --set frames=2 --out mine 2>err.txt
    [ $? -eq 2 ] && grep -q "mine" err.txt && [ "$(cat mine/notes.txt)" = keep ] &&
        [ "$(ls mine)" = notes.txt ] || fail "--out onto a user's directory: $(cat err.txt)"
    ;;
mesh)
    # a unit cube (corner i at (i&1, i>>1&1, i>>2&1)) cut into 5 tets: four
    # corner tets around the central one on the even corners 0 3 5 6
    printf '%s\n' '# unit cube' '8 3 0 0' '0 0 0 0' '1 1 0 0' '2 0 1 0' '3 1 1 0' \
        '4 0 0 1' '5 1 0 1' '6 0 1 1' '7 1 1 1' >cube.node
    printf '%s\n' '5 4 0' '0 1 0 3 5' '1 2 0 3 6' '2 4 0 5 6' '3 7 3 5 6' '4 0 3 5 6' >cube.ele
    # 1000 kg of soft tets (edges 1e-5 m/N, volume 1e-4 m^5/N) hanging from
    # the top face for 30 frames: the 500 kg below stretch the edges by
    # about m g alpha / 4 ~ 1e-2 at most, and a volume changes by at most
    # three times the linear strain, overshoot of the swing included
    # within 0.05 (bound set before looking); it is not exactly 0
    sweep --scene mesh:cube.node --vary substeps=1,4 --metric volume_error,max_strain \
        --set 'pin=y>0.9' --set frames=30 --set compliance=1e-5 --set tet_compliance=1e-4 \
        --out tets
    [ "$(rows tets/data/sweep.tsv)" = 2 ] || fail "want 2 rows"
    awk -F'\t' 'NR > 1 {
        if ($2 != "ok" || $3 == "nan" || !($3 + 0 > 0 && $3 + 0 < 0.05) || $4 == "nan" || !($4 + 0 > 0)) {
            print "substeps " $1 ": " $2 " volume_error " $3 " max_strain " $4; bad = 1 }
    } END { exit bad }' tets/data/sweep.tsv || fail "tet cube volume_error"
    # the basename names the same TetGen mesh
    sweep --scene mesh:cube --vary substeps=1,4 --metric volume_error,max_strain \
        --set 'pin=y>0.9' --set frames=30 --set compliance=1e-5 --set tet_compliance=1e-4 \
        --out base
    cmp tets/data/sweep.tsv base/data/sweep.tsv || fail "mesh:cube differs from mesh:cube.node"
    # an OBJ sheet (no tets): volume_error NaN, strain finite; pinned by
    # its top row as a fraction of the extent
    printf '%s\n' 'v 0 0 0' 'v 0.5 0 0' 'v 1 0 0' 'v 0 0.5 0' 'v 0.5 0.5 0' 'v 1 0.5 0' \
        'v 0 1 0' 'v 0.5 1 0' 'v 1 1 0' 'f 1 2 5 4' 'f 2 3 6 5' 'f 4 5 8 7' 'f 5 6 9 8' >sheet.obj
    sweep --scene mesh:sheet.obj --vary density=0.5,2 --metric volume_error,max_strain \
        --set 'pin=y>=100%' --set frames=30 --out sheet
    awk -F'\t' 'NR > 1 && ($2 != "ok" || $3 != "nan" || $4 == "nan") {
        print "density " $1 ": " $2 " " $3 " " $4; bad = 1 } END { exit bad }' sheet/data/sweep.tsv ||
        fail "OBJ sheet: want volume_error nan"
    # Gmsh: the sheet (triangles) hung by its physical surface "top", the
    # same as by its number 6 and not as unpinned; the unit cube (tets) by
    # its face "top" at the TetGen cube's settings (the same 1000 kg, 1 m
    # cube) and bounds of its own (below), its 2.2 file giving the 4.1
    # file's table to the bit (the same mesh)
    sweep --scene "mesh:$gmsh_data/sheet_v41.msh" --vary substeps=1,2 --set pin=top \
        --set frames=30 --metric volume_error,max_strain,momentum_error --out gsheet
    sweep --scene "mesh:$gmsh_data/sheet_v41.msh" --vary substeps=1,2 --set pin=6 \
        --set frames=30 --metric volume_error,max_strain,momentum_error --out gsheet6
    sweep --scene "mesh:$gmsh_data/sheet_v41.msh" --vary substeps=1,2 --set pin=none \
        --set frames=30 --metric volume_error,max_strain,momentum_error --out gsheet_free
    [ "$(rows gsheet/data/sweep.tsv)" = 2 ] && [ "$(rows gsheet6/data/sweep.tsv)" = 2 ] &&
        [ "$(rows gsheet_free/data/sweep.tsv)" = 2 ] || fail "Gmsh sheet: want 2 rows"
    cmp gsheet/data/sweep.tsv gsheet6/data/sweep.tsv || fail "pin=top differs from pin=6"
    cmp -s gsheet/data/sweep.tsv gsheet_free/data/sweep.tsv && fail "pin=top gives pin=none's table"
    # Unpinned, the sheet falls freely for T = 30/60 s: every node gains the
    # same g h each substep, so no edge stretches and the momentum is all
    # gravity's, both but for rounding (N = 60 substeps at most: strain about
    # N u |x| / (shortest edge), momentum error about N u g T, u = 2^-53;
    # bound 1e-9 for both). Pinned by "top", that strip stays put and holds
    # the rest: the edges stretch (max_strain > 0) and the pins take
    # gravity's impulse g T = 4.9 m/s as the sheet hangs (its centre of mass
    # moves by its strain, a few cm, not g T^2 / 2 = 1.2 m), so the momentum
    # not explained by gravity is near g T: above g T / 2 = 2.45 asked.
    awk -F'\t' 'NR > 1 && ($2 != "ok" || $3 != "nan" || !($4 + 0 >= 0 && $4 + 0 < 1e-9) ||
                          !($5 + 0 >= 0 && $5 + 0 < 1e-9)) {
        print "substeps " $1 ": " $2 " " $3 " " $4 " " $5; bad = 1 } END { exit bad }' \
        gsheet_free/data/sweep.tsv || fail "Gmsh sheet unpinned: want a free fall"
    awk -F'\t' 'NR > 1 && ($2 != "ok" || $3 != "nan" || $4 == "nan" || !($4 + 0 > 1e-9) ||
                          !($5 + 0 > 2.45)) {
        print "substeps " $1 ": " $2 " " $3 " " $4 " " $5; bad = 1 } END { exit bad }' \
        gsheet/data/sweep.tsv || fail "Gmsh sheet pinned by 'top': want it held"
    for v in v41 v22; do
        sweep --scene "mesh:$gmsh_data/cube_$v.msh" --vary substeps=1,4 --set pin=top \
            --set frames=30 --set compliance=1e-5 --set tet_compliance=1e-4 \
            --metric volume_error,max_strain --out gcube_$v
    done
    # The Gmsh cube's own bounds (81 nodes, 184 tets, 342 edges; numbers
    # computed once from cube_v22.msh, a committed file):
    # - max_strain: the 61 nodes below the top face hung as one block from
    #   its 20 pinned nodes by the edges between them, all stretched alike
    #   by delta along y: delta = M g alpha / sum cos^2 (sum cos^2 = 34.6
    #   over those edges, cos: an edge's with the y axis), an edge's strain
    #   delta cos / L, at most 1000 * 9.81 * 1e-5 / 34.6 * 3.62 = 1.03e-2
    #   (3.62 /m: the largest cos / L) at rest; a load let go at once swings
    #   to at most twice its static stretch: max_strain < 0.021.
    # - volume_error against the row's own max_strain s: a tet's volume is
    #   a function of its six edge lengths (Cayley-Menger); each length
    #   changed by a fraction s at most, |V / V0 - 1| <= K1 s + K2 s^2 to
    #   second order, K1 = 4.60 (|dV / (dL / L)| summed over the edges and
    #   tets, over V0 = 1) and K2 = 43.2 (the same of half the second
    #   derivatives). Every edge changed by -s, 0 or +s, the tets' worst
    #   changes sum to 0.049 at s = 0.01 and 0.112 at 0.021, under K1 s +
    #   K2 s^2 (0.050, 0.116); a factor 1.1 covers the higher orders.
    awk -F'\t' 'NR > 1 {
        s = $4 + 0; v = $3 + 0
        if ($2 != "ok" || $3 == "nan" || $4 == "nan" || !(s > 0 && s < 0.021) ||
            !(v > 0 && v <= 1.1 * (4.60 * s + 43.2 * s * s))) {
            print "substeps " $1 ": " $2 " volume_error " $3 " max_strain " $4; bad = 1 }
    } END { exit bad }' gcube_v41/data/sweep.tsv || fail "Gmsh cube volume_error"
    cmp gcube_v41/data/sweep.tsv gcube_v22/data/sweep.tsv || fail "cube_v22.msh differs from cube_v41.msh"
    # refusals: exit 2, one line naming the file and the line, no output
    mkdir bad && cp cube.node bad/ && sed 's/^3 7 3 5 6$/3 7 3 5 9/' cube.ele >bad/cube.ele
    refuse() { # WANT... -- ARGS...
        want=""
        while [ "$1" != -- ]; do want="$want|$1"; shift; done
        shift
        "$xr" sweep "$@" --out new >out.txt 2>err.txt
        rc=$?
        [ $rc -eq 2 ] || fail "'$*' exited $rc, want 2: $(cat err.txt)"
        [ "$(wc -l <err.txt | tr -d ' ')" = 1 ] || fail "'$*': not one line: $(cat err.txt)"
        for w in $(echo "${want#|}" | tr '|' ' '); do
            grep -q -- "$w" err.txt || fail "'$*': message does not name '$w': $(cat err.txt)"
        done
        [ ! -e new ] || fail "'$*' created new/"
        ls | grep -q '\.tmp-' && fail "'$*' left a temporary directory"
        return 0
    }
    refuse bad/cube "line 5" "point 9" -- --scene mesh:bad/cube.node --vary substeps=1,4
    # a node of the Gmsh sheet with a coordinate that is no number, line 20
    awk 'NR == 20 { $2 = "1.5.3" } { print }' "$gmsh_data/sheet_v22.msh" >bad/sheet.msh
    refuse bad/sheet.msh "line 20" "1.5.3" -- --scene mesh:bad/sheet.msh --vary substeps=1,4
    refuse "no label named 'bottom'" -- --scene "mesh:$gmsh_data/sheet_v41.msh" --set pin=bottom \
        --vary substeps=1,4
    refuse "pin=y>5" -- --scene mesh:cube.node --set 'pin=y>5' --vary substeps=1,4
    refuse "label 7" -- --scene mesh:cube.node --vary 'pin=none,7' --set frames=2
    refuse "'q>1'" -- --scene mesh:cube.node --set 'pin=q>1' --vary substeps=1,4
    refuse "density" "mesh:FILE" -- --scene chain --set density=5 --vary substeps=1,4
    refuse "key n" -- --scene mesh:cube.node --vary n=2,3
    ;;
list)
    "$xr" sweep --list >list.txt || fail "--list exited $?"
    for w in chain cloth tet_box ball_pile cloth_sphere replay:FILE mesh:FILE substeps iterations \
        solver compliance damping pbd_stiffness restitution friction precision isa threads frames \
        dt tet_compliance bend_compliance density scale pin max_strain mean_strain residual \
        energy_drift penetration momentum_error volume_error ms_per_frame error_vs_reference; do
        grep -q "^  $w " list.txt || fail "--list does not name $w"
    done
    grep -q "m/N" list.txt || fail "--list gives no units"
    ;;
*)
    fail "unknown mode"
    ;;
esac
echo "sweep $mode: passed"
