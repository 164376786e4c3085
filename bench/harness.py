#!/usr/bin/env python3
"""bench/harness.py — runs the benchmarks on the GPU machine (through
bench/run_device.sh) and prints the table.

  --check      every baseline at its small size against bench/ref.py
  (default)    copy bandwidth; every instance: baseline, then the nesslc
               executable (if built) with --repeat=R; checksums compared;
               the table printed and written as CSV

A nesslc executable's time is the `nesl-time form K: MEDIAN ms (R runs; wall
W ms)` line of its timed form (MEDIAN: CUDA events, as the baselines time
theirs; W, the host clock until the host saw the end, goes to the CSV), the second-to-last top-level form: the line with the
second-largest K (benchlib.py).  Its stdout goes to a file of which only the
end is read (the timed form prints its result truncated, the checksum is the
last `it = ` line).
"""
import argparse
import csv
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time

import benchlib
import ref

TIME_RE = re.compile(r"nesl-time form (\d+)\s*:\s*([0-9.eE+-]+)\s*ms(?:[^;\n]*;\s*wall\s*([0-9.eE+-]+)\s*ms)?")


def run(cmd, timeout, stdout_path=None):
    """(returncode, stdout text (its end), stderr text); rc None on timeout."""
    try:
        if stdout_path:
            with open(stdout_path, "wb") as out:
                p = subprocess.run(cmd, stdout=out, stderr=subprocess.PIPE, timeout=timeout)
            with open(stdout_path, "rb") as f:
                f.seek(max(0, os.path.getsize(stdout_path) - 65536))
                text = f.read().decode("utf-8", "replace")
        else:
            p = subprocess.run(cmd, capture_output=True, timeout=timeout)
            text = p.stdout.decode("utf-8", "replace")
        return p.returncode, text, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, "", "timeout after %d s" % timeout
    except OSError as e:
        return -1, "", str(e)


def field(text, key):
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return line[len(key) + 1:].strip()
    return None


def baseline(inst, bindir, timeout):
    rc, out, err = run(inst.base_cmd(bindir), timeout)
    if rc != 0:
        return {"error": "baseline failed (rc %s): %s" % (rc, (err.strip().splitlines() or [""])[-1][:120])}
    cs = field(out, "checksum")
    return {"checksum": benchlib.parse_values(cs) if cs is not None else None,
            "ms": float(field(out, "baseline-ms")), "bytes": float(field(out, "baseline-bytes")),
            "info": field(out, "info")}


def nesl(inst, nesldir, tmpdir, repeat, timeout):
    exe = os.path.join(nesldir, inst.stem)
    if not os.path.exists(exe):
        return {"error": "not built"}
    rc, out, err = run([exe, "--repeat=%d" % repeat], timeout, os.path.join(tmpdir, inst.stem + ".out"))
    if rc != 0:
        return {"error": "nesslc program failed (rc %s): %s" % (rc, (err.strip().splitlines() or [""])[-1][:120])}
    times = sorted((int(k), float(ms), float(wall) if wall else None) for k, ms, wall in TIME_RE.findall(err))
    if len(times) < 2:
        return {"error": "no nesl-time lines", "checksum": benchlib.nesl_checksum(out)}
    return {"checksum": benchlib.nesl_checksum(out), "ms": times[-2][1], "wall_ms": times[-2][2]}


