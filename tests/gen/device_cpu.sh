#!/bin/bash
# device_cpu.sh — one device call of issue 7's CPU campaign (doc/difftest.md,
# doc/fuzzing.md): the random programs through the five CPU executors with
# tcc builds, and front-end fuzzing beside them.  Run from a directory laid
# out as devbuild/NAME (nesslc, build/lib, tests/gen, tests/float_cmp.py,
# tcc with its tcclib/, tests/fuzz/fuzz_nesl_none, seeds/); results go to
# $OUT.
#   device_cpu.sh FIRST_SEED N JOBS LIMIT_S FUZZ_NORMAL FUZZ_NICED
# JOBS programs run at a time for at most LIMIT_S seconds; FUZZ_NORMAL
# fuzz_nesl workers at normal priority and FUZZ_NICED at nice 19 (they take
# what the difftest leaves idle) run for LIMIT_S + 10 seconds.
. "$(dirname "$0")/device_lib.sh"
set -u
first=$1 n=$2 jobs=$3 limit=$4 fnorm=$5 fnice=$6
device_setup
{ nproc; uname -r; free -g | head -2; gcc --version | head -1; } >"$OUT/env.txt" 2>&1

# tcc probe: one random program's C build and run (doc/difftest.md says why)
cc="$D/tcc -B $D/tcclib"
tcc_probe "$first" "$cc" | tee "$OUT/probe.txt"
head -5 /tmp/probe.build >>"$OUT/probe.txt"

# fuzzers: fresh corpus per worker, the test programs as seeds
fz=/tmp/fz
total=$((fnorm + fnice))
start_fuzzers "$fz" "$total" "$fnorm" 7000 $((limit + 10))

PYTHONUNBUFFERED=1 python3 tests/gen/difftest.py -n "$n" -s "$first" -j "$jobs" --cc "$cc" --cflags=-std=c11 \
    --time-limit "$limit" --no-reduce --log "$OUT/difftest.log" --out /tmp/dt >"$OUT/difftest.txt" 2>&1
echo "difftest exit status $?" >>"$OUT/difftest.txt"
tar czf "$OUT/repro.tgz" -C /tmp/dt .   # at most 8 files come back
wait
fuzz_summary "$fz" "$total"
cat "$OUT/probe.txt"; tail -6 "$OUT/difftest.txt"; tail -3 "$OUT/fuzz.txt"
