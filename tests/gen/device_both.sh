#!/bin/bash
# device_both.sh — one device call that finishes both campaigns of issue 7
# (doc/difftest.md, doc/fuzzing.md): first CUDA_COUNT more random programs of
# the small profile (at most MAXK SOAC kernels) through ast and cuda, then
# the five CPU executors (tcc builds) on seeds CPU_FIRST.. until END_S
# seconds after the start, with FUZZ_NICED fuzz_nesl workers at nice 19
# taking the idle time throughout.  Layout as for device_cpu.sh and
# device_cuda.sh; results in $OUT.
#   device_both.sh CUDA_FIRST CUDA_COUNT MAXK CPU_FIRST CPU_N END_S FUZZ_NICED
. "$(dirname "$0")/device_lib.sh"
set -u
cfirst=$1 ccount=$2 maxk=$3 first=$4 n=$5 end=$6 fnice=$7
device_setup
t0=$(date +%s)
jobs=$(nproc)

fz=/tmp/fz
start_fuzzers "$fz" "$fnice" 0 11000 $((end + 5))

# CUDA: at most 220 s
PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py --small --max-kernels "$maxk" --count "$ccount" -s "$cfirst" \
    -j "$jobs" --executors ast,cuda --timeout 200 --time-limit 220 --no-reduce \
    --log "$OUT/difftest_cuda.log" --out /tmp/dtc >"$OUT/difftest_cuda.txt" 2>&1
echo "difftest exit status $? after $(($(date +%s) - t0)) s" >>"$OUT/difftest_cuda.txt"

# CPU: tcc probe, then until END_S
cc="$D/tcc -B $D/tcclib"
tcc_probe "$first" "$cc" >"$OUT/difftest_cpu.txt"
left=$((end - ($(date +%s) - t0)))
PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py -n "$n" -s "$first" -j "$jobs" --cc "$cc" --cflags=-std=c11 \
    --time-limit "$left" --no-reduce --log "$OUT/difftest_cpu.log" --out /tmp/dt >>"$OUT/difftest_cpu.txt" 2>&1
echo "difftest exit status $? after $(($(date +%s) - t0)) s" >>"$OUT/difftest_cpu.txt"
mkdir -p /tmp/dtall && cp /tmp/dt/fail-* /tmp/dtc/fail-* /tmp/dtall/ 2>/dev/null
tar czf "$OUT/repro.tgz" -C /tmp/dtall .   # at most 8 files come back
wait
fuzz_summary "$fz" "$fnice"
tail -5 "$OUT/difftest_cuda.txt"; cat "$OUT/difftest_cpu.txt" | head -3; tail -5 "$OUT/difftest_cpu.txt"; tail -2 "$OUT/fuzz.txt"
