import sys, os, math, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *
from fractions import Fraction as Fr

def tdiv(a, b):  # NESL int division truncates toward zero
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q

fn('norm2', '[int] -> ([int], [int])')
fn('norm2f', '[float] -> ([float], [float])')
xs = [3.0, -2.5, 10.0, -5.5, 3.0]
s1 = sum(xs); s2 = sum(x for x in xs if x > 0)
assert (s1, s2) == (8.0, 16.0)
r = ([x / s1 for x in xs], [x / s2 for x in xs])
for v in r[0] + r[1]:
    assert Fr(v) * 16 * 8 == Fr(int(v * 128))   # exact dyadic quotients
it(r, '[float], [float]')
xs = [50, -700, 30, 20, 250, -45]
s1 = sum(xs); s2 = sum(x for x in xs if x > 0)
it(([tdiv(x, s1) for x in xs], [tdiv(x, s2) for x in xs]), '[int], [int]')

n = 100000
xs = [((i * 7919 + 13) % 201 - 90) * 0.5 for i in range(n)]
s1 = Fr(sum(Fr(x) for x in xs)); s2 = sum(Fr(x) for x in xs if x > 0)
assert float(s1) == s1 and float(s2) == s2      # sums exact in any order
s1 = float(s1); s2 = float(s2)
r1 = [x / s1 for x in xs]; r2 = [x / s2 for x in xs]
print(s1, s2, file=sys.stderr)
# sums of the quotients in several orders: all well within the tolerance
for S in [lambda v: sum(v), lambda v: sum(v[::-1]), math.fsum]:
    e1 = abs(S(r1) - 1.0); e2 = abs(S([x for x in r2 if x > 0.0]) - 1.0)
    print(e1, e2, file=sys.stderr)
    assert e1 < 1e-11 and e2 < 1e-11
it((n, True, True, safe_round(r1[1] * 1.0e9), safe_round(r2[1] * 1.0e9)), 'int, bool, bool, int, int')
print(r1[1] * 1e9, r2[1] * 1e9, file=sys.stderr)
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'norm2.expected'))
