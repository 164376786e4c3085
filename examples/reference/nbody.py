import sys, os, math, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

EPS2 = 0.5625

SUMS = sum_orders(lambda v: len(v))

def accel(p, ps, ms, S):
    c = []
    for q, m in zip(ps, ms):
        dx, dy, dz = q[0] - p[0], q[1] - p[1], q[2] - p[2]
        r2 = dx * dx + dy * dy + dz * dz + EPS2
        s = m / (r2 * math.sqrt(r2))
        c.append((s * dx, s * dy, s * dz))
    return tuple(S([e[k] for e in c]) for k in range(3))

def step(ps, vs, ms, dt, S):
    acc = [accel(p, ps, ms, S) for p in ps]
    vs2 = [tuple(v[k] + dt * a[k] for k in range(3)) for v, a in zip(vs, acc)]
    ps2 = [tuple(p[k] + dt * v[k] for k in range(3)) for p, v in zip(ps, vs2)]
    return ps2, vs2

def init(n):
    ps = [(1.0 + 0.0625 * ((i * 7919 + 13) % 97), 1.0 + 0.0625 * ((i * 9973 + 5) % 89),
           1.0 + 0.0625 * ((i * 31 + 7) % 83)) for i in range(n)]
    vs = []
    for i in range(n):
        j = i // 2; sg = float(1 - 2 * (i % 2))
        vs.append((sg * 0.03125 * ((j * 5) % 7 - 3), sg * 0.03125 * ((j * 3) % 5 - 2),
                   sg * 0.015625 * (j % 4 - 1)))
    ms = [1.0 + 0.5 * ((i // 2) % 3) for i in range(n)]
    return ps, vs, ms

def momentum(vs, ms, S):
    return tuple(S([m * v[k] for v, m in zip(vs, ms)]) for k in range(3))

def centre(ps, ms, S):
    mt = S(ms)
    return tuple(S([m * p[k] for p, m in zip(ps, ms)]) / mt for k in range(3))

T3 = '(float, float, float)'
val('eps2', EPS2, 'float')
fn('vsub', '(%s, float, float, float) -> %s' % (T3, T3))
fn('accel', '(%s, [%s], [float]) -> %s' % (T3, T3, T3))
fn('step', '([%s], [%s], [float], float) -> ([%s], [%s])' % (T3, T3, T3, T3))
fn('simulate', '([%s], [%s], [float], float, int) -> ([%s], [%s])' % (T3, T3, T3, T3))
fn('momentum', '([%s], [float]) -> %s' % (T3, T3))
fn('centre', '([%s], [float]) -> %s' % (T3, T3))
fn('fix4', '%s -> (int, int, int)' % T3)
fn('init', 'int -> ([%s], [%s], [float])' % (T3, T3))

r = {accel((0.0, 0.0, 0.0), [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], [3.0, 2.0], S) for S in SUMS}
assert len(r) == 1
it(r.pop(), 'float, float, float')
ps, vs, ms = init(24)
r = {momentum(vs, ms, S) for S in SUMS}
assert r == {(0.0, 0.0, 0.0)}, r
it(((0.0, 0.0, 0.0), ms[:4], vs[:2]), '(float, float, float), [float], [%s]' % T3)

outs = set()
for S in SUMS:
    ps0, vs0, ms = init(24)
    ps, vs = ps0, vs0
    for _ in range(6):
        ps, vs = step(ps, vs, ms, 0.015625, S)
    P = momentum(vs, ms, S)
    C = centre(ps, ms, S); C0 = centre(ps0, ms, S)
    print(P, [C[k] - C0[k] for k in range(3)], file=sys.stderr)
    ke = S([0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) for v, m in zip(vs, ms)])
    print(ps[:3], ke * 10000, file=sys.stderr)
    outs.add((tuple(tuple(safe_round(x * 10000.0) for x in p) for p in ps[:2]),
              sum(abs(x) for x in P) < 1e-9,
              sum(abs(C[k] - C0[k]) for k in range(3)) < 1e-9,
              safe_round(10000.0 * ke)))
assert len(outs) == 1, outs
o = outs.pop()
it(([tuple(p) for p in o[0]], o[1], o[2], o[3]), '[(int, int, int)], bool, bool, int')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'nbody.expected'))
