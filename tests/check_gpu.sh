#!/usr/bin/env bash
# check_gpu.sh — the GPU check (make check-gpu): every program of mode c
# built with --target=cuda, fused and not, and run on the GPU
# (tests/run_tests.sh --mode cuda,cuda0), each executable run three times:
# as built, with NESL_BT=16, so that every small recursion also runs in the
# block-local tail, and with NESL_BT=16 NESL_BT_HEADERS=4, so that the
# tail's object headers also spill from shared memory to its arena
# (--rerun ENV, which may be given more than once, replaces these two;
# --rerun '' runs once), then a subset of them under compute-sanitizer's
# memcheck.  Needs
# only a built nesslc and its CUDA runtime library (BUILD/lib next to it),
# nvcc and a GPU — no bison, flex or lp_solve — so it runs on a machine the
# build directory was carried to.
#
# Usage: tests/check_gpu.sh [--nesslc PATH] [--jobs N] [--mode M[,M]]
#                           [--timeout S] [--no-memcheck] [--rerun ENV]
#                           [FILTER]...
# --timeout (default 300) limits each nvcc build and each run: with 16
# builds at once, a large program's build takes over a minute.
# --mode (default cuda,cuda0) and --no-memcheck split the check into parts
# that each fit one device call (the whole suite builds ~800 programs with
# nvcc).
# The last line is `memcheck: N clean, N failed`; exit status 0 iff both
# parts passed.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
nesslc=$root/nesslc
jobs=$(nproc 2>/dev/null || echo 4)
filters=()
modes=cuda,cuda0
limit=300
memcheck=1
reruns=(NESL_BT=16 "NESL_BT=16 NESL_BT_HEADERS=4") rerun_given=0
while [ $# -gt 0 ]; do
    case $1 in
        --nesslc) nesslc=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --mode) modes=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        --no-memcheck) memcheck=0; shift ;;
        --rerun) [ $rerun_given = 1 ] || reruns=(); rerun_given=1
                 [ -n "$2" ] && reruns+=("$2"); shift 2 ;;
        *) filters+=("$1"); shift ;;
    esac
done
case $nesslc in /*) ;; *) nesslc=$PWD/$nesslc ;; esac
command -v nvidia-smi >/dev/null && nvidia-smi -L
rerun_args=()
for r in "${reruns[@]}"; do rerun_args+=(--rerun "$r"); done
"$root/tests/run_tests.sh" --nesslc "$nesslc" --mode "$modes" --jobs "$jobs" --timeout "$limit" \
    "${rerun_args[@]}" "${filters[@]}"
suite=$?
[ $memcheck = 1 ] || exit $suite

# memcheck: programs that exercise every skeleton, the library kernels and
# device errors (a reported runtime error is fine; a memcheck error is not)
subset="tests/codegen/types.lcu tests/codegen/gpu_large.lcu tests/codegen/err_par_map.lcu
        tests/codegen/err_par_permute.lcu tests/codegen/lib_calls.lcu tests/codegen/spec_loads.lcu
        tests/codegen/seg_reduce_tiles.lcu tests/codegen/segids_map.lcu"
for f in "$root"/tests/lcu/soac_*.lcu; do subset="$subset ${f#$root/}"; done
# the block-local tail (rt/nesl_cuda_bt.cuh): recursions whose calls run in
# blocks, groups of 32 elements so that the tail takes most levels
tail_subset="examples/quicksort.nesl examples/barneshut.nesl examples/quickhull.nesl examples/median.nesl"
subset="$subset $tail_subset"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nesslc-gpu.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
clean=0 bad=0
for t in $subset; do
    [ -f "$root/$t" ] || continue
    exe=$tmp/$(basename "${t%.lcu}")
    exe=${exe%.nesl}
    if ! (cd "$root/${t%/*}" && "$nesslc" --target=cuda -o "$exe" "${t##*/}") >"$exe.build" 2>&1; then
        grep -q 'error:' "$root/${t%.*}.expected" && continue   # a compile-time error test
        echo "memcheck: FAIL (build): $t"; cat "$exe.build"; bad=$((bad + 1)); continue
    fi
    bt=; case " $tail_subset " in *" $t "*) bt=32 ;; esac
    (cd "$root/${t%/*}" && NESL_BT=${bt:-${NESL_BT:-}} timeout 600 "$san" --tool memcheck --error-exitcode 99 "$exe") >"$exe.log" 2>&1
    st=$?
    if [ $st -eq 99 ] || [ $st -eq 124 ] || ! grep -q 'ERROR SUMMARY: 0 errors' "$exe.log"; then
        echo "memcheck: FAIL: $t (exit status $st)"; tail -n 30 "$exe.log"; bad=$((bad + 1))
    else
        clean=$((clean + 1))
    fi
done
echo "memcheck: $clean clean, $bad failed"
[ $suite -eq 0 ] && [ $bad -eq 0 ]
