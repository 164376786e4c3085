#!/usr/bin/env bash
# scan_variants.sh — builds skel_bench.cu once per block-shape / look-back
# setting of rt/nesl_cuda_scan.cuh (here: nvcc, no GPU needed), and runs
# them all on the GPU machine, one table (bench/cuda/scan_notes.md keeps
# the results).
#
#   bench/cuda/scan_variants.sh build DIR [NAME...]   # DIR/skel_NAME.xz + ptxas logs
#   bench/cuda/scan_variants.sh run DIR [NAME...]     # on the GPU: check + time each
#
# Variants "main*" are the scan family as on main before this work (headers
# taken from git, REV=main); the others are the current rt/ with -D flags.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:?build or run}
dir=${2:?directory}
shift 2

# name | flags | what to run ("check": the correctness sizes too; "cub": CUB's
# rows too; "prof": per-tile phase times; numbers: log2 sizes, default 28).
# Flags are relative to the defaults of rt/nesl_cuda_scan.cuh.  Branch
# segfilter (2026-11-25): "new" has SEG_REDUCE's plain tiles, the
# multi-block tile prefix, FILTER warp-specialized (nesl_k_filter_ws) and
# PARTITION's staged stores; "stage" is FILTER in nesl_k_filter (staged);
# tp1 the one-block tile prefix; segnp SEG_REDUCE without its prefix and
# pieces kernels (timing only: results incomplete); "main" the scan
# family of branch main (REV);
# raw outputs of the branch scanfilter's variants (2026-11-24) are in
# bench/results/2026-11-24-h100-scanfilter-call*.txt.
variants() {
    cat <<'EOF'
main||cub
main2||
new|-DNESL_NONE|check cub 26 28
new2|-DNESL_NONE|
stage|-DNESL_FILTER_WS=0|
tp1|-DNESL_TP_ONE=2147483647|
segnp|-DNESL_SEG_NO_PIECES|
wsd0|-DNESL_FILTER_WS_DELAY=0|
wsd500|-DNESL_FILTER_WS_DELAY=500|
wsd2000|-DNESL_FILTER_WS_DELAY=2000|
ws6|-DNESL_FILTER_WS_MINB=6|
wsw20|-DNESL_FILTER_WORDS=20 -DNESL_FILTER_WS_MINB=4|check
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
        case $name in main*) inc="-I$old" ;; esac
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
