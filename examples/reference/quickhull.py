import sys, os, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

def cr(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

def hull_cw(points):
    """Independent: Andrew's monotone chain (strict hull vertices, collinear
    points dropped), then clockwise from the first point of minimal x."""
    pts = sorted(set(points))
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cr(lower[-2], lower[-1], p) <= 0: lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cr(upper[-2], upper[-1], p) <= 0: upper.pop()
        upper.append(p)
    ccw = lower[:-1] + upper[:-1]
    cw = ccw[::-1]
    minx = min(p[0] for p in points)
    a = next(p for p in points if p[0] == minx)
    k = cw.index(a)
    return cw[k:] + cw[:k]

# simulation of the NESL program itself, as a cross-check
def side(p, a, b):
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
def hsplit(points, a, b):
    s = [side(p, a, b) for p in points]
    out = [p for p, v in zip(points, s) if v > 0]
    if not out: return [a]
    far = points[s.index(max(s))]
    return hsplit(out, a, far) + hsplit(out, far, b)
def quickhull(points):
    xs = [p[0] for p in points]
    a = points[xs.index(min(xs))]; b = points[xs.index(max(xs))]
    return hsplit(points, a, b) + hsplit(points, b, a)
def H(points):
    h = hull_cw(points)
    assert h == quickhull(points), (h, quickhull(points))
    return h

P = '(float, float)'
fn('side', '(%s, %s, float, float) -> float' % (P, P))
fn('hsplit', '([%s], %s, float, float) -> [%s]' % (P, P, P))
fn('quickhull', '[%s] -> [%s]' % (P, P))
fn('is_hull', '([%s], [%s]) -> bool' % (P, P))
it(H([(0.0, 0.0), (2.0, 0.0), (1.0, 1.0), (1.0, 3.0), (0.0, 2.0), (2.0, 2.0), (1.0, -1.0)]), '[%s]' % P)
circle = [(float(safe_round(200.0 + 100.0 * math.cos(2.0 * math.pi * k / 12.0))),
           float(safe_round(200.0 + 100.0 * math.sin(2.0 * math.pi * k / 12.0)))) for k in range(12)]
val('circle', circle, '[%s]' % P)
pts = circle + [(200.0 + k, 190.0 + 2 * k) for k in range(20)]
h = H(pts)
assert sorted(h) == sorted(circle)
it(h, '[%s]' % P)
fn('make_points', 'int -> [%s]' % P)
assert 9973 * 5000 < 2**31
raw = [(float((i * 7919 + 13) % 1001 - 500), float((i * 9973 + 7) % 997 - 498)) for i in range(5000)]
pts = [(x, y) for x, y in raw if x * x + y * y < 250000.0]
h = H(pts)
it((len(pts), len(h), True, h[:3]), 'int, int, bool, [%s]' % P)
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'quickhull.expected'))
