#!/usr/bin/env python3
"""bench/plot.py — a PNG chart of a results CSV of bench/harness.py:
top, nesslc ms / baseline ms per row, with the issues' targets; bottom, the
achieved bandwidth of both sides as % of the measured copy bandwidth.

usage: plot.py RESULTS.csv [OUT.png]     (default: RESULTS.png beside it)
Needs matplotlib (pip install matplotlib, or Debian's python3-matplotlib);
without it, says so and exits with status 2.
"""
import csv
import os
import sys


def load(path):
    with open(path) as f:
        lines = f.read().splitlines()
    title = lines[0].lstrip("# ").replace('"', "") if lines and lines[0].startswith("#") else path
    rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
    return title, rows


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: plot.py RESULTS.csv [OUT.png]")
    path = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(path)[0] + ".png"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's package serves /usr/bin/python3; another python3 may lack it.
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") \
                and not os.environ.get("BENCH_PLOT_REEXEC"):
            os.environ["BENCH_PLOT_REEXEC"] = "1"
            os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
        sys.stderr.write("plot.py: matplotlib is not installed (pip install matplotlib, or apt-get install "
                         "python3-matplotlib); no chart drawn. The table is in %s.\n" % path)
        return 2
    title, rows = load(path)
    labels = ["%s %s" % (r["program"], r["size"]) for r in rows]
    ratio = [num(r["ratio"]) for r in rows]
    target = [num(r["target"]) for r in rows]
    nesl_pct = [num(r["nesl_pct_copy"]) or 0 for r in rows]
    base_pct = [num(r["base_pct_copy"]) or 0 for r in rows]
    x = range(len(rows))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(10, 0.45 * len(rows)), 9), sharex=True)
    if any(r is not None for r in ratio):
        ax1.bar(x, [r or 0 for r in ratio], color=["tab:green" if r and t and r <= t else "tab:red" for r, t in zip(ratio, target)])
        ax1.scatter([i for i, t in zip(x, target) if t], [t for t in target if t], marker="_", s=200, color="black",
                    label="target")
        ax1.axhline(1.0, color="gray", lw=0.8)
        ax1.set_yscale("log")
        ax1.legend()
    else:
        ax1.text(0.5, 0.5, "no nesslc results yet (no NESL program built)", ha="center", va="center",
                 transform=ax1.transAxes)
    for i, r in zip(x, rows):
        if num(r["ratio"]) is None and any(v is not None for v in ratio):
            ax1.text(i, 1.0, r["status"][:12], rotation=90, ha="center", va="bottom", fontsize=6, color="gray")
    ax1.set_ylabel("nesslc ms / baseline ms")
    ax1.set_title(title, fontsize=9)
    w = 0.4
    ax2.bar([i - w / 2 for i in x], nesl_pct, w, label="nesslc")
    ax2.bar([i + w / 2 for i in x], base_pct, w, label="baseline")
    ax2.axhline(100, color="gray", lw=0.8)
    ax2.set_ylabel("% of copy bandwidth")
    ax2.legend()
    ax2.set_xticks(list(x))
    ax2.set_xticklabels(labels, rotation=70, ha="right", fontsize=7)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("plot.py: wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
