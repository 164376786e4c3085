import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *
from fractions import Fraction as Fr

fn('dot', '([int], [int]) -> int')
fn('fdot', '([float], [float]) -> float')
fn('muladd', '([float], [float], [float]) -> [float]')
fn('gen', '(int, int, int, int) -> [int]')
fn('fgen', '(int, int, int, int) -> [float]')
n = 100000
val('n', n, 'int')

def gen(n, a, b, m):
    assert a * (n - 1) + b < 2**31
    return [(i * a + b) % m for i in range(n)]

def fgen(n, a, b, m):
    return [(x - m // 2) * 0.25 for x in gen(n, a, b, m)]

def exact_sum(xs):
    s = sum(Fr(x) for x in xs)
    f = float(s)
    assert Fr(f) == s           # exactly representable, so order does not matter
    return f

it(1*4 + 2*5 + 3*6, 'int')
it(exact_sum([1.5*2.0, -2.0*0.5, 0.25*4.0]), 'float')
it([1.0*0.5+10.0, 2.0*0.25+20.0, 3.0*2.0+30.0], '[float]')
d = sum(x * y for x, y in zip(gen(n, 7919, 13, 101), gen(n, 9973, 7, 97))); assert d < 2**31
it(d, 'int')
val('fa', fgen(10, 7919, 13, 41), '[float]')
a = fgen(n, 7919, 13, 41); b = fgen(n, 9973, 7, 37)
it(exact_sum([x * y for x, y in zip(a, b)]), 'float')
ma = [x * y + z for x, y, z in zip(a, b, a)]
it((ma[:6], exact_sum(ma), True), '[float], float, bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'dotproduct.expected'))
