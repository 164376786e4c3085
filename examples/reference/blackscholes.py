import sys, os, math
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from neslfmt import *

def cnd(x):
    pi = 3.14159265358979
    l = abs(x)
    k = 1.0 / (1.0 + 0.2316419 * l)
    p = (0.31938153 * k - 0.356563782 * k**2 + 1.781477937 * k**3
         - 1.821255978 * k**4 + 1.330274429 * k**5)
    w = 1.0 - 1.0 / math.sqrt(2.0 * pi) * math.exp(-l * l / 2.0) * p
    return 1.0 - w if x < 0.0 else w

def bs(is_call, s, k, t, r, v):
    d1 = (math.log(s / k) + (r + v * v / 2.0) * t) / (v * math.sqrt(t))
    d2 = d1 - v * math.sqrt(t)
    if is_call:
        return s * cnd(d1) - k * math.exp(-r * t) * cnd(d2)
    return k * math.exp(-r * t) * cnd(-d2) - s * cnd(-d1)

# independent sanity check of the approximation against erf (error < 1e-7)
for x in [-3.0, -1.0, 0.0, 0.5, 2.0]:
    assert abs(cnd(x) - 0.5 * (1 + math.erf(x / math.sqrt(2)))) < 1e-7

def cents(x):
    return safe_round(x * 10000.0)

def inputs(n):
    return ([100.0 + 2.5 * i for i in range(n)],
            [90.0 + 1.25 * ((i * 7) % n) for i in range(n)],
            [0.25 + 0.125 * (i % 5) for i in range(n)],
            [0.01 + 0.005 * (i % 3) for i in range(n)],
            [0.15 + 0.05 * (i % 4) for i in range(n)])

def price_all(is_call, n):
    return [bs(is_call, *o) for o in zip(*inputs(n))]

def parity(n):
    S, K, T, R, V = inputs(n)
    worst = max(abs(c - p - (s - k * math.exp(-r * t)))
                for c, p, s, k, t, r in zip(price_all(True, n), price_all(False, n), S, K, T, R))
    assert worst < 1e-11, worst
    return True

fn('cnd', 'float -> float')
fn('black_scholes', '(bool, float, float, float, float, float) -> float')
fn('cents', 'float -> int')
fn('price_all', '(bool, int) -> [float]')
fn('parity_ok', 'int -> bool')
it(cents(cnd(0.0)), 'int')
it(cents(cnd(1.0)), 'int')
it(cents(cnd(-1.5)), 'int')
it(cents(bs(True, 100.0, 100.0, 1.0, 0.05, 0.2)), 'int')
it(cents(bs(False, 100.0, 100.0, 1.0, 0.05, 0.2)), 'int')
it([cents(c) for c in price_all(True, 16)], '[int]')
it([cents(c) for c in price_all(False, 16)], '[int]')
it(parity(16), 'bool')
it(parity(1000), 'bool')
emit(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'blackscholes.expected'))
