#!/usr/bin/env bash
# bench/build_parallel.sh — what `make bench` builds, with a given nesslc and
# N builds at a time, without make or the compiler's sources: for the GPU
# machine (16 cores, nvcc, no bison/flex/lp_solve), where one device call
# builds everything in parallel and then runs bench/run_device.sh.
#
#   bench/build_parallel.sh --nesslc PATH [--out DIR] [-j N] [--only STEM...]
#
# DIR (default build/bench) gets base/ (the baselines and copybw), src/ (the
# instantiated NESL programs), nesl/ (the executables, and STEM.log with
# nesslc's output; a program that does not build has a log and no
# executable, and shows as "not built" in the table).  nesslc finds its CUDA
# runtime library next to itself (doc/codegen.md), so carry it with its
# build/lib.
set -u
here=$(cd "$(dirname "$0")" && pwd)
nesslc= out=build/bench jobs=$(nproc 2>/dev/null || echo 4) only=()
while [ $# -gt 0 ]; do
    case $1 in
        --nesslc) nesslc=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -j) jobs=$2; shift 2 ;;
        --only) shift; only=("$@"); break ;;
        *) echo "build_parallel.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$nesslc" ] || { echo "build_parallel.sh: --nesslc PATH is required" >&2; exit 2; }
case $nesslc in /*) ;; *) nesslc=$PWD/$nesslc ;; esac
mkdir -p "$out/base" "$out/src" "$out/nesl"
nvccflags="-O3 -arch=sm_90 --extended-lambda -std=c++17"   # as bench/bench.mk
f32=" $(python3 "$here/benchlib.py" float32) "
stems=$(python3 "$here/benchlib.py" instances)
bases=${BENCH_BASES-"$(python3 "$here/benchlib.py" baselines) copybw"}   # BENCH_BASES= builds none
if [ ${#only[@]} -gt 0 ]; then
    keep() { local s; for s in "${only[@]}"; do [[ $1 == *"$s"* ]] && return 0; done; return 1; }
    s2=; for s in $stems; do keep "$s" && s2="$s2 $s"; done; stems=$s2
fi

jobsfile=$(mktemp)
trap 'rm -f "$jobsfile"' EXIT
for b in $bases; do
    lib=; [ "$b" = spmv ] && lib=-lcusparse
    echo "nvcc $nvccflags -o '$out/base/$b' '$here/base/$b.cu' $lib >'$out/base/$b.log' 2>&1 || echo '  baseline not built: $b'" >>"$jobsfile"
done
for s in $stems; do
    python3 "$here/benchlib.py" source "$s" >"$out/src/$s.nesl"
    fl=; [[ $f32 == *" $s "* ]] && fl=-ffloat32
    echo "'$nesslc' --target=cuda -arch=sm_90 $fl -o '$out/nesl/$s' '$out/src/$s.nesl' >'$out/nesl/$s.log' 2>&1 || { rm -f '$out/nesl/$s'; echo '  not built: $s'; }" >>"$jobsfile"
done
# Longest first would be better; the NESL programs are listed after the
# baselines, so start them first.
tac "$jobsfile" | xargs -d '\n' -n 1 -P "$jobs" bash -c
echo "build_parallel: $(ls "$out/nesl" | grep -vc '\.log$') of $(echo $stems | wc -w) NESL programs, $(ls "$out/base" | grep -vc '\.log$') baselines in $out"
