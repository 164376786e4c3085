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
D=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
cd "$D" || exit 1
export PATH=/usr/local/cuda/bin:$PATH
[ -x /usr/local/cuda/bin/nvcc ] || export NESSLC_NVCC=$(command -v nvcc)
t0=$(date +%s)
jobs=$(nproc)

fz=/tmp/fz
mkdir -p "$fz/crashes"
for i in $(seq 1 "$fnice"); do
    mkdir -p "$fz/corpus-$i"
    nice -n 19 tests/fuzz/fuzz_nesl_none -seed=$((11000 + i)) -max_total_time=$((end + 5)) -timeout=10 \
        -rss_limit_mb=2048 -max_len=8192 -dict=tests/fuzz/nesl.dict -artifact_prefix="$fz/crashes/" \
        -print_final_stats=1 "$fz/corpus-$i" seeds >"$fz/job-$i.log" 2>&1 &
done

# CUDA: at most 220 s
PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py --small --max-kernels "$maxk" --count "$ccount" -s "$cfirst" \
    -j "$jobs" --executors ast,cuda --timeout 200 --time-limit 220 --no-reduce \
    --log "$OUT/difftest_cuda.log" --out /tmp/dtc >"$OUT/difftest_cuda.txt" 2>&1
echo "difftest exit status $? after $(($(date +%s) - t0)) s" >>"$OUT/difftest_cuda.txt"

# CPU: tcc probe, then until END_S
cc="$D/tcc -B $D/tcclib"
python3 tests/gen/nesl_gen.py "$first" >/tmp/probe.nesl
s=$(date +%s.%N)
NESSLC_CC="$cc" NESSLC_CFLAGS=-std=c11 ./nesslc -o /tmp/probe.exe /tmp/probe.nesl >/tmp/probe.build 2>&1
b=$(date +%s.%N)
/tmp/probe.exe >/tmp/probe.out 2>&1
e=$(date +%s.%N)
echo "tcc probe: build $(awk "BEGIN{print $b - $s}") s ($(wc -c </tmp/probe.build) bytes of messages), run $(awk "BEGIN{print $e - $b}") s" >"$OUT/difftest_cpu.txt"
left=$((end - ($(date +%s) - t0)))
PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py -n "$n" -s "$first" -j "$jobs" --cc "$cc" --cflags=-std=c11 \
    --time-limit "$left" --no-reduce --log "$OUT/difftest_cpu.log" --out /tmp/dt >>"$OUT/difftest_cpu.txt" 2>&1
echo "difftest exit status $? after $(($(date +%s) - t0)) s" >>"$OUT/difftest_cpu.txt"
mkdir -p /tmp/dtall && cp /tmp/dt/fail-* /tmp/dtc/fail-* /tmp/dtall/ 2>/dev/null
tar czf "$OUT/repro.tgz" -C /tmp/dtall .   # at most 8 files come back
wait
fuzz_summary "$fz" "$fnice"
tail -5 "$OUT/difftest_cuda.txt"; cat "$OUT/difftest_cpu.txt" | head -3; tail -5 "$OUT/difftest_cpu.txt"; tail -2 "$OUT/fuzz.txt"
