#!/usr/bin/env python3
"""bench/ref.py — independent re-implementation of every benchmark (input
generator, algorithm, checksum) in plain Python (float64, exact integers
wrapped to 32 bits where NESL wraps).  It is the expected answer at small
sizes for both sides: the NESL programs under the interpreters
(bench/validate.sh) and the CUDA baselines on the GPU (bench/harness.py
--check).  Written from the algorithms' descriptions, not from either side's
output.

usage: ref.py NAME N [SEG]   prints the checksum as space-separated numbers
"""
import math
import sys

M32 = 0xFFFFFFFF


def wrap(x):
    """NESL int: 32-bit two's complement."""
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


def rem(a, b):
    """NESL rem: C's remainder, the sign of a."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def hash32(i):
    a = (i * 1103515245 + 12345) & 0x7FFFFFFF
    b = a ^ (a >> 15)
    c = (b * 668265261) & 0x7FFFFFFF
    return c ^ (c >> 16)


def wsum(xs):
    return wrap(sum(xs))


def weighted(xs):
    """sum({x * (1 + (i and 7)) : x in xs; i in [0:#xs]}) with wrapping."""
    return wrap(sum(x * (1 + (i & 7)) for i, x in enumerate(xs)))


def ints16(n):
    return [rem(hash32(i), 16) - 8 for i in range(n)]


# ---- applications -----------------------------------------------------------
def dot(n):
    xs = [(hash32(2 * i) % 64 - 32) * 0.03125 for i in range(n)]
    ys = [(hash32(2 * i + 1) % 64 - 32) * 0.03125 for i in range(n)]
    return [math.fsum(x * y for x, y in zip(xs, ys))]


def norm2(n):
    xs = [(hash32(i) % 201 - 90) * 0.5 for i in range(n)]
    s1 = math.fsum(xs)
    s2 = math.fsum(x for x in xs if x > 0)
    r1 = [x / s1 for x in xs]
    r2 = [x / s2 for x in xs]
    return [math.fsum(r1), math.fsum(r2), r1[7], r2[7]]


def cnd(d):
    k = 1.0 / (1.0 + 0.2316419 * abs(d))
    p = k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))))
    c = 0.3989422804014327 * math.exp(-0.5 * d * d) * p
    return 1.0 - c if d > 0 else c


def blackscholes(n):
    calls, puts = [], []
    r, v = 0.02, 0.3
    for i in range(n):
        s = 5.0 + (hash32(3 * i) % 1024) * 0.0244140625
        x = 1.0 + (hash32(3 * i + 1) % 1024) * 0.0966796875
        t = 0.25 + (hash32(3 * i + 2) % 1024) * 0.009521484375
        st = math.sqrt(t)
        d1 = (math.log(s / x) + (r + 0.5 * v * v) * t) / (v * st)
        d2 = d1 - v * st
        c1, c2 = cnd(d1), cnd(d2)
        e = math.exp(-r * t)
        calls.append(s * c1 - x * e * c2)
        puts.append(x * e * (1.0 - c2) - s * (1.0 - c1))
    return [math.fsum(calls), math.fsum(puts), calls[1], puts[1]]


def mandelbrot(n):
    total = inside = 0
    for i in range(n):
        ci = -1.25 + 2.5 * float(i) / float(n)
        for j in range(n):
            cr = -2.0 + 2.5 * float(j) / float(n)
            zr = zi = 0.0
            k = 0
            while not (k >= 256 or zr * zr + zi * zi > 4.0):
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            total += k
            inside += k == 256
    return [total, inside]


