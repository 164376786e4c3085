import sys, os, math, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

fn('mean', '[float] -> float')
fn('linefit', '([float], [float]) -> (float, float, float)')
fn('make_data', 'int -> ([float], [float])')

def make_data(n):
    x = [float(i) for i in range(n)]
    y = [1.25 + 2.5 * xi + ((i * 7919 + 13) % 17 - 8) * 0.125 for i, xi in enumerate(x)]
    return x, y

def linefit(x, y, S):
    n = float(len(x))
    xm = S(x) / n
    ym = S(y) / n
    sxx = S([(xi - xm) * (xi - xm) for xi in x])
    sxy = S([(xi - xm) * (yi - ym) for xi, yi in zip(x, y)])
    b = sxy / sxx
    a = ym - b * xm
    chi2 = S([((yi - a) - b * xi) ** 2 for xi, yi in zip(x, y)])
    sigb = math.sqrt(chi2 / (n - 2.0) / sxx)
    return a, b, sigb

SUMS = sum_orders(lambda v: 1)

r = {linefit([0.0, 1.0, 2.0, 3.0], [1.0, 3.0, 5.0, 7.0], S) for S in SUMS}
assert len(r) == 1
it(r.pop(), 'float, float, float')

x, y = make_data(5)
val('(x, y)', (x, y), '[float], [float]')

x, y = make_data(1000)
outs = set()
for S in SUMS:
    a, b, sigb = linefit(x, y, S)
    outs.add((safe_round(a * 1000.0), safe_round(b * 1000000.0), safe_round(sigb * 1.0e7),
              abs(a - 1.25) < 0.2 and abs(b - 2.5) < 0.001))
    print(a, b, sigb, file=sys.stderr)
assert len(outs) == 1
it(outs.pop(), 'int, int, int, bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'linefit.expected'))
