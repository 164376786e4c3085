#!/usr/bin/env python3
"""bench/ab.py — A/B of two builds of the same benchmarks on one machine:
the executables of DIR_A and DIR_B (bench/build_parallel.sh's nesl/
folders) run alternately, ROUNDS times each with --repeat=R, and the
medians of their timed forms are compared (B/A).  Alternating spreads the
machine's drift over both; a ratio within the rounds' spread is noise.

  bench/ab.py DIR_A DIR_B STEM... [--rounds 5] [--repeat 11]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

TIME_RE = re.compile(r"nesl-time form (\d+)\s*:\s*([0-9.eE+-]+)\s*ms")


def timed_ms(exe, repeat):
    """The timed form's median: the line with the second-largest form
    number, as bench/harness.py reads it; None if the run failed."""
    p = subprocess.run([exe, "--repeat=%d" % repeat], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=300)
    times = sorted((int(k), float(ms)) for k, ms in TIME_RE.findall(p.stderr.decode("utf-8", "replace")))
    if p.returncode != 0 or len(times) < 2:
        return None
    return times[-2][1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir_a")
    ap.add_argument("dir_b")
    ap.add_argument("stems", nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=11)
    args = ap.parse_args()
    print("%-24s %10s %10s %8s  %s" % ("program", "A ms", "B ms", "B/A", "rounds (A | B)"))
    for stem in args.stems:
        runs = {"a": [], "b": []}
        for _ in range(args.rounds):
            for key, d in (("a", args.dir_a), ("b", args.dir_b)):
                ms = timed_ms(os.path.join(d, stem), args.repeat)
                if ms is not None:
                    runs[key].append(ms)
        if not runs["a"] or not runs["b"]:
            print("%-24s failed (A %d runs, B %d runs)" % (stem, len(runs["a"]), len(runs["b"])))
            continue
        ma, mb = statistics.median(runs["a"]), statistics.median(runs["b"])
        spread = lambda v: " ".join("%.3f" % x for x in v)
        print("%-24s %10.3f %10.3f %8.3f  %s | %s" % (stem, ma, mb, mb / ma, spread(runs["a"]), spread(runs["b"])))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