def spmv(n):
    x = [(hash32(j + 7777777) % 16) * 0.25 for j in range(n)]
    nnz = 0
    y = []
    for i in range(n):
        length = 1 + 4095 // (1 + hash32(i) % 4096)
        acc = 0.0
        for j in range(length):
            h = hash32(i * 4099 + j)
            acc += ((h >> 20) % 16 - 8) * 0.125 * x[h % n]
        nnz += length
        y.append(acc)
    return [nnz, wsum(round(32.0 * v) for v in y), round(32.0 * y[n // 2])]


def sort_checksum(s):
    return [len(s), weighted(s), s[0], s[-1]]


def quicksort(n):
    return sort_checksum(sorted(hash32(i) for i in range(n)))


radixsort = quicksort


def quickhull(m):
    pts = []
    for i in range(m):
        x = float(hash32(2 * i) % 2047 - 1023)
        y = float(hash32(2 * i + 1) % 2047 - 1023)
        if x * x + y * y < 1046529.0:
            pts.append((x, y))

    def side(p, a, b):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    def first_best(vals, better):
        best = 0
        for k in range(1, len(vals)):
            if better(vals[k], vals[best]):
                best = k
        return best

    def hsplit(points, a, b):
        sides = [side(p, a, b) for p in points]
        outside = [p for p, s in zip(points, sides) if s > 0.0]
        if not outside:
            return [a]
        far = points[first_best(sides, lambda u, v: u > v)]
        return hsplit(outside, a, far) + hsplit(outside, far, b)

    xs = [p[0] for p in pts]
    a = pts[first_best(xs, lambda u, v: u < v)]
    b = pts[first_best(xs, lambda u, v: u > v)]
    hull = hsplit(pts, a, b) + hsplit(pts, b, a)
    return [len(pts), len(hull),
            wsum(round(p[0]) * (i + 1) for i, p in enumerate(hull)),
            wsum(round(p[1]) * (i + 1) for i, p in enumerate(hull))]


def barneshut(n):
    bodies = []
    for i in range(n):
        a = (i * 7919 + 13) & 1048575
        b = a ^ (a >> 10)
        v = (b * 40503) & 1048575
        bodies.append(((v & 1023) / 1024.0, (v >> 10) / 1024.0, float(1 + hash32(i) % 4)))
    tree = []

    def build(bs, x0, y0, w):
        mt = sum(m for _, _, m in bs)
        cx = sum(m * x for x, _, m in bs) / mt
        cy = sum(m * y for _, y, m in bs) / mt
        at = len(tree)
        tree.append(None)
        if len(bs) > 1:
            h = w / 2.0
            quads = [[q for q in bs if (q[0] >= x0 + h) == hx and (q[1] >= y0 + h) == hy]
                     for hx in (False, True) for hy in (False, True)]
            corners = [(x0, y0), (x0, y0 + h), (x0 + h, y0), (x0 + h, y0 + h)]
            for q, (qx, qy) in zip(quads, corners):
                if q:
                    build(q, qx, qy, h)
        tree[at] = (mt, cx, cy, w, len(tree) - at)

    build(bodies, 0.0, 0.0, 1.0)
    mags, cnts = [], 0
    for x, y, _ in bodies:
        i, ax, ay = 0, 0.0, 0.0
        while i < len(tree):
            nm, cx, cy, w, size = tree[i]
            dx, dy = cx - x, cy - y
            d2 = dx * dx + dy * dy
            if size == 1 or w * w < 0.25 * d2:
                r2 = d2 + 1.0e-3
                s = nm / (r2 * math.sqrt(r2))
                ax, ay = ax + s * dx, ay + s * dy
                cnts += 1
                i += size
            else:
                i += 1
        mags.append(math.sqrt(ax * ax + ay * ay))
    return [math.fsum(mags), cnts]


# ---- micro-benchmarks ---------------------------------------------------------
def micro_map(n):
    ys = [3 * x + 1 for x in ints16(n)]
    return [n, weighted(ys)]


def micro_reduce(n):
    return [wsum(ints16(n))]


def micro_scan(n):
    ys, acc = [], 0
    for x in ints16(n):
        ys.append(wrap(acc))
        acc += x
    return [n, ys[-1], wsum(ys)]


def micro_filter(n):
    ys = [x for x in ints16(n) if x > 0]
    return [len(ys), weighted(ys)]


def micro_permute(n):
    xs = ints16(n)
    ys = [0] * n
    for i, x in enumerate(xs):
        ys[(i * 1640531527 + 12345) & (n - 1)] = x
    return [n, weighted(ys)]


def segments(n, seg):
    lens = [1 + rem(hash32(i + 99991), 2 * seg - 1) for i in range(n // seg)]
    xs = ints16(sum(lens))
    out, at = [], 0
    for length in lens:
        out.append(xs[at:at + length])
        at += length
    return out


def micro_segreduce(n, seg):
    sums = [wsum(s) for s in segments(n, seg)]
    return [len(sums), weighted(sums)]


def micro_segscan(n, seg):
    segs = segments(n, seg)
    total = 0
    for s in segs:
        acc, scan = 0, []
        for x in s:
            scan.append(acc)
            acc += x
        total += weighted(scan)
    return [len(segs), wrap(total)]


def main():
    name, args = sys.argv[1], [int(a) for a in sys.argv[2:]]
    print(" ".join(repr(v) for v in globals()[name](*args)))


if __name__ == "__main__":
    main()
