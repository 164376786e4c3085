#!/usr/bin/python3
"""bench/recursion_levels.py — the recursion of the quicksort and Barnes-Hut
benchmarks on their own inputs, level by level, computed here (numpy) rather
than measured: how many levels the flattened program runs, how many elements
each level carries, and what a block-local tail of B elements would leave to
the grid-wide levels (doc/decisions.md, "Where the recursion's code
generation goes next").

    /usr/bin/python3 bench/recursion_levels.py quicksort N... | barneshut N...

(numpy: Debian's python3-numpy, which python3-matplotlib installs too).

quicksort: bench/progs/quicksort.nesl.in (middle pivot, three filters,
recursion on the lesser and the greater) on hash(0..N-1).  Per level, the
calls that recurse (#s >= 2), their elements and the longest; an element's
element-levels (the levels it is carried through) are what each grid-wide
pass reads and writes.  For a tail of B elements: the grid levels before
every call fits in B, and the element-levels left on the grid when the
whole lifted call moves to the tail once every call fits, or when each call
moves once it fits.

barneshut: bench/progs/barneshut.nesl.in's build on grid_point(0..N-1) (a
1024 x 1024 grid, a quadtree of 10 levels): per level the nodes that split
and the largest node."""
import sys

try:
    import numpy as np
except ImportError:
    sys.exit("recursion_levels.py: needs numpy (apt-get install python3-numpy, or pip install numpy)")

TAILS = (1024, 2048, 4096, 8192, 16384, 65536)
M31 = 0x7fffffff


def nesl_hash(i):
    """bench/progs/common.nesl's hash, in 64-bit arithmetic masked to NESL's 32 bits."""
    a = ((i * 1103515245 + 12345) & 0xffffffff) & M31
    b = a ^ (a >> 15)
    c = ((b * 668265261) & 0xffffffff) & M31
    return c ^ (c >> 16)


def quicksort_levels(n):
    vals = nesl_hash(np.arange(n, dtype=np.int64))
    seg = np.zeros(n, dtype=np.int64)
    out = []
    while vals.size:
        starts = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        lens = np.diff(np.r_[starts, vals.size])
        live = lens >= 2
        keep = np.repeat(live, lens)
        vals, seg, lens = vals[keep], seg[keep], lens[live]
        if not vals.size:
            break
        starts = np.r_[0, np.cumsum(lens)[:-1]]
        out.append((len(lens), int(vals.size), int(lens.max()), {b: int(lens[lens > b].sum()) for b in TAILS}))
        piv = np.repeat(vals[starts + lens // 2], lens)
        cls = np.where(vals < piv, 0, np.where(vals == piv, 1, 2))
        key = np.repeat(np.arange(len(lens)), lens) * 3 + cls
        rec = cls != 1            # the equal elements are done
        order = np.argsort(key[rec], kind="stable")
        vals, seg = vals[rec][order], key[rec][order]
    return out


def quicksort(n):
    lv = quicksort_levels(n)
    total = sum(x[1] for x in lv)
    print("quicksort n %d: %d levels, %.1f element-levels an element" % (n, len(lv), total / n))
    for d, (s, e, m, _) in enumerate(lv):
        print("  level %2d: %8d calls recurse, %9d elements, longest %8d" % (d, s, e, m))
    for b in TAILS:
        k = next((d for d, x in enumerate(lv) if x[2] <= b), len(lv))
        whole = sum(x[1] for x in lv[:k]) / n
        each = sum(x[3][b] for x in lv) / n
        print("  tail of %5d: %2d grid levels; element-levels an element left on the grid: %4.1f (whole call),"
              " %4.1f (each call)" % (b, k, whole, each))


def barneshut(n):
    i = np.arange(n, dtype=np.int64)
    a = (i * 7919 + 13) & 1048575
    b = a ^ (a >> 10)
    v = (b * 40503) & 1048575
    x, y = v & 1023, v >> 10
    print("barneshut n %d" % n)
    for lev in range(11):
        _, cnt = np.unique((x >> (10 - lev)) * 4096 + (y >> (10 - lev)), return_counts=True)
        split = cnt[cnt >= 2]
        print("  level %2d: %6d nodes split (%7d bodies), largest node %6d" % (lev, len(split), split.sum(), cnt.max()))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("quicksort", "barneshut"):
        sys.exit("usage: recursion_levels.py quicksort|barneshut N...")
    for n in map(int, sys.argv[2:]):
        (quicksort if sys.argv[1] == "quicksort" else barneshut)(n)
