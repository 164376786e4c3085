#!/usr/bin/env bash
# bench/run_device.sh — on the GPU machine, after `make bench` (here or
# there): checks the baselines against bench/ref.py at small sizes, then runs
# every benchmark (baseline and nesslc program) and prints the table; the CSV
# goes to OUTDIR (default build/bench, or $OUT when set) with check.log and
# table.txt, nothing else (the device tool returns 8 files).  One call, under
# 10 minutes (harness.py skips rows past its time budget).
#   bench/run_device.sh [--bindir DIR] [--nesldir DIR] [--only NAME...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
outdir=${OUT:-build/bench}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader 2>/dev/null
python3 "$here/harness.py" --check "$@" | tee "$outdir/check.log"
PYTHONUNBUFFERED=1 python3 "$here/harness.py" --out "$outdir" "$@" | tee "$outdir/table.txt"