def check(opts):
    failed = 0
    for inst in benchlib.instances(small=True):
        expect = getattr(ref, inst.template)(*[int(a) for a in inst.args])
        b = baseline(inst, opts.bindir, 120)
        ok = "error" not in b and benchlib.agree(b["checksum"], expect, inst.ftol, inst.itol)
        failed += not ok
        print("%-4s %-28s baseline %s  ref %s %s" % ("ok" if ok else "FAIL", inst.stem,
              b.get("checksum"), expect, b.get("error", "")), flush=True)
    print("check: %s" % ("all baselines agree with bench/ref.py" if not failed else "%d FAILED" % failed))
    return failed


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bindir", default="build/bench/base")
    ap.add_argument("--nesldir", default="build/bench/nesl")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--repeat", type=int, default=11)
    ap.add_argument("--budget", type=float, default=540, help="seconds; later rows are skipped")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--rowdir", default=None,
                    help="keeps each program's stdout there (default: a temporary folder, so that --out "
                         "holds only the CSV: the device tool returns at most 8 files)")
    opts = ap.parse_args()
    if opts.check:
        return 1 if check(opts) else 0
    start = time.time()
    os.makedirs(opts.out, exist_ok=True)
    tmp = None
    if opts.rowdir is None:
        tmp = tempfile.TemporaryDirectory()
        opts.rowdir = tmp.name
    os.makedirs(opts.rowdir, exist_ok=True)
    rc, out, err = run([os.path.join(opts.bindir, "copybw")], 120)
    copy = float(field(out, "copy-GBps")) if rc == 0 else None
    device = field(out, "device") or "unknown (copybw failed: %s)" % err.strip()[-100:]
    print("device: %s\ncopy bandwidth (cudaMemcpy D2D, read + write): %s GB/s" % (device, fmt(copy, ".1f")), flush=True)
    rows = []
    for inst in benchlib.instances():
        if opts.only and not any(f in inst.stem for f in opts.only):
            continue
        row = {"program": inst.name, "size": inst.label, "stem": inst.stem}
        left = opts.budget - (time.time() - start)
        if left < 20:
            row["status"] = "skipped (time budget)"
            rows.append(row)
            continue
        b = baseline(inst, opts.bindir, min(120, left))
        n = nesl(inst, opts.nesldir, opts.rowdir, opts.repeat, min(180, left)) if "error" not in b else {"error": "-"}
        bms, nms = b.get("ms"), n.get("ms")
        gb = (b["bytes"] / 1e9) if "bytes" in b else None
        row.update(base_ms=bms, nesl_ms=nms, nesl_wall_ms=n.get("wall_ms"), bytes=b.get("bytes"),
                   ratio=(nms / bms) if nms and bms else None,
                   target=benchlib.TARGETS.get(inst.name),
                   base_gbps=(gb / (bms / 1e3)) if gb and bms else None,
                   nesl_gbps=(gb / (nms / 1e3)) if gb and nms else None,
                   base_checksum=b.get("checksum"), nesl_checksum=n.get("checksum"))
        row["base_pct_copy"] = 100 * row["base_gbps"] / copy if copy and row["base_gbps"] else None
        row["nesl_pct_copy"] = 100 * row["nesl_gbps"] / copy if copy and row["nesl_gbps"] else None
        if "error" in b:
            row["status"] = b["error"]
        elif "error" in n:
            row["status"] = n["error"]
        elif benchlib.agree(n["checksum"], b["checksum"], inst.ftol, inst.itol):
            row["status"] = "agree"
        else:
            row["status"] = "CHECKSUM MISMATCH"
        if b.get("info"):
            row["status"] += " (%s)" % b["info"]
        rows.append(row)
        print("  %-16s %-7s base %s ms  nesl %s  %s" % (inst.name, inst.label, fmt(bms, ".3f"),
              fmt(nms, ".3f"), row["status"]), flush=True)

    cols = ["program", "size", "nesl_ms", "nesl_wall_ms", "base_ms", "ratio", "target", "nesl_gbps", "base_gbps",
            "nesl_pct_copy", "base_pct_copy", "bytes", "status", "nesl_checksum", "base_checksum", "stem"]
    path = os.path.join(opts.out, "results.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["# " + datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "device: " + device,
                    "copy GB/s: %s" % fmt(copy, ".1f")])
        w.writerow(cols)
        for r in rows:
            w.writerow([r.get(c, "") if r.get(c) is not None else "" for c in cols])
    print()
    print("%s, %s, copy %s GB/s" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"), device, fmt(copy, ".0f")))
    hdr = "%-15s %-7s %10s %10s %7s %6s %8s %8s %6s %6s  %s" % (
        "program", "size", "nesslc ms", "base ms", "ratio", "target", "nesl GB/s", "base GB/s",
        "nesl%", "base%", "check")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print("%-15s %-7s %10s %10s %7s %6s %8s %8s %6s %6s  %s" % (
            r["program"], r["size"], fmt(r.get("nesl_ms"), ".3f"), fmt(r.get("base_ms"), ".3f"),
            fmt(r.get("ratio"), ".2f"), fmt(r.get("target"), "g"), fmt(r.get("nesl_gbps"), ".0f"),
            fmt(r.get("base_gbps"), ".0f"), fmt(r.get("nesl_pct_copy"), ".0f"),
            fmt(r.get("base_pct_copy"), ".0f"), r.get("status", "")))
    print("CSV: %s   (GB/s: the bytes of README.md over the time; %%: of the copy bandwidth)" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
