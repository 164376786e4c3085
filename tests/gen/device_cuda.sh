#!/bin/bash
# device_cuda.sh — one device call of issue 7's CUDA campaign (doc/difftest.md):
# the GPU check of tests/codegen and examples in mode cuda, then random
# programs of the small profile with at most MAXK SOAC kernels through the
# AST interpreter and the CUDA back end, and optionally fuzz_nesl workers
# beside them.  Run from a directory laid out as devbuild/NAME (nesslc,
# build/lib, tests/gen, tests/float_cmp.py, repo/ with tests/run_tests.sh,
# tests/codegen and examples, tests/fuzz/fuzz_nesl_none, seeds/); results go
# to $OUT.
#   device_cuda.sh FIRST_SEED COUNT MAXK JOBS LIMIT_S CHECK_JOBS FUZZ_NORMAL FUZZ_NICED
. "$(dirname "$0")/device_lib.sh"
set -u
first=$1 count=$2 maxk=$3 jobs=$4 limit=$5 cjobs=$6 fnorm=$7 fnice=$8
device_setup
{ nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } >"$OUT/env.txt" 2>&1
t0=$(date +%s)

# the GPU check of the generated-code and runtime change, beside the campaign
(cd repo && PYTHONUNBUFFERED=1 timeout $((limit + 30)) tests/run_tests.sh --nesslc "$D/nesslc" --mode cuda \
    --jobs "$cjobs" --timeout 300 -v codegen examples >"$OUT/gpu_check.txt" 2>&1
 echo "gpu check done after $(($(date +%s) - t0)) s" >>"$OUT/gpu_check.txt") &
check=$!

fz=/tmp/fz
total=$((fnorm + fnice))
start_fuzzers "$fz" "$total" "$fnorm" 9000 $((limit + 10))

PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py --small --max-kernels "$maxk" --count "$count" -s "$first" \
    -j "$jobs" --executors ast,cuda --timeout 200 --time-limit "$limit" --no-reduce \
    --log "$OUT/difftest_cuda.log" --out /tmp/dt >"$OUT/difftest_cuda.txt" 2>&1
echo "difftest exit status $? after $(($(date +%s) - t0)) s" >>"$OUT/difftest_cuda.txt"
tar czf "$OUT/repro.tgz" -C /tmp/dt .   # at most 8 files come back
wait
fuzz_summary "$fz" "$total"
tail -3 "$OUT/gpu_check.txt"; tail -6 "$OUT/difftest_cuda.txt"; tail -2 "$OUT/fuzz.txt"
