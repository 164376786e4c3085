#!/usr/bin/env python3
"""bench/ncu_sum.py — per-kernel totals from an Nsight Compute CSV.

    ncu --csv --clock-control none \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum[,lts__t_bytes.sum] \
        PROG >prog.csv
    python3 bench/ncu_sum.py prog.csv [TOP]

Prints the launches and kernel time of the whole run, then the TOP
(default 14; 0: all) costliest kernels (by name, template arguments kept, parameters dropped) with their
launches, GPU time in microseconds and DRAM megabytes read and written (and
the L2's traffic, where lts__t_bytes.sum was asked for: data that fits in
the L2 moves there, not to DRAM); the first line has the whole run's totals.
ncu serializes launches and (by default) flushes the caches before each,
so the times are each kernel's own, without launch gaps or host work: a
form's time from --repeat minus its kernels' is what the host and the
launches cost."""
import collections
import csv
import re
import sys

SCALE = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1, "msecond": 1e3, "ms": 1e3,
         "byte": 1, "B": 1, "Kbyte": 1e3, "KB": 1e3, "Mbyte": 1e6, "MB": 1e6, "Gbyte": 1e9, "GB": 1e9}


def main(path, top=14):
    hdr, data, unknown = None, collections.OrderedDict(), set()
    for r in csv.reader(open(path)):
        if hdr is None:
            if "Kernel Name" in r:
                hdr = r
            continue
        if len(r) != len(hdr):
            continue
        d = dict(zip(hdr, r))
        m = data.setdefault((d["ID"], d["Kernel Name"]), {})
        unit = d["Metric Unit"]
        if unit not in SCALE and unit not in unknown:
            unknown.add(unit)
            print("ncu_sum.py: unknown unit %r of %s, taken as is" % (unit, d["Metric Name"]), file=sys.stderr)
        m[d["Metric Name"]] = float(d["Metric Value"].replace(",", "")) * SCALE.get(unit, 1)
    agg = collections.OrderedDict()
    for (_, name), m in data.items():
        a = agg.setdefault(re.sub(r"\(.*", "", name)[:70], [0, 0.0, 0.0, 0.0, 0.0])
        a[0] += 1
        a[1] += m.get("gpu__time_duration.sum", 0.0)
        a[2] += m.get("dram__bytes_read.sum", 0.0)
        a[3] += m.get("dram__bytes_write.sum", 0.0)
        a[4] += m.get("lts__t_bytes.sum", 0.0)
    l2 = any("lts__t_bytes.sum" in m for m in data.values())
    tot = [sum(a[i] for a in agg.values()) for i in range(5)]
    print("launches %d, kernel us %.1f, DRAM MB read %.1f, written %.1f%s"
          % (tot[0], tot[1], tot[2] / 1e6, tot[3] / 1e6, ", L2 MB %.1f" % (tot[4] / 1e6) if l2 else ""))
    rows = sorted(agg.items(), key=lambda kv: -kv[1][1])
    for k, a in rows[:top] if top > 0 else rows:
        print("%4d %10.1f us %9.1f MB rd %9.1f MB wr%s  %s"
              % (a[0], a[1], a[2] / 1e6, a[3] / 1e6, " %9.1f MB L2" % (a[4] / 1e6) if l2 else "", k))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 14)
