import sys, os, math, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *
from fractions import Fraction as Fr

THETA2 = 0.25
EPS2 = 1.0e-3
MARGIN = []   # relative margins of the opening decisions


def esum(v):
    s = sum(Fr(x) for x in v)
    assert float(s) == s          # exact, so independent of summation order
    return float(s)


def build(bs, x0, y0, w):
    mt = esum([m for x, y, m in bs])
    cx = esum([m * x for x, y, m in bs]) / mt
    cy = esum([m * y for x, y, m in bs]) / mt
    if len(bs) == 1:
        return [(mt, cx, cy, w, 1)]
    h = w / 2.0
    left = [b for b in bs if not b[0] >= x0 + h]; right = [b for b in bs if b[0] >= x0 + h]
    quads = []
    for half in (left, right):
        quads.append([b for b in half if not b[1] >= y0 + h])
        quads.append([b for b in half if b[1] >= y0 + h])
    corners = [(x0, y0), (x0, y0 + h), (x0 + h, y0), (x0 + h, y0 + h)]
    kids = [build(q, qx, qy, h) for q, (qx, qy) in zip(quads, corners) if len(q) > 0]
    return [(mt, cx, cy, w, 1 + sum(len(k) for k in kids))] + [n for k in kids for n in k]


def walk(b, tree):
    x, y, m = b
    i, ax, ay, cnt = 0, 0.0, 0.0, 0
    while i < len(tree):
        nm, cx, cy, w, size = tree[i]
        dx = cx - x; dy = cy - y
        d2 = dx * dx + dy * dy
        if size != 1:
            MARGIN.append(abs(w * w - THETA2 * d2) / (w * w))
        if size == 1 or w * w < THETA2 * d2:
            r2 = d2 + EPS2
            s = nm / (r2 * math.sqrt(r2))
            ax = ax + s * dx; ay = ay + s * dy; cnt += 1
            i += size
        else:
            i += 1
    return ax, ay, cnt


def direct(bs):
    out = []
    for x, y, m in bs:
        ax = ay = 0.0
        for qx, qy, qm in bs:
            dx = qx - x; dy = qy - y
            r2 = dx * dx + dy * dy + EPS2
            s = qm / (r2 * math.sqrt(r2))
            ax += s * dx; ay += s * dy
        out.append((ax, ay))
    return out


def make_bodies(n):
    out = []
    for i in range(n):
        v = (i * 7919 + 13) % 4096
        out.append(((v % 64) / 64.0, (v // 64) / 64.0, float(1 + i % 4)))
    assert len(set((x, y) for x, y, m in out)) == n
    return out


fn('body', '(float, float, float) -> body')
fn('node', '(float, float, float, float, int) -> node')
val('theta2', THETA2, 'float')
val('eps2', EPS2, 'float')
fn('build', '([body], float, float, float) -> [node]')
fn('walk', '(body, [node], int, float, float, int) -> (float, float, int)')
fn('bh_accel', '[body] -> [(float, float, int)]')
fn('direct_accel', '[body] -> [(float, float)]')
fn('make_bodies', 'int -> [body]')

t = build([(0.25, 0.25, 1.0), (0.75, 0.25, 2.0), (0.75, 0.75, 1.0)], 0.0, 0.0, 1.0)
it([Dt('node', n) for n in t], '[node]')

bs = make_bodies(300)
tree = build(bs, 0.0, 0.0, 1.0)
bh = [walk(b, tree) for b in bs]
dr = direct(bs)
errs = [math.hypot(a[0] - d[0], a[1] - d[1]) / math.hypot(d[0], d[1]) for a, d in zip(bh, dr)]
print('max rel err', max(errs), 'min opening margin', min(MARGIN), file=sys.stderr)
assert min(MARGIN) > 1e-9
mags = [math.sqrt(ax * ax + ay * ay) for ax, ay, c in bh[:4]]
print(mags, file=sys.stderr)
agg = sum(math.hypot(a[0] - d[0], a[1] - d[1]) for a, d in zip(bh, dr)) / sum(math.hypot(*d) for d in dr)
assert min(abs(e - 0.05) for e in errs) > 1e-6 and abs(agg - 0.02) > 1e-3
print('aggregate', agg, file=sys.stderr)
it((len(tree), Dt('node', tree[0]), [(safe_round(mg), c) for mg, (ax, ay, c) in zip(mags, bh)],
    sum(c for ax, ay, c in bh), sum(e < 0.05 for e in errs), agg < 0.02),
   'int, node, [(int, int)], int, int, bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'barneshut.expected'))
