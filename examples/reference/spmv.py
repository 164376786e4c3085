import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *
from fractions import Fraction as Fr

fn('spmv', '([[(int, float)]], [float]) -> [float]')
fn('spmv_nested', '([[(int, float)]], [float]) -> [float]')
fn('make_matrix', 'int -> [[(int, float)]]')
fn('make_vector', 'int -> [float]')
small = [[(0, 2.0), (2, 1.0)], [], [(1, -1.5), (0, 0.5), (2, 4.0)]]
val('small', small, '[[(int, float)]]')

def exact_sum(xs):
    s = sum(Fr(x) for x in xs)
    f = float(s)
    assert Fr(f) == s
    return f

def mv(m, x):
    return [exact_sum([v * x[c] for c, v in row]) for row in m]

it(mv(small, [1.0, 2.0, 3.0]), '[float]')
n = 1000
val('n', n, 'int')
m = [[((i * 31 + j * 17 + 5) % n, ((i + 3 * j) % 9 - 4) * 0.5) for j in range(1 + (i * 37) % 7)]
     for i in range(n)]
x = [((j * 13) % 10) * 0.25 for j in range(n)]
y = mv(m, x)
it((sum(len(r) for r in m), y[:8], exact_sum(y), True), 'int, [float], float, bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'spmv.expected'))
