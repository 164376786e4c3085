#!/usr/bin/env bash
# scan_variants.sh — builds skel_bench.cu once per block-shape / look-back
# setting of rt/nesl_cuda_scan.cuh (here: nvcc, no GPU needed), and runs
# them all on the GPU machine, one table (bench/cuda/scan_notes.md keeps
# the results).
#
#   bench/cuda/scan_variants.sh build DIR [NAME...]   # DIR/skel_NAME.xz + ptxas logs
#   bench/cuda/scan_variants.sh run DIR [NAME...]     # on the GPU: check + time each
#
# Variant "main" is the scan family as on main before this work (headers
# taken from git, REV=main); the others are the current rt/ with -D flags.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:?build or run}
dir=${2:?directory}
shift 2

# name | flags | what to run ("check": the correctness sizes too; "cub": CUB's
# rows too; "prof": per-tile phase times; numbers: log2 sizes, default 28).
# Flags are relative to the defaults of rt/nesl_cuda_scan.cuh (the last run,
# 2026-11-24, had NESL_LB_DELAY 1000 as default; d2000 there is today's
# default; bench/results/2026-11-24-h100-scanfilter-call*.txt).
variants() {
    cat <<'EOF'
main|-DNESL_MAIN|cub
new|-DNESL_NONE|check cub 26 28
new2|-DNESL_NONE|
d0|-DNESL_LB_DELAY=0|
d1000|-DNESL_LB_DELAY=1000|
s500|-DNESL_LB_SLEEP=500|
w64|-DNESL_LB_TILES=2|
s512|-DNESL_SCAN_SB=512 -DNESL_SCAN_WORDS=16 -DNESL_SCAN_MINB=4 -DNESL_FILTER_SB=512 -DNESL_FILTER_WORDS=16 -DNESL_FILTER_MINB=4|check
f256x24|-DNESL_FILTER_SB=256 -DNESL_FILTER_WORDS=24 -DNESL_FILTER_MINB=5|check
s128x24|-DNESL_SCAN_SB=128 -DNESL_SCAN_WORDS=24 -DNESL_SCAN_MINB=10 -DNESL_FILTER_SB=128 -DNESL_FILTER_WORDS=24 -DNESL_FILTER_MINB=10|check
atomic|-DNESL_TILE_BID=0|check
prof|-DNESL_SCAN_PROF|prof
EOF
}

wanted() {
    [ $# -eq 1 ] && return 0
    local v=$1
    shift
    for w in "$@"; do [ "$w" = "$v" ] && return 0; done
    return 1
}

case $mode in
build)
    mkdir -p "$dir"
    old=$(mktemp -d)
    for f in nesl_cuda.cuh nesl_cuda_scan.cuh nesl_rt.h nesl_scalar.h; do
        git -C "$here" show "${REV:-main}:rt/$f" > "$old/$f" || exit 1
    done
    variants | while IFS='|' read -r name flags _; do
        wanted "$name" "$@" || continue
        inc="-I$here/rt"
        [ "$name" = main ] && inc="-I$old"
        # shellcheck disable=SC2086
        nvcc -O3 -std=c++17 -arch=sm_90 $inc $flags "$here/bench/cuda/skel_bench.cu" -L"$here/build/lib" -lnesl_rt_cuda \
            -Xptxas -v -o "$dir/skel_$name" > "$dir/ptxas_$name.log" 2>&1 || { echo "build $name failed"; cat "$dir/ptxas_$name.log"; exit 1; }
        xz -f -9 "$dir/skel_$name"
        echo "built $name"
    done
    rm -rf "$old"
    ;;
run)
    variants | while IFS='|' read -r name _ what; do
        wanted "$name" "$@" || continue
        [ -f "$dir/skel_$name.xz" ] || continue
        xz -dc "$dir/skel_$name.xz" > "/tmp/skel_$name" && chmod +x "/tmp/skel_$name"
        args="nocheck"
        case " $what " in *" check "*) args="" ;; esac
        case " $what " in *" cub "*) ;; *) args="$args nocub" ;; esac
        case " $what " in *" prof "*) args="nocheck prof" ;; esac
        sizes=$(printf '%s\n' $what | grep -E '^[0-9]+$' | tr '\n' ' ')
        [ -n "$sizes" ] || sizes=28
        echo "=== $name ($args $sizes)"
        # shellcheck disable=SC2086
        "/tmp/skel_$name" $args $sizes || echo "=== $name FAILED (exit $?)"
    done
    ;;
*)
    echo "usage: $0 build|run DIR [NAME...]" >&2
    exit 2
    ;;
esac
